"""The web pages' tests: the SimCord bot with its HTTP port on a free loopback port and a WEB_BASE_URL."""

from __future__ import annotations

import dataclasses

import aiohttp
import pytest

BASE_URL = "https://cuarenta.example.org"
"""The WEB_BASE_URL of the test bot: the links it posts start with it."""


@pytest.fixture
def simcord_bot(make_bot):
    """The test bot, serving its pages on a free port of 127.0.0.1 (``METRICS_PORT=0``)."""
    bot = make_bot()
    bot.settings = dataclasses.replace(bot.settings, metrics_port=0, web_base_url=BASE_URL)
    return bot


async def get(bot, path: str) -> tuple[int, str]:
    """``(status, body)`` of ``GET path`` on the bot's port (redirects not followed)."""
    assert bot.ops_server is not None and bot.ops_server.port
    async with aiohttp.ClientSession() as session, \
            session.get(f"http://127.0.0.1:{bot.ops_server.port}{path}", allow_redirects=False) as response:
        return response.status, await response.text()
