"""The start of ``python -m bot``: the checks that come before the bot connects, each failure told in one line.

In order (`bot.__main__.run`):

1. The database (`open_store`): for a SQLite file, an exclusive lock on ``<file>.lock`` beside it
   (`SqliteLock`: one bot process per file; the operating system releases it when the process ends, even
   killed) and a writable path; then the store is opened and migrated. A database newer than this build
   (`bot.store.SchemaTooNewError`) is refused. One INFO line then says the version, the database, its
   schema version and the migrations applied on this start (`start_line`).
2. Discord (`reach_discord`): ``GET /users/@me`` with the token at DISCORD_API_BASE.

A failure is a `StartupError`, whose text is one line that names its cause: Discord unreachable (with the
API's host), the token refused, the database unreachable (PostgreSQL's host and port, never the password),
the database missing (its name), the SQLite path not writable (the path), another process on the SQLite
file, a build older than the schema. `StartupError.exit_code` is 2 for the ones only the host can fix (the
SQLite path not writable, the PostgreSQL database missing, the token or the database's password refused, a
schema newer than the build), as for a bad setting, and 1 for the others. A transient one (``transient``: a connection refused or timed out, a
server still starting, Discord's 5xx) is tried again with growing waits (`retrying`: 1 s, 2 s, 4 s … at
most `MAX_WAIT`) for STARTUP_RETRY_SECONDS, each retry logged in one line; the others fail at once.
"""

from __future__ import annotations

import asyncio
import contextlib
import errno as errno_codes
import importlib.metadata
import logging
import os
import sqlite3
import sys
import time
import tomllib
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import TypeVar
from urllib.parse import unquote, urlsplit

import aiohttp
import discord

from bot.config import Settings
from bot.store import SchemaTooNewError, Store, StoreError

log = logging.getLogger("bot")

T = TypeVar("T")

FIRST_WAIT = 1.0
"""Seconds between the first two tries of a start; each later wait doubles, up to `MAX_WAIT`."""

MAX_WAIT = 30.0
"""The longest wait, in seconds, between two tries of a start."""

ATTEMPT_TIMEOUT = 10.0
"""Seconds one try of Discord or of a PostgreSQL connection may take before it counts as timed out."""


_USER_AGENT = (f"DiscordBot (https://github.com/Rapptz/discord.py {discord.__version__}) "
               f"Python/{sys.version_info[0]}.{sys.version_info[1]} aiohttp/{aiohttp.__version__}")
"""discord.py's own User-Agent, which Discord asks of a bot's requests."""


class StartupError(Exception):
    """A start that cannot go on. ``str(error)`` is one line for the host; ``transient``: the cause may pass
    by itself (a server not up yet), so the start tries again (`retrying`); ``setup``: only the host can fix
    it (a path the bot cannot write, a database that does not exist, a refused token or password, a schema
    newer than the build), so restarting the bot is no use.

    ``exit_code``: 2 for a ``setup`` failure, as for a bad setting (the systemd unit's
    ``RestartPreventExitStatus=2`` then does not restart it in a loop); 1 otherwise (a transient cause given
    up on, another process on the SQLite file), which a supervisor may restart."""

    def __init__(self, message: str, *, transient: bool = False, setup: bool = False) -> None:
        super().__init__(message)
        self.transient = transient
        self.setup = setup

    @property
    def exit_code(self) -> int:
        """The exit code of ``python -m bot`` for this failure: 2 when ``setup``, else 1."""
        return 2 if self.setup else 1


def version() -> str:
    """The bot's version: the installed package's metadata, else ``pyproject.toml`` beside ``bot/``, else
    ``"unknown"``."""
    try:
        return importlib.metadata.version("cuarenta-bot")
    except importlib.metadata.PackageNotFoundError:
        pass
    try:
        with (Path(__file__).resolve().parent.parent / "pyproject.toml").open("rb") as file:
            return str(tomllib.load(file)["project"]["version"])
    except (OSError, KeyError, tomllib.TOMLDecodeError):
        return "unknown"


def _postgres_parts(url: str) -> tuple[str, int, str, str, str]:
    """``(host, port, database, user, password)`` of a PostgreSQL URL (libpq's defaults: localhost,
    5432, the user's name for the database)."""
    parts = urlsplit(url)
    try:
        port = parts.port or 5432
    except ValueError:
        port = 5432
    user = unquote(parts.username or "")
    return (parts.hostname or "localhost", port, unquote(parts.path.lstrip("/")) or user or "postgres", user,
            unquote(parts.password or ""))


def database_label(settings: Settings) -> str:
    """The database for a log line, without its password: ``sqlite /path/cuarenta.db`` or ``postgresql
    host:port/database``."""
    if settings.database_url:
        host, port, name, _user, _password = _postgres_parts(settings.database_url)
        return f"postgresql {host}:{port}/{name}"
    return f"sqlite {settings.database_path}"


def _one_line(text: str, secret: str = "") -> str:
    """``text``'s first line, with ``secret`` (a password) blotted out."""
    line = (text.strip().splitlines() or [""])[0]
    return line.replace(secret, "***") if secret else line


def _reason(exc: BaseException) -> str:
    """Why a connection failed, in a few words: the operating system's words for its error number (``Connection
    refused``), else the exception's first line."""
    if isinstance(exc, TimeoutError):
        return "timed out"
    os_error = getattr(exc, "os_error", None)  # aiohttp's ClientConnectorError wraps the OSError
    cause = os_error if isinstance(os_error, OSError) else exc
    number = getattr(cause, "errno", None)
    if isinstance(number, int) and number in errno_codes.errorcode:
        return os.strerror(number)
    if isinstance(cause, OSError) and cause.strerror:  # a name not resolved: "Name or service not known"
        return _one_line(cause.strerror)
    return _one_line(str(exc)) or type(exc).__name__


class SqliteLock:
    """An exclusive lock on the file ``<database>.lock``, held while one bot process uses the SQLite file
    ``database`` (``fcntl.flock``: the operating system drops it when the process ends, however it ends, so
    a killed bot never leaves a stale lock). The lock file holds the holder's pid and stays after it; it is
    never the database. Without ``fcntl`` (Windows) it locks nothing.

    `acquire` raises `StartupError`: the lock file cannot be opened for writing (its folder or the file itself
    not writable by this user, say a lock file root created: ``setup``, exit code 2), or another process
    holds the lock (exit code 1).
    """

    def __init__(self, database: str) -> None:
        self.database = database
        self.path = database + ".lock"
        self._fd: int | None = None

    def acquire(self) -> None:
        """Take the lock, or raise `StartupError` at once (no waiting)."""
        try:
            fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o644)
        except OSError as exc:
            raise StartupError(f"cannot write the SQLite database at {self.database}: cannot open its lock file "
                               f"{self.path} for writing: {exc.strerror or exc} (the bot's user must be able to "
                               f"write that folder and its files, or set DATABASE_PATH to a writable place)",
                               setup=True) from None
        if sys.platform == "win32":
            self._fd = fd
            return
        import fcntl

        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            holder = os.read(fd, 32).decode("ascii", "replace").strip()
            os.close(fd)
            raise StartupError(
                f"another bot process{f' (pid {holder})' if holder.isdigit() else ''} is using the SQLite "
                f"database {self.database}: stop it first (several processes need PostgreSQL: DATABASE_URL)"
            ) from None
        os.ftruncate(fd, 0)
        os.write(fd, str(os.getpid()).encode("ascii"))
        self._fd = fd

    def release(self) -> None:
        """Let the lock go (idempotent)."""
        if self._fd is not None:
            os.close(self._fd)  # closing the descriptor drops the flock
            self._fd = None


def _database_failure(exc: BaseException, settings: Settings) -> StartupError | None:
    """``exc``, raised while opening the database, as a `StartupError`; None when it is none of the
    known causes (a bug, to be raised as it is)."""
    if isinstance(exc, StartupError):
        return exc
    if isinstance(exc, SchemaTooNewError):
        return StartupError(f"refusing to start: {exc}", setup=True)
    if isinstance(exc, StoreError):
        return StartupError(f"cannot migrate the database {database_label(settings)}: {_one_line(str(exc))}")
    if not settings.database_url:
        if isinstance(exc, sqlite3.Error | OSError):
            return StartupError(f"cannot open the SQLite database at {settings.database_path}: "
                                f"{_one_line(str(exc))}")
        return None
    import asyncpg

    host, port, name, user, password = _postgres_parts(settings.database_url)
    where = f"{host}:{port}"
    if isinstance(exc, asyncpg.InvalidCatalogNameError):
        return StartupError(f"the PostgreSQL database {name!r} does not exist on {where}: create it "
                            f"(createdb {name}) or fix DATABASE_URL", setup=True)
    if isinstance(exc, asyncpg.InvalidPasswordError | asyncpg.InvalidAuthorizationSpecificationError):
        return StartupError(f"PostgreSQL at {where} refused user {user!r}: {_one_line(str(exc), password)} "
                            f"(check DATABASE_URL)", setup=True)
    if isinstance(exc, asyncpg.CannotConnectNowError | asyncpg.TooManyConnectionsError):
        return StartupError(f"PostgreSQL at {where} is not ready: {_one_line(str(exc), password)}", transient=True)
    if isinstance(exc, OSError | TimeoutError | asyncpg.ConnectionDoesNotExistError):
        return StartupError(f"cannot reach PostgreSQL at {where}: {_one_line(_reason(exc), password)}",
                            transient=True)
    if isinstance(exc, asyncpg.PostgresError | asyncpg.InterfaceError):
        return StartupError(f"PostgreSQL at {where}/{name}: {_one_line(str(exc), password)}")
    return None


async def retrying(attempt: Callable[[], Awaitable[T]], failure: Callable[[BaseException], StartupError | None],
                   *, seconds: float, stopping: asyncio.Event) -> T | None:
    """``await attempt()``, tried again while it fails transiently, for ``seconds`` in all.

    Each failure is turned into a `StartupError` by ``failure`` (None: raised as it is). A transient one
    is logged in one WARNING line and tried again after a wait that doubles from `FIRST_WAIT` up to `MAX_WAIT`,
    while the next try starts within ``seconds`` of the first.

    Returns:
        What ``attempt`` returned; None if ``stopping`` was set during a wait (the bot is asked to stop).

    Raises:
        StartupError: a failure that is not transient, or the last transient one.
    """
    deadline = time.monotonic() + seconds
    wait = FIRST_WAIT
    while True:
        try:
            return await attempt()
        except Exception as exc:  # classified below; anything unknown goes on up as it is
            error = failure(exc)
            if error is None:
                raise
        left = deadline - time.monotonic()
        if not error.transient:
            raise error
        if left <= 0:
            raise StartupError(f"{error} (gave up after {seconds:.0f} s: STARTUP_RETRY_SECONDS)" if seconds else str(error))
        pause = min(wait, left)
        log.warning("%s; trying again in %.0f s (giving up in %.0f s)", error, pause, left)
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(stopping.wait(), pause)
        if stopping.is_set():
            return None
        wait = min(wait * 2, MAX_WAIT)


async def open_store(settings: Settings, stopping: asyncio.Event, lock: SqliteLock | None) -> Store | None:
    """Open and migrate the database of ``settings`` (trying again while it is unreachable, `retrying`),
    after taking ``lock`` (the SQLite file's), then log `start_line`.

    Returns:
        The open store; None when ``stopping`` was set meanwhile (nothing is left open then).

    Raises:
        StartupError: see the module docstring.
    """
    if lock is not None:
        lock.acquire()
    if not settings.database_url and os.path.exists(settings.database_path) \
            and not os.access(settings.database_path, os.W_OK):
        raise StartupError(f"cannot write the SQLite database at {settings.database_path}: "
                           f"{os.strerror(errno_codes.EACCES)}", setup=True)

    async def attempt() -> Store:
        return await Store.open(settings.database, connect_timeout=ATTEMPT_TIMEOUT)

    store = await retrying(attempt, lambda exc: _database_failure(exc, settings),
                           seconds=settings.startup_retry_seconds, stopping=stopping)
    if store is not None:
        log.info("%s", await start_line(store, settings))
    return store


async def start_line(store: Store, settings: Settings) -> str:
    """One line for the start: the version, the database (`database_label`), its schema version and the
    migrations this start applied (``none``)."""
    return (f"Cuarenta {version()} starting: database {database_label(settings)}, schema version "
            f"{await store.schema_version()}, migrations applied on this start: {', '.join(store.applied) or 'none'}")


def _discord_failure(exc: BaseException, settings: Settings) -> StartupError | None:
    """``exc``, raised while reaching Discord, as a `StartupError` naming the API's host; None when unknown."""
    if isinstance(exc, StartupError):
        return exc
    host = urlsplit(settings.discord_api_base).netloc
    if isinstance(exc, OSError | TimeoutError | aiohttp.ClientConnectionError):
        return StartupError(f"cannot reach Discord at {host}: {_reason(exc)}", transient=True)
    if isinstance(exc, aiohttp.ClientError):
        return StartupError(f"cannot reach Discord at {host}: {_one_line(str(exc)) or type(exc).__name__}")
    return None


async def check_discord(settings: Settings) -> None:
    """Ask Discord's API (``GET {DISCORD_API_BASE}/users/@me``) whether it knows the token.

    Raises:
        StartupError: the token was refused (401); Discord answered 429 or 5xx (transient) or another error.
        OSError, TimeoutError, aiohttp.ClientError: Discord could not be reached.
    """
    host = urlsplit(settings.discord_api_base).netloc
    timeout = aiohttp.ClientTimeout(total=ATTEMPT_TIMEOUT)
    headers = {"Authorization": f"Bot {settings.token}", "User-Agent": _USER_AGENT}
    async with aiohttp.ClientSession(timeout=timeout) as session, session.get(
            settings.discord_api_base + "/users/@me", headers=headers, allow_redirects=False) as response:
        status, reason = response.status, response.reason or ""
    if status == 401:
        raise StartupError(f"DISCORD_TOKEN was refused by Discord ({host} answered 401 {reason})", setup=True)
    if status == 429 or status >= 500:
        raise StartupError(f"Discord at {host} answered {status} {reason}", transient=True)
    if status >= 300:
        raise StartupError(f"Discord at {host} answered {status} {reason} to the token check")


async def reach_discord(settings: Settings, stopping: asyncio.Event) -> bool:
    """`check_discord`, tried again while Discord cannot be reached (`retrying`); False when ``stopping``
    was set meanwhile.

    Raises:
        StartupError: see the module docstring.
    """
    async def attempt() -> bool:
        await check_discord(settings)
        return True

    return bool(await retrying(attempt, lambda exc: _discord_failure(exc, settings),
                               seconds=settings.startup_retry_seconds, stopping=stopping))


__all__ = ["ATTEMPT_TIMEOUT", "FIRST_WAIT", "MAX_WAIT", "SqliteLock", "StartupError", "check_discord", "database_label",
           "open_store", "reach_discord", "retrying", "start_line", "version"]
