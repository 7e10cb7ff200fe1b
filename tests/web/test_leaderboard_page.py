"""The leaderboard page (`bot.web.leaderboard`) of a server whose pages are on, over mesas really played and
rated; the opt-in through ``/cuarenta settings web:``; the 404 of a server whose pages are off."""

from __future__ import annotations

import re

from bot.web.context import NOT_FOUND_BODY
from tests.support.helpers import play_to_end, start_1v1
from tests.web.conftest import BASE_URL, get


async def turn_on(world, on: bool = True) -> str:
    """eva (Manage Server) sets ``web:`` in /cuarenta settings; returns the answer's text."""
    shown = await world.eva.slash(world.channel, "cuarenta settings", web=on)
    embed = shown.response.embeds[0]
    return "\n".join(f"{f.name}: {f.value}" for f in embed.fields)


async def play_rated_mesa(world) -> int:
    """ana and beto play a whole rated 1 v 1; returns the table id."""
    table = await start_1v1(world)
    await play_to_end(world, table.id, {world.ana.id: world.ana, world.beto.id: world.beto})
    await world.env.settle()
    return table.id


async def test_a_server_that_has_not_opted_in_answers_404_on_every_url(world):
    await play_rated_mesa(world)
    guild = world.guild.id
    for path in (f"/s/{guild}", f"/s/{guild}/", f"/s/{guild}/leaderboard", f"/s/{guild}/leaderboard?mode=1v1",
                 "/s/123/leaderboard", "/s/abc/leaderboard", f"/s/{guild}/nothing"):
        assert await get(world.bot, path) == (404, NOT_FOUND_BODY), path


async def test_the_leaderboard_page_shows_the_bots_own_figures_once_the_server_opts_in(world):
    await play_rated_mesa(world)
    text = await turn_on(world)
    assert f"{BASE_URL}/s/{world.guild.id}/leaderboard" in text, "the settings show where the pages are"

    status, html = await get(world.bot, f"/s/{world.guild.id}/leaderboard?mode=1v1")
    assert status == 200
    board = await world.bot.tables.ratings.leaderboard(world.guild.id, "1v1")
    assert len(board.rows) == 2
    shown = re.findall(r'<a href="/s/\d+/players/(\d+)">([^<]+)</a></td>\s*<td class="num">(\d+)\??</td>', html)
    assert [(name, int(rating)) for _, name, rating in shown] == \
        [({world.ana.id: "ana", world.beto.id: "beto"}[r.user_id], r.rating) for r in board.rows]
    assert html.count("🌱") >= 2, "both are provisional (fewer rated chicas than the minimum)"
    for user in (world.ana, world.beto, world.eva):
        assert str(user.id) not in html, "no user id on a page"

    await turn_on(world, False)
    assert await get(world.bot, f"/s/{world.guild.id}/leaderboard") == (404, NOT_FOUND_BODY)


async def test_the_root_of_a_server_leads_to_its_leaderboard(world):
    await turn_on(world)
    status, _ = await get(world.bot, f"/s/{world.guild.id}")
    assert status == 302
    status, html = await get(world.bot, f"/s/{world.guild.id}/leaderboard")
    assert status == 200 and "Quito Club" in html
