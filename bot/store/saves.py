"""Following the tables every process saves (PostgreSQL only; issue 13, item 6, `docs/SCALING.md` §1).

Every save that bumps a table's version notifies ``"<table id>:<version>"`` on `CHANNEL` when it commits
(`bot.store.Store.save_table`). `SavedVersions` listens on a connection of its own, outside the pool, and
keeps the newest version per table, so that `TableService.behind` asks nothing of the database.

It trusts that connection only while it proves it hears:

- when it opens, and then every `SavedVersions.CHECK_EVERY` seconds, it sends a probe of its own on the
  channel through the pool and expects it back within `SavedVersions.PROBE_TIMEOUT` seconds. This catches a
  connection that died silently (no TCP reset) and a pooler in transaction mode (PgBouncer), where
  ``LISTEN`` succeeds and hears nothing;
- a connection that ends (a server restart) or fails its probe is replaced, tried again after
  `SavedVersions.RETRY_AFTER` seconds.

While no connection is trusted, `SavedVersions.newest` answers None and callers read the table's row.
A table with no notice since the connection in use opened is unknown after a reconnect (its saves may
have come in the gap) or once the map has forgotten some table (`SavedVersions.KEPT`): `newest` answers
None for it until its row is read and reported with `SavedVersions.seen`. Only a connection opened
before any table was loaded (the first one, at `Store.open`) knows that a table it never heard of is at
the version this process loaded.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
from typing import Any

log = logging.getLogger(__name__)

CHANNEL = "cuarenta_tables"
"""PostgreSQL's notification channel of saved tables (payload ``"<table id>:<version>"``, or a probe's
``"probe:<token>"``, which other processes ignore)."""


class SavedVersions:
    """The newest saved version of each table, as PostgreSQL's notices tell, on a connection that is
    checked and replaced when it stops hearing.

    Args:
        db: the open `bot.store.db.PostgresDatabase` (it provides ``listen`` and ``execute``).

    Attributes:
        epoch: the number of connections trusted so far; a row read under one epoch is reported with it
            (`seen`), and ignored if the connection changed meanwhile.
    """

    KEPT = 10_000
    """Tables kept (the most recently saved); forgetting one makes tables never heard of unknown."""
    CHECK_EVERY = 30.0
    """Seconds between two probes of a trusted connection."""
    PROBE_TIMEOUT = 10.0
    """Seconds a probe may take to come back before its connection is dropped."""
    RETRY_AFTER = (1.0, 2.0, 5.0, 10.0, 30.0)
    """Seconds before each new try to open a connection after a failed one (the last repeats)."""

    def __init__(self, db: Any) -> None:
        self.db = db
        self.epoch = 0
        self.check_every = self.CHECK_EVERY
        self.probe_timeout = self.PROBE_TIMEOUT
        self.retry_after = self.RETRY_AFTER
        self.kept = self.KEPT
        self._versions: dict[int, int] = {}
        self._following = False
        self._complete = False  # a table never heard of is at the version loaded (first connection only)
        self._conn: Any = None
        self._attempt = 0
        self._sent = 0
        self._probes: dict[str, asyncio.Future[None]] = {}
        self._token = secrets.token_hex(8)
        self._wake = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        self._closed = False

    @property
    def following(self) -> bool:
        """Whether a connection that has proved it hears is in use."""
        return self._following

    async def start(self) -> None:
        """Open the first connection and prove it hears (before this process loads any table), then watch
        it in a task of its own. A failure is logged, not raised: the task keeps trying."""
        if await self._connect(complete=True):
            log.debug("following saved tables")
        self._task = asyncio.get_running_loop().create_task(self._watch(), name="saved-tables")

    def newest(self, table_id: int) -> int | None:
        """The newest version of table ``table_id`` any process saved, as the notices tell (0: no save
        since this process loaded it), or None when unknown (no trusted connection, or a table not heard
        of since a reconnect or an eviction): then read its row, and report it with `seen`."""
        if not self._following:
            return None
        version = self._versions.get(table_id)
        if version is None:
            return 0 if self._complete else None
        return version

    def seen(self, table_id: int, version: int, epoch: int) -> None:
        """Record ``version``, read from the table's row while ``epoch`` was current (the connection was
        already listening, so any later save is notified); ignored if the connection changed since."""
        if self._following and epoch == self.epoch:
            self._record(table_id, version)

    async def close(self) -> None:
        """Stop watching and forget every version (the connection itself ends with the database's
        ``close``). Idempotent."""
        self._closed, self._following = True, False
        self._versions.clear()
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None
        if self._conn is not None:
            self._conn, conn = None, self._conn
            conn.terminate()

    # -- the connection -------------------------------------------------------------------------------

    async def _connect(self, *, complete: bool) -> bool:
        self._attempt += 1
        attempt = self._attempt
        try:
            conn = await self.db.listen(CHANNEL, self._notice, lambda: self._lost(attempt))
        except Exception as exc:  # noqa: BLE001 - the store works without it, a query more per check
            log.warning("not following saved tables (%s); their versions will be read from the rows", exc)
            return False
        self._conn = conn
        if await self._probe() is not True or self._conn is not conn:
            log.warning("the connection that follows saved tables hears nothing; their versions will be "
                        "read from the rows")
            self._drop(conn)
            return False
        self.epoch += 1
        self._complete, self._following = complete, True
        return True

    def _lost(self, attempt: int) -> None:
        """The connection of ``attempt`` ended (the server, a probe that failed, or `close`)."""
        if attempt != self._attempt or self._conn is None:
            return
        self._conn = None
        if self._following and not self._closed:
            log.warning("stopped following saved tables; their versions will be read from the rows")
        self._following = False
        self._versions.clear()
        self._wake.set()

    def _drop(self, conn: Any) -> None:
        if self._conn is conn:
            self._conn = None
            self._following = False
            self._versions.clear()
        conn.terminate()

    async def _watch(self) -> None:
        failures = 0
        while not self._closed:
            if self._conn is not None and self._following:
                self._wake.clear()
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self._wake.wait(), self.check_every)
                conn = self._conn
                if conn is not None and self._following and await self._probe() is False:
                    log.warning("the connection that follows saved tables heard nothing for %.0f s; "
                                "opening another", self.probe_timeout)
                    self._drop(conn)
                continue
            if failures:
                await asyncio.sleep(self.retry_after[min(failures, len(self.retry_after)) - 1])
            if self._closed:
                return
            if await self._connect(complete=False):
                failures = 0
                log.info("following saved tables again")
            else:
                failures += 1

    async def _probe(self) -> bool | None:
        """Send a probe through the pool and wait for it on the connection: True (heard), False (not heard
        in time), None (it could not be sent: the pool is busy or down, which says nothing of the
        connection)."""
        self._sent += 1
        payload = f"probe:{self._token}:{self._sent}"
        heard = self._probes[payload] = asyncio.get_running_loop().create_future()
        try:
            try:
                await self.db.execute("SELECT pg_notify(?, ?)", CHANNEL, payload)
            except Exception as exc:  # noqa: BLE001 - the pool's trouble, not the connection's
                log.debug("probe of the saved-tables connection not sent (%s)", exc)
                return None
            try:
                await asyncio.wait_for(heard, self.probe_timeout)
            except TimeoutError:
                return False
            return True
        finally:
            self._probes.pop(payload, None)

    # -- the notices ----------------------------------------------------------------------------------

    def _notice(self, payload: str) -> None:
        if payload.startswith("probe:"):
            heard = self._probes.get(payload)
            if heard is not None and not heard.done():
                heard.set_result(None)
            return
        table_id, _, version = payload.partition(":")
        try:
            key, number = int(table_id), int(version)
        except ValueError:
            log.warning("unreadable saved-table notice %r", payload)
            return
        self._record(key, number)

    def _record(self, table_id: int, version: int) -> None:
        newest = max(version, self._versions.pop(table_id, 0))
        self._versions[table_id] = newest  # re-inserted: the most recently saved tables are last
        if len(self._versions) > self.kept:
            del self._versions[next(iter(self._versions))]
            self._complete = False  # a table forgotten is no longer known to be at its loaded version


__all__ = ["CHANNEL", "SavedVersions"]
