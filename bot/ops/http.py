"""The opt-in HTTP port (``METRICS_PORT``, `bot.config.Settings.metrics_port`): ``/healthz`` and
``/metrics``, served by ``aiohttp.web`` inside the bot's own event loop (aiohttp comes with discord.py).

- ``GET /healthz``: 200 ``ok`` while the bot is healthy, else 503 and a one-word reason (``starting``,
  ``closed``, ``disconnected``, ``database``): the bot's own `bot.app.CuarentaBot.health` decides. For a
  container's ``HEALTHCHECK`` or a supervisor's probe.
- ``GET /metrics``: `bot.ops.metrics.BotMetrics` in Prometheus' text format (OpenMetrics when the scraper
  asks for it).

Both answer in well under a millisecond of the loop's time, apart from the health check's one trivial
query (at most `bot.app.HEALTH_TIMEOUT` seconds). The server keeps no access log: a scrape every 15 s
would fill the bot's log.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable

from aiohttp import web

from .metrics import BotMetrics

log = logging.getLogger(__name__)

Health = Callable[[], Awaitable[str | None]]
"""``await health()``: None while healthy, else a one-word reason."""

Routes = Callable[[web.Application], None]
"""``routes(app)``: adds more routes to the port's application before it listens (the web pages, `bot.web`)."""


class PortError(RuntimeError):
    """The health check and metrics port cannot be listened on (taken, or an address not of this host)."""


class OpsServer:
    """The HTTP server of ``/healthz`` and ``/metrics``.

    Args:
        metrics: what ``/metrics`` serves. health: what ``/healthz`` asks (`Health`).
        routes: adds more routes (`Routes`; the web pages), or None.
    """

    def __init__(self, metrics: BotMetrics, health: Health, routes: Routes | None = None) -> None:
        self._metrics = metrics
        self._health = health
        self._routes = routes
        self._runner: web.AppRunner | None = None
        self.port: int | None = None
        """The port listened on once `start` returned (the one the system chose for port 0)."""

    async def start(self, host: str, port: int) -> int:
        """Listen on ``host``:``port`` (0: a free port); returns the port.

        Raises:
            PortError: the address is taken or cannot be bound (the message names it and says why).
        """
        app = web.Application()
        app.router.add_get("/healthz", self._healthz)
        app.router.add_get("/metrics", self._serve_metrics)
        if self._routes is not None:
            self._routes(app)
        runner = web.AppRunner(app, access_log=None, handle_signals=False)
        await runner.setup()
        try:
            site = web.TCPSite(runner, host, port)
            await site.start()
        except OSError as exc:
            await runner.cleanup()
            raise PortError(f"METRICS_PORT: cannot listen on {host}:{port} ({exc.strerror or exc})") from exc
        except BaseException:
            await runner.cleanup()
            raise
        self._runner = runner
        self.port = int(runner.addresses[0][1])
        log.info("health check and metrics on http://%s:%d/healthz and /metrics", host, self.port)
        return self.port

    async def close(self) -> None:
        """Stop listening (idempotent)."""
        runner, self._runner = self._runner, None
        if runner is not None:
            await runner.cleanup()

    async def _healthz(self, request: web.Request) -> web.Response:
        reason = await self._health()
        if reason is None:
            return web.Response(text="ok\n")
        return web.Response(status=503, text=f"{reason}\n")

    async def _serve_metrics(self, request: web.Request) -> web.Response:
        body, content_type = self._metrics.exposition(request.headers.get("Accept"))
        return web.Response(body=body, headers={"Content-Type": content_type})
