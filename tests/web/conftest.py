"""Fixtures of the web pages' tests: a headless Chromium for the whole session (`tests/support/browser.py`).

Without Chromium on the machine the browser tests are skipped, and say why; under CI (``CI`` set) a missing
browser fails them instead (`.ci/run` installs Debian's ``chromium``)."""

from __future__ import annotations

import asyncio
import os
import shutil
from dataclasses import replace
from pathlib import Path

import pytest

from tests.support.browser import BrowserError, Chromium, find_chromium
from tests.support.web_world import WebWorld, build


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
    return replace(web_world_file, path=str(path))
