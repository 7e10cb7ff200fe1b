"""The SQL of rank roles: the roles the bot created for a server's tiers (``rank_roles``), each player's
current tier (``rank_members``, migration 21), and the current-season ratings that place a player in a tier.
Plain values in and out; the rule itself is `bot.ratings.ranks`, the Discord side `bot.ui.rank_roles`."""

from __future__ import annotations

from collections.abc import Sequence

from bot.store.db import Database


class RankStore:
    """Rank-role rows of the store's database (SQLite or PostgreSQL); every query is scoped by guild.

    Args:
        db: the open `bot.store.db.Database` (``store.db``), at or past migration 21.
    """

    def __init__(self, db: Database) -> None:
        self._db = db

    async def roles(self, guild_id: int) -> list[int]:
        """The role ids the bot created for the server's tiers, lowest tier first; empty: rank roles are off."""
        rows = await self._db.fetch("SELECT role_id FROM rank_roles WHERE guild_id = ? ORDER BY tier", guild_id)
        return [int(r[0]) for r in rows]

    async def thresholds(self, guild_id: int) -> list[int]:
        """The thresholds (shown rating) of the server's tiers, lowest first; empty: rank roles are off."""
        rows = await self._db.fetch("SELECT threshold FROM rank_roles WHERE guild_id = ? ORDER BY tier", guild_id)
        return [int(r[0]) for r in rows]

    async def turn_on(self, guild_id: int, role_ids: Sequence[int], thresholds: Sequence[int]) -> None:
        """Store the created roles and their thresholds (lowest tier first, as many of each) in place of any
        stored before; every player starts with no tier."""
        async with self._db.transaction():
            await self._db.execute("DELETE FROM rank_roles WHERE guild_id = ?", guild_id)
            await self._db.execute("DELETE FROM rank_members WHERE guild_id = ?", guild_id)
            for tier, (role_id, floor) in enumerate(zip(role_ids, thresholds, strict=True)):
                await self._db.execute("INSERT INTO rank_roles (guild_id, tier, role_id, threshold) VALUES (?, ?, ?, ?)",
                                       guild_id, tier, role_id, floor)

    async def turn_off(self, guild_id: int) -> list[int]:
        """Forget the server's rank roles and tiers; returns the role ids that were stored (lowest first)."""
        async with self._db.transaction():
            roles = await self.roles(guild_id)
            await self._db.execute("DELETE FROM rank_roles WHERE guild_id = ?", guild_id)
            await self._db.execute("DELETE FROM rank_members WHERE guild_id = ?", guild_id)
        return roles

    async def tier(self, guild_id: int, user_id: int) -> int | None:
        """The tier a player holds in the server (0 is the lowest), None for none."""
        value = await self._db.fetchval("SELECT tier FROM rank_members WHERE guild_id = ? AND user_id = ?",
                                        guild_id, user_id)
        return None if value is None else int(value)

    async def set_tier(self, guild_id: int, user_id: int, tier: int | None) -> None:
        """Record the tier a player now holds (None: none)."""
        async with self._db.transaction():
            await self._db.execute("DELETE FROM rank_members WHERE guild_id = ? AND user_id = ?", guild_id, user_id)
            if tier is not None:
                await self._db.execute("INSERT INTO rank_members (guild_id, user_id, tier) VALUES (?, ?, ?)",
                                       guild_id, user_id, tier)

    async def season_ratings(self, guild_id: int, user_id: int) -> list[tuple[int, int]]:
        """The player's current-season ``(shown rating, rated chicas)`` per mode they were rated in; empty
        when the server has no current season or the player no rating in it."""
        rows = await self._db.fetch(
            "SELECT r.display, r.games FROM ratings r JOIN seasons s ON s.id = r.season_id"
            " WHERE s.guild_id = ? AND s.ended_at IS NULL AND r.user_id = ?", guild_id, user_id)
        return [(int(r[0]), int(r[1])) for r in rows]

    async def rated_players(self, guild_id: int) -> list[int]:
        """Every player rated in the server's current season (to check at once when rank roles are turned on)."""
        rows = await self._db.fetch(
            "SELECT DISTINCT r.user_id FROM ratings r JOIN seasons s ON s.id = r.season_id"
            " WHERE s.guild_id = ? AND s.ended_at IS NULL AND r.games > 0 ORDER BY r.user_id", guild_id)
        return [int(r[0]) for r in rows]
