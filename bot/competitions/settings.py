"""A server's competition settings (migration 0007): the league-organizer role, whose members
may create and run leagues and tournaments as if they had Manage Server."""

from __future__ import annotations

from bot.store import Store


class CompetitionSettings:
    """The organizer role of each server, in the store."""

    def __init__(self, store: Store) -> None:
        self.store = store

    async def organizer_role(self, guild_id: int) -> int | None:
        """The server's organizer role id, or None."""
        row = await self.store.db.fetchrow(
            "SELECT organizer_role FROM competition_settings WHERE guild_id = ?", guild_id)
        return int(row[0]) if row and row[0] is not None else None

    async def set_organizer_role(self, guild_id: int, role_id: int | None) -> None:
        """Set (or, with None, clear) the server's organizer role."""
        await self.store.db.execute(
            "INSERT INTO competition_settings (guild_id, organizer_role) VALUES (?, ?)"
            " ON CONFLICT (guild_id) DO UPDATE SET organizer_role = excluded.organizer_role", guild_id, role_id)

    async def may_organize(self, guild_id: int, *, can_manage: bool, role_ids: list[int]) -> bool:
        """Manage Server, or the server's organizer role among ``role_ids``."""
        if can_manage:
            return True
        role = await self.organizer_role(guild_id)
        return role is not None and role in role_ids
