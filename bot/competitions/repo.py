"""SQL of the competitions over the store's database (SQLite or PostgreSQL): queue entries, queue
channels, and the current-season ratings used to balance teams."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from bot.store import Store
from bot.store.db import Database, rows_of


@dataclass
class Entry:
    """A person waiting in a server's queue.

    Attributes:
        user_id, guild_id; mode ``"1v1"`` or ``"2v2"``; name and locale at joining.
        joined_at: UTC seconds, the place in the queue. renewed_at: UTC seconds of joining or of the last
        "still here" (the expiry counts from it). reminded: the "still there?" went out.
    """

    user_id: int
    guild_id: int
    mode: str
    name: str
    locale: str
    joined_at: float
    renewed_at: float
    reminded: bool = False


class QueueRepo:
    """Queue entries and queue channels in the store (migration 0004)."""

    def __init__(self, store: Store) -> None:
        self.store = store

    @property
    def _db(self) -> Database:
        return self.store.db

    async def _write(self, sql: str, params: Sequence[object]) -> None:
        await self._db.execute(sql, *params)

    async def entries(self) -> list[Entry]:
        """Every entry, in queue order."""
        async with rows_of(self._db,
                "SELECT user_id, guild_id, mode, name, locale, joined_at, renewed_at, reminded"
                " FROM queue_entries ORDER BY joined_at, user_id") as cursor:
            rows = await cursor.fetchall()
        return [Entry(int(r[0]), int(r[1]), str(r[2]), str(r[3]), str(r[4]), float(r[5]), float(r[6]), bool(r[7]))
                for r in rows]

    async def add(self, entry: Entry) -> None:
        """Store a new entry (the caller checked the person is in no queue)."""
        await self._write("INSERT INTO queue_entries (user_id, guild_id, mode, name, locale, joined_at, renewed_at,"
                          " reminded) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                          (entry.user_id, entry.guild_id, entry.mode, entry.name, entry.locale, entry.joined_at,
                           entry.renewed_at, int(entry.reminded)))

    async def renew(self, user_id: int, renewed_at: float, reminded: bool) -> None:
        """Store a renewal ("still here") or that the reminder went out."""
        await self._write("UPDATE queue_entries SET renewed_at = ?, reminded = ? WHERE user_id = ?",
                          (renewed_at, int(reminded), user_id))

    async def remove(self, user_ids: Sequence[int]) -> None:
        """Drop entries (left, matched, expired, no-show)."""
        if user_ids:
            marks = ", ".join("?" for _ in user_ids)
            await self._write(f"DELETE FROM queue_entries WHERE user_id IN ({marks})", list(user_ids))

    async def queue_channel(self, guild_id: int) -> tuple[int, int | None] | None:
        """A server's queue channel and queue message, or None when it has none."""
        async with rows_of(self._db, "SELECT channel_id, message_id FROM queue_channels WHERE guild_id = ?",
                                    (guild_id,)) as cursor:
            row = await cursor.fetchone()
        return (int(row[0]), int(row[1]) if row[1] is not None else None) if row else None

    async def set_queue_channel(self, guild_id: int, channel_id: int, message_id: int | None) -> None:
        """Set a server's queue channel and its queue message."""
        await self._write("INSERT INTO queue_channels (guild_id, channel_id, message_id) VALUES (?, ?, ?)"
                          " ON CONFLICT (guild_id) DO UPDATE SET channel_id = excluded.channel_id,"
                          " message_id = excluded.message_id", (guild_id, channel_id, message_id))

    async def add_ping(self, message_id: int, channel_id: int, guild_id: int) -> None:
        """Keep a match ping that shows «Aceptar» / «Rechazar» (migration 13)."""
        await self._write("INSERT INTO queue_pings (message_id, channel_id, guild_id) VALUES (?, ?, ?)"
                          " ON CONFLICT (message_id) DO NOTHING", (message_id, channel_id, guild_id))

    async def remove_ping(self, message_id: int) -> None:
        """Forget a ping: it shows how its match ended, or was dealt with after a restart."""
        await self._write("DELETE FROM queue_pings WHERE message_id = ?", (message_id,))

    async def set_ping_final(self, message_id: int, content: str) -> None:
        """Keep the words a ping should show (how its match ended) when the edit that shows them failed
        (migration 14)."""
        await self._write("UPDATE queue_pings SET final = ? WHERE message_id = ?", (content, message_id))

    async def pings(self) -> list[tuple[int, int, int, str | None]]:
        """Every kept ping as ``(message_id, channel_id, guild_id, final)``, oldest first; ``final`` is the
        content its failed last edit should have shown, None while it asks to accept."""
        async with rows_of(self._db, "SELECT message_id, channel_id, guild_id, final FROM queue_pings"
                           " ORDER BY message_id", ()) as cursor:
            rows = await cursor.fetchall()
        return [(int(r[0]), int(r[1]), int(r[2]), str(r[3]) if r[3] is not None else None) for r in rows]

    async def ratings(self, guild_id: int, mode: str, user_ids: Sequence[int]) -> dict[int, float]:
        """The shown ratings of the server's current season in ``mode`` (users never rated are absent)."""
        if not user_ids:
            return {}
        marks = ", ".join("?" for _ in user_ids)
        async with rows_of(self._db,
                "SELECT r.user_id, r.display FROM ratings r JOIN seasons s ON s.id = r.season_id"
                f" WHERE s.guild_id = ? AND s.ended_at IS NULL AND r.mode = ? AND r.user_id IN ({marks})",
                (guild_id, mode, *user_ids)) as cursor:
            rows = await cursor.fetchall()
        return {int(r[0]): float(r[1]) for r in rows}
