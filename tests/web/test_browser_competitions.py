"""The league and tournament pages in a real browser (headless Chromium), over leagues and tournaments
played for real: the league's standings are the table `bot.competitions.standings.table` computes from its
stored fixtures (rank, points, played, record, chica and tantos difference) with the champion, every
fixture's result is shown; the bracket's matches (SVG) are the tournament's matches with their best-of-3
scores and byes; the Swiss standings are the tournament's own (`swiss_table`); every page fits a phone's
390 px; and another server's competitions answer 404, under its URL and under this server's."""

from __future__ import annotations

import pytest

from bot.competitions.league_repo import LeagueRepo
from bot.competitions.standings import MesaResult, Points
from bot.competitions.standings import table as standings_table
from bot.competitions.tournament_model import swiss_table
from bot.competitions.tournament_repo import load_tournament
from tests.support.browser import DESKTOP, PHONE
from tests.support.web_site import serve
from tests.support.web_world import GUILD, OTHER

STANDINGS = """[...document.querySelectorAll('table.standings tbody tr')].map(
    tr => [...tr.cells].map(td => td.firstChild ? td.firstChild.textContent.trim() : ''))"""
"""Each standings row's cells, the first text of each (a name without its tiebreaker note)."""

MATCHES = """[...document.querySelectorAll('svg g.match')].map(g => ({
    round: +g.dataset.round, slot: +g.dataset.slot, status: g.classList[1],
    title: g.querySelector('title').textContent}))"""
"""The bracket's (or Swiss rounds') matches as drawn in the SVG: round, slot, status and tooltip."""


def number(text: str) -> float:
    """A figure as the page writes it (``1,5`` or ``1.5``)."""
    return float(text.replace(",", "."))


@pytest.fixture
async def site(web_world):
    async with serve(web_world) as running:
        yield running


async def test_the_league_s_standings_are_the_computed_table_and_its_results_are_all_there(chromium, site):
    league = await LeagueRepo(site.store).league_of(GUILD, site.world.league)
    assert league is not None and league.status == "finished"
    results = [MesaResult(f.side_a, f.side_b, f.winner, f.chicas, f.tantos, f.zapateria)
               for f in league.fixtures if f.resolved]
    rows = standings_table([s.side_no for s in league.sides if s.accepted], results,
                           Points(league.win_points, league.loss_points, league.zapateria_bonus))
    want = [[str(r.rank), league.side(r.side).name, str(r.points), str(r.played), f"{r.won}–{r.lost}",
             f"{r.chica_diff:+d}", f"{r.tantos_diff:+d}"] for r in rows]
    for width in (PHONE, DESKTOP):
        page = await chromium.load(site.url(GUILD, f"leagues/{league.id}"), width, script=STANDINGS)
        assert page.status == 200
        assert page.value == want, width
        assert "🏆" in page.text and league.side(rows[0].side).name in page.text.split("🏆", 1)[1].split("\n")[0]
        assert not page.scrolls_sideways, f"{page.scroll_width} px at {width}"
    assert any(f.status == "walkover" for f in league.fixtures), "the world's league has a walkover"
    fixtures = page.text
    for f in league.fixtures:
        a, b = league.side(f.side_a).name, league.side(f.side_b).name
        if f.status == "done":
            assert f"{a} {f.chicas[0]}–{f.chicas[1]} {b}" in fixtures, (a, b)
        else:
            assert f"{a} – {b}" in fixtures, (a, b, f.status)


async def test_the_bracket_is_the_tournament_s_matches_with_byes_and_best_of_3_scores(chromium, site):
    tour = await load_tournament(site.store.db, GUILD, site.world.elimination)
    assert tour is not None and tour.best_of == 3 and tour.status == "finished"
    name = {p.user_id: p.name for p in tour.players}
    assert any(m.b_user is None for m in tour.matches), "the world's bracket has byes"
    for width in (PHONE, DESKTOP):
        page = await chromium.load(site.url(GUILD, f"tournaments/{tour.id}"), width, script=MATCHES)
        assert page.status == 200
        drawn = {(m["round"], m["slot"]): m for m in page.value}
        assert set(drawn) == {(m.round, m.slot) for m in tour.matches}, "one box per match, no more"
        for m in tour.matches:
            title = drawn[(m.round, m.slot)]["title"]
            if m.b_user is None:
                assert name[m.a_user] in title, title  # a bye: its player goes through
            else:
                assert title == f"{name[m.a_user]} {m.wins_a} – {m.wins_b} {name[m.b_user]}", (m, title)
        final = max(tour.matches, key=lambda m: m.round)
        assert "🏆" in page.text and name[final.winner] in page.text.split("🏆", 1)[1].split("\n")[0]
        assert not page.scrolls_sideways, f"{page.scroll_width} px at {width}"


async def test_the_swiss_standings_and_rounds_are_the_tournament_s_own(chromium, site):
    tour = await load_tournament(site.store.db, GUILD, site.world.swiss)
    assert tour is not None and tour.format == "swiss"
    name = {p.user_id: p.name for p in tour.players}
    want = [(i, name[r.player], float(r.points), float(r.buchholz)) for i, r in enumerate(swiss_table(tour), 1)]
    for width in (PHONE, DESKTOP):
        page = await chromium.load(site.url(GUILD, f"tournaments/{tour.id}"), width,
                                   script=f"({{rows: {STANDINGS}, matches: {MATCHES}}})")
        assert page.status == 200
        assert [(int(r[0]), r[1], number(r[2]), number(r[3])) for r in page.value["rows"]] == want
        drawn = {(m["round"], m["slot"]): m["title"] for m in page.value["matches"]}
        for m in tour.matches:
            if m.b_user is not None:
                assert drawn[(m.round, m.slot)] == f"{name[m.a_user]} {m.wins_a} – {m.wins_b} {name[m.b_user]}"
        assert not page.scrolls_sideways, f"{page.scroll_width} px at {width}"


async def test_another_server_s_competitions_answer_404(chromium, site):
    world = site.world
    for guild, path in ((OTHER, f"leagues/{world.other_league}"), (OTHER, f"tournaments/{world.other_tournament}"),
                        (OTHER, "competitions"), (GUILD, f"leagues/{world.other_league}"),
                        (GUILD, f"tournaments/{world.other_tournament}"), (GUILD, "leagues/999")):
        page = await chromium.load(site.url(guild, path), PHONE)
        assert page.status == 404, (guild, path)
        assert "iris" not in page.text and "juan" not in page.text
