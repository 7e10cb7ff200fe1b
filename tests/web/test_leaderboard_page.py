"""The leaderboard page (`bot.web.leaderboard`) of a server whose pages are on, over mesas really played and
rated; the opt-in through ``/cuarenta settings web:``; the 404 of a server whose pages are off."""

from __future__ import annotations

import re

from bot.web.context import NOT_FOUND_BODY
from tests.web.conftest import BASE_URL, get, link_urls, no_user_ids, play_rated_mesa, turn_on


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
    assert no_user_ids(world, html)

    await turn_on(world, False)
    assert await get(world.bot, f"/s/{world.guild.id}/leaderboard") == (404, NOT_FOUND_BODY)


async def test_the_root_of_a_server_leads_to_its_leaderboard(world):
    await turn_on(world)
    status, _ = await get(world.bot, f"/s/{world.guild.id}")
    assert status == 302
    status, html = await get(world.bot, f"/s/{world.guild.id}/leaderboard")
    assert status == 200 and "Quito Club" in html


async def test_the_leaderboard_command_links_the_page_only_when_the_server_has_one(world):
    await play_rated_mesa(world)
    shown = await world.ana.slash(world.channel, "cuarenta leaderboard", mode="1v1")
    assert link_urls(shown.response) == []
    await turn_on(world)
    shown = await world.ana.slash(world.channel, "cuarenta leaderboard", mode="1v1")
    assert link_urls(shown.response) == [f"{BASE_URL}/s/{world.guild.id}/leaderboard?mode=1v1"]
    status, _ = await get(world.bot, link_urls(shown.response)[0].removeprefix(BASE_URL))
    assert status == 200


async def test_without_web_base_url_the_settings_say_so_and_no_link_is_posted(world):
    world.bot.web_links.base_url = ""
    await play_rated_mesa(world)
    text = await turn_on(world)
    assert "WEB_BASE_URL" in text
    shown = await world.ana.slash(world.channel, "cuarenta leaderboard", mode="1v1")
    assert link_urls(shown.response) == []
    status, _ = await get(world.bot, f"/s/{world.guild.id}/leaderboard")
    assert status == 200, "the pages are served all the same"


async def test_pages_speak_the_servers_language_and_run_no_script(world):
    table_id = await play_rated_mesa(world)
    await turn_on(world)
    expected = {"es": ("es", "Clasificación 1v1", "Jugada 1 de"), "en": ("en", "Leaderboard 1v1", "Play 1 of"),
                "pt": ("pt-BR", "Ranking 1v1", "Jogada 1 de")}
    for lang, (html_lang, board_title, replay_footer) in expected.items():
        await world.bot.tables.set_public_language(world.guild.id, lang)
        _, board = await get(world.bot, f"/s/{world.guild.id}/leaderboard?mode=1v1")
        _, replay = await get(world.bot, f"/s/{world.guild.id}/mesas/{table_id}")
        assert f'<html lang="{html_lang}">' in board and board_title in board, lang
        assert replay_footer in replay, lang
        for html in (board, replay):
            assert "<script" not in html.lower()
