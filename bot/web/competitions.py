"""The competition pages: ``/s/{guild}/competitions`` (the server's open and finished leagues and
tournaments), ``/s/{guild}/leagues/{id}`` and ``/s/{guild}/tournaments/{id}``.

The figures are the bot's own, read from the store (where every result is written as it is decided):
a league's standings are `bot.competitions.league_repo.league_table` (the one the bot posts), with its
tiebreakers spelled out: head-to-head points among the sides level on points (`standings.head_to_head`),
then chica difference, then tantos difference, then sign-up order, each row saying which one ranked it
above the next side on the same points; then the fixtures and results by round, and the champion. A
tournament's page is its bracket as SVG (`bot.competitions.bracket_draw.bracket_svg`: single elimination
with byes and best-of-3 scores), or a Swiss tournament's standings and rounds, with the same layout as the
bracket picture posted in Discord.

Only a competition of the server in the URL, open (sign-up or running) or finished, is shown; a cancelled
one, another server's or an unknown id is the one 404. Names are the ones the players signed up with (as
the bot's messages show them), never an id.
"""

from __future__ import annotations

from dataclasses import dataclass

from aiohttp import web
from markupsafe import Markup

from bot.competitions.bracket import tournament_layout
from bot.competitions.bracket_draw import bracket_svg
from bot.competitions.league_repo import League, LeagueRepo, league_table
from bot.competitions.standings import Points, head_to_head
from bot.competitions.tournament_model import Tournament, champion_of, swiss_table
from bot.competitions.tournament_repo import SHOWN, competitions_of, load_tournament
from bot.i18n import t

from .context import Guild, NotFound, WebContext, scrub


def _number(request: web.Request) -> int:
    raw = request.match_info.get("id", "")
    if not (raw.isascii() and raw.isdigit()) or len(raw) > 12:
        raise NotFound()
    return int(raw)


@dataclass(frozen=True)
class StandingRow:
    """One side's line on the league page: the bot's `Row` figures, its head-to-head points (None when no
    other side has its points) and the tiebreaker that ranks it above the next side on the same points
    (an i18n key, or None)."""

    rank: int
    name: str
    removed: bool
    played: int
    won: int
    lost: int
    points: int
    chicas: str
    chica_diff: int
    tantos: str
    tantos_diff: int
    h2h: int | None
    decided_by: str | None


def league_rows(league: League, lang: str) -> list[StandingRow]:
    """The league page's standings: `league_table` row by row, with the tiebreakers spelled out."""
    rows = league_table(league)
    h2h = head_to_head(rows, Points(league.win_points, league.loss_points, league.zapateria_bonus))
    level = {r.points: sum(1 for o in rows if o.points == r.points) for r in rows}
    out = []
    for i, row in enumerate(rows):
        nxt = rows[i + 1] if i + 1 < len(rows) else None
        decided = None
        if nxt is not None and nxt.points == row.points:
            if h2h[row.side] != h2h[nxt.side]:
                decided = "web.tb.h2h"
            elif row.chica_diff != nxt.chica_diff:
                decided = "web.tb.chicas"
            elif row.tantos_diff != nxt.tantos_diff:
                decided = "web.tb.tantos"
            else:
                decided = "web.tb.signup"
        side = league.side(row.side)
        out.append(StandingRow(row.rank, scrub(side.name, lang), side.removed, row.played, row.won, row.lost,
                               row.points, f"{row.chicas_for}–{row.chicas_against}", row.chica_diff,
                               f"{row.tantos_for}–{row.tantos_against}", row.tantos_diff,
                               h2h[row.side] if level[row.points] > 1 else None, decided))
    return out


def league_rounds(league: League, lang: str) -> list[dict[str, object]]:
    """The fixtures by round: each ``{"round", "fixtures": [{a, b, status, score, winner}], "bye"}``."""

    def name(side_no: int | None) -> str:
        return scrub(league.side(side_no).name, lang) if side_no is not None else "—"

    out: list[dict[str, object]] = []
    for rnd in range(1, league.rounds + 1):
        fixtures = [{"a": name(f.side_a), "b": name(f.side_b), "status": f.status,
                     "score": f"{f.chicas[0]}–{f.chicas[1]}" if f.status == "done" else None,
                     "winner": name(f.winner) if f.winner is not None else None, "table": f.table_id}
                    for f in league.fixtures if f.round == rnd]
        bye = league.byes.get(rnd)
        out.append({"round": rnd, "fixtures": fixtures, "bye": name(bye) if bye is not None else None})
    return out


def _status(status: str, lang: str) -> str:
    return t(f"web.status.{status}", lang)


def _scrubbed(tour: Tournament, lang: str) -> Tournament:
    for p in tour.players:
        p.name = scrub(p.name, lang)
    return tour


def add_pages(router: web.UrlDispatcher, ctx: WebContext) -> None:
    """Add ``GET /s/{guild}/competitions``, ``/s/{guild}/leagues/{id}`` and ``/s/{guild}/tournaments/{id}``."""

    async def competitions(request: web.Request) -> web.Response:
        guild = await ctx.guild(request)
        listed = await competitions_of(ctx.store.db, guild.id)
        items = [{"kind": c.kind, "name": scrub(c.name, guild.lang), "status": _status(c.status, guild.lang),
                  "href": guild.url(f"{c.kind}s/{c.id}"), "open": c.status != "finished"} for c in listed]
        return ctx.render("competitions.html", guild, t("web.comp.title", guild.lang),
                          leagues=[i for i in items if i["kind"] == "league"],
                          tournaments=[i for i in items if i["kind"] == "tournament"])

    async def league(request: web.Request) -> web.Response:
        guild = await ctx.guild(request)
        found = await LeagueRepo(ctx.store).league_of(guild.id, _number(request))
        if found is None or found.status not in SHOWN:
            raise NotFound()
        return _league_page(ctx, guild, found)

    async def tournament(request: web.Request) -> web.Response:
        guild = await ctx.guild(request)
        found = await load_tournament(ctx.store.db, guild.id, _number(request))
        if found is None or found.status not in SHOWN:
            raise NotFound()
        return _tournament_page(ctx, guild, _scrubbed(found, guild.lang))

    router.add_get("/s/{guild}/competitions", competitions)
    router.add_get("/s/{guild}/leagues/{id}", league)
    router.add_get("/s/{guild}/tournaments/{id}", tournament)


def _league_page(ctx: WebContext, guild: Guild, league: League) -> web.Response:
    lang = guild.lang
    rows = league_rows(league, lang)
    champion = rows[0].name if league.status == "finished" and rows else None
    return ctx.render("league.html", guild, scrub(league.name, lang), league=league, rows=rows,
                      rounds=league_rounds(league, lang), champion=champion, status=_status(league.status, lang),
                      signed=[scrub(s.name, lang) for s in league.sides if s.accepted],
                      any_h2h=any(r.h2h is not None for r in rows))


def _tournament_page(ctx: WebContext, guild: Guild, tour: Tournament) -> web.Response:
    lang = guild.lang
    champion = champion_of(tour) if tour.status == "finished" else None
    svg = Markup("")
    if tour.status != "signup":
        svg = Markup(bracket_svg(tournament_layout(tour, lang, champion=champion),
                          label=t("tournament.bracket_title" if tour.format != "swiss" else "tournament.standings_title",
                                  lang, name=tour.name)))  # noqa: S704 - our own SVG, every text escaped
    swiss = []
    if tour.format == "swiss" and tour.status != "signup":
        swiss = [{"rank": i, "name": tour.name_of(r.player), "points": f"{r.points:g}",
                  "buchholz": f"{r.buchholz:g}"} for i, r in enumerate(swiss_table(tour), start=1)]
    return ctx.render("tournament.html", guild, scrub(tour.name, lang), tour=tour, svg=svg, swiss=swiss,
                      champion=tour.name_of(champion) if champion is not None else None,
                      status=_status(tour.status, lang), signed=[p.name for p in tour.players])


__all__ = ["StandingRow", "add_pages", "league_rounds", "league_rows"]
