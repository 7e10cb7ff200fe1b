"""Backups and restores of the SQLite database: ``python -m bot backup PATH`` and ``python -m bot restore PATH``.

A running bot keeps its recent commits in ``<db>-wal`` until SQLite checkpoints them into ``<db>``, so a
plain copy of ``<db>`` alone (``cp``) may miss them, and a copy taken while a checkpoint writes may be torn.
`backup` copies through SQLite's online backup API (`sqlite3.Connection.backup`) in one step, which reads
one consistent snapshot (every transaction committed before it began, none after) while the bot goes on
writing, into a temporary file beside ``PATH`` that is renamed into place only once complete and checked.
The copy is a single self-contained file (rollback journal, no ``-wal``).

`restore` puts a copy back in place of the database, only while the bot is stopped: the running bot holds
an exclusive `fcntl.flock` on ``<db>.lock``, and `restore` takes that lock itself for as long as it works
(so a bot started meanwhile refuses to start). It refuses a file that is not a SQLite database, not a
Cuarenta database (no ``tables`` / ``plays`` / ``mesas`` of ours, or ``PRAGMA user_version`` 0), from a
newer schema than this build's migrations, or damaged (``PRAGMA integrity_check``). The database it
replaces is kept as ``<db>.before-restore-<UTC timestamp>``, with its ``-wal`` (if it still holds
anything) renamed beside it so that copy stays whole; no ``-wal`` / ``-shm`` of the old file is left
beside the new one, where SQLite would replay the old file's frames into it.

PostgreSQL (``DATABASE_URL``) is backed up with ``pg_dump -Fc`` and restored with ``pg_restore``
(docs/backups.md); both commands refuse it.

The functions raise `Refused` (one line, exit code 2 in `command`); the command prints one line.
"""

from __future__ import annotations

import argparse
import contextlib
import fcntl
import os
import sqlite3
import stat
import sys
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from bot.store import StoreError, migrations

OK = 0
FAILED = 1
REFUSED = 2
"""Exit codes of `command`: done, failed (an I/O or SQLite error), refused (nothing was changed)."""

SQLITE_MAGIC = b"SQLite format 3\x00"
"""The first 16 bytes of every SQLite database file."""

OUR_TABLES = ("guild_settings", "mesas", "plays", "tables")
"""Tables migration 1 creates: a SQLite file without them is not a Cuarenta database."""

BUSY_TIMEOUT_S = 10.0
"""Seconds a connection of these commands waits for a lock the bot holds for a moment (a play's write)."""


class Refused(StoreError):
    """The command refused, and changed nothing; ``str(error)`` is one line saying why."""


class Failed(StoreError):
    """The command could not write its file (``str(error)``: one line naming that file and why); nothing
    is left under the file's name."""


@dataclass(frozen=True, slots=True)
class Contents:
    """What a Cuarenta SQLite file holds: its schema version (``PRAGMA user_version``), the number of
    stored plays, of open tables (lobby or playing), and its size in bytes."""

    schema: int
    plays: int
    open_tables: int
    size: int

    def describe(self) -> str:
        """``schema 15, 212 plays, 3 open tables, 1.2 MB``."""
        return (f"schema {self.schema}, {self.plays} plays, {self.open_tables} open tables,"
                f" {_human_size(self.size)}")


@dataclass(frozen=True, slots=True)
class Copied:
    """A backup made: the database copied (``source``), where to (``target``), and what the copy holds."""

    source: Path
    target: Path
    contents: Contents

    def line(self) -> str:
        """The command's one line of output."""
        return f"backed up {self.source} to {self.target} ({self.contents.describe()})"


@dataclass(frozen=True, slots=True)
class Restored:
    """A restore done: the copy put back (``source``), the database path it now fills (``database``),
    what it holds, the replaced database set aside (None when there was none) and the schema this build
    migrates the copy to at its next start."""

    source: Path
    database: Path
    contents: Contents
    set_aside: Path | None
    latest: int

    def line(self) -> str:
        """The command's one line of output."""
        text = f"restored {self.source} to {self.database} ({self.contents.describe()})"
        if self.contents.schema < self.latest:
            text += f"; the bot migrates it to schema {self.latest} at its next start"
        if self.set_aside is not None:
            text += f"; the database it replaced is kept as {self.set_aside}"
        return text


def latest_schema() -> int:
    """The schema version this build's migrations reach (the number of the last migration)."""
    return migrations()[-1][0]


def lock_path(database: str | Path) -> Path:
    """The lock file a running bot holds for the SQLite file ``database``: ``<database>.lock``."""
    return Path(f"{database}.lock")


@contextlib.contextmanager
def bot_stopped(database: str | Path) -> Iterator[None]:
    """Hold the bot's lock of ``database`` (an exclusive, non-blocking `fcntl.flock` on `lock_path`, created
    if missing) for the block: no bot runs on it meanwhile, and none can start.

    Raises:
        Refused: another process holds the lock (the bot is running), or the lock file cannot be opened.
    """
    path = lock_path(database)
    try:
        fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
    except OSError as exc:
        raise Refused(f"cannot open the lock file {path}: {exc.strerror}") from exc
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            raise Refused(f"the bot is running on {database} (it holds {path}): stop it first") from None
        yield
    finally:
        os.close(fd)  # closing the descriptor releases the lock


def _human_size(size: int) -> str:
    if size < 1024:
        return f"{size} B"
    if size < 1024 * 1024:
        return f"{size / 1024:.1f} KB"
    return f"{size / (1024 * 1024):.1f} MB"


def _connect(path: Path, mode: str) -> sqlite3.Connection:
    """A connection to the existing file ``path`` (``mode`` ``"ro"`` or ``"rw"``: never creates it)."""
    conn = sqlite3.connect(f"{path.resolve().as_uri()}?mode={mode}", uri=True, timeout=BUSY_TIMEOUT_S,
                           isolation_level=None)
    return conn


def contents_of(conn: sqlite3.Connection, path: Path, *, check: bool) -> Contents:
    """What the Cuarenta database on ``conn`` (the file ``path``) holds; with ``check``, run SQLite's
    ``PRAGMA integrity_check`` on it first.

    Raises:
        Refused: not a Cuarenta database (``user_version`` 0 or a table of `OUR_TABLES` missing), damaged,
            or unreadable.
    """
    try:
        schema = int(conn.execute("PRAGMA user_version").fetchone()[0])
        names = {row[0] for row in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        missing = [name for name in OUR_TABLES if name not in names]
        if schema <= 0 or missing:
            raise Refused(f"{path} is a SQLite database but not a Cuarenta one (schema {schema}, missing"
                          f" tables: {', '.join(missing) or 'none'})")
        if check:
            problems = [row[0] for row in conn.execute("PRAGMA integrity_check")]
            if problems != ["ok"]:
                raise Refused(f"{path} is damaged: PRAGMA integrity_check says {problems[0]!r}")
        plays = int(conn.execute("SELECT count(*) FROM plays").fetchone()[0])
        open_tables = int(conn.execute(
            "SELECT count(*) FROM tables WHERE status IN ('lobby', 'playing')").fetchone()[0])
    except sqlite3.DatabaseError as exc:
        raise Refused(f"cannot read {path} as a SQLite database: {exc}") from exc
    return Contents(schema=schema, plays=plays, open_tables=open_tables, size=path.stat().st_size)


def _require_sqlite_file(path: Path) -> None:
    """Raises `Refused` unless ``path`` is a file that starts with SQLite's header."""
    if not path.is_file():
        raise Refused(f"no database file at {path}")
    with path.open("rb") as fh:
        if fh.read(len(SQLITE_MAGIC)) != SQLITE_MAGIC:
            raise Refused(f"{path} is not a SQLite database")


def _fsync(path: Path) -> None:
    """Flush ``path`` (a file or a directory) to the disk."""
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def _copy(source: sqlite3.Connection, target: Path) -> None:
    """Copy the database on ``source`` into the new file ``target`` with SQLite's backup API, in one step
    (one read snapshot: concurrent writers neither restart nor tear it), as a rollback-journal file (no
    ``-wal`` to carry), flushed to the disk."""
    dest = sqlite3.connect(target, isolation_level=None)
    try:
        source.backup(dest)  # pages=-1: the whole database in one step
        dest.execute("PRAGMA journal_mode=DELETE").fetchall()
    finally:
        dest.close()
    _fsync(target)


def _unlink_quietly(*paths: Path) -> None:
    for path in paths:
        with contextlib.suppress(FileNotFoundError):
            path.unlink()


def _companions(database: Path) -> set[Path]:
    """The files SQLite and the bot keep beside ``database`` (its ``-wal``, ``-shm`` and ``-journal``, and
    the bot's ``.lock``), resolved: `backup` never writes over one of them."""
    real = database.resolve()
    return {Path(f"{real}{suffix}") for suffix in ("-wal", "-shm", "-journal")} | {lock_path(real).resolve()}


def backup(database: str | Path, target: str | Path, *, force: bool = False) -> Copied:
    """Copy the SQLite database ``database`` (the bot may be running on it) to the new file ``target``.

    The copy holds every transaction committed before it began; it is written beside ``target`` under a
    temporary name, checked (``PRAGMA integrity_check``, a Cuarenta schema), given the database file's
    permission bits (it holds the same hands and names), and then renamed to ``target``: an interrupted
    backup never leaves a partial file under that name.

    Raises:
        Refused: no database file, not a Cuarenta database, ``target`` is a directory, the database itself
            or one of its companion files (`_companions`, even with ``force``), in a missing directory, or
            exists and ``force`` is false.
        Failed: the copy could not be written in ``target``'s directory (permissions, disk full; also a
            directory the user may not look into); the message names ``target``.
        OSError: another file operation failed.
    """
    source_path, target_path = Path(database), Path(target)
    _require_sqlite_file(source_path)
    try:
        if target_path.is_dir():
            raise Refused(f"{target_path} is a directory: give the backup's file name")
        if target_path.exists() and target_path.resolve() == source_path.resolve():
            raise Refused(f"{target_path} is the database itself")
        if target_path.resolve() in _companions(source_path):
            raise Refused(f"{target_path} is one of the database's own files (its journal, index or lock)")
        if target_path.exists() and not force:
            raise Refused(f"{target_path} exists: choose another path, or add --force to replace it")
        if not target_path.parent.is_dir():
            raise Refused(f"no directory {target_path.parent} for the backup")
    except PermissionError as exc:  # a folder the user may not even look into
        raise Failed(f"cannot write the backup {target_path} (in {target_path.parent}): {exc.strerror}") from exc
    partial = target_path.with_name(f".{target_path.name}.partial-{os.getpid()}")
    _unlink_quietly(partial, Path(f"{partial}-journal"))
    try:
        source = _connect(source_path, "rw")  # a WAL reader may need to write the -shm index
        try:
            contents_of(source, source_path, check=False)  # refuse a foreign database before copying
            try:  # created here, where the OS can say why not ("Permission denied"), rather than by SQLite
                os.close(os.open(partial, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))
                _copy(source, partial)
            except (OSError, sqlite3.Error) as exc:
                why = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
                raise Failed(f"cannot write the backup {target_path} (in {target_path.parent}): {why}") from exc
        finally:
            source.close()
        copy = _connect(partial, "ro")
        try:
            contents = contents_of(copy, partial, check=True)
        finally:
            copy.close()
        os.chmod(partial, stat.S_IMODE(source_path.stat().st_mode))
        os.replace(partial, target_path)
        _fsync(target_path.parent)
    except BaseException:
        _unlink_quietly(partial, Path(f"{partial}-journal"))
        raise
    return Copied(source=source_path, target=target_path, contents=contents)


def _aside_name(database: Path, when: datetime) -> Path:
    """``<database>.before-restore-<YYYYmmddTHHMMSSZ>``, with ``-2``, ``-3`` … when taken."""
    base = f"{database}.before-restore-{when.strftime('%Y%m%dT%H%M%SZ')}"
    candidate, n = Path(base), 1
    while candidate.exists():
        n += 1
        candidate = Path(f"{base}-{n}")
    return candidate


def _set_aside(database: Path, when: datetime) -> Path:
    """Move the database being replaced to `_aside_name`, whole: its WAL is checkpointed into it first
    when SQLite can; a ``-wal`` still holding frames goes beside the copy (``<aside>-wal``, where SQLite
    reads it when the copy is opened); an empty ``-wal`` and the ``-shm`` index are removed. Nothing of
    the old file stays under the database's name."""
    with contextlib.suppress(sqlite3.Error):
        conn = _connect(database, "rw")
        try:
            conn.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchall()
        finally:
            conn.close()  # the last connection of a WAL database checkpoints and deletes the -wal
    aside = _aside_name(database, when)
    os.replace(database, aside)
    wal, shm = Path(f"{database}-wal"), Path(f"{database}-shm")
    if wal.exists() and wal.stat().st_size > 0:
        os.replace(wal, Path(f"{aside}-wal"))
    _unlink_quietly(wal, shm, Path(f"{database}-journal"))
    return aside


def _take_ownership(path: Path, like: os.stat_result) -> None:
    """Give ``path`` the permission bits of ``like`` (the replaced database's `os.stat` result) and, when
    running as root, its owner and group: a restore run by root must leave a file the bot's user can write."""
    os.chmod(path, stat.S_IMODE(like.st_mode))
    if hasattr(os, "geteuid") and os.geteuid() == 0:
        os.chown(path, like.st_uid, like.st_gid)


def restore(database: str | Path, source: str | Path, *, now: datetime | None = None) -> Restored:
    """Put the backup ``source`` in place of the SQLite database ``database``, with the bot stopped.

    ``source`` is checked first (a SQLite file, a Cuarenta schema no newer than `latest_schema`, ``PRAGMA
    integrity_check``), then copied through SQLite's backup API to a temporary file beside ``database``,
    which replaces it (`os.replace`). The database replaced is set aside as
    ``<database>.before-restore-<timestamp>`` (UTC ``now``); an older schema is migrated by the bot at
    its next start. The restored file (and a ``-wal`` / ``-shm`` beside it, and the lock file when this
    restore created it) gets the permission bits of the database it replaced and, when run as root, its
    owner and group (`_take_ownership`), so the bot's user can still write it; with no database to
    replace, they are the running user's.

    Raises:
        Refused: the bot holds ``<database>.lock`` (`bot_stopped`); ``source`` is missing, the database
            itself, not SQLite, not a Cuarenta database, from a newer schema, or damaged; nothing changed.
        OSError: the copy could not be written.
    """
    database_path, source_path = Path(database), Path(source)
    _require_sqlite_file(source_path)
    if database_path.exists() and database_path.resolve() == source_path.resolve():
        raise Refused(f"{source_path} is the database itself")
    if not database_path.parent.is_dir():
        raise Refused(f"no directory {database_path.parent} for the database")
    latest = latest_schema()
    lock_existed = lock_path(database_path).exists()
    try:
        owner = database_path.stat() if database_path.exists() else None
    except OSError:
        owner = None
    with bot_stopped(database_path):
        conn = _connect(source_path, "ro")
        try:
            contents = contents_of(conn, source_path, check=True)
            if contents.schema > latest:
                raise Refused(f"{source_path} is at schema {contents.schema}, newer than this build knows"
                              f" ({latest}): upgrade the bot first")
            incoming = database_path.with_name(f".{database_path.name}.restoring-{os.getpid()}")
            _unlink_quietly(incoming, Path(f"{incoming}-journal"))
            try:
                _copy(conn, incoming)
            except BaseException:
                _unlink_quietly(incoming, Path(f"{incoming}-journal"))
                raise
        finally:
            conn.close()
        try:
            aside = _set_aside(database_path, now or datetime.now(UTC)) if database_path.exists() else None
            if owner is not None:
                _take_ownership(incoming, owner)
            os.replace(incoming, database_path)
        except BaseException:
            _unlink_quietly(incoming)
            raise
        if owner is not None:
            for companion in (Path(f"{database_path}-wal"), Path(f"{database_path}-shm")):
                if companion.exists():
                    _take_ownership(companion, owner)
            if not lock_existed:
                _take_ownership(lock_path(database_path), owner)
        _fsync(database_path.parent)
    return Restored(source=source_path, database=database_path, contents=contents, set_aside=aside,
                    latest=latest)


def _parser(name: str) -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog=f"python -m bot {name}", description=(
        "Copy the SQLite database (DATABASE_PATH) to PATH, safely while the bot runs." if name == "backup"
        else "Put the backup PATH in place of the SQLite database (DATABASE_PATH); the bot must be stopped."))
    parser.add_argument("path", metavar="PATH")
    if name == "backup":
        parser.add_argument("--force", action="store_true", help="replace PATH if it exists")
    return parser


def command(name: str, argv: Sequence[str]) -> int:
    """Run ``python -m bot backup PATH [--force]`` or ``python -m bot restore PATH`` (``name``) on the
    database of the settings (`bot.config.Settings.from_env`: ``DATABASE_PATH``; ``DATABASE_URL`` is
    refused, pointing to docs/backups.md). Prints one line (on stderr when not done) and returns
    `OK`, `FAILED` or `REFUSED` (also for bad arguments and settings)."""
    from bot.config import ConfigError, Settings

    try:
        args = _parser(name).parse_args(list(argv))
    except SystemExit as exc:  # argparse printed the usage
        return OK if exc.code == 0 else REFUSED
    try:
        settings = Settings.from_env()
    except ConfigError as exc:
        print(f"configuration error: {exc}", file=sys.stderr)
        return REFUSED
    if settings.database_url:
        tool = "pg_dump -Fc" if name == "backup" else "pg_restore --clean --if-exists"
        print(f"{name} refused: DATABASE_URL is PostgreSQL; use {tool} instead (docs/backups.md)", file=sys.stderr)
        return REFUSED
    try:
        if name == "backup":
            print(backup(settings.database_path, args.path, force=args.force).line())
        else:
            print(restore(settings.database_path, args.path).line())
    except Refused as exc:
        print(f"{name} refused: {exc}", file=sys.stderr)
        return REFUSED
    except Failed as exc:
        print(f"{name} failed: {exc}", file=sys.stderr)
        return FAILED
    except (OSError, sqlite3.Error) as exc:
        print(f"{name} failed: {exc}", file=sys.stderr)
        return FAILED
    return OK


__all__ = ["Contents", "Copied", "Failed", "Refused", "Restored", "backup", "bot_stopped", "command", "contents_of",
           "latest_schema", "lock_path", "restore"]
