"""A real browser for the web pages' tests: Debian's headless Chromium, driven through its DevTools protocol
over aiohttp's websocket client (no WebDriver, nothing downloaded at run time).

- `find_chromium()`: the browser's path (``CHROMIUM`` in the environment, else ``chromium`` /
  ``chromium-browser`` on ``PATH``, else ``/usr/bin/chromium``), or ``None``.
- `Chromium`: one browser process (a fresh profile in a temporary directory, no network of its own: no
  updates, sync, QUIC or background requests), started once and stopped at the end.
- `Chromium.load(url, width)`: the page in a new tab of that width, once its ``load`` event fired; a
  `Loaded` with its HTTP status, its text, its widths and a PNG screenshot of the whole page. The browser's
  cache is off: every load asks the server.

A width under 600 px is loaded as a phone (``mobile`` emulation: the page's ``<meta name="viewport">`` is
honoured, as on a phone, and a page without one is laid out 980 px wide, so it scrolls sideways).
"""

from __future__ import annotations

import asyncio
import base64
import itertools
import os
import shutil
import subprocess
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import aiohttp

FLAGS = ("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--disable-default-apps", "--disable-extensions", "--hide-scrollbars", "--mute-audio",
         "--remote-debugging-address=127.0.0.1", "--remote-debugging-port=0")
"""Chromium's command line, before ``--user-data-dir``: headless, sandbox off (CI runs as root), and nothing
that reaches the network by itself."""

PHONE = 390
"""The phone width of the tests, in CSS pixels (an iPhone 12-15's)."""
DESKTOP = 1280
"""The desktop width of the tests, in CSS pixels."""
HEIGHT = 844
"""The viewport's height, in CSS pixels (the screenshot is of the whole page, however long)."""


def find_chromium() -> str | None:
    """The Chromium executable to run: ``$CHROMIUM`` when set, else the first of ``chromium`` and
    ``chromium-browser`` on ``PATH``, else ``/usr/bin/chromium`` when it exists; ``None`` when there is none."""
    if os.environ.get("CHROMIUM"):
        return os.environ["CHROMIUM"]
    for name in ("chromium", "chromium-browser"):
        found = shutil.which(name)
        if found:
            return found
    return "/usr/bin/chromium" if os.access("/usr/bin/chromium", os.X_OK) else None


class BrowserError(RuntimeError):
    """Chromium did not start, or answered a DevTools command with an error, or a page did not load in
    time; the message says which."""


@dataclass(frozen=True)
class Loaded:
    """A page as Chromium showed it.

    Attributes:
        url: the URL asked for. width: the viewport's width, in CSS pixels.
        status: the HTTP status of the document's response (``0`` when none came).
        title: ``document.title``. text: ``document.body.innerText`` (what a reader sees, in layout order).
        html: the document's serialized DOM (``document.documentElement.outerHTML``).
        scroll_width, client_width: ``document.documentElement.scrollWidth`` / ``clientWidth``, in CSS
            pixels; the page scrolls sideways when the first is larger.
        png: a screenshot of the whole page (every pixel of its height), PNG bytes.
        value: the value of the ``script`` given to `Chromium.load` (``None`` without one).
    """

    url: str
    width: int
    status: int
    title: str
    text: str
    html: str
    scroll_width: int
    client_width: int
    png: bytes
    value: Any = None

    @property
    def scrolls_sideways(self) -> bool:
        """Whether the page is wider than the viewport (a reader would have to scroll horizontally)."""
        return self.scroll_width > self.client_width


class _Session:
    """One DevTools websocket: commands by id, events collected in order."""

    def __init__(self, ws: aiohttp.ClientWebSocketResponse) -> None:
        self.ws = ws
        self.ids = itertools.count(1)
        self.pending: dict[int, asyncio.Future[dict[str, Any]]] = {}
        self.events: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
        self.reader = asyncio.get_running_loop().create_task(self._read())

    async def _read(self) -> None:
        async for msg in self.ws:
            if msg.type != aiohttp.WSMsgType.TEXT:
                continue
            data = msg.json()
            waiter = self.pending.pop(data.get("id", -1), None)
            if waiter is not None:
                if not waiter.done():
                    waiter.set_result(data)
            elif "method" in data:
                self.events.put_nowait(data)
        for waiter in self.pending.values():
            if not waiter.done():
                waiter.set_exception(BrowserError("the DevTools connection closed"))

    async def send(self, method: str, session: str | None = None, **params: Any) -> dict[str, Any]:
        """Send one command; its ``result``. Raises `BrowserError` on an error answer."""
        cid = next(self.ids)
        future: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        self.pending[cid] = future
        message: dict[str, Any] = {"id": cid, "method": method, "params": params}
        if session is not None:
            message["sessionId"] = session
        await self.ws.send_json(message)
        answer = await asyncio.wait_for(future, 30)
        if "error" in answer:
            raise BrowserError(f"{method}: {answer['error']}")
        return answer.get("result", {})

    async def close(self) -> None:
        await self.ws.close()
        self.reader.cancel()


class Chromium:
    """A headless Chromium process with a fresh profile, for loading pages.

    Args:
        executable: the browser (`find_chromium()` by default). Raises `BrowserError` from `start` when
            there is none or it does not open its DevTools port within 30 s.
    """

    def __init__(self, executable: str | None = None) -> None:
        self.executable = executable or find_chromium()
        self.profile: str | None = None
        self.process: subprocess.Popen[bytes] | None = None
        self.endpoint: str | None = None

    def start(self) -> Chromium:
        """Start the browser and read its DevTools endpoint; ``self``."""
        if not self.executable:
            raise BrowserError("no Chromium on this machine (apt-get install chromium)")
        self.profile = tempfile.mkdtemp(prefix="cuarenta-chromium-")
        self.process = subprocess.Popen([self.executable, *FLAGS, f"--user-data-dir={self.profile}",
                                         "about:blank"],
                                        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        port_file = Path(self.profile) / "DevToolsActivePort"
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise BrowserError(f"Chromium exited with {self.process.returncode}")
            lines = port_file.read_text().split("\n") if port_file.exists() else []
            if len(lines) >= 2 and lines[1].startswith("/devtools/"):
                self.endpoint = f"ws://127.0.0.1:{lines[0].strip()}{lines[1].strip()}"
                return self
            time.sleep(0.05)
        self.stop()
        raise BrowserError("Chromium did not open its DevTools port within 30 s")

    def stop(self) -> None:
        """Stop the browser (this process only) and delete its profile."""
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(timeout=10)
        self.process = None
        if self.profile:
            shutil.rmtree(self.profile, ignore_errors=True)
            self.profile = None

    async def load(self, url: str, width: int, *, script: str | None = None, height: int = HEIGHT,
                   timeout: float = 30) -> Loaded:
        """Open ``url`` in a new tab ``width`` CSS pixels wide (a phone under 600 px), wait for its ``load``
        event, read it (and the value of the JavaScript expression ``script``, returned by value) and take
        a whole-page screenshot; the tab is closed after. Raises `BrowserError` when the browser is not
        started, the script throws, or the page does not load within ``timeout`` seconds."""
        if self.endpoint is None:
            raise BrowserError("Chromium is not started")
        async with aiohttp.ClientSession() as http, http.ws_connect(self.endpoint, max_msg_size=0) as ws:
            cdp = _Session(ws)
            try:
                return await asyncio.wait_for(self._load(cdp, url, width, height, script), timeout)
            except TimeoutError as exc:
                raise BrowserError(f"{url} did not load within {timeout} s") from exc
            finally:
                await cdp.close()

    async def _load(self, cdp: _Session, url: str, width: int, height: int, script: str | None) -> Loaded:
        target = (await cdp.send("Target.createTarget", url="about:blank"))["targetId"]
        try:
            sid = (await cdp.send("Target.attachToTarget", targetId=target, flatten=True))["sessionId"]
            mobile = width < 600
            await cdp.send("Emulation.setDeviceMetricsOverride", sid, width=width, height=height,
                           deviceScaleFactor=1, mobile=mobile)
            await cdp.send("Network.enable", sid)
            await cdp.send("Network.setCacheDisabled", sid, cacheDisabled=True)  # every load asks the server
            await cdp.send("Page.enable", sid)
            frame = (await cdp.send("Page.navigate", sid, url=url))
            if frame.get("errorText"):
                raise BrowserError(f"{url}: {frame['errorText']}")
            status = 0
            while True:
                event = await cdp.events.get()
                if event.get("sessionId") != sid:
                    continue
                params = event.get("params", {})
                if (event["method"] == "Network.responseReceived" and params.get("type") == "Document"
                        and params.get("loaderId") == frame.get("loaderId")):
                    status = int(params["response"]["status"])
                elif event["method"] == "Page.loadEventFired":
                    break
            facts = await self._evaluate(cdp, sid, """({
                title: document.title,
                text: document.body ? document.body.innerText : "",
                html: document.documentElement.outerHTML,
                scroll: document.documentElement.scrollWidth,
                client: document.documentElement.clientWidth,
                height: Math.ceil(Math.max(document.documentElement.scrollHeight,
                                           document.body ? document.body.scrollHeight : 0)),
            })""")
            value = await self._evaluate(cdp, sid, script) if script else None
            shot = await cdp.send("Page.captureScreenshot", sid, format="png", captureBeyondViewport=True,
                                  clip={"x": 0, "y": 0, "width": max(width, facts["scroll"]),
                                        "height": max(height, facts["height"]), "scale": 1})
            return Loaded(url=url, width=width, status=status, title=facts["title"], text=facts["text"],
                          html=facts["html"], scroll_width=int(facts["scroll"]),
                          client_width=int(facts["client"]), png=base64.b64decode(shot["data"]), value=value)
        finally:
            await cdp.send("Target.closeTarget", targetId=target)

    @staticmethod
    async def _evaluate(cdp: _Session, sid: str, expression: str) -> Any:
        answer = await cdp.send("Runtime.evaluate", sid, expression=expression, returnByValue=True)
        if "exceptionDetails" in answer:
            raise BrowserError(f"script failed: {answer['exceptionDetails'].get('text')}")
        return answer["result"]["value"]
