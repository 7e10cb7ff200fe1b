"""A player's profile page (`bot.web.players`): the bot's own figures (`Ratings.stats`, `Ratings.history`),
the rating chart, the recent mesas linking their replays, the profile link of ``/cuarenta stats`` and
``/cuarenta history``; 404 for another server's player, a forged number and a server whose pages are off."""

from __future__ import annotations

import re

from bot.i18n import t
from bot.web.context import NOT_FOUND_BODY
from bot.web.data import player_numbers, set_web_pages
from tests.web.conftest import (
    BASE_URL,
    get,
    link_urls,
    no_user_ids,
    play_rated_mesa,
    player_hrefs,
    turn_on,
)


def stat(html: str, label: str) -> str:
    """The value shown under the label ``label`` of a stats box."""
    found = re.search(rf"<dt>{re.escape(label)}</dt><dd>([^<]*)</dd>", html)
    assert found is not None, label
    return found[1]


async def test_the_profile_shows_the_bots_own_record(world):
    table_id = await play_rated_mesa(world)
    await turn_on(world)
    _, board = await get(world.bot, f"/s/{world.guild.id}/leaderboard?mode=1v1")
    status, html = await get(world.bot, player_hrefs(board)["ana"])
    assert status == 200

    stats = await world.bot.tables.ratings.stats(world.guild.id, world.ana.id)
    assert stats.chicas >= 2
    assert "<h1>ana</h1>" in html
    assert t("stats.summary", "es", mesas=stats.mesas, mesas_won=stats.mesas_won, chicas=stats.chicas,
             chicas_won=stats.chicas_won, pct=f"{round(100 * stats.chicas_won / stats.chicas)}%") in html
    one = stats.modes["1v1"]
    assert stat(html, "Calificación") == f"{one.rating}{'?' if one.provisional else ''}"
    assert stat(html, "Chicas ganadas") == f"{one.chicas_won} / {one.chicas}"
    assert stat(html, "Chicas calificadas") == str(one.rated_chicas)
    assert (stat(html, "Caídas"), stat(html, "Limpias"), stat(html, "Rondas"), stat(html, "Dobles rondas")) == \
        (str(stats.caidas), str(stats.limpias), str(stats.rondas), str(stats.doble_rondas))

    chart = re.search(r'<polyline points="([^"]+)"', html)
    assert chart is not None and len(chart[1].split()) == one.rated_chicas, "a point per rated chica"
    assert f'href="/s/{world.guild.id}/mesas/{table_id}"' in html, "the mesa links its replay"
    assert "contra beto" in html
    assert no_user_ids(world, html)


async def test_stats_and_history_link_the_profile_when_the_server_has_pages(world):
    await play_rated_mesa(world)
    shown = await world.ana.slash(world.channel, "cuarenta stats")
    assert link_urls(shown.response) == []
    await turn_on(world)
    number = (await player_numbers(world.bot.store.db, world.guild.id, [world.ana.id]))[world.ana.id]
    profile = f"{BASE_URL}/s/{world.guild.id}/players/{number}"
    shown = await world.ana.slash(world.channel, "cuarenta stats")
    assert link_urls(shown.response) == [profile]
    shown = await world.ana.slash(world.channel, "cuarenta history")
    assert link_urls(shown.response) == [profile]
    shown = await world.caro.slash(world.channel, "cuarenta stats")
    assert link_urls(shown.response) == [], "no page for someone who never played here"


async def test_another_servers_player_and_a_forged_number_are_404(world):
    await play_rated_mesa(world)
    await turn_on(world)
    number = (await player_numbers(world.bot.store.db, world.guild.id, [world.ana.id]))[world.ana.id]
    assert (await get(world.bot, f"/s/{world.guild.id}/players/{number}"))[0] == 200

    other = world.env.create_guild("Cuenca Club")
    await set_web_pages(world.bot.store.db, other.id, True)
    for path in (f"/s/{other.id}/players/{number}", f"/s/{world.guild.id}/players/{number + 2}",
                 f"/s/{world.guild.id}/players/{number // 4 * 4 + 3}", f"/s/{world.guild.id}/players/x1",
                 f"/s/{world.guild.id}/players/{10**30}"):
        assert await get(world.bot, path) == (404, NOT_FOUND_BODY), path

    await turn_on(world, False)
    assert await get(world.bot, f"/s/{world.guild.id}/players/{number}") == (404, NOT_FOUND_BODY)
