"""A small fake Discord that a whole bot process can log in to and connect to: its REST API root and its
gateway, on one port, for start-up tests (a subprocess, a container) that run ``python -m bot`` with
``DISCORD_API_BASE=http://HOST:PORT/api/v10``.

REST (JSON, as discord.py 2.7 parses it): ``GET /users/@me`` (the bot user), ``GET /gateway/bot`` and
``GET /gateway`` (one shard; the gateway URL ``ws://HOST:PORT/gateway``), ``GET /applications/@me`` and
``/oauth2/applications/@me``, the application's emojis (listed and created, kept in memory), its global
and guild commands (``PUT`` echoes them with ids; ``GET`` lists none). Any other route is answered 404
``Unknown`` and counted in `FakeGateway.unknown`.

Gateway (plain JSON text frames, no compression: discord.py decompresses binary frames only): HELLO
(op 10, ``heartbeat_interval`` ms), then on IDENTIFY (op 2) a READY dispatch (op 0, ``t`` ``READY``) with the
bot user, no guilds, a session id and the shard the IDENTIFY named; each HEARTBEAT (op 1) is answered by
HEARTBEAT_ACK (op 11). A RESUME (op 6) is answered with INVALID_SESSION (op 9, not resumable), so the bot
identifies again.

Run it alone with ``python -m tests.support.fake_gateway [--host H] [--port P] [--advertise A]``: it prints
``fake discord listening on http://H:P`` once it serves and the ``DISCORD_API_BASE`` to give the bot
(``http://A:P/api/v10``), then a line per IDENTIFY. ``--advertise`` is the
host name put in the gateway URL it hands out (default H): a container on a bridge network reaches the
host as ``host.containers.internal``. In a test, use
`FakeGateway` (`start`, `stop`, ``identified``: an `asyncio.Event` set at the first IDENTIFY).
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import itertools
import json
import time
from typing import Any

from aiohttp import WSMsgType, web

BOT_ID = 1100000000000000001
DISCORD_EPOCH = 1420070400000
HEARTBEAT_MS = 41250
"""The heartbeat interval HELLO gives, in milliseconds (Discord's usual)."""

BOT_USER: dict[str, Any] = {
    "id": str(BOT_ID), "username": "Cuarenta", "discriminator": "0000", "global_name": None, "avatar": None,
    "bot": True, "system": False, "mfa_enabled": True, "flags": 0, "public_flags": 0, "verified": True,
    "email": None, "locale": "en-US", "premium_type": 0, "banner": None, "accent_color": None,
}


def _json(data: Any, status: int = 200) -> web.Response:
    # discord.py parses a body as JSON only when Content-Type is exactly application/json, as Discord sends it
    return web.Response(body=json.dumps(data).encode(), status=status, content_type="application/json")


class FakeGateway:
    """The fake Discord's state and its aiohttp application.

    Attributes:
        host, port: where it listens (``port`` is the bound one after `start`, when 0 was asked).
        identified: set when a bot sent its first IDENTIFY.
        identifies: IDENTIFY payloads' ``d`` received, in order.
        heartbeats: HEARTBEATs answered.
        unknown: requests to routes this fake does not serve, by ``"METHOD path"``.
    """

    def __init__(self, host: str = "127.0.0.1", port: int = 0, advertise: str = "") -> None:
        self.host = host
        self.port = port
        self.advertise = advertise or host
        """The host name in the URLs handed to the bot (the gateway's)."""
        self.identified = asyncio.Event()
        self.identifies: list[dict[str, Any]] = []
        self.heartbeats = 0
        self.unknown: collections.Counter[str] = collections.Counter()
        self.emojis: list[dict[str, Any]] = []
        self._seq = itertools.count()
        self._runner: web.AppRunner | None = None

    # ------------------------------------------------------------------ addresses

    @property
    def api_base(self) -> str:
        """The value for DISCORD_API_BASE: ``http://advertise:port/api/v10``."""
        return f"http://{self.advertise}:{self.port}/api/v10"

    @property
    def gateway_url(self) -> str:
        return f"ws://{self.advertise}:{self.port}/gateway"

    def snowflake(self) -> int:
        ms = int(time.time() * 1000) - DISCORD_EPOCH
        return (ms << 22) | (1 << 17) | (next(self._seq) & 0x1FFFF)

    # ------------------------------------------------------------------ REST

    async def me(self, request: web.Request) -> web.Response:
        return _json(BOT_USER)

    async def application(self, request: web.Request) -> web.Response:
        return _json({"id": str(BOT_ID), "name": "Cuarenta", "icon": None, "description": "", "summary": "",
                      "type": None, "bot_public": True, "bot_require_code_grant": False, "verify_key": "0" * 64,
                      "flags": 0, "owner": {"id": "1000", "username": "owner", "discriminator": "0",
                                            "avatar": None, "global_name": None, "public_flags": 0},
                      "team": None, "bot": BOT_USER, "redirect_uris": [], "interactions_endpoint_url": None,
                      "approximate_guild_count": 0, "tags": [], "install_params": None})

    async def gateway(self, request: web.Request) -> web.Response:
        return _json({"url": self.gateway_url, "shards": 1,
                      "session_start_limit": {"total": 1000, "remaining": 1000, "reset_after": 0,
                                              "max_concurrency": 1}})

    async def list_emojis(self, request: web.Request) -> web.Response:
        return _json({"items": self.emojis})

    async def create_emoji(self, request: web.Request) -> web.Response:
        body = await request.json()
        emoji = {"id": str(self.snowflake()), "name": body.get("name"), "roles": [], "user": BOT_USER,
                 "require_colons": True, "managed": False, "animated": False, "available": True}
        self.emojis.append(emoji)
        return _json(emoji, 201)

    async def commands(self, request: web.Request) -> web.Response:
        if request.method == "PUT":
            body = await request.json()
            return _json([dict(c, id=str(self.snowflake()), application_id=str(BOT_ID), version="1")
                          for c in body])
        return _json([])

    async def not_found(self, request: web.Request) -> web.Response:
        self.unknown[f"{request.method} {request.path}"] += 1
        return _json({"message": "404: Not Found", "code": 0}, 404)

    # ------------------------------------------------------------------ gateway

    def _ready(self, identify: dict[str, Any]) -> dict[str, Any]:
        shard = identify.get("shard") or [0, 1]
        return {"op": 0, "t": "READY", "s": 1, "d": {
            "v": 10, "user": BOT_USER, "guilds": [], "session_id": f"fake-{self.snowflake()}",
            "resume_gateway_url": self.gateway_url, "shard": shard,
            "application": {"id": str(BOT_ID), "flags": 0}, "private_channels": [], "relationships": [],
        }}

    async def websocket(self, request: web.Request) -> web.WebSocketResponse:
        ws = web.WebSocketResponse(autoping=True)
        await ws.prepare(request)
        await ws.send_str(json.dumps({"op": 10, "d": {"heartbeat_interval": HEARTBEAT_MS}, "s": None, "t": None}))
        async for message in ws:
            if message.type != WSMsgType.TEXT:
                continue
            payload = json.loads(message.data)
            op = payload.get("op")
            if op == 1:
                self.heartbeats += 1
                await ws.send_str(json.dumps({"op": 11, "d": None, "s": None, "t": None}))
            elif op == 2:
                data = payload.get("d") or {}
                self.identifies.append(data)
                self.identified.set()
                print(f"fake discord: IDENTIFY shard {data.get('shard')}", flush=True)
                await ws.send_str(json.dumps(self._ready(data)))
            elif op == 6:
                await ws.send_str(json.dumps({"op": 9, "d": False, "s": None, "t": None}))
        return ws

    # ------------------------------------------------------------------ serving

    def app(self) -> web.Application:
        app = web.Application()
        r = app.router
        v = "/api/v10"
        r.add_get(v + "/users/@me", self.me)
        r.add_get(v + "/applications/@me", self.application)
        r.add_get(v + "/oauth2/applications/@me", self.application)
        r.add_get(v + "/gateway/bot", self.gateway)
        r.add_get(v + "/gateway", self.gateway)
        r.add_get(v + "/applications/{app}/emojis", self.list_emojis)
        r.add_post(v + "/applications/{app}/emojis", self.create_emoji)
        r.add_route("*", v + "/applications/{app}/commands", self.commands)
        r.add_route("*", v + "/applications/{app}/guilds/{guild}/commands", self.commands)
        r.add_get("/gateway", self.websocket)
        r.add_route("*", "/{tail:.*}", self.not_found)
        return app

    async def start(self) -> None:
        """Listen on ``host:port`` (``port`` 0: a free one, then stored in ``port``)."""
        self._runner = web.AppRunner(self.app(), access_log=None)
        await self._runner.setup()
        site = web.TCPSite(self._runner, self.host, self.port)
        await site.start()
        server = site._server
        if self.port == 0 and server is not None:
            self.port = server.sockets[0].getsockname()[1]  # type: ignore[attr-defined]

    async def stop(self) -> None:
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None


async def _serve(host: str, port: int, advertise: str) -> None:
    fake = FakeGateway(host, port, advertise)
    await fake.start()
    print(f"fake discord listening on http://{fake.host}:{fake.port}", flush=True)
    print(f"set DISCORD_API_BASE=http://{fake.advertise}:{fake.port}/api/v10", flush=True)
    await asyncio.Event().wait()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--advertise", default="", help="host name in the gateway URL (default: --host)")
    args = parser.parse_args()
    try:
        asyncio.run(_serve(args.host, args.port, args.advertise))
    except KeyboardInterrupt:
        pass


if __name__ == "__main__":
    main()
