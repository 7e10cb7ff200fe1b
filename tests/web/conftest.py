"""The web pages' tests.

- The SimCord bot with its HTTP port on a free loopback port and a WEB_BASE_URL (``simcord_bot``, `get`).
- The browser tests (``test_browser_*``): a headless Chromium for the whole session
  (`tests/support/browser.py`) and a database filled by real play (`tests/support/web_world.py`), built once.
  Without Chromium on the machine the browser tests are skipped, and say why; under CI (``CI`` set) a
  missing browser fails them instead (`.ci/run` installs Debian's ``chromium``).
"""

from __future__ import annotations

import asyncio
import dataclasses
import os
import re
import shutil
from pathlib import Path

import aiohttp
import pytest

from tests.support.browser import BrowserError, Chromium, find_chromium
from tests.support.helpers import play_to_end, start_1v1, walk
from tests.support.web_world import WebWorld, build

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


@pytest.fixture(scope="session")
def chromium() -> Chromium:
    """One headless Chromium for the session (stopped at its end)."""
    if find_chromium() is None:
        if os.environ.get("CI"):
            pytest.fail("no Chromium under CI: .ci/run installs Debian's chromium")
        pytest.skip("no Chromium here: apt-get install chromium (or set CHROMIUM)")
    try:
        browser = Chromium().start()
    except BrowserError as exc:
        if os.environ.get("CI"):
            pytest.fail(f"Chromium did not start: {exc}")
        pytest.skip(f"Chromium did not start: {exc}")
    yield browser
    browser.stop()


@pytest.fixture(scope="session")
def web_world_file(tmp_path_factory: pytest.TempPathFactory) -> WebWorld:
    """The database filled by real play (`tests/support/web_world.py`), built once per session (per xdist
    worker): a few seconds."""
    path = tmp_path_factory.mktemp("web-world") / "cuarenta-web.db"
    return asyncio.run(build(str(path)))


@pytest.fixture
def web_world(web_world_file: WebWorld, tmp_path: Path) -> WebWorld:
    """A copy of the session's filled database for this test (a test may change its copy)."""
    path = tmp_path / "cuarenta-web.db"
    shutil.copyfile(web_world_file.path, path)
    return dataclasses.replace(web_world_file, path=str(path))


async def turn_on(world, on: bool = True) -> str:
    """eva (Manage Server) sets ``web:`` in /cuarenta settings; returns the settings' fields as text."""
    shown = await world.eva.slash(world.channel, "cuarenta settings", web=on)
    embed = shown.response.embeds[0]
    return "\n".join(f"{f.name}: {f.value}" for f in embed.fields)


async def play_rated_mesa(world) -> int:
    """ana and beto play a whole rated 1 v 1 in the world's channel; returns the table id."""
    table = await start_1v1(world)
    await play_to_end(world, table.id, {world.ana.id: world.ana, world.beto.id: world.beto})
    await world.env.settle()
    return table.id


def link_urls(message) -> list[str]:
    """The URLs of a message's link buttons."""
    out = []
    for item in walk(message):
        url = item.get("url") if isinstance(item, dict) else getattr(item, "url", None)
        if url:
            out.append(url)
    return out


def player_hrefs(html: str) -> dict[str, str]:
    """Shown name → profile path, for every player link of a page."""
    return {name: href for href, name in re.findall(r'<a href="(/s/\d+/players/\d+)">([^<]+)</a>', html)}


def no_user_ids(world, html: str) -> bool:
    """Whether none of the world's members' ids appears in ``html``."""
    return not any(str(m.id) in html for m in (world.ana, world.beto, world.caro, world.dani, world.eva))
