"""The bot's web pages served for the browser tests: the bot's own HTTP port (`bot.ops.http.OpsServer` with
`bot.web.web_routes`, as `CuarentaBot` starts it) on a free loopback port, over a database filled by
`tests/support/web_world.py`. `GUILD` has turned its pages on; `OTHER` never did.

Names come from a `Directory` that knows `GUILD`'s members as the bot's cache would (their display names);
`OTHER`'s members are unknown to it, so their pages would fall back to the names at their last seat.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass

from bot.ops.http import OpsServer
from bot.ops.metrics import BotMetrics
from bot.ratings import Ratings
from bot.store import Store
from bot.web import WebContext, web_routes
from bot.web.data import set_web_pages

from .web_world import GUILD, PLAYERS, WebWorld

SERVER_NAME = "Quito Club"
"""`GUILD`'s name in the bot's cache."""


class Directory:
    """`bot.web.context.Directory` of the test: `GUILD` named `SERVER_NAME`, its members by display name."""

    def __init__(self) -> None:
        self.members = {user: name.capitalize() for name, user in PLAYERS.items()}

    def guild_name(self, guild_id: int) -> str | None:
        """`SERVER_NAME` for `GUILD`, else None."""
        return SERVER_NAME if guild_id == GUILD else None

    async def member_names(self, guild_id: int, user_ids: list[int]) -> dict[int, str]:
        """The display names (``Ana``, ``Beto`` …) of `GUILD`'s members among ``user_ids``."""
        if guild_id != GUILD:
            return {}
        return {u: self.members[u] for u in user_ids if u in self.members}


@dataclass
class Site:
    """A running web server over a filled database.

    Attributes:
        base: ``http://127.0.0.1:<port>``. store: the open store (the bot's figures are read from it).
        ratings: the ratings repository the pages use. world: what the database holds. directory: the names.
    """

    base: str
    store: Store
    ratings: Ratings
    world: WebWorld
    directory: Directory

    def url(self, guild: int, path: str) -> str:
        """The absolute URL of server ``guild``'s page ``path`` (``"leaderboard?mode=1v1"``)."""
        return f"{self.base}/s/{guild}/{path}"

    def name(self, user_id: int) -> str:
        """The display name a page should show for ``user_id`` of `GUILD`."""
        return self.directory.members[user_id]


@asynccontextmanager
async def serve(world: WebWorld) -> AsyncIterator[Site]:
    """Open ``world``'s database, turn `GUILD`'s pages on, and serve the pages on a free loopback port
    until the block ends."""
    store = await Store.open(world.path)
    ratings = Ratings(store.db)
    await set_web_pages(store.db, GUILD, True)
    directory = Directory()
    server = OpsServer(BotMetrics(), _healthy, web_routes(WebContext(store, ratings, directory)))
    try:
        port = await server.start("127.0.0.1", 0)
        yield Site(f"http://127.0.0.1:{port}", store, ratings, world, directory)
    finally:
        await server.close()
        await store.close()


async def _healthy() -> str | None:
    return None
