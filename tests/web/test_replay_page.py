"""A finished mesa's replay page (`bot.web.replay`): every play reached by following ▶ from the first page,
each page showing the cards of that step and the last one the stored result; the replay command's link;
404 for a mesa in play, another server's mesa, an unknown one and a server whose pages are off."""

from __future__ import annotations

import re
from html import unescape

from bot.i18n import t
from bot.replays import load
from bot.ui.words import side_name
from bot.web.context import NOT_FOUND_BODY
from bot.web.data import set_web_pages
from tests.support.helpers import start_1v1
from tests.web.conftest import BASE_URL, get, link_urls, no_user_ids, play_rated_mesa, turn_on


def cards_of(block: str) -> list[str]:
    return re.findall(r'<span class="card(?: red)?">([^<]+)</span>', block)


async def test_every_play_is_reached_with_plain_links_and_shows_that_steps_cards(world):
    table_id = await play_rated_mesa(world)
    await turn_on(world)
    shown = await load(world.bot.store, world.guild.id, table_id)
    replay, table = shown.replay, shown.table
    path = f"/s/{world.guild.id}/mesas/{table_id}"
    seen = 0
    while path is not None:
        status, html = await get(world.bot, path)
        assert status == 200
        step = replay.steps[seen]
        assert f"Jugada {seen + 1} de {len(replay.steps)}" in html
        seats = re.findall(r'<div class="seat[^"]*">(.*?)</div>\n</div>', html, re.S)
        assert len(seats) == 2
        for seat, block in enumerate(seats):
            assert sorted(cards_of(block)) == sorted(str(c) for c in step.hands[seat]), (seen, seat)
        assert ('class="seat turn"' in html) and html.index('class="seat turn"') > 0
        if seen % 50 == 0:
            assert no_user_ids(world, html)
        nxt = re.search(r'<a href="([^"]+)" title="Jugada siguiente"', html)
        path = unescape(nxt[1]) if nxt else None
        seen += 1
    assert seen == len(replay.steps), "▶ walks through every play once"
    stored = await world.bot.store.mesa(table_id)
    last = replay.steps[-1]
    assert t("replay.score", "es", a=side_name(table, 0, "es"), sa=last.scores[0], b=side_name(table, 1, "es"),
             sb=last.scores[1], ca=stored["chicas_a"], cb=stored["chicas_b"]) in html
    assert (await get(world.bot, f"/s/{world.guild.id}/mesas/{table_id}?step=999999"))[1] == html, \
        "a step past the end shows the last one"


async def test_the_replay_command_links_its_page(world):
    table_id = await play_rated_mesa(world)
    shown = await world.ana.slash(world.channel, "cuarenta replay", mesa=table_id)
    assert link_urls(shown.response) == []
    await turn_on(world)
    shown = await world.ana.slash(world.channel, "cuarenta replay", mesa=table_id)
    assert link_urls(shown.response) == [f"{BASE_URL}/s/{world.guild.id}/mesas/{table_id}"]
    moved = await world.ana.click(shown.response, label="▶")
    assert link_urls(moved.response) == [f"{BASE_URL}/s/{world.guild.id}/mesas/{table_id}"], "kept on each step"


async def test_a_mesa_in_play_another_servers_and_an_unknown_one_are_404(world):
    finished = await play_rated_mesa(world)
    await turn_on(world)
    await start_1v1(world)
    playing = world.bot.tables.table_in_channel(world.channel.id)
    assert playing.status == "playing"
    other = world.env.create_guild("Cuenca Club")
    await set_web_pages(world.bot.store.db, other.id, True)
    for path in (f"/s/{world.guild.id}/mesas/{playing.id}", f"/s/{world.guild.id}/mesas/{playing.id}?step=3",
                 f"/s/{other.id}/mesas/{finished}", f"/s/{world.guild.id}/mesas/999",
                 f"/s/{world.guild.id}/mesas/{10**30}", f"/s/{world.guild.id}/mesas/-1"):
        assert await get(world.bot, path) == (404, NOT_FOUND_BODY), path
    assert (await get(world.bot, f"/s/{world.guild.id}/mesas/{finished}"))[0] == 200
    await turn_on(world, False)
    assert await get(world.bot, f"/s/{world.guild.id}/mesas/{finished}") == (404, NOT_FOUND_BODY)
