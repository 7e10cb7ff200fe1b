"""The presenter's store of a table's Discord message ids (``table_messages``, migration 15).

One row per table that has messages: their ids as JSON (`bot.tables.model.Messages.to_dict`: the lobby
message, the public table message and the hand it shows, the DM hands, the seats whose DMs are closed).
Only the presenter (`bot.ui`) writes it, through `TableMessages`; the table service neither writes nor
versions it. `bot.store.Store.load_table` and the other table loads read it with the table's row, so a
process that reloads a table (after a restart, or another process's change) has the ids as last written
by any process.
"""

from __future__ import annotations

import json
from typing import Any

from bot.store.db import Database


class TableMessages:
    """Reads and writes ``table_messages``.

    Args:
        db: the open `bot.store.db.Database` (the store's, SQLite or PostgreSQL).
    """

    def __init__(self, db: Database) -> None:
        self.db = db

    async def save(self, table_id: int, messages: dict[str, Any]) -> None:
        """Keep the message ids of table ``table_id`` (JSON-able), replacing what was kept. Nothing is
        written for a table that is not stored (no row in ``tables``). Not a save of the table: its
        version does not change, so no other process reloads it for this."""
        await self.db.execute(
            "INSERT INTO table_messages (table_id, messages) SELECT id, ? FROM tables WHERE id = ?"
            " ON CONFLICT (table_id) DO UPDATE SET messages = excluded.messages",
            json.dumps(messages), table_id)

    async def load(self, table_id: int) -> dict[str, Any]:
        """The message ids kept for table ``table_id`` (``{}`` when none were)."""
        raw = await self.db.fetchval("SELECT messages FROM table_messages WHERE table_id = ?", table_id)
        return json.loads(raw) if raw else {}


__all__ = ["TableMessages"]
