"""The links the bot posts to a server's pages: a URL under ``WEB_BASE_URL`` when that is set and the
server turned its pages on, else None (and then the bot posts no link). `add_link` puts one on a message.
"""

from __future__ import annotations

from urllib.parse import urlencode

import discord

from bot.i18n import t
from bot.store.db import Database
from bot.ui.render import Payload

from .data import player_numbers, set_web_pages, web_pages_on


class WebLinks:
    """URLs of a server's pages.

    Args:
        db: the bot's database. base_url: ``WEB_BASE_URL`` without its trailing ``/`` (``""``: no links).
    """

    def __init__(self, db: Database, base_url: str) -> None:
        self._db = db
        self.base_url = base_url.rstrip("/")

    async def pages_on(self, guild_id: int) -> bool:
        """Whether server ``guild_id`` turned its pages on."""
        return await web_pages_on(self._db, guild_id)

    async def set_pages(self, guild_id: int, on: bool) -> None:
        """Turn server ``guild_id``'s pages on or off (``/cuarenta ajustes web:``)."""
        await set_web_pages(self._db, guild_id, on)

    async def page(self, guild_id: int, path: str, **query: object) -> str | None:
        """The absolute URL of server ``guild_id``'s page ``path`` (``"leagues/5"``) with ``query`` (None
        values left out), or None with no base URL or while the server's pages are off."""
        if not self.base_url or not await web_pages_on(self._db, guild_id):
            return None
        shown = {k: v for k, v in query.items() if v is not None}
        return f"{self.base_url}/s/{guild_id}/{path}" + (f"?{urlencode(shown)}" if shown else "")

    async def leaderboard(self, guild_id: int, mode: str | None = None, season: int | None = None) -> str | None:
        """The server's leaderboard page (of ``mode`` and ``season`` when given)."""
        return await self.page(guild_id, "leaderboard", mode=mode, season=season)

    async def player(self, guild_id: int, user_id: int) -> str | None:
        """A player's profile page in the server; None also for a user who never played a chica there."""
        if not self.base_url:
            return None
        number = (await player_numbers(self._db, guild_id, [user_id])).get(user_id)
        return None if number is None else await self.page(guild_id, f"players/{number}")

    async def mesa(self, guild_id: int, table_id: int) -> str | None:
        """A finished mesa's replay page (the page itself answers 404 for a mesa not finished)."""
        return await self.page(guild_id, f"mesas/{table_id}")


def add_link(payload: Payload, url: str | None, label: str) -> Payload:
    """``payload`` with a link button to ``url`` (labelled ``label``) after its own buttons; unchanged when
    ``url`` is None, or when its view is not a plain `discord.ui.View` with room for one more button."""
    if url is None:
        return payload
    view = payload.view if payload.view is not None else discord.ui.View(timeout=None)
    if not isinstance(view, discord.ui.View) or len(view.children) >= 25:
        return payload
    view.add_item(discord.ui.Button(style=discord.ButtonStyle.link, url=url, label=label[:80]))
    payload.view = view
    return payload


def settings_field(payload: Payload, on: bool, url: str | None, lang: str) -> Payload:
    """The settings embed of ``payload`` with one more field: whether the server's pages are on, and
    where (``url``, the leaderboard's; None on with no ``WEB_BASE_URL`` says that no link is posted)."""
    if payload.embed is None:
        return payload
    if not on:
        value = t("settings.off", lang)
    else:
        value = f"{t('settings.on', lang)} · {url}" if url else t("settings.web_no_base", lang)
    payload.embed.add_field(name=t("settings.web", lang), value=value[:1024], inline=False)
    return payload


__all__ = ["WebLinks", "add_link", "settings_field"]
