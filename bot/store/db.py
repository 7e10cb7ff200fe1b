"""One database interface over two backends: SQLite through aiosqlite (the embedded default) and
PostgreSQL through asyncpg, chosen by the URL.

Every repository of the bot writes its SQL once, in SQLite's spelling with ``?`` placeholders, and runs it
through a `Database`:

- ``await db.fetch(sql, *args)`` → a list of rows; ``fetchrow`` → one row or None; ``fetchval`` → the first
  column of the first row or None. A row is read by index (``row[0]``) or by name (``row["id"]``), and
  ``dict(row)`` works, on both backends.
- ``await db.execute(sql, *args)`` → the number of rows changed; ``insert(sql, *args)`` → the new row's
  ``id``; ``executemany(sql, rows)``.
- ``async with db.transaction():`` makes every call of the same task inside it one transaction, on one
  connection, committed at the end or rolled back if the block raises. A transaction opened inside another
  by the same task is a savepoint of it: its writes commit with the outer transaction (so a repository
  called from inside the store's transaction, like the ratings of a finished chica, writes in it), and
  if the inner block raises only its own writes are undone. A single write inside a transaction runs in
  it; outside one it is its own transaction.

The PostgreSQL adapter rewrites the few SQLite spellings the repositories use: ``?`` → ``$n``, ``INSERT OR
IGNORE`` → ``ON CONFLICT DO NOTHING``, and the ISO-8601 "now" of ``strftime`` (`NOW_ISO`). What cannot be
rewritten (JSON functions) is written per `Database.dialect`.

On SQLite, one connection is shared; transactions (and single writes) take one ``asyncio.Lock`` in turn.
On PostgreSQL, a pool; a transaction holds one pooled connection.
"""

from __future__ import annotations

import asyncio
import contextvars
import logging
import re
import sqlite3
from collections.abc import AsyncIterator, Callable, Iterable, Iterator, Sequence
from contextlib import asynccontextmanager, contextmanager
from functools import lru_cache
from typing import Any

import aiosqlite

NOW_ISO = "strftime('%Y-%m-%dT%H:%M:%SZ', 'now')"
"""SQLite's current UTC time as ISO-8601 text (``2026-12-01T21:00:00Z``); the PostgreSQL adapter rewrites
it to the same text from ``now()``."""

_PG_NOW_ISO = "to_char(now() AT TIME ZONE 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS\"Z\"')"


class OneLineErrors(logging.Filter):
    """A logging filter that folds a record's exception into its message, in one line (``… (ConnectionRefusedError:
    [Errno 111] Connection refused)``), and drops its traceback. On ``asyncpg.pool``: while PostgreSQL is down,
    asyncpg's pool logs "Failed to restore the pool connection floor; retrying" with a 20-line traceback at
    each of its retries."""

    def filter(self, record: logging.LogRecord) -> bool:
        """Rewrite ``record`` when it carries an exception; keep every record."""
        exc = record.exc_info[1] if record.exc_info else None
        if exc is not None:
            reason = _one_line_reason(exc)
            record.msg, record.args = f"{record.getMessage()} ({type(exc).__name__}: {reason})", None
            record.exc_info, record.exc_text = None, None
        return True


def _one_line_reason(exc: BaseException) -> str:
    lines = str(exc).strip().splitlines()
    return lines[0] if lines else "no detail"


def quiet_pool_log() -> None:
    """Put `OneLineErrors` on asyncpg's pool logger (once)."""
    pool_log = logging.getLogger("asyncpg.pool")
    if not any(isinstance(f, OneLineErrors) for f in pool_log.filters):
        pool_log.addFilter(OneLineErrors())


class IntegrityError(Exception):
    """A constraint refused the write (unique, foreign key, check), on either backend."""


class BusyError(Exception):
    """A lock was not had in time: PostgreSQL's ``lock_timeout`` ran out (55P03) or it broke a deadlock
    (40P01). The statement's transaction is rolled back; trying again later is safe."""


def is_postgresql_url(url: str) -> bool:
    """True for ``postgresql://…`` / ``postgres://…`` URLs."""
    return url.startswith(("postgresql://", "postgres://"))


@lru_cache(maxsize=2048)
def to_postgresql(sql: str) -> str:
    """``sql`` in SQLite's spelling rewritten for PostgreSQL: ``?`` placeholders become ``$1, $2 …`` (not
    inside quotes), ``INSERT OR IGNORE INTO`` gains ``ON CONFLICT DO NOTHING``, `NOW_ISO` becomes the same
    text from ``now()``."""
    sql = sql.replace(NOW_ISO, _PG_NOW_ISO)
    ignore = re.match(r"\s*INSERT\s+OR\s+IGNORE\s+INTO\b", sql, re.IGNORECASE)
    if ignore:
        sql = "INSERT INTO" + sql[ignore.end():] + " ON CONFLICT DO NOTHING"
    out: list[str] = []
    n = 0
    quote: str | None = None
    for ch in sql:
        if quote:
            if ch == quote:
                quote = None
        elif ch in ("'", '"'):
            quote = ch
        elif ch == "?":
            n += 1
            out.append(f"${n}")
            continue
        out.append(ch)
    return "".join(out)


class Database:
    """The interface both adapters implement (see the module docstring). ``dialect`` is ``"sqlite"`` or
    ``"postgresql"``."""

    dialect: str = ""

    def __init__(self) -> None:
        self._tx: contextvars.ContextVar[tuple[asyncio.Task[Any] | None, Any] | None] = contextvars.ContextVar(
            f"db_tx_{id(self)}", default=None)
        self.errors = 0
        """Statements and transactions that failed for a reason other than a constraint's refusal (a lost
        connection, a closed or unwritable file, a lock or a free connection not had in time), each
        failure counted once however many layers it went through: read by the metrics."""
        self._counted: BaseException | None = None

    def _failed(self, exc: BaseException) -> None:
        """Count ``exc`` in `errors` (once; not a constraint's refusal, which is an answer, not a failure)."""
        if exc is not self._counted and not isinstance(exc, IntegrityError | sqlite3.IntegrityError):
            self._counted = exc
            self.errors += 1

    def _current(self) -> Any | None:
        """The connection of the transaction the current task is in, or None."""
        held = self._tx.get()
        if held is not None and held[0] is asyncio.current_task():
            return held[1]
        return None

    @property
    def in_transaction(self) -> bool:
        """True inside ``transaction()`` in this task."""
        return self._current() is not None

    def transaction(self) -> Any:
        """An async context manager: one transaction for every call of this task inside it (a savepoint
        of the open one, if any). Raises `IntegrityError` when a constraint refuses a write in it."""
        raise NotImplementedError

    async def fetch(self, sql: str, *args: Any) -> list[Any]:
        """Every row of ``sql``."""
        raise NotImplementedError

    async def fetchrow(self, sql: str, *args: Any) -> Any | None:
        """The first row of ``sql``, or None."""
        rows = await self.fetch(sql, *args)
        return rows[0] if rows else None

    async def fetchval(self, sql: str, *args: Any) -> Any:
        """The first column of the first row, or None."""
        row = await self.fetchrow(sql, *args)
        return row[0] if row is not None else None

    async def execute(self, sql: str, *args: Any) -> int:
        """Run one statement; the number of rows it changed. Raises `IntegrityError`."""
        raise NotImplementedError

    async def insert(self, sql: str, *args: Any) -> int:
        """Run one ``INSERT`` into a table with an ``id`` key; the new row's id. Raises `IntegrityError`."""
        raise NotImplementedError

    async def batch(self, statements: Sequence[tuple[str, Sequence[Any]]]) -> list[list[Any]]:
        """Run ``statements`` (``(sql, args)`` pairs) in order, in one transaction (in the current one, if
        any), and return each statement's rows (``[]`` for a write without ``RETURNING``). On SQLite the
        whole transaction is one trip to the database thread (a table's save). Raises
        `IntegrityError`; nothing of the batch is written then (outside a transaction)."""
        async with self.transaction():
            return [await self.fetch(sql, *args) for sql, args in statements]

    async def executemany(self, sql: str, rows: Iterable[Sequence[Any]]) -> None:
        """Run ``sql`` once per parameter row, in one transaction. Raises `IntegrityError`."""
        async with self.transaction():
            for row in rows:
                await self.execute(sql, *row)

    async def executescript(self, sql: str) -> None:
        """Run several statements (a migration) inside the current transaction."""
        raise NotImplementedError

    async def close(self) -> None:
        """Close the connection or pool (idempotent)."""
        raise NotImplementedError


class SqliteDatabase(Database):
    """`Database` over one aiosqlite connection in autocommit mode; transactions are ``BEGIN IMMEDIATE``
    under one lock."""

    dialect = "sqlite"

    def __init__(self, conn: aiosqlite.Connection) -> None:
        super().__init__()
        self.conn = conn
        self.lock = asyncio.Lock()
        self._depth = 0  # savepoints open inside the current transaction

    @classmethod
    async def open(cls, path: str) -> SqliteDatabase:
        """Connect to the file ``path`` (``":memory:"`` for tests) with WAL and foreign keys on.

        ``synchronous=NORMAL``, SQLite's advice for WAL: a commit is in the WAL file when it returns, so a
        play survives the bot's crash or restart; only the operating system's crash or a power cut may
        lose the last commits (never corrupt the file). It saves a disk flush per play (~0.1 ms of CPU
        and more of waiting). PostgreSQL keeps its own full durability."""
        conn = await aiosqlite.connect(path, isolation_level=None)
        conn.row_factory = aiosqlite.Row
        try:
            for pragma in ("PRAGMA journal_mode=WAL", "PRAGMA synchronous=NORMAL", "PRAGMA foreign_keys=ON",
                           "PRAGMA busy_timeout=5000"):
                async with conn.execute(pragma) as cur:
                    await cur.fetchall()
        except BaseException:
            await conn.close()
            raise
        return cls(conn)

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[None]:
        if self._current() is not None:
            self._depth += 1
            name = f"sp{self._depth}"
            await self.conn.execute(f"SAVEPOINT {name}")
            try:
                yield
            except BaseException:
                await self.conn.execute(f"ROLLBACK TO {name}")
                await self.conn.execute(f"RELEASE {name}")
                raise
            finally:
                self._depth -= 1
            await self.conn.execute(f"RELEASE {name}")
            return
        async with self.lock:
            token = self._tx.set((asyncio.current_task(), self.conn))
            try:
                await self.conn.execute("BEGIN IMMEDIATE")
                try:
                    yield
                    await self.conn.execute("COMMIT")
                except BaseException:
                    if self.conn.in_transaction:  # the block raised, or COMMIT itself failed
                        await self.conn.execute("ROLLBACK")
                    raise
            except aiosqlite.IntegrityError as exc:
                raise IntegrityError(str(exc)) from exc
            except Exception as exc:
                self._failed(exc)
                raise
            finally:
                self._tx.reset(token)

    async def fetch(self, sql: str, *args: Any) -> list[Any]:
        # one trip to the database thread: a statement is never left half-read between two trips, where
        # another task's COMMIT would find it in progress
        try:
            return list(await self.conn.execute_fetchall(sql, args))
        except Exception as exc:
            self._failed(exc)
            raise

    async def batch(self, statements: Sequence[tuple[str, Sequence[Any]]]) -> list[list[Any]]:
        def run(conn: sqlite3.Connection) -> list[list[Any]]:
            return [conn.execute(sql, args).fetchall() for sql, args in statements]

        def transaction(conn: sqlite3.Connection) -> list[list[Any]]:
            conn.execute("BEGIN IMMEDIATE")
            try:
                rows = run(conn)
                conn.execute("COMMIT")
            except BaseException:
                if conn.in_transaction:
                    conn.execute("ROLLBACK")
                raise
            return rows

        try:
            if self._current() is not None:  # inside the task's open transaction: its connection, no BEGIN
                return await self._in_thread(run)
            async with self.lock:
                return await self._in_thread(transaction)
        except sqlite3.IntegrityError as exc:
            raise IntegrityError(str(exc)) from exc
        except Exception as exc:
            self._failed(exc)
            raise

    async def _in_thread(self, fn: Callable[[sqlite3.Connection], Any]) -> Any:
        """Run ``fn(connection)`` in aiosqlite's database thread: one trip for any number of statements
        (aiosqlite's own ``_execute``, the way its methods run theirs)."""
        conn = self.conn
        return await conn._execute(fn, conn._conn)

    async def _run(self, sql: str, args: Sequence[Any]) -> aiosqlite.Cursor:
        try:
            return await self.conn.execute(sql, args)
        except aiosqlite.IntegrityError as exc:
            raise IntegrityError(str(exc)) from exc
        except Exception as exc:
            self._failed(exc)
            raise

    async def execute(self, sql: str, *args: Any) -> int:
        if self._current() is None:
            async with self.transaction():
                return (await self._run(sql, args)).rowcount
        return (await self._run(sql, args)).rowcount

    async def insert(self, sql: str, *args: Any) -> int:
        if self._current() is None:
            async with self.transaction():
                return int((await self._run(sql, args)).lastrowid or 0)
        return int((await self._run(sql, args)).lastrowid or 0)

    async def executescript(self, sql: str) -> None:
        for statement in _statements(sql):
            await self._run(statement, ())

    async def close(self) -> None:
        await self.conn.close()


def _statements(sql: str) -> list[str]:
    """A script split at the ``;`` that end lines (the migrations keep one statement per such line), with
    ``--`` comments dropped."""
    lines = [line.split("--", 1)[0] for line in sql.splitlines()]
    return [s.strip() for s in "\n".join(lines).split(";") if s.strip()]


@contextmanager
def _pg_errors(db: Database) -> Iterator[None]:
    """asyncpg's errors as this module's: a constraint's as `IntegrityError`, a lock's as `BusyError`;
    every other failure is counted in ``db.errors``."""
    import asyncpg

    try:
        yield
    except asyncpg.IntegrityConstraintViolationError as exc:
        raise IntegrityError(str(exc)) from exc
    except (asyncpg.LockNotAvailableError, asyncpg.DeadlockDetectedError) as exc:
        busy = BusyError(str(exc))
        db._failed(busy)
        raise busy from exc
    except Exception as exc:
        db._failed(exc)
        raise


class PostgresDatabase(Database):
    """`Database` over an asyncpg pool.

    Every statement and transaction waits at most `acquire_timeout` seconds for a free connection of the
    pool, then raises `BusyError` (so a click on a bot whose pool is taken gets "try again" well within
    Discord's 3 s, instead of waiting behind every other table's work)."""

    dialect = "postgresql"
    ACQUIRE_TIMEOUT = 2.0
    """Seconds to wait for a free connection by default."""
    LISTEN_TIMEOUT = 10.0
    """Seconds `listen` may take to connect and start listening."""

    def __init__(self, pool: Any, url: str | None = None) -> None:
        super().__init__()
        self.pool = pool
        self.url = url
        self.acquire_timeout = self.ACQUIRE_TIMEOUT
        self._listeners: list[Any] = []

    @asynccontextmanager
    async def _connection(self) -> AsyncIterator[Any]:
        """A connection of the pool, for the block; released after it.

        Raises:
            BusyError: no connection came free within `acquire_timeout` seconds.
        """
        try:
            conn = await self.pool.acquire(timeout=self.acquire_timeout)
        except TimeoutError as exc:
            busy = BusyError(f"no free database connection within {self.acquire_timeout} s")
            self._failed(busy)
            raise busy from exc
        except Exception as exc:  # the server is gone, the pool closed
            self._failed(exc)
            raise
        try:
            yield conn
        finally:
            await self.pool.release(conn)

    @classmethod
    async def open(cls, url: str, *, min_size: int = 1, max_size: int = 10,
                   connect_timeout: float = 60.0) -> PostgresDatabase:
        """Connect a pool to ``url`` (``postgresql://user@host:port/db``), each connection given
        ``connect_timeout`` seconds.

        Raises:
            OSError, TimeoutError, asyncpg.PostgresError: the server could not be reached, or refused.
        """
        import asyncpg  # only needed with DATABASE_URL

        quiet_pool_log()
        pool = await asyncpg.create_pool(url, min_size=min_size, max_size=max_size, timeout=connect_timeout)
        return cls(pool, url)

    async def listen(self, channel: str, on_notice: Callable[[str], None], on_lost: Callable[[], None]) -> Any:
        """Receive the notifications of ``channel`` (PostgreSQL's ``LISTEN``; sent with ``pg_notify``, each
        delivered when its transaction commits) on a connection of their own, outside the pool:
        ``on_notice(payload)`` runs on the event loop for each, and ``on_lost()`` once that connection ends
        (the server went away, its ``terminate()``, or `close`). Returns that connection (asyncpg's).

        Raises:
            OSError, asyncpg.PostgresError: the connection could not be made. TimeoutError: connecting or
                ``LISTEN`` took more than `LISTEN_TIMEOUT` seconds.
        """
        import asyncpg

        conn = await asyncpg.connect(self.url, timeout=self.LISTEN_TIMEOUT)
        try:
            await asyncio.wait_for(conn.add_listener(channel, lambda _conn, _pid, _channel, payload: on_notice(payload)),
                                   self.LISTEN_TIMEOUT)
        except BaseException:
            conn.terminate()
            raise

        def ended(_conn: Any) -> None:
            if conn in self._listeners:
                self._listeners.remove(conn)
            on_lost()

        conn.add_termination_listener(ended)
        self._listeners.append(conn)
        return conn

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[None]:
        held = self._current()
        if held is not None:
            async with held.transaction():  # asyncpg: a savepoint inside the open transaction
                yield
            return
        async with self._connection() as conn:
            token = self._tx.set((asyncio.current_task(), conn))
            try:
                with _pg_errors(self):
                    async with conn.transaction():
                        yield
            finally:
                self._tx.reset(token)

    @asynccontextmanager
    async def _target(self) -> AsyncIterator[Any]:
        """The open transaction's connection, else one of the pool for this statement (`_connection`)."""
        held = self._current()
        if held is not None:
            yield held
            return
        async with self._connection() as conn:
            yield conn

    async def fetch(self, sql: str, *args: Any) -> list[Any]:
        async with self._target() as conn:
            with _pg_errors(self):
                return list(await conn.fetch(to_postgresql(sql), *args))

    async def execute(self, sql: str, *args: Any) -> int:
        async with self._target() as conn:
            with _pg_errors(self):
                status = await conn.execute(to_postgresql(sql), *args)
        tail = status.rsplit(" ", 1)[-1]
        return int(tail) if tail.isdigit() else 0

    async def insert(self, sql: str, *args: Any) -> int:
        async with self._target() as conn:
            with _pg_errors(self):
                value = await conn.fetchval(to_postgresql(sql) + " RETURNING id", *args)
        return int(value) if value is not None else 0  # 0: INSERT OR IGNORE inserted nothing

    async def executescript(self, sql: str) -> None:
        conn = self._current()
        assert conn is not None, "executescript runs inside transaction()"
        await conn.execute(sql)

    async def close(self) -> None:
        listeners, self._listeners = self._listeners, []
        try:
            for conn in listeners:
                conn.terminate()  # a notice connection holds no transaction: nothing to finish
        finally:
            await self.pool.close()


class Rows:
    """Rows already read, behind a cursor's face: ``await rows.fetchall()``, ``await rows.fetchone()``
    (the first row or None). Made by `rows_of`."""

    def __init__(self, rows: list[Any]) -> None:
        self._rows = rows

    async def fetchall(self) -> list[Any]:
        return self._rows

    async def fetchone(self) -> Any | None:
        return self._rows[0] if self._rows else None


@asynccontextmanager
async def rows_of(db: Database, sql: str, params: Sequence[Any] = ()) -> AsyncIterator[Rows]:
    """``async with rows_of(db, sql, params) as cursor:`` reads every row of ``sql`` first, then lets the
    block take them with ``await cursor.fetchall()`` / ``fetchone()`` (repositories written as blocks over
    an aiosqlite cursor keep their shape on both backends)."""
    yield Rows(await db.fetch(sql, *params))


def _database_url(server: str, name: str) -> str:
    return server.rpartition("/")[0] + "/" + name


async def create_postgres_database(server: str, name: str, template: str | None = None) -> str:
    """(Re)create the empty database ``name`` on the PostgreSQL ``server`` (a ``postgresql://…/postgres``
    URL whose user may create databases), as a copy of ``template`` when given; return its URL. For tests
    and benchmarks: an existing ``name`` is dropped first, its connections closed."""
    import asyncpg

    admin = await asyncpg.connect(server)
    try:
        await admin.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")
        await admin.execute(f"CREATE DATABASE {name}" + (f" TEMPLATE {template}" if template else ""))
    finally:
        await admin.close()
    return _database_url(server, name)


async def drop_postgres_database(server: str, name: str) -> None:
    """Drop the database ``name`` on the PostgreSQL ``server`` if it exists (its connections closed)."""
    import asyncpg

    admin = await asyncpg.connect(server)
    try:
        await admin.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")
    finally:
        await admin.close()


async def connect(url: str, *, connect_timeout: float = 60.0) -> Database:
    """A `Database` for ``url``: a PostgreSQL URL opens an asyncpg pool (``connect_timeout`` seconds a
    connection); anything else is a SQLite path."""
    if is_postgresql_url(url):
        return await PostgresDatabase.open(url, connect_timeout=connect_timeout)
    return await SqliteDatabase.open(url)


__all__ = ["NOW_ISO", "Database", "IntegrityError", "OneLineErrors", "PostgresDatabase", "Rows", "SqliteDatabase", "connect",
           "create_postgres_database", "drop_postgres_database", "is_postgresql_url", "rows_of", "to_postgresql"]
