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
of a hand another process ended).

Whether a process is behind is decided here, in the service, and pushed to the presenter, which never asks:
`TableLocks` follows every process's saves (`bot.store.Store.watch_saves`, PostgreSQL's notices), and a save
above a live table's version tells the presenter `bot.tables.Notifier.overtaken` (in order with the other
notifications; not when this process has reloaded the table meanwhile). The presenter drops its pending
writes of that table until the table's version reaches the one it was told (this process reloads it when it
next changes it). A write already on its way (Discord may apply it after the other process's) is reported
back by ``overtaken``: the service then catches the table up (`TableLocks.catch_up`) and tells
`bot.tables.Notifier.caught_up`, and the presenter writes the current state once more, in the same hand.
A re-post asked of a process that is behind (``/cuarenta table``) is made after the service caught up.

While the notice connection is not trusted (`bot.store.saves`), no notice comes: the service then reads the
versions of its live tables whose newest save is unknown every `POLL_EVERY` seconds of its clock (one
query) and tells the presenter as a notice would; a write in that gap may go out before the save is known,
and is shown again only if it was on its way when it became known. The same loop asks the store about
every live table, which keeps the notice connection checked (its probes run when it is asked).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager

from bot.store import BusyError, Store

from .background import Background
from .errors import TableBusyError, TableError
from .model import Table
from .notices import Notices
from .persistence import table_of_row

log = logging.getLogger(__name__)

POLL_EVERY = 1.0
"""Seconds (of the service's clock) between two reads of the live tables' versions while the notice
connection is not trusted (and between two checks that it is)."""

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
        background, notices: tell the presenter, in the background, that a reloaded table changed hands,
            or that another process changed a live table (`overtaken`).
        live: the live table of an id, or None (`bot.tables.memory.TableRegistry.get`); ``tables``: the
            live tables (their ids, for the polling while the notices are not trusted).
        sleep: the service clock's sleep (`POLL_EVERY`).
    """

    def __init__(self, store: Store, arm: Callable[[Table], None], background: Background,
                 notices: Notices, live: Callable[[int], Table | None] = lambda _id: None,
                 tables: Callable[[], list[int]] = list, sleep: Callable[[float], Awaitable[None]] | None = None,
                 ) -> None:
        self._store = store
        self._arm = arm
        self._background = background
        self._notices = notices
        self._live = live
        self._tables = tables
        self._sleep = sleep or asyncio.sleep
        self.poll_every = POLL_EVERY
        self._poller: asyncio.Task[None] | None = None
        if store.shared:
            store.watch_saves(self.saved)

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
            self.follow()
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

    async def current(self, table: Table) -> None:
        """Catch ``table`` up when it is behind (`behind`, then `catch_up`); nothing otherwise.

        Raises:
            TableBusyError: another process held the row past the store's lock timeout.
        """
        if await self.behind(table):
            await self.catch_up(table)

    # -- telling the presenter ------------------------------------------------------------------------

    def follow(self) -> None:
        """Start the loop that checks the notice connection and, while it is not trusted, reads the live
        tables' versions (`POLL_EVERY`), once, on a shared store (idempotent; stopped with the background)."""
        if not self._store.shared or self._background.closing:
            return
        if self._poller is None or self._poller.done():
            self._poller = self._background.spawn(self._poll())

    def saved(self, table_id: int, version: int) -> None:
        """A process saved table ``table_id`` at ``version`` (a notice, or a row read while the notices are
        not trusted): when that is above the live table's version, the presenter is told (`overtaken`, in
        the background). Quick: called on the event loop without awaiting."""
        table = self._live(table_id)
        if table is None or version <= table.version or self._background.closing:
            return
        self._background.spawn(self._overtaken(table, version))

    async def _overtaken(self, table: Table, version: int) -> None:
        """Tell the presenter that ``table`` was saved elsewhere at ``version``; when a write of it was on
        its way, catch the table up and tell the presenter to write it again (`caught_up`)."""
        if not await self._notices.overtaken(table, version):
            return
        try:
            await self.catch_up(table)
        except TableBusyError:  # that process is changing it again, and writes it after
            log.info("table %d: not caught up, another process held it", table.id)
            return
        await self._notices.caught_up(table)

    async def _poll(self) -> None:
        """Every `poll_every` seconds: ask the store about every live table (which checks the notice
        connection), and read in one query the versions it does not know (no trusted connection, or a
        table not heard of since it reconnected), telling the presenter of those saved elsewhere."""
        while True:
            await self._sleep(self.poll_every)
            unknown = [table_id for table_id in self._tables() if self._store.newest_saved(table_id) is None]
            if not unknown:
                continue
            try:
                versions = await self._store.table_versions(unknown)
            except BusyError:  # the database is too busy now: the next round reads them
                continue
            except Exception as exc:  # noqa: BLE001 - the database is away: the next round tries again
                log.info("the live tables' versions were not read (%s)", exc)
                continue
            for table_id, version in versions.items():
                self.saved(table_id, version)


def _reload(table: Table, fresh: Table) -> None:
    """Copy the stored state of ``fresh`` (just read) into ``table`` in place."""
    for name in _STATE:
        setattr(table, name, getattr(fresh, name))
