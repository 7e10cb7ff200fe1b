"""The league and tournament pages (`bot.web.competitions`) over competitions run through the bot (results
entered by the organizer with their scores): the figures equal the bot's own (the league's computed table,
the tournament's matches), the tiebreakers spelled out, only display names; the 404 of an opted-out server,
another server's or a cancelled competition; and the links the bot posts once the server has pages."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

from bot.competitions.league_repo import Fixture, League, Side, league_table
from bot.competitions.standings import Points, head_to_head
from bot.competitions.tournament_model import swiss_table
from bot.i18n import t
from bot.web.competitions import league_rows
from bot.web.context import NOT_FOUND_BODY
from tests.web.conftest import BASE_URL, get, link_urls, no_user_ids, turn_on

SVG = "{http://www.w3.org/2000/svg}"
RESULTS = [("win", 2, 1), ("loss", 0, 2), ("win", 2, 0), ("win", 2, 1), ("loss", 1, 2), ("win", 2, 1)]
"""The organizer's results, fixture after fixture: the first side's outcome and chicas (theirs, the other's)."""


def members(world):
    return {m.id: m for m in (world.ana, world.beto, world.caro, world.dani)}


async def finished_league(world) -> League:
    """eva's 4-player league (3 rounds), every fixture's result entered by her with its chicas."""
    await world.eva.slash(world.channel, "cuarenta league create", name="Liga de Quito", rules="rapido")
    for member in members(world).values():
        await member.slash(world.channel, "cuarenta league signup")
    await world.eva.slash(world.channel, "cuarenta league close")
    league = world.bot.leagues.leagues[1]
    results = iter(RESULTS)
    while league.status == "running":
        f = next(f for f in league.fixtures if f.round == league.current_round and not f.resolved)
        outcome, mine, theirs = next(results)
        done = await world.eva.slash(world.channel, "cuarenta league result", round=f.round,
                                     player=members(world)[league.side(f.side_a).user1], outcome=outcome,
                                     reason="En el club", player_chicas=mine, opponent_chicas=theirs)
        assert done.response.content.startswith("Done:"), done.response.content
    await world.env.settle()
    assert league.status == "finished"
    return league


def page_rows(html: str) -> list[tuple[int, str, int, int, str, int, int]]:
    """The league page's standings: rank, name, points, played, W–L, ± chicas, ± tantos."""
    out = []
    for rank, body in re.findall(r'<tr data-rank="(\d+)"[^>]*>(.*?)</tr>', html, re.S):
        cells = re.findall(r"<td[^>]*>(.*?)</td>", body, re.S)
        name = re.search(r'<span class="side[^"]*">([^<]+)</span>', cells[1]).group(1)
        out.append((int(rank), name, int(cells[2]), int(cells[3]), cells[4], int(cells[5]), int(cells[6])))
    return out


async def test_a_finished_league_page_shows_the_bots_standings_rounds_and_champion(world):
    league = await finished_league(world)
    await turn_on(world)
    status, html = await get(world.bot, f"/s/{world.guild.id}/leagues/{league.id}")
    assert status == 200
    rows = world.bot.leagues.standings(league)
    assert page_rows(html) == [(r.rank, league.side(r.side).name, r.points, r.played, f"{r.won}–{r.lost}",
                                r.chica_diff, r.tantos_diff) for r in rows]
    lang = await world.bot.store.guild_language(world.guild.id) or "es"
    champion = league.side(rows[0].side).name
    assert f'class="champion">🏆 {t("bracket.champion", lang, name=champion)}<' in html
    level = [(a, b) for a, b in zip(rows, rows[1:], strict=False) if a.points == b.points]
    assert html.count('class="muted tb"') == len(level), "each tie says which tiebreaker settled it"
    assert t("web.tb.legend", lang) in html, "the tiebreakers are spelled out"
    for rnd in range(1, league.rounds + 1):
        section = html.split(f"<h2>{t('web.league_round', lang, round=rnd)}</h2>")[1].split("</ul>")[0]
        for f in (f for f in league.fixtures if f.round == rnd):
            a, b = league.side(f.side_a).name, league.side(f.side_b).name
            assert re.search(rf"{a}</span> <b class=\"score\">{f.chicas[0]}–{f.chicas[1]}</b> <span[^>]*>{b}<",
                             section), (rnd, a, b)
    assert no_user_ids(world, html)


async def test_the_competitions_list_and_a_tournament_bracket_page(world):
    await world.eva.slash(world.channel, "cuarenta tournament create", name="Copa Quito", format="elimination",
                          rules="rapido", best_of=3)
    for member in (world.ana, world.beto, world.caro):
        await member.slash(world.channel, "cuarenta tournament signup")
    await world.eva.slash(world.channel, "cuarenta tournament close")
    tour = world.bot.tournaments.tournaments[1]
    by_id = members(world)
    await turn_on(world)

    status, html = await get(world.bot, f"/s/{world.guild.id}/tournaments/{tour.id}")
    assert status == 200 and "<svg" in html, "a running tournament's bracket"
    while tour.status == "running":
        m = next(m for m in tour.matches if m.round == tour.current_round and not m.resolved)
        done = await world.eva.slash(world.channel, "cuarenta tournament result", round=m.round,
                                     player=by_id[m.a_user], outcome="win", reason="En el club", player_mesas=2,
                                     opponent_mesas=1)
        assert done.response.content.startswith("Done:"), done.response.content
    await world.env.settle()
    assert tour.status == "finished"

    status, html = await get(world.bot, f"/s/{world.guild.id}/tournaments/{tour.id}")
    assert status == 200
    svg = ET.fromstring(re.search(r"<svg.*</svg>", html, re.S).group(0))
    groups = {(int(g.get("data-round")), int(g.get("data-slot"))): g for g in svg.iter(f"{SVG}g")
              if "match" in (g.get("class") or "")}
    assert sorted(groups) == sorted((m.round, m.slot) for m in tour.matches)
    for m in tour.matches:
        g = groups[(m.round, m.slot)]
        title = g.find(f"{SVG}title").text
        assert tour.name_of(m.a_user) in title
        if m.b_user is not None:
            assert tour.name_of(m.b_user) in title
            scores = [t.text for t in g.iter(f"{SVG}text") if "score" in (t.get("class") or "")]
            assert scores == [str(m.wins_a), str(m.wins_b)] == ["2", "1"]
    champion = tour.name_of(world.bot.tournaments.champion(tour))
    lang = await world.bot.store.guild_language(world.guild.id) or "es"
    assert f"🏆 {t('bracket.champion', lang, name=champion)}" in html
    assert no_user_ids(world, html)

    status, listing = await get(world.bot, f"/s/{world.guild.id}/competitions")
    assert status == 200 and f'href="/s/{world.guild.id}/tournaments/{tour.id}">Copa Quito</a>' in listing


async def test_a_swiss_page_shows_the_services_standings(world):
    await world.eva.slash(world.channel, "cuarenta tournament create", name="Suizo", format="swiss", rounds=2,
                          rules="rapido")
    for member in (world.ana, world.beto, world.caro):
        await member.slash(world.channel, "cuarenta tournament signup")
    await world.eva.slash(world.channel, "cuarenta tournament close")
    tour = world.bot.tournaments.tournaments[1]
    m = next(m for m in tour.matches if m.b_user is not None)
    await world.eva.slash(world.channel, "cuarenta tournament walkover", player=members(world)[m.b_user])
    await turn_on(world)
    status, html = await get(world.bot, f"/s/{world.guild.id}/tournaments/{tour.id}")
    assert status == 200
    shown = re.findall(r'<tr data-rank="(\d+)"><td class="num">\d+</td><td>([^<]+)</td><td class="num pts">([^<]+)'
                       r'</td><td class="num">([^<]+)</td>', html)
    assert shown == [(str(i), tour.name_of(r.player), f"{r.points:g}", f"{r.buchholz:g}")
                     for i, r in enumerate(swiss_table(tour), start=1)]
    assert 'class="standing"' in html, "the SVG's standings too"


async def test_pages_answer_404_for_an_opted_out_server_another_servers_and_a_cancelled_competition(world):
    await world.eva.slash(world.channel, "cuarenta tournament create", name="Copa", format="elimination")
    await world.eva.slash(world.channel, "cuarenta league create", name="Liga", rules="rapido")
    guild = world.guild.id
    paths = [f"/s/{guild}/tournaments/1", f"/s/{guild}/leagues/1", f"/s/{guild}/competitions"]
    for path in paths:
        assert await get(world.bot, path) == (404, NOT_FOUND_BODY), path
    await turn_on(world)
    for path in paths:
        assert (await get(world.bot, path))[0] == 200, path
    other = await world.bot.store.db.insert(
        "INSERT INTO tournaments (guild_id, channel_id, name, format, swiss_rounds, best_of, preset, round_days,"
        " policy, organizer_id) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        guild + 1, 5, "Ajena", "elimination", 0, 1, "quito", 3, "walkover", 9)
    for path in (f"/s/{guild}/tournaments/{other}", f"/s/{guild}/tournaments/99", f"/s/{guild}/leagues/99",
                 f"/s/{guild}/leagues/x", f"/s/{guild + 1}/tournaments/{other}"):
        assert await get(world.bot, path) == (404, NOT_FOUND_BODY), path
    await world.eva.slash(world.channel, "cuarenta tournament cancel")
    assert await get(world.bot, f"/s/{guild}/tournaments/1") == (404, NOT_FOUND_BODY), "a cancelled one"
    await turn_on(world, False)
    assert await get(world.bot, f"/s/{guild}/leagues/1") == (404, NOT_FOUND_BODY)


async def test_the_view_commands_and_the_kept_messages_link_the_pages_once_the_server_has_them(world):
    await world.eva.slash(world.channel, "cuarenta league create", name="Liga", rules="rapido")
    for member in (world.ana, world.beto, world.caro):
        await member.slash(world.channel, "cuarenta league signup")
    shown = await world.ana.slash(world.channel, "cuarenta league view")
    assert link_urls(shown.response) == []
    await turn_on(world)
    shown = await world.ana.slash(world.channel, "cuarenta league view")
    assert link_urls(shown.response) == [f"{BASE_URL}/s/{world.guild.id}/leagues/1"]
    await world.eva.slash(world.channel, "cuarenta league close")
    await world.env.settle()
    assert any(f"{BASE_URL}/s/{world.guild.id}/leagues/1" in link_urls(m) for m in world.channel.history()), \
        "the standings message links the league's page"

    await world.eva.slash(world.channel, "cuarenta tournament create", name="Copa", format="elimination")
    for member in (world.ana, world.beto):
        await member.slash(world.channel, "cuarenta tournament signup")
    await world.eva.slash(world.channel, "cuarenta tournament close")
    await world.env.settle()
    url = f"{BASE_URL}/s/{world.guild.id}/tournaments/1"
    assert any(url in link_urls(m) for m in world.channel.history()), "the bracket message links its page"
    shown = await world.beto.slash(world.channel, "cuarenta tournament view")
    assert link_urls(shown.response) == [url]
    status, _ = await get(world.bot, url.removeprefix(BASE_URL))
    assert status == 200


def test_each_tie_names_the_tiebreaker_that_settled_it():
    """Four sides level on points two by two: head-to-head settles one pair, chica difference the other."""
    league = League(1, 1, 2, "L", "1v1", "quito", False, 3, 2, 0, 0, "walkover", "finished", 9,
                    sides=[Side(i, 100 + i, n) for i, n in enumerate(("ana", "beto", "caro", "dani"), start=1)])
    league.fixtures = [Fixture(1, 1, 1, 2, "done", None, 1, (2, 1)), Fixture(2, 1, 3, 4, "done", None, 3, (2, 0)),
                       Fixture(3, 2, 1, 3, "done", None, 3, (2, 1)), Fixture(4, 2, 2, 4, "done", None, 2, (2, 1)),
                       Fixture(5, 3, 1, 4, "done", None, 4, (0, 2)), Fixture(6, 3, 2, 3, "done", None, 2, (2, 1))]
    rows = league_rows(league, "en")
    table = league_table(league)
    assert [r.name for r in rows] == [league.side(r.side).name for r in table]
    assert [r.points for r in rows] == [r.points for r in table]
    h2h = head_to_head(table, Points(2, 0, 0))
    for row, next_row, mine in zip(rows, rows[1:], table, strict=False):
        if row.points != next_row.points:
            assert row.decided_by is None
        elif row.h2h != next_row.h2h:
            assert row.decided_by == "web.tb.h2h" and row.h2h == h2h[mine.side]
        else:
            assert row.decided_by in ("web.tb.chicas", "web.tb.tantos", "web.tb.signup")
    assert rows[-1].decided_by is None
    assert any(r.decided_by for r in rows), "this table has ties"
