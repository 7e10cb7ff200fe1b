"""The chicas a table finished, recorded and rated exactly once (the key is table + chica number): inside
the transaction that saves the play ending one, and at startup for any a failure or a crash left out."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from typing import Any

from bot.ratings import Ratings, chica_results
from bot.store import Store

from .model import Table
from .persistence import table_of_row

log = logging.getLogger(__name__)


class ChicaRecords:
    """Records the finished chicas of tables in the ratings.

    Args:
        store: reads the tables to catch up on. ratings: the ratings repository.
        kept: the table in memory with an id, if any (its copy is the latest).
    """

    def __init__(self, store: Store, ratings: Ratings, kept: Callable[[int], Table | None]) -> None:
        self._store = store
        self._ratings = ratings
        self._kept = kept

    RATING_CATCH_UP_DAYS = 7
    """Finished tables this recent are checked for unrecorded chicas at startup."""

    @staticmethod
    def is_casual(table: Table) -> bool:
        """True when the chicas of this table must not be rated (still stored and counted in stats).

        The hook for "a player left mid-game, unrated from then on": a table whose ``casual`` flag is set
        is casual, and so is a practice table with hints, and a table under house rules unless its server
        rates them (decided at the start, `TableOptions.house_rated`). Whether games with computer players are rated is the server's
        ``rate_bots`` setting, decided by the ratings repository.
        """
        return bool(table.casual or table.options.hints or (table.house and not table.options.house_rated))

    def results(self, table: Table) -> list[Any]:
        """The results of the table's finished chicas, to record (rated unless `is_casual`)."""
        game = table.game
        if game is None:
            return []
        return chica_results(game.events, [s.user_id if s else None for s in table.seats],
                             guild_id=table.guild_id, table_id=table.id, casual=self.is_casual(table))

    async def record(self, table: Table) -> None:
        """Inside the store's transaction saving a play that ended a chica: record and rate every
        finished chica of the table not yet recorded (exactly once: the key is table + chica number).

        A failure is logged and the play is still saved: the startup catch-up records it later."""
        try:
            await self._ratings.record_chicas(self.results(table))  # a savepoint of the save
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("table %d: recording the finished chica failed; it is retried at startup", table.id)

    async def catch_up(self) -> int:
        """Record (and rate) the finished chicas of open and recently finished tables that were not
        recorded yet, e.g. after a restart. Returns how many were recorded now."""
        rows = [r for r in await self._store.load_open_tables() if r.game]
        rows += await self._store.load_finished_tables(self.RATING_CATCH_UP_DAYS)
        recorded = 0
        for row in rows:
            table = self._kept(row.id) or table_of_row(row)
            try:
                done = await self._ratings.record_chicas(self.results(table))
            except Exception:
                log.exception("table %d: ratings catch-up failed", row.id)
                continue
            recorded += sum(1 for d in done if d.stored)
        if recorded:
            log.info("ratings catch-up recorded %d chicas", recorded)
        return recorded

