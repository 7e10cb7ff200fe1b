"""Migration 15: the presenter's Discord message ids of a table move to a table of their own.

``table_messages`` holds, per table, the JSON that ``tables.messages`` held (the lobby message, the public
table message and the hand it shows, the DM hands, the seats whose DMs are closed:
`bot.tables.model.Messages`). Only the presenter writes it (`bot.store.messages.TableMessages`); a table's
save never touches it, and a load reads it with the table's row. The rows that held ids are copied, and
``tables.messages`` is dropped.
"""

from __future__ import annotations

from bot.store.db import Database


async def upgrade(db: Database) -> None:
    """Create ``table_messages``, copy every ``tables.messages`` that holds ids into it and drop that
    column, inside the caller's transaction."""
    key = "BIGINT" if db.dialect == "postgresql" else "INTEGER"  # Discord-sized ids, as `postgresql_ddl`
    await db.execute(
        f"CREATE TABLE table_messages (table_id {key} PRIMARY KEY REFERENCES tables (id) ON DELETE CASCADE,"
        " messages TEXT NOT NULL)")
    await db.execute(
        "INSERT INTO table_messages (table_id, messages)"
        " SELECT id, messages FROM tables WHERE messages IS NOT NULL AND messages <> '{}'")
    await db.execute("ALTER TABLE tables DROP COLUMN messages")
