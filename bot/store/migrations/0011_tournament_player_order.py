"""Migration 11: the sign-up order of a tournament's players as a column.

SQLite kept it as the hidden ``rowid``, which PostgreSQL does not have; ``position`` now holds it on both
(existing rows take their rowid, which keeps their order).
"""

from __future__ import annotations

from bot.store.db import Database


async def upgrade(db: Database) -> None:
    """Add ``tournament_players.position``, inside the caller's transaction."""
    await db.execute("ALTER TABLE tournament_players ADD COLUMN position BIGINT NOT NULL DEFAULT 0")
    if db.dialect == "sqlite":
        await db.execute("UPDATE tournament_players SET position = rowid")
