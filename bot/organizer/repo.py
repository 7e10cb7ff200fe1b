"""SQL of the results an organizer entered or corrected by hand (migration 0018), over the store's database
(SQLite or PostgreSQL). A correction is stored in the same transaction as the fixture it changes."""

from __future__ import annotations

from dataclasses import dataclass

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
