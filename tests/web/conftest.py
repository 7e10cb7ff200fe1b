"""Fixtures of the web pages' tests: a headless Chromium for the whole session (`tests/support/browser.py`).

Without Chromium on the machine the browser tests are skipped, and say why; under CI (``CI`` set) a missing
browser fails them instead (`.ci/run` installs Debian's ``chromium``)."""

from __future__ import annotations

import os

import pytest

from tests.support.browser import BrowserError, Chromium, find_chromium


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
