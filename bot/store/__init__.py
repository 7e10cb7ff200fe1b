"""Persistence: one long-lived aiosqlite connection (WAL, foreign keys on) and numbered SQL migrations
tracked by ``PRAGMA user_version``.

Migrations are the files ``migrations/NNNN_name.sql`` (SQL) or ``migrations/NNNN_name.py`` (a data migration:
a module with ``async def upgrade(conn)``); file N brings the schema to version N. Each is applied in one
transaction.

All other modules talk to SQLite only through `Store`'s small repository methods, which take and return
plain values (ints, strings, dicts).
"""

from __future__ import annotations

import asyncio
import importlib.util
import json
import re
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import aiosqlite

MIGRATIONS_DIR = Path(__file__).with_name("migrations")
_MIGRATION_NAME = re.compile(r"^(\d{4})_[a-z0-9_]+\.(sql|py)$")


class StoreError(RuntimeError):
    """The database could not be opened or migrated."""


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
    meta: dict[str, Any]
    timers: dict[str, Any] = field(default_factory=dict)
    casual: bool = False
    plays: list[tuple[int, str, str]] = field(default_factory=list)
    """The table's stored plays as ``(seat, card, captures)``, in order, when ``game`` is a snapshot
    (version 2: `bot.engine.Game.from_snapshot` rebuilds the game from both); empty otherwise."""


class Store:
    """The database. Open it with `Store.open`, close it with `close`."""

    def __init__(self, conn: aiosqlite.Connection) -> None:
        self._conn = conn
        self._write = asyncio.Lock()  # one write transaction at a time on the shared connection

    @property
    def connection(self) -> aiosqlite.Connection:
        """The one long-lived connection, for repositories of other packages (`bot.ratings.Ratings`)."""
        return self._conn

    @property
    def write_lock(self) -> asyncio.Lock:
        """The lock held by every write transaction on the connection (shared with `bot.ratings.Ratings`)."""
        return self._write

    @classmethod
    async def open(cls, path: str) -> Store:
        """Connect to the SQLite file ``path`` (``":memory:"`` for tests), enable WAL and foreign keys,
        and apply pending migrations.

        Raises:
            StoreError: a migration failed (the schema stays at the last good version).
        """
        conn = await aiosqlite.connect(path)
        conn.row_factory = aiosqlite.Row
        try:
            for pragma in ("PRAGMA journal_mode=WAL", "PRAGMA foreign_keys=ON", "PRAGMA busy_timeout=5000"):
                async with conn.execute(pragma) as cur:
                    await cur.fetchall()
            store = cls(conn)
            await store.migrate()
        except BaseException:
            await conn.close()
            raise
        return store

    async def close(self) -> None:
        """Close the connection (idempotent)."""
        await self._conn.close()

    async def schema_version(self) -> int:
        """The current ``PRAGMA user_version``."""
        async with self._conn.execute("PRAGMA user_version") as cur:
            row = await cur.fetchone()
        return int(row[0])

    async def migrate(self) -> int:
        """Apply every migration newer than the schema; return the new version.

        Raises:
            StoreError: a migration failed; it was rolled back.
        """
        version = await self.schema_version()
        for number, path in migrations():
            if number <= version:
                continue
            try:
                if path.suffix == ".py":
                    await self._conn.execute("BEGIN")
                    await _load_migration(path).upgrade(self._conn)
                    await self._conn.execute(f"PRAGMA user_version = {number}")
                    await self._conn.commit()
                else:
                    sql = path.read_text(encoding="utf-8")
                    await self._conn.executescript(f"BEGIN;\n{sql}\nPRAGMA user_version = {number};\nCOMMIT;")
            except Exception as exc:
                await self._conn.rollback()
                raise StoreError(f"migration {path.name} failed: {exc}") from exc
            version = number
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
        async with self._write:
            try:
                cur = await self._conn.execute(
                    "INSERT INTO tables (guild_id, channel_id, host_id, players, preset, status, seats, meta)"
                    " VALUES (?, ?, ?, ?, ?, 'lobby', ?, ?)",
                    (guild_id, channel_id, host_id, players, preset, json.dumps(seats), json.dumps(meta)),
                )
            except aiosqlite.IntegrityError as exc:
                await self._conn.rollback()
                raise ChannelBusyError(str(exc)) from exc
            await self._conn.commit()
            return int(cur.lastrowid)

    async def save_table(
        self, *, table_id: int, host_id: int | None, status: str, seed: str | None, seats: list[Any],
        game: dict[str, Any] | None, play: tuple[int, int, str, str] | None = None,
        mesa: dict[str, Any] | None = None,
        before_commit: Callable[[], Awaitable[Any]] | None = None,
        timers: dict[str, Any] | None = None, casual: bool | None = None, meta: dict[str, Any] | None = None,
    ) -> None:
        """Write a table's state in one transaction, with the play that produced it
        (``(seq, seat, card, captures)``, appended to ``plays``) and, when the mesa just ended, its result row.

        ``game`` is the game's compact snapshot (`bot.engine.Game.snapshot`, about 1 KB whatever the
        length of the mesa): with the appended plays it rebuilds the game, so the cost of a save does not
        grow with the mesa (issue 13).

        ``before_commit`` runs inside the transaction, after these writes, with the write lock held (the
        ratings of the chicas the play finished); if it raises, nothing is written.

        ``timers`` (the table's clocks, JSON), ``casual`` (the mesa is unrated from now on) and ``meta`` (names,
        house rules, hints) are written in the same transaction when given."""
        async with self._write:
            try:
                await self._conn.execute(
                    "UPDATE tables SET host_id = ?, status = ?, seed = ?, seats = ?, game = ?,"
                    " timers = COALESCE(?, timers), casual = COALESCE(?, casual), meta = COALESCE(?, meta),"
                    " updated_at = strftime('%Y-%m-%dT%H:%M:%SZ', 'now') WHERE id = ?",
                    (host_id, status, seed, json.dumps(seats), json.dumps(game) if game is not None else None,
                     json.dumps(timers) if timers is not None else None,
                     int(casual) if casual is not None else None,
                     json.dumps(meta) if meta is not None else None, table_id),
                )
                if play is not None:
                    await self._conn.execute(
                        "INSERT INTO plays (table_id, seq, seat, card, captures) VALUES (?, ?, ?, ?, ?)",
                        (table_id, *play),
                    )
                if mesa is not None:
                    await self._conn.execute(
                        "INSERT INTO mesas (table_id, guild_id, channel_id, preset, players, seed, winner,"
                        " chicas_a, chicas_b, zapateria, seats) VALUES (:table_id, :guild_id, :channel_id,"
                        " :preset, :players, :seed, :winner, :chicas_a, :chicas_b, :zapateria, :seats)",
                        {**mesa, "table_id": table_id, "seats": json.dumps(mesa["seats"])},
                    )
                if before_commit is not None:
                    await before_commit()
            except BaseException:
                await self._conn.rollback()
                raise
            await self._conn.commit()

    async def save_messages(self, table_id: int, messages: dict[str, Any]) -> None:
        """Record the Discord message ids of a table (lobby, public message, DMs)."""
        async with self._write:
            await self._conn.execute(
                "UPDATE tables SET messages = ? WHERE id = ?", (json.dumps(messages), table_id)
            )
            await self._conn.commit()

    def _row(self, row: aiosqlite.Row) -> TableRow:
        return TableRow(
            id=row["id"], guild_id=row["guild_id"], channel_id=row["channel_id"], host_id=row["host_id"],
            players=row["players"], preset=row["preset"], status=row["status"], seed=row["seed"],
            seats=json.loads(row["seats"]), game=json.loads(row["game"]) if row["game"] else None,
            messages=json.loads(row["messages"]), meta=json.loads(row["meta"]),
            timers=json.loads(row["timers"]) if "timers" in row.keys() else {},
            casual=bool(row["casual"]) if "casual" in row.keys() else False,
        )

    async def _with_plays(self, rows: list[TableRow]) -> list[TableRow]:
        """Attach the stored plays to every row whose game is a snapshot (one query per 500 tables)."""
        wanted = [r for r in rows if r.game is not None and r.game.get("version") == 2]
        for start in range(0, len(wanted), 500):
            chunk = {r.id: r for r in wanted[start:start + 500]}
            marks = ", ".join("?" * len(chunk))
            async with self._conn.execute(
                f"SELECT table_id, seat, card, captures FROM plays WHERE table_id IN ({marks})"
                " ORDER BY table_id, seq", tuple(chunk)
            ) as cur:
                for r in await cur.fetchall():
                    chunk[r["table_id"]].plays.append((r["seat"], r["card"], r["captures"]))
        return rows

    async def load_table(self, table_id: int) -> TableRow | None:
        """One table by id (with its plays, see `TableRow.plays`), or None."""
        async with self._conn.execute("SELECT * FROM tables WHERE id = ?", (table_id,)) as cur:
            row = await cur.fetchone()
        return (await self._with_plays([self._row(row)]))[0] if row else None

    async def load_open_tables(self) -> list[TableRow]:
        """Every table in the lobby or in play, oldest first, with their plays (restored after a restart)."""
        async with self._conn.execute(
            "SELECT * FROM tables WHERE status IN ('lobby', 'playing') ORDER BY id"
        ) as cur:
            rows = await cur.fetchall()
        return await self._with_plays([self._row(r) for r in rows])

    async def load_finished_tables(self, since_days: float) -> list[TableRow]:
        """Tables whose mesa finished within the last ``since_days`` days, oldest first (the ratings
        catch-up after a restart)."""
        async with self._conn.execute(
            "SELECT * FROM tables WHERE status = 'finished' AND updated_at >= strftime('%Y-%m-%dT%H:%M:%SZ',"
            " 'now', ?) ORDER BY id", (f"-{float(since_days)} days",)
        ) as cur:
            rows = await cur.fetchall()
        return await self._with_plays([self._row(r) for r in rows])

    async def plays(self, table_id: int) -> list[tuple[int, str, str]]:
        """The stored plays of a table as ``(seat, card, captures)``, in order."""
        async with self._conn.execute(
            "SELECT seat, card, captures FROM plays WHERE table_id = ? ORDER BY seq", (table_id,)
        ) as cur:
            rows = await cur.fetchall()
        return [(r["seat"], r["card"], r["captures"]) for r in rows]

    async def mesa(self, table_id: int) -> dict[str, Any] | None:
        """The stored result of a finished mesa, or None."""
        async with self._conn.execute("SELECT * FROM mesas WHERE table_id = ?", (table_id,)) as cur:
            row = await cur.fetchone()
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
        async with self._conn.execute(
            "SELECT json_extract(s.value, '$.user_id') AS user_id, json_extract(s.value, '$.name') AS name"
            " FROM tables t, json_each(t.seats) s WHERE t.guild_id = ? AND s.type = 'object'"
            " AND json_extract(s.value, '$.user_id') IS NOT NULL ORDER BY t.id", (guild_id,)
        ) as cur:
            rows = await cur.fetchall()
        return {r["user_id"]: r["name"] for r in rows if r["user_id"] in wanted and r["name"]}

    # ------------------------------------------------------------------ guild settings

    async def guild_language(self, guild_id: int) -> str | None:
        """The public language chosen by a guild, or None (the default)."""
        async with self._conn.execute(
            "SELECT language FROM guild_settings WHERE guild_id = ?", (guild_id,)
        ) as cur:
            row = await cur.fetchone()
        return row["language"] if row else None

    async def set_guild_language(self, guild_id: int, language: str) -> None:
        """Choose a guild's public language."""
        async with self._write:
            await self._conn.execute(
                "INSERT INTO guild_settings (guild_id, language) VALUES (?, ?)"
                " ON CONFLICT (guild_id) DO UPDATE SET language = excluded.language",
                (guild_id, language),
            )
            await self._conn.commit()

    # ------------------------------------------------------------------ table clocks (issue 6)

    async def save_timers(self, table_id: int, timers: dict[str, Any], casual: bool | None = None) -> None:
        """Write a table's clocks (and, when given, its casual flag) alone: a reminder sent, a deadline
        moved after a restart, a lobby deadline set."""
        async with self._write:
            await self._conn.execute(
                "UPDATE tables SET timers = ?, casual = COALESCE(?, casual) WHERE id = ?",
                (json.dumps(timers), int(casual) if casual is not None else None, table_id),
            )
            await self._conn.commit()

    async def guild_turn_timer(self, guild_id: int) -> int | None:
        """A server's default turn timer in seconds, or None when it has no settings row (the default
        applies)."""
        async with self._conn.execute(
            "SELECT turn_timer FROM guild_settings WHERE guild_id = ?", (guild_id,)
        ) as cur:
            row = await cur.fetchone()
        return int(row["turn_timer"]) if row else None

    async def set_guild_turn_timer(self, guild_id: int, seconds: int) -> None:
        """Choose a server's default turn timer (30–300 seconds).

        Raises:
            ValueError: out of range.
        """
        if not 30 <= seconds <= 300:
            raise ValueError("turn_timer must be between 30 and 300 seconds")
        async with self._write:
            await self._conn.execute(
                "INSERT INTO guild_settings (guild_id, turn_timer) VALUES (?, ?)"
                " ON CONFLICT (guild_id) DO UPDATE SET turn_timer = excluded.turn_timer",
                (guild_id, seconds),
            )
            await self._conn.commit()


__all__ = ["ChannelBusyError", "Store", "StoreError", "TableRow", "migrations"]
