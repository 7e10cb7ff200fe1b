"""SQL of the competition messages kept current (migration 0018) over the store's database (SQLite or
PostgreSQL): per league or tournament, each round's message and its standings or bracket message."""

from __future__ import annotations

from dataclasses import dataclass

from bot.store.db import Database, rows_of


@dataclass(frozen=True)
class Shown:
    """A competition message the bot posted: ``key`` is the round (0: the standings or bracket message);
    ``mentions`` the content it was posted with (its pings), kept by every edit."""

    key: int
    channel_id: int
    message_id: int
    mentions: str | None


class CompetitionMessageRepo:
    """The ids of competition messages. ``kind``: ``"league"`` or ``"tournament"``."""

    def __init__(self, db: Database) -> None:
        self.db = db

    async def of(self, kind: str, competition_id: int) -> dict[int, Shown]:
        """The messages of one competition by key (round; 0 the standings or bracket)."""
        async with rows_of(self.db, "SELECT round, channel_id, message_id, mentions FROM competition_messages"
                                    " WHERE kind = ? AND competition_id = ?", (kind, competition_id)) as cursor:
            rows = await cursor.fetchall()
        return {int(r[0]): Shown(int(r[0]), int(r[1]), int(r[2]), str(r[3]) if r[3] is not None else None)
                for r in rows}

    async def save(self, kind: str, competition_id: int, guild_id: int, shown: Shown) -> None:
        """Insert or replace one message's row."""
        async with self.db.transaction():
            await self.db.execute(
                "INSERT INTO competition_messages (kind, competition_id, round, guild_id, channel_id, message_id,"
                " mentions) VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (kind, competition_id, round) DO UPDATE SET"
                " channel_id = excluded.channel_id, message_id = excluded.message_id, mentions = excluded.mentions",
                kind, competition_id, shown.key, guild_id, shown.channel_id, shown.message_id, shown.mentions)
