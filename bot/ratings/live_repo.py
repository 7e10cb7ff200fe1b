"""SQL of the live leaderboard messages (migration 0020, table ``live_leaderboards``) over the store's
database (SQLite or PostgreSQL): at most one message per server and mode."""

from __future__ import annotations

from dataclasses import dataclass

from bot.store.db import Database


@dataclass(frozen=True)
class LiveBoard:
    """A live leaderboard message: server, mode (``"1v1"`` or ``"2v2"``), and where the message is."""

    guild_id: int
    mode: str
    channel_id: int
    message_id: int


class LiveBoardRepo:
    """The ids of the live leaderboard messages."""

    def __init__(self, db: Database) -> None:
        self.db = db

    async def all(self) -> list[LiveBoard]:
        """Every live leaderboard of every server (read once at startup)."""
        rows = await self.db.fetch("SELECT guild_id, mode, channel_id, message_id FROM live_leaderboards")
        return [LiveBoard(int(r[0]), str(r[1]), int(r[2]), int(r[3])) for r in rows]

    async def save(self, board: LiveBoard) -> None:
        """Insert the board, replacing the server's earlier one for that mode."""
        async with self.db.transaction():
            await self.db.execute(
                "INSERT INTO live_leaderboards (guild_id, mode, channel_id, message_id) VALUES (?, ?, ?, ?)"
                " ON CONFLICT (guild_id, mode) DO UPDATE SET channel_id = excluded.channel_id,"
                " message_id = excluded.message_id", board.guild_id, board.mode, board.channel_id, board.message_id)

    async def delete(self, board: LiveBoard) -> None:
        """Forget the board (only that message: a newer one of the same server and mode stays)."""
        async with self.db.transaction():
            await self.db.execute("DELETE FROM live_leaderboards WHERE guild_id = ? AND mode = ? AND message_id = ?",
                                  board.guild_id, board.mode, board.message_id)
