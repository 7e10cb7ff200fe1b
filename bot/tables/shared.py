"""Tables shared by several bot processes over one PostgreSQL (`docs/SCALING.md`).

Every change to a table runs under `TableLocks.held`: the table's ``asyncio.Lock`` (one process),
and, when the store is shared (`bot.store.Store.shared`), one database transaction that first locks the
table's row (`bot.store.Store.claim_table`). If the stored version is not the one in memory, another
process changed the table: it is reloaded in place before the change is checked. The change's own save
joins that transaction, so a click is checked against the latest state and saved before the row is
released. Two processes receiving the same click (or the same turn alarm) therefore apply it once: the
second finds the nonce moved on and refuses it (`bot.tables.errors.StaleError`) or skips the alarm.

With SQLite (one process) `TableLocks.held` is the asyncio lock alone and costs nothing more.

**Who writes a shared table's public messages and DM hands** (`docs/SCALING.md` §5, without the lease):
the process that made the table's latest change. A process that reloads a table and saves a change to it
tells its presenter (`bot.tables.Notifier.reloaded`, with the hand in play at the reload, in order before
the change's own notification), which takes over what the stored message ids say is still due (the record
of a hand another process ended). A presenter asks
`TableLocks.behind` before it writes, and again once its waits (the edit interval, the write budget) are over: a
process whose copy is behind drops its pending writes, since the process that changed the table since
writes them. An edit that another process's change overtook while it was on its way (so Discord may apply
the two out of order) is followed by `TableLocks.catch_up` and, in the same hand, a fresh edit.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager

from bot.store import BusyError, Store

from .background import Background
from .errors import TableBusyError, TableError
from .model import Table
from .notices import Notices
from .persistence import table_of_row

# The state a reload copies from the stored row into the table object other parts of the bot hold
# ("messages": the presenter's message ids, which the store reads with the row from the presenter's own
# table, `bot.store.messages`, as a presenter of any process last wrote them).
_STATE = ("host_id", "status", "seed", "seats", "game", "messages", "options", "seat_history", "timers", "casual",
          "version")


class TableLocks:
    """Holds a table for one change (see the module docstring).

    Args:
        store: the open `Store` (``shared``: several processes over one PostgreSQL).
        arm: re-arms a reloaded table's alarms (`bot.tables.presence.TurnClock.arm`).
        background, notices: tell the presenter, in the background, that a reloaded table changed hands.
    """

    def __init__(self, store: Store, arm: Callable[[Table], None], background: Background,
                 notices: Notices) -> None:
        self._store = store
        self._arm = arm
        self._background = background
        self._notices = notices

    @asynccontextmanager
    async def held(self, table: Table) -> AsyncIterator[None]:
        """Hold ``table`` for one change: its lock and, on a shared store, its row (reloading it first
        when another process saved it). A refusal (`TableError`) raised inside still commits what the
        block saved before it (a person marked back); any other error rolls the transaction back.

        Raises:
            TableBusyError: another process held the row past the store's lock timeout, or the database
                broke a deadlock (`bot.store.BusyError`); the transaction is rolled back and the block's
                changes are undone as for any other error (the block did not run when the row was not had).
        """
        async with table.lock:
            if not self._store.shared:
                yield
                return
            refused: TableError | None = None
            reloaded_at: tuple[int, int | None] | None = None  # (version, hand in play) when reloaded
            try:
                async with self._store.db.transaction():
                    version = await self._store.claim_table(table.id)
                    if version is not None and version != table.version:
                        row = await self._store.load_table(table.id)
                        if row is not None:
                            _reload(table, table_of_row(row))
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
                self._background.spawn(self._notices.reloaded(table, reloaded_at[1]))
            if refused is not None:
                raise refused

    async def behind(self, table: Table) -> bool:
        """Whether another process saved ``table`` since this process loaded or last saved it (a stored
        version above ``table.version``). Always False on an unshared store: this process is the only
        writer. On PostgreSQL the store follows every process's saves (`bot.store.Store.newest_saved`), so
        this asks nothing of the database; only when it cannot follow them is the table's row read, and a
        database too busy to answer then counts as not behind (the caller writes, and checks again after).
        """
        if not self._store.shared:
            return False
        version = self._store.newest_saved(table.id)
        if version is None:
            try:
                version = await self._store.table_version(table.id)
            except BusyError:
                return False
        return version is not None and version > table.version

    async def catch_up(self, table: Table) -> None:
        """Reload ``table`` if another process saved it since (under its lock and row, as any change: its
        alarms re-armed). It saves nothing, so the presenter is not told (`Notifier.reloaded`): the caller
        decides what to write again. Nothing on an unshared store.

        Raises:
            TableBusyError: another process held the row past the store's lock timeout.
        """
        if not self._store.shared:
            return
        async with self.held(table):
            pass


def _reload(table: Table, fresh: Table) -> None:
    """Copy the stored state of ``fresh`` (just read) into ``table`` in place."""
    for name in _STATE:
        setattr(table, name, getattr(fresh, name))
