"""Persistence over one `bot.store.db.Database`: SQLite (aiosqlite, one long-lived connection, WAL and
foreign keys on; the embedded default) or PostgreSQL (asyncpg, chosen by a ``postgresql://`` URL), with
numbered migrations tracked by ``PRAGMA user_version`` or a ``schema_version`` row.

Migrations are the files ``migrations/NNNN_name.sql`` (SQL) or ``migrations/NNNN_name.py`` (a data migration:
a module with ``async def upgrade(db)`` over a `Database`); file N brings the schema to version N. Each is
applied in one transaction. The SQL files are written for SQLite; `postgresql_ddl` rewrites them for
PostgreSQL, so both backends keep one list of migrations.

Other modules talk to the database only through repositories (`Store`'s methods here, `bot.ratings.repo`,
`bot.competitions`' repos), which run their SQL through ``store.db`` and take and return plain values.
"""

from __future__ import annotations

import importlib.util
import json
import logging
import re
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import orjson

from bot.store.db import NOW_ISO, BusyError, Database, IntegrityError, connect, to_postgresql
from bot.store.saves import CHANNEL as SAVED_CHANNEL
from bot.store.saves import SavedVersions

log = logging.getLogger(__name__)

MIGRATIONS_DIR = Path(__file__).with_name("migrations")
_MIGRATION_NAME = re.compile(r"^(\d{4})_[a-z0-9_]+\.(sql|py)$")


INTEGER_MAX = 2**63 - 1
"""The largest id a row can have: SQLite's INTEGER and PostgreSQL's BIGINT are signed 64-bit."""


def storable_id(value: int) -> bool:
    """Whether ``value`` can name a row (``1 ≤ value ≤ INTEGER_MAX``). A forged custom_id or option may
    carry any number: one past 64 bits names no row, and must not reach a query (SQLite raises
    OverflowError on it, PostgreSQL a DataError)."""
    return 0 < value <= INTEGER_MAX


class StoreError(RuntimeError):
    """The database could not be opened or migrated."""


class SchemaTooNewError(StoreError):
    """The database's schema is newer than the newest migration this build knows: a newer build of the bot
    used it. Running this one over it could lose what the newer schema keeps, so it is refused.

    Attributes: ``version``, the database's schema version; ``newest``, the newest this build knows.
    """

    def __init__(self, version: int, newest: int) -> None:
        super().__init__(f"the database is at schema version {version}, but this build of the bot knows only up "
                         f"to {newest}: a newer build used it; upgrade the bot (git pull, then pip install -e .)")
        self.version = version
        self.newest = newest


class ChannelBusyError(StoreError):
    """The channel already holds an open table (the unique index refused a second one)."""


def migrations() -> list[tuple[int, Path]]:
    """The migration files as ``(version, path)``, in order.

    Raises:
        StoreError: the numbers are not 1, 2, 3 … without gaps.
    """
    found = sorted(
        (int(m.group(1)), p) for p in MIGRATIONS_DIR.iterdir() if (m := _MIGRATION_NAME.match(p.name))
    )
    for expected, (version, path) in enumerate(found, start=1):
        if version != expected:
            raise StoreError(f"migration {path.name} should be number {expected:04d}")
    return found


def _load_migration(path: Path) -> Any:
    """Import a data migration module from its file."""
    spec = importlib.util.spec_from_file_location(f"bot.store.migrations.m{path.stem}", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


_TABLE_ROWS = ("SELECT tables.*, table_messages.messages AS messages FROM tables"
               " LEFT JOIN table_messages ON table_messages.table_id = tables.id")
"""The start of a query of `TableRow`: a table's columns with the presenter's message ids
(`bot.store.messages`)."""


@dataclass
class TableRow:
    """One row of ``tables`` with its JSON columns decoded."""

    id: int
    guild_id: int
    channel_id: int
    host_id: int | None
    players: int
    preset: str
    status: str
    seed: str | None
    seats: list[Any]
    game: dict[str, Any] | None
    messages: dict[str, Any]
    """The presenter's message ids (``table_messages``, written by `bot.store.messages.TableMessages`
    alone; ``{}`` when none were kept), read with the row."""
    meta: dict[str, Any]
    timers: dict[str, Any] = field(default_factory=dict)
    casual: bool = False
    version: int = 0
    """Bumped by every `Store.save_table` (migration 10): another process saved the table when it differs
    from the version in memory."""
    plays: list[tuple[int, str, str]] = field(default_factory=list)
    """The table's stored plays as ``(seat, card, captures)``, in order, when ``game`` is a snapshot
    (version 2: `bot.engine.Game.from_snapshot` rebuilds the game from both); empty otherwise."""


class Store:
    """The database. Open it with `Store.open`, close it with `close`.

    Args:
        db: the open `bot.store.db.Database` (SQLite or PostgreSQL).
    """

    LOCK_TIMEOUT_MS = 1000
    """Milliseconds `claim_table` waits for a table's row another process holds (PostgreSQL's
    ``lock_timeout``) before it raises `BusyError`."""

    def __init__(self, db: Database) -> None:
        self.db = db
        self.lock_timeout_ms = self.LOCK_TIMEOUT_MS
        self.saves: SavedVersions | None = SavedVersions(db) if db.dialect == "postgresql" else None
        """The versions every process saves, from PostgreSQL's notices (`bot.store.saves`); None on
        SQLite."""
        returning = " RETURNING version"
        if db.dialect == "postgresql":
            returning += f", pg_notify('{SAVED_CHANNEL}', id::text || ':' || version::text)"
        self._returning_version = returning
        self.applied: list[str] = []
        """The migrations `migrate` applied through this object, by file stem (``0015_table_messages``), in
        order; empty when the schema was already current."""

    @classmethod
    async def open(cls, url: str, *, schema: int | None = None, connect_timeout: float = 60.0) -> Store:
        """Open the database at ``url`` and apply pending migrations: a SQLite file path (``":memory:"``
        for tests; WAL and foreign keys on), or a ``postgresql://…`` URL (an asyncpg pool, each connection
        given ``connect_timeout`` seconds). ``schema`` stops at that migration (tests of a migration build
        the database as it was before it).

        Raises:
            SchemaTooNewError: the database is newer than this build (`migrate`).
            StoreError: a migration failed (the schema stays at the last good version).
            OSError, TimeoutError, sqlite3.Error, asyncpg.PostgresError: the database could not be reached
                or opened (`bot.startup` tells them apart).
        """
        db = await connect(url, connect_timeout=connect_timeout)
        try:
            store = cls(db)
            await store.migrate(schema)
            if store.saves is not None:
                await store.saves.start()
        except BaseException:
            await db.close()
            raise
        return store

    def newest_saved(self, table_id: int) -> int | None:
        """The newest version of table ``table_id`` saved by any process, as PostgreSQL's notices tell (0:
        none since this process loaded it), or None when unknown: on SQLite, while the notice connection
        is down or unproven, or for a table not heard of since it was replaced (`bot.store.saves`). Then
        ask `table_version`, which reports what it reads. A save that has just committed elsewhere may not
        be heard yet."""
        return self.saves.newest(table_id) if self.saves is not None else None

    def watch_saves(self, watcher: Callable[[int, int], None]) -> None:
        """Call ``watcher(table_id, version)`` (on the event loop, without awaiting: it must be quick) for
        every save of a table that PostgreSQL's notices tell, by any process, this one included. Notices
        are not guaranteed: one sent while the notice connection was down is never told. Nothing on
        SQLite, where this process makes every save."""
        if self.saves is not None:
            self.saves.watchers.append(watcher)

    async def close(self) -> None:
        """Close the connection or pool (idempotent)."""
        if self.saves is not None:
            await self.saves.close()
        await self.db.close()

    async def schema_version(self) -> int:
        """The number of the last migration applied (SQLite's ``PRAGMA user_version``; on PostgreSQL, the
        one row of ``schema_version``)."""
        if self.db.dialect == "sqlite":
            return int(await self.db.fetchval("PRAGMA user_version"))
        await self.db.execute("CREATE TABLE IF NOT EXISTS schema_version (version BIGINT NOT NULL)")
        return int(await self.db.fetchval("SELECT COALESCE(MAX(version), 0) FROM schema_version"))

    async def _set_version(self, number: int) -> None:
        if self.db.dialect == "sqlite":
            await self.db.execute(f"PRAGMA user_version = {int(number)}")
        else:
            await self.db.execute("DELETE FROM schema_version")
            await self.db.execute("INSERT INTO schema_version (version) VALUES (?)", number)

    async def migrate(self, target: int | None = None) -> int:
        """Apply every migration newer than the schema (up to ``target`` when given), each in one
        transaction; return the new version.

        On PostgreSQL the SQL migrations are rewritten by `postgresql_ddl`; a transaction-scoped advisory
        lock keeps two processes starting together from migrating twice.

        Raises:
            SchemaTooNewError: the schema is newer than the newest migration (nothing is applied).
            StoreError: a migration failed; it was rolled back.
        """
        version = await self.schema_version()
        known = migrations()
        if known and version > known[-1][0]:
            raise SchemaTooNewError(version, known[-1][0])
        for number, path in known:
            if number <= version or (target is not None and number > target):
                continue
            try:
                async with self.db.transaction():
                    if self.db.dialect == "postgresql":
                        await self.db.execute("SELECT pg_advisory_xact_lock(4040)")
                        if await self.schema_version() >= number:
                            continue  # another process applied it meanwhile
                    if path.suffix == ".py":
                        await _load_migration(path).upgrade(self.db)
                    else:
                        sql = path.read_text(encoding="utf-8")
                        await self.db.executescript(
                            postgresql_ddl(sql) if self.db.dialect == "postgresql" else sql)
                    await self._set_version(number)
            except Exception as exc:
                raise StoreError(f"migration {path.name} failed: {exc}") from exc
            version = number
            if path.stem not in self.applied:
                self.applied.append(path.stem)
        return version

    # ------------------------------------------------------------------ tables

    async def create_table(
        self, *, guild_id: int, channel_id: int, host_id: int, players: int, preset: str,
        seats: list[Any], meta: dict[str, Any],
    ) -> int:
        """Insert a table in the lobby; return its id.

        Raises:
            ChannelBusyError: the channel already holds an open table.
        """
        try:
            return await self.db.insert(
                "INSERT INTO tables (guild_id, channel_id, host_id, players, preset, status, seats, meta)"
                " VALUES (?, ?, ?, ?, ?, 'lobby', ?, ?)",
                guild_id, channel_id, host_id, players, preset, json.dumps(seats), json.dumps(meta),
            )
        except IntegrityError as exc:
            raise ChannelBusyError(str(exc)) from exc

    @staticmethod
    def _json(value: Any) -> str:
        """``value`` as JSON text, as ``json.dumps`` writes it but for the spaces (non-string keys become
        strings), by orjson: the save of every play writes three such columns."""
        return orjson.dumps(value, option=orjson.OPT_NON_STR_KEYS).decode()

    async def save_table(
        self, *, table_id: int, host_id: int | None, status: str, seed: str | None, seats: list[Any],
        game: dict[str, Any] | None, play: tuple[int, int, str, str] | None = None,
        mesa: dict[str, Any] | None = None,
        before_commit: Callable[[], Awaitable[Any]] | None = None,
        timers: dict[str, Any] | None = None, casual: bool | None = None, meta: dict[str, Any] | None = None,
    ) -> int:
        """Write a table's state in one transaction, with the play that produced it
        (``(seq, seat, card, captures)``, appended to ``plays``) and, when the mesa just ended, its result row.

        ``game`` is the game's compact snapshot (`bot.engine.Game.snapshot`, about 1 KB whatever the
        length of the mesa): with the appended plays it rebuilds the game, so the cost of a save does not
        grow with the mesa.

        ``before_commit`` runs inside the transaction, after these writes (the ratings of the chicas the
        play finished: its writes through ``store.db`` join the transaction); if it raises, nothing is
        written.

        ``timers`` (the table's clocks, JSON), ``casual`` (the mesa is unrated from now on) and ``meta`` (names,
        house rules, hints) are written in the same transaction when given.

        Returns the table's new `TableRow.version` (one more than before)."""
        statements: list[tuple[str, Sequence[Any]]] = [(
            "UPDATE tables SET host_id = ?, status = ?, seed = ?, seats = ?, game = ?,"
            " timers = COALESCE(?, timers), casual = COALESCE(?, casual), meta = COALESCE(?, meta),"
            f" updated_at = {NOW_ISO}, version = version + 1 WHERE id = ?{self._returning_version}",
            (host_id, status, seed, self._json(seats), self._json(game) if game is not None else None,
             self._json(timers) if timers is not None else None, int(casual) if casual is not None else None,
             self._json(meta) if meta is not None else None, table_id),
        )]
        if play is not None:
            statements.append(("INSERT INTO plays (table_id, seq, seat, card, captures) VALUES (?, ?, ?, ?, ?)",
                               (table_id, *play)))
        if mesa is not None:
            statements.append((
                "INSERT INTO mesas (table_id, guild_id, channel_id, preset, players, seed, winner,"
                " chicas_a, chicas_b, zapateria, seats) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (table_id, mesa["guild_id"], mesa["channel_id"], mesa["preset"], mesa["players"], mesa["seed"],
                 mesa["winner"], mesa["chicas_a"], mesa["chicas_b"], mesa["zapateria"], json.dumps(mesa["seats"])),
            ))
        if before_commit is None:  # a play's usual save: one batch (one trip to SQLite's thread)
            rows = await self.db.batch(statements)
        else:
            async with self.db.transaction():
                rows = await self.db.batch(statements)
                await before_commit()
        return int(rows[0][0][0]) if rows[0] else 0

    @property
    def shared(self) -> bool:
        """True when other bot processes may use this database too (PostgreSQL): a table's state must then
        be claimed with `claim_table` before it changes."""
        return self.db.dialect == "postgresql"

    async def claim_table(self, table_id: int) -> int | None:
        """Inside a transaction: lock the table's row until the transaction ends (``SELECT … FOR UPDATE``
        on PostgreSQL; SQLite's one writer is the lock there) and return its stored version, or None when
        the table is gone. Another process claiming the same table waits until this transaction ends, at
        most `lock_timeout_ms` (PostgreSQL's ``lock_timeout``, for this transaction only).

        Raises:
            BusyError: the row was not had in time (the transaction is to be rolled back).
        """
        if self.db.dialect != "postgresql":
            value = await self.db.fetchval("SELECT version FROM tables WHERE id = ?", table_id)
        else:
            await self.db.execute(f"SET LOCAL lock_timeout = {int(self.lock_timeout_ms)}")
            value = await self.db.fetchval("SELECT version FROM tables WHERE id = ? FOR UPDATE", table_id)
        return int(value) if value is not None else None

    async def table_version(self, table_id: int) -> int | None:
        """The stored `TableRow.version` of a table (no lock taken), or None when the table is gone.

        Raises:
            BusyError: on PostgreSQL, no connection of the pool was free in time.
        """
        epoch = self.saves.epoch if self.saves is not None else 0
        value = await self.db.fetchval("SELECT version FROM tables WHERE id = ?", table_id)
        if value is None:
            return None
        if self.saves is not None:
            self.saves.seen(table_id, int(value), epoch)  # known from the notices from now on
        return int(value)

    async def table_versions(self, table_ids: list[int]) -> dict[int, int]:
        """The stored versions of several tables, by id, in one query (no lock taken; a table gone is
        missing), each reported as `table_version` does.

        Raises:
            BusyError: on PostgreSQL, no connection of the pool was free in time.
        """
        if not table_ids:
            return {}
        epoch = self.saves.epoch if self.saves is not None else 0
        marks = ", ".join("?" for _ in table_ids)
        rows = await self.db.fetch(f"SELECT id, version FROM tables WHERE id IN ({marks})", *table_ids)
        versions = {int(row[0]): int(row[1]) for row in rows}
        if self.saves is not None:
            for table_id, version in versions.items():
                self.saves.seen(table_id, version, epoch)
        return versions

    async def save_rematch_check(self, table_id: int, state: dict[str, Any] | None) -> None:
        """Keep the open rematch ready check of a finished table (``state``, JSON-able), or forget it (None:
        the check ended)."""
        if state is None:
            await self.db.execute("DELETE FROM rematch_checks WHERE table_id = ?", table_id)
        else:
            await self.db.execute(
                "INSERT INTO rematch_checks (table_id, state) VALUES (?, ?)"
                " ON CONFLICT (table_id) DO UPDATE SET state = excluded.state", table_id, json.dumps(state))

    async def load_rematch_checks(self) -> dict[int, dict[str, Any]]:
        """Every kept rematch ready check, by table id (resumed after a restart)."""
        rows = await self.db.fetch("SELECT table_id, state FROM rematch_checks ORDER BY table_id")
        return {int(r["table_id"]): json.loads(r["state"]) for r in rows}

    def _row(self, row: Any) -> TableRow:
        return TableRow(
            id=row["id"], guild_id=row["guild_id"], channel_id=row["channel_id"], host_id=row["host_id"],
            players=row["players"], preset=row["preset"], status=row["status"], seed=row["seed"],
            seats=json.loads(row["seats"]), game=json.loads(row["game"]) if row["game"] else None,
            messages=json.loads(row["messages"]) if row["messages"] else {}, meta=json.loads(row["meta"]),
            timers=json.loads(row["timers"]), casual=bool(row["casual"]), version=int(row["version"]),
        )

    async def _with_plays(self, rows: list[TableRow]) -> list[TableRow]:
        """Attach the stored plays to every row whose game is a snapshot (one query per 500 tables)."""
        wanted = [r for r in rows if r.game is not None and r.game.get("version") == 2]
        for start in range(0, len(wanted), 500):
            chunk = {r.id: r for r in wanted[start:start + 500]}
            marks = ", ".join("?" * len(chunk))
            for r in await self.db.fetch(
                f"SELECT table_id, seat, card, captures FROM plays WHERE table_id IN ({marks})"
                " ORDER BY table_id, seq", *chunk
            ):
                chunk[r["table_id"]].plays.append((r["seat"], r["card"], r["captures"]))
        return rows

    async def load_table(self, table_id: int) -> TableRow | None:
        """One table by id (with its plays, see `TableRow.plays`), or None."""
        row = await self.db.fetchrow(f"{_TABLE_ROWS} WHERE tables.id = ?", table_id)
        return (await self._with_plays([self._row(row)]))[0] if row else None

    async def load_open_tables(self) -> list[TableRow]:
        """Every table in the lobby or in play, oldest first, with their plays (restored after a restart)."""
        rows = await self.db.fetch(f"{_TABLE_ROWS} WHERE status IN ('lobby', 'playing') ORDER BY tables.id")
        return await self._with_plays([self._row(r) for r in rows])

    async def load_finished_tables(self, since_days: float) -> list[TableRow]:
        """Tables whose mesa finished within the last ``since_days`` days, oldest first (the ratings
        catch-up after a restart)."""
        since = (datetime.now(UTC) - timedelta(days=float(since_days))).strftime("%Y-%m-%dT%H:%M:%SZ")
        rows = await self.db.fetch(
            f"{_TABLE_ROWS} WHERE status = 'finished' AND updated_at >= ? ORDER BY tables.id", since)
        return await self._with_plays([self._row(r) for r in rows])

    async def plays(self, table_id: int) -> list[tuple[int, str, str]]:
        """The stored plays of a table as ``(seat, card, captures)``, in order."""
        rows = await self.db.fetch(
            "SELECT seat, card, captures FROM plays WHERE table_id = ? ORDER BY seq", table_id)
        return [(r["seat"], r["card"], r["captures"]) for r in rows]

    async def mesa(self, table_id: int) -> dict[str, Any] | None:
        """The stored result of a finished mesa, or None."""
        row = await self.db.fetchrow("SELECT * FROM mesas WHERE table_id = ?", table_id)
        if row is None:
            return None
        out = dict(row)
        out["seats"] = json.loads(out["seats"])
        return out

    async def seat_names(self, guild_id: int, user_ids: list[int]) -> dict[int, str]:
        """The name each user had when they last took a seat at a table of this guild (for boards when
        the member is not in the bot's cache); users never seated are missing from the result."""
        wanted = {int(u) for u in user_ids}
        if not wanted:
            return {}
        # Newest table first, only the rows whose seats text holds a wanted id's digits (a row where that user
        # sat always does), in batches, until every user has a name: a page of ten names reads a few rows,
        # not every table of the server.
        names: dict[int, str] = {}
        remaining = set(wanted)
        before: int | None = None
        while remaining:
            ids = sorted(remaining)
            holds = " OR ".join("seats LIKE ?" for _ in ids)
            rows = await self.db.fetch(
                f"SELECT id, seats FROM tables WHERE guild_id = ?{' AND id < ?' if before is not None else ''}"
                f" AND ({holds}) ORDER BY id DESC LIMIT 200",
                guild_id, *([before] if before is not None else []), *(f"%{u}%" for u in ids))
            for row in rows:
                for seat in json.loads(row["seats"]):
                    if isinstance(seat, dict) and seat.get("user_id") in remaining and seat.get("name"):
                        names[int(seat["user_id"])] = seat["name"]
                        remaining.discard(int(seat["user_id"]))
            if len(rows) < 200:
                break
            before = int(rows[-1]["id"])
        return names

    # ------------------------------------------------------------------ guild settings

    async def guild_language(self, guild_id: int) -> str | None:
        """The public language chosen by a guild, or None (the default)."""
        return await self.db.fetchval("SELECT language FROM guild_settings WHERE guild_id = ?", guild_id)

    async def set_guild_language(self, guild_id: int, language: str) -> None:
        """Choose a guild's public language."""
        await self.db.execute(
            "INSERT INTO guild_settings (guild_id, language) VALUES (?, ?)"
            " ON CONFLICT (guild_id) DO UPDATE SET language = excluded.language",
            guild_id, language,
        )

    # ------------------------------------------------------------------ table clocks

    async def save_timers(self, table_id: int, timers: dict[str, Any], casual: bool | None = None) -> int:
        """Write a table's clocks (and, when given, its casual flag) alone: a reminder sent, a deadline
        moved after a restart, a lobby deadline set. Returns the table's new `TableRow.version` (0 when
        the table is gone)."""
        [rows] = await self.db.batch([(  # a write: in a transaction of its own (or the caller's)
            "UPDATE tables SET timers = ?, casual = COALESCE(?, casual), version = version + 1 WHERE id = ?"
            + self._returning_version,
            (json.dumps(timers), int(casual) if casual is not None else None, table_id),
        )])
        return int(rows[0][0]) if rows else 0

    async def guild_turn_timer(self, guild_id: int) -> int | None:
        """A server's default turn timer in seconds, or None when it has no settings row (the default
        applies)."""
        value = await self.db.fetchval("SELECT turn_timer FROM guild_settings WHERE guild_id = ?", guild_id)
        return int(value) if value is not None else None

    async def set_guild_turn_timer(self, guild_id: int, seconds: int) -> None:
        """Choose a server's default turn timer (30–300 seconds).

        Raises:
            ValueError: out of range.
        """
        if not 30 <= seconds <= 300:
            raise ValueError("turn_timer must be between 30 and 300 seconds")
        await self.db.execute(
            "INSERT INTO guild_settings (guild_id, turn_timer) VALUES (?, ?)"
            " ON CONFLICT (guild_id) DO UPDATE SET turn_timer = excluded.turn_timer",
            guild_id, seconds,
        )


def postgresql_ddl(sql: str) -> str:
    """A SQLite migration rewritten as PostgreSQL DDL, the same schema in spirit: ``INTEGER`` columns
    become ``BIGINT`` (Discord ids are 64-bit), ``INTEGER PRIMARY KEY AUTOINCREMENT`` an identity key,
    ``REAL`` ``DOUBLE PRECISION``, ``WITHOUT ROWID`` is dropped and `NOW_ISO` defaults read ``now()``."""
    sql = re.sub(r"\bINTEGER PRIMARY KEY AUTOINCREMENT\b", "BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY", sql)
    sql = re.sub(r"\bINTEGER\b", "BIGINT", sql)
    sql = re.sub(r"\bREAL\b", "DOUBLE PRECISION", sql)
    sql = re.sub(r"\)\s*WITHOUT ROWID", ")", sql)
    return to_postgresql(sql)


__all__ = ["BusyError", "ChannelBusyError", "Database", "IntegrityError", "SchemaTooNewError", "Store", "StoreError", "TableRow", "migrations",
           "postgresql_ddl"]
