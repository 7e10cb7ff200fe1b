"""SQL of the results an organizer entered or corrected by hand (migration 0019), over the store's database
(SQLite or PostgreSQL). A correction is stored in the same transaction as the fixture it changes."""

from __future__ import annotations

from dataclasses import dataclass

from bot.competitions.tournament_model import Match, Player, Tournament
from bot.store import Store
from bot.store.db import Database, rows_of


@dataclass(frozen=True)
class Correction:
    """One change of a fixture's result by an organizer.

    ``kind`` is ``league`` or ``tournament``; ``fixture_id`` a league fixture's or tournament match's id;
    ``at`` UTC seconds; ``before`` and ``after`` the result as `result_code` text; ``reason`` the
    organizer's words (1–200 characters)."""

    id: int
    guild_id: int
    kind: str
    competition_id: int
    fixture_id: int
    round: int
    by_user: int
    at: float
    reason: str
    before: str
    after: str


def result_code(status: str, winner: int | None, chicas: tuple[int, int]) -> str:
    """A fixture's result as stored text: ``status:winner:chicas_a-chicas_b`` (winner ``-`` for none), e.g.
    ``done:2:1-2`` or ``double_loss:-:0-0``."""
    return f"{status}:{winner if winner is not None else '-'}:{chicas[0]}-{chicas[1]}"


_COLS = "id, guild_id, kind, competition_id, fixture_id, round, by_user, at, reason, before_result, after_result"


class CorrectionRepo:
    """The corrections' history in the store."""

    def __init__(self, store: Store) -> None:
        self.store = store

    @property
    def _db(self) -> Database:
        return self.store.db

    async def add(self, correction: Correction) -> int:
        """Insert a correction (inside the caller's transaction when one is open); returns its id."""
        return await self._db.insert(
            "INSERT INTO result_corrections (guild_id, kind, competition_id, fixture_id, round, by_user, at, reason,"
            " before_result, after_result) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            correction.guild_id, correction.kind, correction.competition_id, correction.fixture_id, correction.round,
            correction.by_user, correction.at, correction.reason, correction.before, correction.after)

    async def of(self, kind: str, competition_id: int) -> list[Correction]:
        """Every correction of one league or tournament, oldest first."""
        async with rows_of(self._db, f"SELECT {_COLS} FROM result_corrections WHERE kind = ? AND competition_id = ?"
                                    " ORDER BY id", (kind, competition_id)) as cursor:
            rows = await cursor.fetchall()
        return [Correction(int(r[0]), int(r[1]), str(r[2]), int(r[3]), int(r[4]), int(r[5]), int(r[6]), float(r[7]),
                           str(r[8]), str(r[9]), str(r[10])) for r in rows]

    async def move_player(self, match_id: int, a_user: int | None, b_user: int | None) -> None:
        """Set a tournament match's two players (a corrected result sends another winner on), inside the
        caller's transaction when one is open."""
        await self._db.execute("UPDATE tournament_matches SET a_user = ?, b_user = ? WHERE id = ?",
                               a_user, b_user, match_id)

    async def ended_tournaments(self, guild_id: int) -> list[Tournament]:
        """A server's finished and cancelled tournaments, whole (players in sign-up order, matches by round
        and slot), newest first."""
        async with rows_of(self._db,
                "SELECT id, guild_id, channel_id, name, format, swiss_rounds, best_of, preset, round_days, policy,"
                " status, organizer_id, signup_message_id, current_round, round_deadline, reminded FROM tournaments"
                " WHERE guild_id = ? AND status IN ('finished', 'cancelled') ORDER BY id DESC", (guild_id,)) as cursor:
            rows = await cursor.fetchall()
        out = []
        for r in rows:
            tour = Tournament(int(r[0]), int(r[1]), int(r[2]), str(r[3]), str(r[4]), int(r[5]), int(r[6]), str(r[7]),
                              int(r[8]), str(r[9]), str(r[10]), int(r[11]), int(r[12]) if r[12] is not None else None,
                              int(r[13]), float(r[14]) if r[14] is not None else None, bool(r[15]))
            async with rows_of(self._db, "SELECT user_id, name, locale, seed FROM tournament_players"
                                        " WHERE tournament_id = ? ORDER BY position, user_id", (tour.id,)) as cursor:
                tour.players = [Player(int(p[0]), str(p[1]), str(p[2]), int(p[3])) for p in await cursor.fetchall()]
            async with rows_of(self._db,
                    "SELECT id, round, slot, a_user, b_user, status, wins_a, wins_b, winner, table_id, ready_a, ready_b"
                    " FROM tournament_matches WHERE tournament_id = ? ORDER BY round, slot", (tour.id,)) as cursor:
                tour.matches = [Match(int(m[0]), int(m[1]), int(m[2]), _int(m[3]), _int(m[4]), str(m[5]), int(m[6]),
                                      int(m[7]), _int(m[8]), _int(m[9]), _float(m[10]), _float(m[11]))
                                for m in await cursor.fetchall()]
            out.append(tour)
        return out


def _int(value: object) -> int | None:
    return int(value) if value is not None else None  # type: ignore[call-overload]  # a database integer


def _float(value: object) -> float | None:
    return float(value) if value is not None else None  # type: ignore[arg-type]  # a database real


async def ended_names(db: Database, table: str, guild_id: int, limit: int) -> list[tuple[int, str, str]]:
    """``(id, name, status)`` of a server's last ``limit`` ended (finished or cancelled) leagues or
    tournaments (``table``: ``leagues`` or ``tournaments``), newest first: the archive's choices, read
    without loading them whole.

    Raises:
        ValueError: another ``table``.
    """
    if table not in ("leagues", "tournaments"):
        raise ValueError(table)
    async with rows_of(db, f"SELECT id, name, status FROM {table} WHERE guild_id = ?"
                          " AND status IN ('finished', 'cancelled') ORDER BY id DESC LIMIT ?", (guild_id, limit)) as cursor:
        return [(int(r[0]), str(r[1]), str(r[2])) for r in await cursor.fetchall()]
