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
import shutil
from pathlib import Path

import aiohttp
import pytest

from tests.support.browser import BrowserError, Chromium, find_chromium
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
