"""Reading tournaments and leagues back from the store (migrations 0005, 0006) for pages that show them
whatever their status: one tournament whole, and a server's list of competitions. Read-only SQL over the
store's database (SQLite or PostgreSQL)."""

from __future__ import annotations

from dataclasses import dataclass

from bot.store import storable_id
from bot.store.db import Database, rows_of

from .tournament_model import Match, Player, Tournament

_COLS = ("id, guild_id, channel_id, name, format, swiss_rounds, best_of, preset, round_days, policy, status,"
         " organizer_id, signup_message_id, current_round, round_deadline, reminded")


def _int(value: object) -> int | None:
    return int(value) if value is not None else None  # type: ignore[call-overload]  # a database integer


def _float(value: object) -> float | None:
    return float(value) if value is not None else None  # type: ignore[arg-type]  # a database real


async def load_tournament(db: Database, guild_id: int, tournament_id: int) -> Tournament | None:
    """Tournament ``tournament_id`` of server ``guild_id`` (any status), whole: players in sign-up order,
    matches by round and slot. None when there is none, or it is another server's."""
    if not storable_id(tournament_id):
        return None
    async with rows_of(db, f"SELECT {_COLS} FROM tournaments WHERE id = ? AND guild_id = ?",
                       (tournament_id, guild_id)) as cursor:
        r = await cursor.fetchone()
    if r is None:
        return None
    tour = Tournament(int(r[0]), int(r[1]), int(r[2]), str(r[3]), str(r[4]), int(r[5]), int(r[6]), str(r[7]),
                      int(r[8]), str(r[9]), str(r[10]), int(r[11]), _int(r[12]), int(r[13]), _float(r[14]),
                      bool(r[15]))
    async with rows_of(db, "SELECT user_id, name, locale, seed FROM tournament_players WHERE tournament_id = ?"
                           " ORDER BY position, user_id", (tour.id,)) as cursor:
        tour.players = [Player(int(p[0]), str(p[1]), str(p[2]), int(p[3])) for p in await cursor.fetchall()]
    async with rows_of(db, "SELECT id, round, slot, a_user, b_user, status, wins_a, wins_b, winner, table_id,"
                           " ready_a, ready_b FROM tournament_matches WHERE tournament_id = ? ORDER BY round, slot",
                       (tour.id,)) as cursor:
        tour.matches = [Match(int(m[0]), int(m[1]), int(m[2]), _int(m[3]), _int(m[4]), str(m[5]), int(m[6]),
                              int(m[7]), _int(m[8]), _int(m[9]), _float(m[10]), _float(m[11]))
                        for m in await cursor.fetchall()]
    return tour


@dataclass(frozen=True)
class Listed:
    """A competition in a server's list: ``kind`` ``league`` or ``tournament``, its id, name, status
    (``signup``, ``running``, ``finished``) and format (a league's mode, ``1v1`` or ``2v2``; a tournament's
    ``elimination`` or ``swiss``)."""

    kind: str
    id: int
    name: str
    status: str
    format: str


SHOWN = ("signup", "running", "finished")
"""The statuses a server's pages show (a cancelled competition is not shown)."""


async def competitions_of(db: Database, guild_id: int, limit: int = 100) -> list[Listed]:
    """A server's open and finished leagues and tournaments (`SHOWN`), newest first within each kind, at
    most ``limit`` of each."""
    out: list[Listed] = []
    for kind, table, fmt in (("league", "leagues", "mode"), ("tournament", "tournaments", "format")):
        async with rows_of(db, f"SELECT id, name, status, {fmt} FROM {table} WHERE guild_id = ?"
                               " AND status IN ('signup', 'running', 'finished') ORDER BY id DESC LIMIT ?",
                           (guild_id, limit)) as cursor:
            out += [Listed(kind, int(r[0]), str(r[1]), str(r[2]), str(r[3])) for r in await cursor.fetchall()]
    return out


__all__ = ["SHOWN", "Listed", "competitions_of", "load_tournament"]
