"""A competition's fixtures and results, its standings and the server's leaderboard as CSV files for a
spreadsheet: UTF-8 with a byte-order mark (so Excel reads the accents), comma-separated, one header row
in the caller's language, display names only (no user ids). Pure: the caller gathers the data."""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable, Sequence

from bot.competitions.league_repo import League
from bot.competitions.leagues import LeagueService
from bot.competitions.tournament_model import Tournament
from bot.i18n import t
from bot.ratings.model import BoardRow

BOM = "\ufeff"
"""The byte-order mark that starts every file (Excel's cue for UTF-8)."""


def to_csv(header: Sequence[str], rows: Iterable[Sequence[object]]) -> bytes:
    """``header`` and ``rows`` as CSV bytes: UTF-8 with `BOM`, CRLF line ends (the csv module's), every
    field as text; a field starting with ``=``, ``+``, ``-`` or ``@`` gets a leading ``'`` so a spreadsheet
    does not run it as a formula (numbers are written as they are)."""
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(header)
    for row in rows:
        writer.writerow([_safe(v) for v in row])
    return (BOM + out.getvalue()).encode("utf-8")


def _safe(value: object) -> object:
    if isinstance(value, str) and value[:1] in ("=", "+", "-", "@"):
        return "'" + value
    return value


def _result_word(status: str, lang: str) -> str:
    return t(f"organizer.status.{status}", lang)


def league_fixtures_csv(league: League, lang: str) -> bytes:
    """One row per fixture: round, side A, side B, result (in words), winner, chicas of A and of B, tantos
    of A and of B."""
    header = t("organizer.csv_fixtures", lang).split("|")
    rows = []
    for f in league.fixtures:
        rows.append([f.round, league.side(f.side_a).name, league.side(f.side_b).name, _result_word(f.status, lang),
                     league.side(f.winner).name if f.winner is not None else "", f.chicas[0], f.chicas[1],
                     f.tantos[0], f.tantos[1]])
    return to_csv(header, rows)


def league_standings_csv(service: LeagueService, league: League, lang: str) -> bytes:
    """The league's standings as the bot computes them (`LeagueService.standings`): rank, side, points,
    played, won, lost, chicas for and against, tantos for and against."""
    header = t("organizer.csv_standings", lang).split("|")
    rows = [[r.rank, league.side(r.side).name, r.points, r.played, r.won, r.lost, r.chicas_for, r.chicas_against,
             r.tantos_for, r.tantos_against] for r in service.standings(league)]
    return to_csv(header, rows)


def tournament_matches_csv(tour: Tournament, lang: str) -> bytes:
    """One row per match: round, player A, player B (empty for a bye), result (in words), winner, mesas won
    by A and by B."""
    header = t("organizer.csv_matches", lang).split("|")
    rows = []
    for m in tour.matches:
        rows.append([m.round, tour.name_of(m.a_user) if m.a_user is not None else "",
                     tour.name_of(m.b_user) if m.b_user is not None else "",
                     _result_word(m.status, lang) if m.b_user is not None else t("organizer.status.bye", lang),
                     tour.name_of(m.winner) if m.winner is not None else "", m.wins_a, m.wins_b])
    return to_csv(header, rows)


def leaderboard_csv(rows: Sequence[BoardRow], names: dict[int, str], lang: str) -> bytes:
    """The server's leaderboard of one mode: rank (empty while provisional), name, rating, provisional
    (yes/no), chicas won, lost, played."""
    header = t("organizer.csv_leaderboard", lang).split("|")
    yes, no = t("organizer.yes", lang), t("organizer.no", lang)
    return to_csv(header, [[r.rank if r.ranked else "", names.get(r.user_id, "?"), r.rating,
                            yes if r.provisional else no, r.wins, r.losses, r.games] for r in rows])
