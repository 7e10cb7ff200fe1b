"""Following the tables every process saves (PostgreSQL only; `docs/SCALING.md` §1).

Every save that bumps a table's version notifies ``"<table id>:<version>"`` on `CHANNEL` when it commits
(`bot.store.Store.save_table`). `SavedVersions` listens on a connection of its own, outside the pool, and
keeps the newest version per table and tells its watchers, so that the table service knows which tables
another process saved without asking the database (`bot.tables.shared`, `TableService.behind`).

It trusts that connection only while it proves it hears:

- when it opens, and then at most every `SavedVersions.CHECK_EVERY` seconds while it is asked, it sends a
  probe of its own on the channel through the pool and expects it back within
  `SavedVersions.PROBE_TIMEOUT` seconds (sending included). This catches a connection that died silently
  (no TCP reset) and a pooler in transaction mode (PgBouncer), where ``LISTEN`` succeeds and hears nothing;
- a connection not heard for `CHECK_EVERY` + `PROBE_TIMEOUT` seconds is not trusted until its next probe
  comes back: a connection that stopped hearing is trusted for at most that long;
- a connection that ends (a server restart) or fails its probe is replaced, tried again after
  `SavedVersions.RETRY_AFTER` seconds.

The checks run when `SavedVersions.newest` is asked (one short task at a time), not in a task of their own:
an idle bot does nothing, and a busy one checks as often as it needs (the table service asks about its
live tables every `bot.tables.shared.POLL_EVERY` seconds while it holds some).

While no connection is trusted, `newest` answers None and callers read the table's row. A table with no
notice since the connection in use opened is unknown after a reconnect (its saves may have come in the
gap) or once the map has forgotten some table (`SavedVersions.KEPT`): `newest` answers None for it until
its row is read and reported with `SavedVersions.seen`. Only a connection opened before any table was
loaded (the first one, at `Store.open`) knows that a table it never heard of is at the version this
process loaded.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
import time
from collections.abc import Awaitable, Callable
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
    """Seconds between two probes of a trusted connection (while it is asked)."""
    PROBE_TIMEOUT = 10.0
    """Seconds a probe may take, sending included, before its connection is dropped."""
    RETRY_AFTER = (1.0, 2.0, 5.0, 10.0, 30.0)
    """Seconds before each new try to open a connection after a failed one (the last repeats)."""
    UNSENT_LIMIT = 3
    """Probes in a row that could not be sent (the pool busy or down) before the connection is no longer
    trusted: it may have died with the pool's."""

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
        self._heard_at = 0.0  # time.monotonic() of the last probe heard
        self._checked_at = 0.0  # and of the last probe sent
        self._next_try = 0.0
        self._failures = 0
        self._unsent = 0
        self._warned = False  # a failure is a warning once, then debug until a connection is trusted
        self._sent = 0
        self._probes: dict[str, asyncio.Future[bool]] = {}
        self._token = secrets.token_hex(8)
        self._task: asyncio.Task[None] | None = None
        self._closed = False
        self.watchers: list[Callable[[int, int], None]] = []
        """Called with ``(table_id, version)`` for every save a notice tells (`bot.store.Store.watch_saves`)."""

    @property
    def following(self) -> bool:
        """Whether a connection that has proved it hears is in use (it may be stale: see `newest`)."""
        return self._following

    async def start(self) -> None:
        """Open the first connection and prove it hears, before this process loads any table. A failure
        is logged, not raised: `newest` tries again."""
        await self._connect(complete=True)

    def newest(self, table_id: int) -> int | None:
        """The newest version of table ``table_id`` any process saved, as the notices tell (0: no save
        since this process loaded it), or None when unknown: no trusted connection, one not heard for
        `check_every` + `probe_timeout` seconds, or a table not heard of since a reconnect or an eviction.
        Then read its row, and report it with `seen`. Starts the connection's next check when it is due."""
        self._tend()
        if not self._following or time.monotonic() - self._heard_at > self.check_every + self.probe_timeout:
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
        """Stop checking and forget every version (the connection ends here, or with the database's
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

    # -- checking the connection ----------------------------------------------------------------------

    def _tend(self) -> None:
        """Start the check that is due, if none runs: a probe of the trusted connection every
        `check_every` seconds, or a new connection once `retry_after` allows."""
        if self._closed or (self._task is not None and not self._task.done()):
            return
        now = time.monotonic()
        if self._conn is not None and self._following:
            if now - self._checked_at >= self.check_every:
                self._checked_at = now
                self._run(self._check())
        elif self._conn is None and now >= self._next_try:
            self._run(self._reconnect())

    def _run(self, work: Awaitable[None]) -> None:
        self._task = asyncio.get_running_loop().create_task(self._guarded(work), name="saved-tables")

    async def _guarded(self, work: Awaitable[None]) -> None:
        try:
            await work
        except asyncio.CancelledError:
            raise
        except Exception:  # a check that failed is no reason to trust the connection
            log.exception("checking the connection that follows saved tables failed")
            if self._conn is not None:
                self._drop(self._conn)

    async def _check(self) -> None:
        conn = self._conn
        heard = await self._probe()
        if conn is not self._conn:
            return  # lost meanwhile (`_lost` said so)
        if heard:
            self._heard_at, self._unsent = time.monotonic(), 0
            return
        self._unsent = self._unsent + 1 if heard is None else self.UNSENT_LIMIT
        if self._unsent >= self.UNSENT_LIMIT:
            log.warning("the connection that follows saved tables heard nothing for %.0f s; opening another",
                        self.probe_timeout)
            self._unsent = 0
            self._drop(conn)
            await self._reconnect()

    async def _reconnect(self) -> None:
        if await self._connect(complete=False):
            log.info("following saved tables again")

    async def _connect(self, *, complete: bool) -> bool:
        self._attempt += 1
        attempt = self._attempt
        try:
            conn = await self.db.listen(CHANNEL, self._notice, lambda: self._lost(attempt))
        except Exception as exc:  # noqa: BLE001 - the store works without it, a query more per check
            self._failed("not following saved tables (%s); their versions will be read from the rows", exc)
            return False
        self._conn = conn
        if await self._probe() is not True or self._conn is not conn:
            self._failed("the connection that follows saved tables hears nothing; their versions will be "
                         "read from the rows")
            self._drop(conn)
            return False
        self.epoch += 1
        self._complete, self._following = complete, True
        self._heard_at = self._checked_at = time.monotonic()
        self._failures, self._unsent, self._warned = 0, 0, False
        return True

    def _failed(self, message: str, *args: Any) -> None:
        """A failed try to follow: the next one waits `retry_after`; a warning the first time since a
        connection was last trusted, then debug (behind a pooler in transaction mode it fails every time)."""
        self._failures += 1
        self._next_try = time.monotonic() + self.retry_after[min(self._failures, len(self.retry_after)) - 1]
        log.log(logging.DEBUG if self._warned else logging.WARNING, message, *args)
        self._warned = True

    def _lost(self, attempt: int) -> None:
        """The connection of ``attempt`` ended (the server, a probe that failed, or `close`)."""
        if attempt != self._attempt or self._conn is None:
            return
        for heard in self._probes.values():  # a probe waiting on it will not be heard: say so at once
            if not heard.done():
                heard.set_result(False)
        self._conn = None
        # the first new try waits `retry_after[0]`: a server that takes connections and ends them at once
        # is not asked for one at every check
        self._next_try = max(self._next_try, time.monotonic() + self.retry_after[0])
        if self._following and not self._closed:
            log.warning("stopped following saved tables; their versions will be read from the rows")
        self._following = False
        self._versions.clear()

    def _drop(self, conn: Any) -> None:
        if self._conn is conn:
            self._conn = None
            self._following = False
            self._versions.clear()
        conn.terminate()

    async def _probe(self) -> bool | None:
        """Send a probe through the pool and wait for it on the connection, all within `probe_timeout`:
        True (heard), False (not heard in time, or the connection ended meanwhile), None (it could not be
        sent: the pool is busy or down, which says nothing of the connection by itself)."""
        self._sent += 1
        payload = f"probe:{self._token}:{self._sent}"
        heard = self._probes[payload] = asyncio.get_running_loop().create_future()
        try:
            async with asyncio.timeout(self.probe_timeout):
                try:
                    await self.db.execute("SELECT pg_notify(?, ?)", CHANNEL, payload)
                except Exception as exc:  # noqa: BLE001 - the pool's trouble, not the connection's
                    log.debug("probe of the saved-tables connection not sent (%s)", exc)
                    return None
                return await heard
        except TimeoutError:
            return False
        finally:
            self._probes.pop(payload, None)

    # -- the notices ----------------------------------------------------------------------------------

    def _notice(self, payload: str) -> None:
        if payload.startswith("probe:"):
            heard = self._probes.get(payload)
            if heard is not None and not heard.done():
                heard.set_result(True)
            return
        table_id, _, version = payload.partition(":")
        try:
            key, number = int(table_id), int(version)
        except ValueError:
            log.warning("unreadable saved-table notice %r", payload)
            return
        self._record(key, number)
        for watcher in self.watchers:
            try:
                watcher(key, number)
            except Exception:
                log.exception("a watcher of table saves failed")

    def _record(self, table_id: int, version: int) -> None:
        newest = max(version, self._versions.pop(table_id, 0))
        self._versions[table_id] = newest  # re-inserted: the most recently saved tables are last
        if len(self._versions) > self.kept:
            del self._versions[next(iter(self._versions))]
            self._complete = False  # a table forgotten is no longer known to be at its loaded version


__all__ = ["CHANNEL", "SavedVersions"]
