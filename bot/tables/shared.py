"""Tables shared by several bot processes over one PostgreSQL (issue 13, `docs/SCALING.md`).

Every change to a table runs under `SharedTablesMixin._held`: the table's ``asyncio.Lock`` (one process),
and, when the store is shared (`bot.store.Store.shared`), one database transaction that first locks the
table's row (`bot.store.Store.claim_table`). If the stored version is not the one in memory, another
process changed the table: it is reloaded in place before the change is checked. The change's own save
joins that transaction, so a click is checked against the latest state and saved before the row is
released. Two processes receiving the same click (or the same turn alarm) therefore apply it once: the
second finds the nonce moved on and refuses it (`bot.tables.errors.StaleError`) or skips the alarm.

With SQLite (one process) `_held` is the asyncio lock alone and costs nothing more.

**Who writes a shared table's public messages and DM hands** (`docs/SCALING.md` §5, without the lease):
the process that made the table's latest change. A process that reloads a table and saves a change to it
tells its presenter (`bot.tables.Notifier.reloaded`, with the hand in play at the reload, in order before
the change's own notification), which takes over what the stored message ids say is still due (the record
of a hand another process ended). A presenter asks
`behind` before it writes, and again once its waits (the edit interval, the write budget) are over: a
process whose copy is behind drops its pending writes, since the process that changed the table since
writes them. An edit that another process's change overtook while it was on its way (so Discord may apply
the two out of order) is followed by `catch_up` and, in the same hand, a fresh edit.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import TYPE_CHECKING, Any

from bot.store import BusyError

from .errors import TableBusyError, TableError
from .model import Table

if TYPE_CHECKING:
    from bot.store import Store, TableRow

    from .notifier import Notifier

# The state a reload copies from the stored row into the table object other parts of the bot hold.
_STATE = ("host_id", "status", "seed", "seats", "game", "messages", "meta", "timers", "casual", "version")


class SharedTablesMixin:
    """`_held`, for `bot.tables.TableService` (needs ``store``, ``_from_row`` and ``_arm``; listed last
    among its bases, so their methods win)."""

    store: Store
    notifier: Notifier

    def _from_row(self, row: TableRow) -> Table:  # provided by TableService
        raise NotImplementedError

    def _arm(self, table: Table) -> None:  # provided by PresenceMixin
        raise NotImplementedError

    def _spawn(self, coro: Any) -> asyncio.Task[Any]:  # provided by TableService
        raise NotImplementedError

    @asynccontextmanager
    async def _held(self, table: Table) -> AsyncIterator[None]:
        """Hold ``table`` for one change: its lock and, on a shared store, its row (reloading it first
        when another process saved it). A refusal (`TableError`) raised inside still commits what the
        block saved before it (a person marked back); any other error rolls the transaction back.

        Raises:
            TableBusyError: another process held the row past the store's lock timeout, or the database
                broke a deadlock (`bot.store.BusyError`); the transaction is rolled back and the block's
                changes are undone as for any other error (the block did not run when the row was not had).
        """
        async with table.lock:
            if not self.store.shared:
                yield
                return
            refused: TableError | None = None
            reloaded_at: tuple[int, int | None] | None = None  # (version, hand in play) when reloaded
            try:
                async with self.store.db.transaction():
                    version = await self.store.claim_table(table.id)
                    if version is not None and version != table.version:
                        row = await self.store.load_table(table.id)
                        if row is not None:
                            self._reload(table, row)
                            self._arm(table)  # this process holds the table's alarms too; the row lock
                            # and the nonce make whichever fires first the only one that acts
                            reloaded_at = (table.version, table.game.hand_number if table.game is not None else None)
                    try:
                        yield
                    except TableError as exc:
                        refused = exc
            except BusyError as exc:
                raise TableBusyError() from exc
            if reloaded_at is not None and table.version != reloaded_at[0]:
                # this process saved a change to a table another process had changed, and shows the table
                # from now on: its presenter is told (committed, and before the change's own notice, which
                # the caller sends after this block); a reload that saved nothing hands nothing over
                self._spawn(self._tell_reloaded(table, reloaded_at[1]))
            if refused is not None:
                raise refused

    def _reload(self, table: Table, row: TableRow) -> None:
        """Copy the stored state of ``row`` into ``table`` in place."""
        fresh: Any = self._from_row(row)
        for name in _STATE:
            setattr(table, name, getattr(fresh, name))

    async def _tell_reloaded(self, table: Table, hand: int | None) -> None:
        """Tell the presenter that ``table`` was reloaded with ``hand`` in play (before this process's
        change), in order with the table's other notifications."""
        async with table.notify_lock:
            await self.notifier.reloaded(table, hand)

    async def behind(self, table: Table) -> bool:
        """Whether another process saved ``table`` since this process loaded or last saved it (a stored
        version above ``table.version``). Always False on an unshared store: this process is the only
        writer. On PostgreSQL the store follows every process's saves (`bot.store.Store.newest_saved`), so
        this asks nothing of the database; only when it cannot follow them is the table's row read, and a
        database too busy to answer then counts as not behind (the caller writes, and checks again after).
        """
        if not self.store.shared:
            return False
        version = self.store.newest_saved(table.id)
        if version is None:
            try:
                version = await self.store.table_version(table.id)
            except BusyError:
                return False
        return version is not None and version > table.version

    async def catch_up(self, table: Table) -> None:
        """Reload ``table`` if another process saved it since (under its lock and row, as any change: its
        alarms re-armed). It saves nothing, so the presenter is not told (`reloaded`): the caller decides
        what to write again. Nothing on an unshared store.

        Raises:
            TableBusyError: another process held the row past the store's lock timeout.
        """
        if not self.store.shared:
            return
        async with self._held(table):
            pass
