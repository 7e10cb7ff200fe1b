"""The pages' routes on the bot's HTTP port: `web_routes` adds every page module's routes and the one 404.

`PAGES` lists the functions that add pages (``add_pages(router, ctx)``, see `bot.web`); a new kind of page
is one more entry here.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from aiohttp import web

from . import competitions, leaderboard, players, replay
from .context import NotFound, WebContext

AddPages = Callable[[web.UrlDispatcher, WebContext], None]
"""``add_pages(router, ctx)``: adds a module's ``GET`` routes (under ``/s/{guild}/…``) to ``router``."""

PAGES: list[AddPages] = [
    leaderboard.add_pages,
    players.add_pages,
    replay.add_pages,
    competitions.add_pages,
]
"""Every page module's ``add_pages``, in order."""

Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]


@web.middleware
async def _one_not_found(request: web.Request, handler: Handler) -> web.StreamResponse:
    """Any 404 (a route aiohttp does not know, a refused page) answers `bot.web.context.NOT_FOUND_BODY`."""
    try:
        return await handler(request)
    except NotFound:
        raise
    except web.HTTPNotFound:
        raise NotFound() from None


def web_routes(ctx: WebContext) -> Callable[[web.Application], None]:
    """What `bot.ops.http.OpsServer` calls with its application: adds the 404 middleware, the server's
    root (a redirect to its leaderboard) and every page of `PAGES`."""

    async def root(request: web.Request) -> web.StreamResponse:
        guild = await ctx.guild(request)
        raise web.HTTPFound(guild.url("leaderboard"))

    def add(app: web.Application) -> None:
        app.middlewares.append(_one_not_found)
        app.router.add_get("/s/{guild}", root)
        app.router.add_get("/s/{guild}/", root)
        for add_pages in PAGES:
            add_pages(app.router, ctx)

    return add


__all__ = ["PAGES", "AddPages", "web_routes"]
