"""Names for the pages from the running bot: a server's name and its members' display names, from
discord.py's cache (no request to Discord while a page renders)."""

from __future__ import annotations

import discord


class BotDirectory:
    """`bot.web.context.Directory` over a connected `discord.Client` (its cache of guilds and members)."""

    def __init__(self, client: discord.Client) -> None:
        self._client = client

    def guild_name(self, guild_id: int) -> str | None:
        """The server's name, or None when the bot does not see it."""
        guild = self._client.get_guild(guild_id)
        return guild.name if guild is not None else None

    async def member_names(self, guild_id: int, user_ids: list[int]) -> dict[int, str]:
        """Display names of the cached members among ``user_ids``."""
        guild = self._client.get_guild(guild_id)
        if guild is None:
            return {}
        out: dict[int, str] = {}
        for user in user_ids:
            member = guild.get_member(user)
            if member is not None:
                out[user] = member.display_name
        return out


__all__ = ["BotDirectory"]
