"""What every page handler gets: `WebContext` (the store, the ratings, the names of members, the templates)
and `Guild` (the server a URL names, once its opt-in is checked).

A handler starts with ``guild = await ctx.guild(request)``: that raises the one 404 (`NotFound`) for a
server id that is not a number, a server that has not turned its pages on, or one the bot never saw; every
other refusal of a page (an unknown player, mesa, season; another server's object) raises `NotFound` too,
so all of them answer the same body.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any, Protocol

import jinja2
from aiohttp import web

from bot.i18n import t, tn
from bot.ratings import Ratings
from bot.store import Store, storable_id

from .data import player_numbers, web_pages_on

HTML_LANG = {"es": "es", "en": "en", "pt": "pt-BR"}
"""Our language code → the page's ``<html lang>``."""

NOT_FOUND_BODY = ("<!doctype html><html><head><meta charset=\"utf-8\"><title>404</title>"
                  "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\"></head>"
                  "<body><h1>404</h1><p>No encontrado · Not found · Não encontrado</p></body></html>\n")
"""The one body of every 404 (an opted-out server's page reads exactly as an unknown one)."""

PAGE_HEADERS = {
    "Cache-Control": "public, max-age=60",
    "X-Content-Type-Options": "nosniff",
    "Content-Security-Policy": "default-src 'none'; style-src 'unsafe-inline'; img-src 'self' data:; base-uri 'none';"
                               " form-action 'none'; frame-ancestors 'none'",
    "Referrer-Policy": "same-origin",
}
"""Every page's headers: a minute's caching, and a policy that runs no script and loads nothing from elsewhere."""

_MENTION = re.compile(r"<@[!&]?\d+>")


class NotFound(web.HTTPNotFound):
    """The 404 of every refused page: the same body whatever the reason."""

    def __init__(self) -> None:
        super().__init__(text=NOT_FOUND_BODY, content_type="text/html")


class Directory(Protocol):
    """Where pages get names: the bot's cache of servers and members (`bot.web.names.BotDirectory`)."""

    def guild_name(self, guild_id: int) -> str | None:
        """The server's name, or None when unknown."""

    async def member_names(self, guild_id: int, user_ids: list[int]) -> dict[int, str]:
        """Display names of these users in the server; users with no known name are left out."""


@dataclass(frozen=True)
class Guild:
    """A server whose pages are on. ``id``: its Discord id (only ever in URLs); ``lang``: its public
    language (``es``, ``en``, ``pt``); ``name``: its name as the bot knows it, or ``""``."""

    id: int
    lang: str
    name: str

    def url(self, path: str = "") -> str:
        """The site-relative URL of one of its pages: ``url("leaderboard")`` → ``/s/<id>/leaderboard``."""
        return f"/s/{self.id}/{path}"


class WebContext:
    """The shared tools of the page handlers.

    Args:
        store: the bot's store (replays read it). ratings: the ratings repository (boards, stats).
        directory: names of servers and members (`Directory`).
    """

    def __init__(self, store: Store, ratings: Ratings, directory: Directory) -> None:
        self.store = store
        self.ratings = ratings
        self.directory = directory
        self.templates = jinja2.Environment(loader=jinja2.PackageLoader("bot.web", "templates"),
                                            autoescape=True, trim_blocks=True, lstrip_blocks=True)

    async def guild(self, request: web.Request) -> Guild:
        """The server named by the URL's ``{guild}`` part.

        Raises:
            NotFound: not a server id, or a server whose pages are off.
        """
        raw = request.match_info.get("guild", "")
        if not (raw.isascii() and raw.isdigit()) or not storable_id(int(raw)):
            raise NotFound()
        guild_id = int(raw)
        if not await web_pages_on(self.store.db, guild_id):
            raise NotFound()
        lang = await self.store.guild_language(guild_id) or "es"
        return Guild(guild_id, lang, self.directory.guild_name(guild_id) or "")

    async def names(self, guild: Guild, user_ids: Iterable[int | None]) -> dict[int, str]:
        """Display names for ``user_ids`` in ``guild``: the member's name, else the name they had at their
        last seat there, else a neutral word (never a user id)."""
        wanted = sorted({u for u in user_ids if u is not None})
        found = await self.directory.member_names(guild.id, wanted) if wanted else {}
        missing = [u for u in wanted if u not in found]
        if missing:
            found.update(await self.store.seat_names(guild.id, missing))
        return {u: scrub(found.get(u) or t("web.someone", guild.lang), guild.lang) for u in wanted}

    async def player_links(self, guild: Guild, user_ids: Iterable[int | None]) -> dict[int, str]:
        """The profile URL of each of these users who played in ``guild`` (`bot.web.data.player_numbers`)."""
        numbers = await player_numbers(self.store.db, guild.id, user_ids)
        return {user: guild.url(f"players/{number}") for user, number in numbers.items()}

    def render(self, template: str, guild: Guild, title: str, **values: Any) -> web.Response:
        """The page ``template`` (under ``bot/web/templates``) in ``guild``'s language, as a 200 response.

        The template gets ``guild``, ``title``, ``lang`` (the ``<html lang>``), ``_(key, **params)`` and
        ``_n(key, n, **params)`` (`bot.i18n.t` and ``tn`` in the server's language) and ``values``.
        """
        lang = guild.lang

        def _(key: str, /, **params: Any) -> str:
            return t(key, lang, **params)

        def _n(key: str, n: int, /, **params: Any) -> str:
            return tn(key, n, lang, **params)

        html = self.templates.get_template(template).render(
            guild=guild, title=title, lang=HTML_LANG.get(lang, lang), _=_, _n=_n, **values)
        return web.Response(text=html, content_type="text/html", charset="utf-8",
                            headers=PAGE_HEADERS)


def scrub(text: str, lang: str) -> str:
    """``text`` with any Discord mention (``<@123…>``) replaced by a neutral word: a page never shows an id."""
    return _MENTION.sub(t("web.someone", lang), text)


def query_int(query: Mapping[str, str], name: str, default: int | None = None) -> int | None:
    """The whole number ``query[name]`` (``default`` when absent or blank).

    Raises:
        NotFound: present but not a whole number in a sane range.
    """
    raw = (query.get(name) or "").strip()
    if not raw:
        return default
    if not (raw.isascii() and raw.isdigit()) or len(raw) > 12:
        raise NotFound()
    return int(raw)


__all__ = ["HTML_LANG", "NOT_FOUND_BODY", "PAGE_HEADERS", "Directory", "Guild", "NotFound", "WebContext", "query_int", "scrub"]
