"""The leaderboard page in a real browser (headless Chromium), over a database filled by real mesas: for
each mode and season its rows are the bot's own (`Ratings.leaderboard`: rank, name, rating, record), the
provisional players are marked, it fits a phone's 390 px without sideways scrolling, and the server that
never turned its pages on answers 404."""

from __future__ import annotations

import pytest

from bot.ratings import MODES
from tests.support.browser import DESKTOP, PHONE
from tests.support.web_site import serve
from tests.support.web_world import GUILD, OTHER

ROWS = """[...document.querySelectorAll('table.board tbody tr')].map(tr => ({
    provisional: tr.classList.contains('provisional'),
    cells: [...tr.cells].map(td => td.innerText.trim()),
}))"""
"""The board's rows as Chromium lays them out: each row's cells' text and its provisional mark."""


@pytest.fixture
async def site(web_world):
    async with serve(web_world) as running:
        yield running


def shown(row: dict) -> tuple:
    """A page row as ``(rank or None, name, rating, uncertain, wins, losses, provisional)``."""
    rank, name, rating, record, _rate = row["cells"]
    wins, losses = record.split("–")
    return (int(rank) if rank.isdigit() else None, name, int(rating.rstrip("?")), rating.endswith("?"),
            int(wins), int(losses), row["provisional"])


async def expected(site, mode: str, season: int) -> list[tuple]:
    """The bot's own first page of ``mode`` in ``season``, as the tuples of `shown`."""
    board = await site.ratings.leaderboard(GUILD, mode, season=season)
    return [(r.rank if r.ranked else None, site.name(r.user_id), r.rating, r.provisional and r.ranked,
             r.wins, r.losses, not r.ranked) for r in board.rows]


@pytest.mark.parametrize("mode", MODES)
async def test_each_season_s_rows_are_the_bot_s_own_leaderboard(chromium, site, mode):
    for season in site.world.seasons:
        want = await expected(site, mode, season)
        assert want, f"the world has a {mode} board in season {season}"
        page = await chromium.load(site.url(GUILD, f"leaderboard?mode={mode}&season={season}"), DESKTOP,
                                   script=ROWS)
        assert page.status == 200
        assert [shown(r) for r in page.value] == want, (mode, season)


async def test_provisional_players_are_marked_and_ranked_ones_numbered(chromium, site):
    season = site.world.seasons[-1]
    board = await site.ratings.leaderboard(GUILD, "1v1", season=season)
    assert {r.ranked for r in board.rows} == {True, False}, "the world has ranked and provisional players"
    page = await chromium.load(site.url(GUILD, f"leaderboard?mode=1v1&season={season}"), PHONE, script=ROWS)
    for row, bot_row in zip(page.value, board.rows, strict=True):
        assert row["provisional"] == (not bot_row.ranked)
        assert (row["cells"][0] == "🌱") == (not bot_row.ranked)


@pytest.mark.parametrize("width", [PHONE, DESKTOP])
async def test_the_leaderboard_fits_the_width_without_sideways_scrolling(chromium, site, width):
    page = await chromium.load(site.url(GUILD, "leaderboard"), width)
    assert page.status == 200 and page.client_width == width
    assert not page.scrolls_sideways, f"{page.scroll_width} px wide at {width} px"
    assert page.png[:8] == b"\x89PNG\r\n\x1a\n"


async def test_a_server_that_never_turned_its_pages_on_answers_404(chromium, site):
    assert (await site.ratings.leaderboard(OTHER, "1v1")).rows, "that server has a leaderboard in the bot"
    for path in ("leaderboard", "leaderboard?mode=1v1", "", "leaderboard?mode=2v2&season=1"):
        page = await chromium.load(site.url(OTHER, path), PHONE)
        assert page.status == 404, path
        assert "iris" not in page.text and "juan" not in page.text


async def test_turning_the_pages_off_makes_the_leaderboard_404(chromium, site):
    from bot.web.data import set_web_pages

    assert (await chromium.load(site.url(GUILD, "leaderboard"), PHONE)).status == 200
    await set_web_pages(site.store.db, GUILD, False)
    page = await chromium.load(site.url(GUILD, "leaderboard"), PHONE)
    assert page.status == 404 and "Ana" not in page.text
