"""Tables shared by several bot processes over one PostgreSQL (issue 13, `docs/SCALING.md`).

Every change to a table runs under `SharedTablesMixin._held`: the table's ``asyncio.Lock`` (one process),
and, when the store is shared (`bot.store.Store.shared`), one database transaction that first locks the
table's row (`bot.store.Store.claim_table`). If the stored version is not the one in memory, another
process changed the table: it is reloaded in place before the change is checked. The change's own save
joins that transaction, so a click is checked against the latest state and saved before the row is
released. Two processes receiving the same click (or the same turn alarm) therefore apply it once: the
second finds the nonce moved on and refuses it (`bot.tables.errors.StaleError`) or skips the alarm.

With SQLite (one process) `_held` is the asyncio lock alone and costs nothing more.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import TYPE_CHECKING, Any

from bot.store import BusyError

from .errors import TableBusyError, TableError
from .model import Table

if TYPE_CHECKING:
    from bot.store import Store, TableRow

# The state a reload copies from the stored row into the table object other parts of the bot hold.
_STATE = ("host_id", "status", "seed", "seats", "game", "messages", "meta", "timers", "casual", "version")


class SharedTablesMixin:
    """`_held`, for `bot.tables.TableService` (needs ``store``, ``_from_row`` and ``_arm``; listed last
    among its bases, so their methods win)."""

    store: Store

    def _from_row(self, row: TableRow) -> Table:  # provided by TableService
        raise NotImplementedError

    def _arm(self, table: Table) -> None:  # provided by PresenceMixin
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
            try:
                async with self.store.db.transaction():
                    version = await self.store.claim_table(table.id)
                    if version is not None and version != table.version:
                        row = await self.store.load_table(table.id)
                        if row is not None:
                            self._reload(table, row)
                            self._arm(table)  # this process holds the table's alarms too; the row lock
                            # and the nonce make whichever fires first the only one that acts
                    try:
                        yield
                    except TableError as exc:
                        refused = exc
            except BusyError as exc:
                raise TableBusyError() from exc
            if refused is not None:
                raise refused

    def _reload(self, table: Table, row: TableRow) -> None:
        """Copy the stored state of ``row`` into ``table`` in place."""
        fresh: Any = self._from_row(row)
        for name in _STATE:
            setattr(table, name, getattr(fresh, name))
