"""What the competitions (queue, leagues, tournaments) ask of the tables they open."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable
from typing import TYPE_CHECKING, Any, NamedTuple

from bot.tables import FINISHED, Table, TableError, TableService

RECHECK_AFTER = 900.0
"""Seconds between two looks, after a round's deadline, at the tables of that round still in play: one
that ends without a result is then decided like an unplayed fixture or match."""


class Place(NamedTuple):
    """Where a competition's table is played (the thread its presenter opened): the channel id, and the
    server's and the channel's names that head the players' DM hands (``dm.header``)."""

    channel_id: int
    guild_name: str
    channel_name: str


async def current_table(tables: TableService, table_id: int | None) -> Table | None:
    """The table ``table_id`` a competition opened, as stored now: this process's copy, caught up when
    another process saved the table since (PostgreSQL), else read from the store; None when it is gone, or
    its row is busy (it is looked at again later)."""
    if not table_id:
        return None
    try:
        table = tables.tables.get(table_id)
        if table is None:
            return await tables.fetch(table_id)
        if await tables.behind(table):
            await tables.catch_up(table)
        return table
    except TableError:
        return None


async def table_in_play(tables: TableService, table_id: int | None) -> bool:
    """Whether the table ``table_id`` a competition opened is still open (in its lobby or in play), so
    that its result may still come. An ended table (finished, or closed without a result: ``/cuarenta
    end``, everyone gone) is not, nor is one that is gone; a table no longer in memory (ended more than
    `bot.tables.memory` keeps, or opened by another process) is read from the store, and a copy another
    process has saved since is caught up (`current_table`)."""
    table = await current_table(tables, table_id)
    return table is not None and table.is_open


async def finished_table(tables: TableService, table_id: int | None) -> Table | None:
    """The table ``table_id`` if, as stored now, its mesa is over with a winner (`current_table`), else
    None. With several processes, the mesa of a competition's table may end in another process than the
    one that runs the competition (DM clicks all reach the process of shard 0): that one records the
    result from the stored table (`docs/SCALING.md` §7)."""
    table = await current_table(tables, table_id)
    if table is None or table.status != FINISHED or table.game is None or table.game.winner is None:
        return None
    return table


class ResultsFromElsewhere:
    """For a competition service (leagues, tournaments): record the result of a mesa whose last play
    another process made. That process's mesa hook records nothing for a server it does not run; this one,
    which runs the competition, watches the saves of its tables in play (``_watched``) and records the
    result from the stored table (`finished_table`) when a save's notice comes (`settle`), once, under
    the service's lock; in the process that runs it, the mesa hook (`_on_mesa`) records it. The service
    calls ``_init_results()`` and provides ``_playing`` (the
    competition and its match still playing on a table) and ``_record`` (a result, in the caller's
    transaction)."""

    tables: TableService
    _lock: asyncio.Lock

    if TYPE_CHECKING:  # provided by the service and its `Background`
        def _spawn(self, coro: Awaitable[Any]) -> asyncio.Task[Any]: ...
        def _playing(self, table_id: int) -> tuple[Any, Any] | None: ...
        async def _record(self, competition: Any, match: Any, table: Table) -> None: ...

    def _init_results(self) -> None:
        self._watched: set[int] = set()
        """Tables of matches in play, whose saves by another process may end their mesa (`_saved`)."""
        self.tables.mesa_hooks.append(self._on_mesa)
        self.tables.store.watch_saves(self._saved)

    async def _on_mesa(self, table: Table) -> None:
        """The mesa hook: inside the transaction of the mesa's last play, record the result of the match
        (fixture) still playing on this table, exactly once. A process that does not run the table's server
        leaves it to the one that does (`settle`)."""
        if not self.tables.serves_guild(table.guild_id):
            return
        found = self._playing(table.id)
        game = table.game
        if found is None or game is None or game.winner is None or table.status != FINISHED:
            return
        await self._record(*found, table)

    def _saved(self, table_id: int, _version: int) -> None:
        """A notice of a save (`bot.store.Store.watch_saves`): a match's table saved, perhaps by another
        process that played its last play, is looked at (`settle`)."""
        if table_id in self._watched:
            self._spawn(self.settle(table_id))

    async def settle(self, table_id: int) -> bool:
        """Record the result of the match (fixture) still playing on table ``table_id`` if its mesa is
        over as stored (`finished_table`). Exactly once: under the service's lock, only a match still
        playing on that table is recorded. Returns whether it recorded a result."""
        async with self._lock:
            found = self._playing(table_id)
            if found is None:
                self._watched.discard(table_id)
                return False
            table = await finished_table(self.tables, table_id)
            if table is None:
                return False
            async with self.tables.store.db.transaction():
                await self._record(*found, table)
            return True


__all__ = ["RECHECK_AFTER", "Place", "ResultsFromElsewhere", "current_table", "finished_table", "table_in_play"]
