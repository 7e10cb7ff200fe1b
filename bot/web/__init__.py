"""Read-only web pages of the servers that turn them on (``/cuarenta ajustes web:sí``), served by
``aiohttp.web`` on the bot's opt-in HTTP port (``METRICS_PORT``, with ``/healthz`` and ``/metrics``),
rendered on the server with Jinja2 (templates in ``bot/web/templates``), no JavaScript.

Every page lives under ``/s/<server id>/…`` (``leaderboard``, ``players/<number>``, ``mesas/<id>``,
``leagues/<id>``, ``tournaments/<id>``); every URL of a server whose pages are off answers the same 404 as
an unknown server or object (`bot.web.context.NotFound`). Pages show display names only, never a user id.
`WEB_BASE_URL` (`bot.config.Settings.web_base_url`) roots the links the bot posts (`bot.web.links`).

Modules: `context` (`WebContext`, `Guild`, the 404), `site` (`web_routes`, the list `PAGES`), `data` (the
opt-in and the player numbers: the package's SQL), `names` (names from the bot's cache), `links` (the URLs
the bot posts), and one module per kind of page (`leaderboard`, …).

Adding a page (another module, for example ``bot/web/leagues.py``)::

    from aiohttp import web
    from bot.web.context import NotFound, WebContext

    def add_pages(router: web.UrlDispatcher, ctx: WebContext) -> None:
        async def league(request: web.Request) -> web.Response:
            guild = await ctx.guild(request)        # the 404 unless this server's pages are on
            ...                                     # read it for guild.id only; else raise NotFound()
            names = await ctx.names(guild, users)   # display names, never an id
            return ctx.render("league.html", guild, title, league=...)   # extends "base.html"
        router.add_get("/s/{guild}/leagues/{id}", league)

then add ``leagues.add_pages`` to `bot.web.site.PAGES`, its template to ``bot/web/templates`` (``{% extends
"base.html" %}``, text through ``_("key")`` / ``_n("key", n)``, the keys in the gettext catalogs), and its
link to the bot's messages with `bot.web.links`.
"""

from .context import Guild, NotFound, WebContext
from .site import PAGES, web_routes

__all__ = ["PAGES", "Guild", "NotFound", "WebContext", "web_routes"]
