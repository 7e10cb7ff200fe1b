"""The browser harness itself (`tests/support/browser.py`), against a small aiohttp server on a loopback
port: the status, the text, the sideways scroll at phone width, the screenshot."""

from __future__ import annotations

import struct

import pytest
from aiohttp import web

from tests.support.browser import DESKTOP, PHONE

FITS = """<!doctype html><html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1"><title>Fits</title></head>
<body><h1>Leaderboard</h1><p>ana 1520</p></body></html>"""
WIDE = FITS.replace("<p>ana 1520</p>", '<table style="width:700px"><tr><td>ana</td><td>1520</td></tr></table>')


@pytest.fixture
async def site():
    """A loopback server with a page that fits a phone, one that does not, and nothing else."""
    async def fits(_request):
        return web.Response(text=FITS, content_type="text/html")

    async def wide(_request):
        return web.Response(text=WIDE, content_type="text/html")

    app = web.Application()
    app.router.add_get("/fits", fits)
    app.router.add_get("/wide", wide)
    runner = web.AppRunner(app)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    port = site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]
    yield f"http://127.0.0.1:{port}"
    await runner.cleanup()


def png_size(png: bytes) -> tuple[int, int]:
    """The width and height in a PNG's IHDR chunk."""
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    return struct.unpack(">II", png[16:24])


async def test_a_page_that_fits_loads_with_its_status_text_and_no_sideways_scroll(chromium, site):
    page = await chromium.load(f"{site}/fits", PHONE)
    assert page.status == 200 and page.title == "Fits"
    assert "ana 1520" in page.text
    assert page.client_width == PHONE and not page.scrolls_sideways
    assert png_size(page.png)[0] == PHONE


async def test_a_wider_table_scrolls_sideways_at_phone_width_but_not_on_a_desktop(chromium, site):
    phone = await chromium.load(f"{site}/wide", PHONE)
    assert phone.scrolls_sideways and phone.scroll_width >= 700
    desktop = await chromium.load(f"{site}/wide", DESKTOP)
    assert not desktop.scrolls_sideways and png_size(desktop.png)[0] == DESKTOP


async def test_a_missing_page_answers_404_and_a_script_value_comes_back(chromium, site):
    page = await chromium.load(f"{site}/nothing", DESKTOP, script="document.querySelectorAll('p').length")
    assert page.status == 404 and page.value == 0
