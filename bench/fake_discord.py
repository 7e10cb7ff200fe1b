"""A fake Discord for `bench/loopback.py`: the REST API the bot uses, on 127.0.0.1, in its own process.

It answers with the JSON discord.py 2.7 parses (messages, DM channels, interaction callbacks: their object with
``?with_response=true``, else 204 as Discord; webhook edits and follow-ups, application emojis), keeps every message it was
sent (content, embeds, components, attachments), and sends each channel's message writes the
``X-RateLimit-*`` headers of a 5 writes / 5 s bucket (a 429 past it, so a write budget that fails shows).
Anything else is logged and answered 404 so that an unknown route is noticed.

It is also where the benchmark's people click. The bench process (the bot and its driver) connects to a
second port (newline-framed text):

- bench → fake: ``C <json>`` a click: an INTERACTION_CREATE payload without ``data``/``message`` and
  what to click (a capture menu when the person's DM hand shows it, else a card button or the trail
  select). The fake finds the person's DM hand that carries that control (waiting, up to ``HAND_WAIT``
  seconds, for the bot's edit or new DM that brings it), fills in ``data`` and the hand message exactly as
  Discord shows it, and sends the event back.
- bench → fake: ``X <json>`` any other INTERACTION_CREATE payload (slash commands): sent back as is.
- fake → bench: ``I <interaction id> <json>`` the event, for the bot's ``parse_interaction_create``.
- fake → bench: ``A <interaction id> <callback type>`` when the first callback of an interaction arrived.

``GET /_bench/stats`` returns, per interaction id, the ``time.monotonic()`` of its first callback (the
clock is shared by every process on Linux), the bot-token REST calls by route (everything except
``/interactions/…/callback`` and ``/webhooks/…``), unknown routes, 429s, refusals shown to the people
(ephemeral answers to a play), and this process's CPU seconds. ``POST /_bench/reset`` zeroes them.
``POST /_bench/take`` returns the callbacks seen since the last take and forgets them, with the bot-token
REST calls so far, the messages held, and the fake's own garbage collections since the last take (a long
run, `bench/soak.py`, reads its figures by interval without either process keeping every interaction; a
pause of the fake delays its stamps, so it is read beside the bot's).

Run by `serve` (``multiprocessing`` target); it reports its two ports on the pipe it is given.
"""

from __future__ import annotations

import asyncio
import collections
import datetime as dt
import gc
import itertools
import json
import logging
import re
import struct
import time
from typing import Any

from aiohttp import web

log = logging.getLogger("fake_discord")

DISCORD_EPOCH = 1420070400000
BOT_ID = 1100000000000000001
TOKEN_LIFETIME = 15 * 60.0
"""Seconds an interaction token can edit its response and send follow-ups."""
HAND_WAIT = 10.0
"""Seconds a click waits for the person's DM hand to show the control it clicks."""
BUCKET_WRITES, BUCKET_WINDOW = 5, 5.0
"""Each channel's message writes (POST, PATCH, DELETE): 5 per 5 s."""
JSON = "application/json"

BOT_USER = {"id": str(BOT_ID), "username": "Cuarenta", "discriminator": "0000", "global_name": None,
            "avatar": None, "bot": True, "system": False, "mfa_enabled": True, "flags": 0, "public_flags": 0,
            "verified": True, "email": None, "locale": "en-US", "premium_type": 0, "banner": None,
            "accent_color": None}


class Snowflakes:
    """Discord ids from the wall clock (discord.py reads message ages from them)."""

    def __init__(self, worker: int = 1) -> None:
        self._worker = worker
        self._seq = itertools.count()

    def __call__(self) -> int:
        ms = int(time.time() * 1000) - DISCORD_EPOCH
        return (ms << 22) | (self._worker << 17) | (next(self._seq) & 0x1FFFF)


def iso_now() -> str:
    return dt.datetime.now(dt.UTC).isoformat()


def png_size(data: bytes) -> tuple[int | None, int | None]:
    if data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) >= 24:
        w, h = struct.unpack(">II", data[16:24])
        return w, h
    return None, None


def _reply(data: Any, status: int = 200, headers: dict[str, str] | None = None) -> web.Response:
    # discord.py parses JSON only when Content-Type is exactly "application/json" (as Discord sends it)
    return web.Response(body=json.dumps(data).encode(), status=status, headers={"Content-Type": JSON, **(headers or {})})


def _error(status: int, message: str, code: int = 0) -> web.Response:
    return _reply({"message": message, "code": code}, status)


class FakeDiscord:
    def __init__(self) -> None:
        self.snow = Snowflakes()
        self.messages: dict[int, dict[str, Any]] = {}
        self.channel_messages: dict[int, list[int]] = collections.defaultdict(list)
        self.channels: dict[int, dict[str, Any]] = {}
        self.users: dict[int, dict[str, Any]] = {}
        self.dm_of: dict[int, int] = {}
        self.emojis: list[dict[str, Any]] = []
        self.tokens: dict[str, dict[str, Any]] = {}
        self.changed: dict[int, asyncio.Event] = {}
        self.buckets: dict[int, collections.deque[float]] = {}
        self.writer: asyncio.StreamWriter | None = None
        self.answered: set[int] = set()  # interactions with a response, across `reset` (their tokens live on)
        self.reset()

    def reset(self) -> None:
        self.callbacks: dict[int, list[Any]] = {}   # iid -> [t first, type first, count]
        self.rest: collections.Counter[str] = collections.Counter()
        self.hook: collections.Counter[str] = collections.Counter()
        self.unknown: collections.Counter[str] = collections.Counter()
        self.too_many = 0
        self.expired = 0
        self.refused: collections.Counter[str] = collections.Counter()
        """Requests answered with an error (not 429) by route, status and Discord code."""
        self.refusals: collections.Counter[str] = collections.Counter()
        self.clicks: collections.Counter[str] = collections.Counter()
        self.hand_waits: list[float] = []
        self.cpu0 = time.process_time()
        self.t0 = time.monotonic()

    # ------------------------------------------------------------------ objects

    def user(self, user_id: int) -> dict[str, Any]:
        if user_id == BOT_ID:
            return BOT_USER
        return self.users.get(user_id) or {"id": str(user_id), "username": f"user{user_id}", "discriminator": "0",
                                           "global_name": None, "avatar": None, "public_flags": 0}

    def _attachments(self, channel_id: int, files: list[tuple[str, bytes]]) -> list[dict[str, Any]]:
        out = []
        for name, data in files:
            aid = self.snow()
            w, h = png_size(data)
            url = f"https://cdn.discordapp.com/attachments/{channel_id}/{aid}/{name}?ex=0&is=0&hm=0&"
            item = {"id": str(aid), "filename": name, "size": len(data), "url": url,
                    "proxy_url": url.replace("cdn.discordapp.com", "media.discordapp.net"),
                    "content_type": "image/png" if w else "application/octet-stream"}
            if w:
                item.update(width=w, height=h, placeholder="", placeholder_version=1)
            out.append(item)
        return out

    @staticmethod
    def _components(components: list[dict[str, Any]] | None) -> list[dict[str, Any]]:
        counter = itertools.count(1)

        def walk(items: list[dict[str, Any]]) -> list[dict[str, Any]]:
            out = []
            for item in items:
                item = dict(item)
                item.setdefault("id", next(counter))
                if "components" in item:
                    item["components"] = walk(item["components"])
                out.append(item)
            return out

        return walk(components or [])

    @staticmethod
    def _embeds(embeds: list[dict[str, Any]] | None, attachments: list[dict[str, Any]]) -> list[dict[str, Any]]:
        by_name = {a["filename"]: a for a in attachments}
        out = []
        for embed in embeds or []:
            embed = dict(embed)
            embed.setdefault("type", "rich")
            embed.setdefault("content_scan_version", 0)
            for key in ("image", "thumbnail"):
                media = embed.get(key)
                if isinstance(media, dict) and str(media.get("url", "")).startswith("attachment://"):
                    found = by_name.get(media["url"][len("attachment://"):])
                    if found is not None:
                        embed[key] = {"url": found["url"], "proxy_url": found["proxy_url"],
                                      "width": found.get("width", 0), "height": found.get("height", 0),
                                      "content_type": found["content_type"], "placeholder": "",
                                      "placeholder_version": 1, "flags": 0}
            out.append(embed)
        return out

    def new_message(self, channel_id: int, body: dict[str, Any], files: list[tuple[str, bytes]], *,
                    kind: int = 0, flags: int = 0, interaction: dict[str, Any] | None = None) -> dict[str, Any]:
        attachments = self._attachments(channel_id, files)
        message: dict[str, Any] = {
            "id": str(self.snow()), "channel_id": str(channel_id), "author": BOT_USER,
            "content": body.get("content") or "", "timestamp": iso_now(), "edited_timestamp": None,
            "tts": bool(body.get("tts", False)), "mention_everyone": False, "mentions": [], "mention_roles": [],
            "attachments": attachments, "embeds": self._embeds(body.get("embeds"), attachments),
            "components": self._components(body.get("components")), "pinned": False, "type": kind,
            "flags": int(body.get("flags") or 0) | flags, "nonce": body.get("nonce"), "reactions": [],
        }
        if body.get("message_reference"):
            ref = dict(body["message_reference"])
            message["message_reference"] = {"type": 0, "channel_id": str(ref.get("channel_id") or channel_id),
                                            "message_id": str(ref.get("message_id"))}
            message["type"] = 19
        if interaction is not None:
            message["webhook_id"] = str(BOT_ID)
            message["application_id"] = str(BOT_ID)
            message["interaction_metadata"] = interaction
        self.messages[int(message["id"])] = message
        self.channel_messages[channel_id].append(int(message["id"]))
        self._touch(channel_id)
        return message

    def edit_message(self, message: dict[str, Any], body: dict[str, Any], files: list[tuple[str, bytes]]) -> dict[str, Any]:
        channel_id = int(message["channel_id"])
        if "content" in body:
            message["content"] = body["content"] or ""
        attachments = message["attachments"]
        if "attachments" in body or files:
            keep = {str(a.get("id")) for a in body.get("attachments") or []}
            attachments = [a for a in message["attachments"] if a["id"] in keep] + self._attachments(channel_id, files)
            message["attachments"] = attachments
        if "embeds" in body:
            message["embeds"] = self._embeds(body["embeds"], attachments)
        if "components" in body:
            message["components"] = self._components(body["components"])
        if "flags" in body and body["flags"] is not None:
            message["flags"] = (int(message["flags"]) & 64) | int(body["flags"])
        message["flags"] = int(message["flags"]) & ~128  # a deferred response is no longer loading
        message["edited_timestamp"] = iso_now()
        self._touch(channel_id)
        return message

    def delete_message(self, message_id: int) -> bool:
        message = self.messages.pop(message_id, None)
        if message is None:
            return False
        channel_id = int(message["channel_id"])
        try:
            self.channel_messages[channel_id].remove(message_id)
        except ValueError:
            pass
        self._touch(channel_id)
        return True

    def _touch(self, channel_id: int) -> None:
        event = self.changed.pop(channel_id, None)
        if event is not None:
            event.set()

    # ------------------------------------------------------------------ requests

    async def body(self, request: web.Request) -> tuple[dict[str, Any], list[tuple[str, bytes]]]:
        if request.content_type == "multipart/form-data":
            payload: dict[str, Any] = {}
            files: list[tuple[int, str, bytes]] = []
            reader = await request.multipart()
            async for part in reader:
                name = part.name or ""
                if name == "payload_json":
                    payload = json.loads(await part.text())
                else:
                    match = re.fullmatch(r"files\[(\d+)\]", name)
                    data = await part.read()
                    files.append((int(match.group(1)) if match else len(files), part.filename or "file", bytes(data)))
            return payload, [(n, d) for _, n, d in sorted(files)]
        if request.can_read_body:
            text = await request.text()
            return (json.loads(text) if text else {}), []
        return {}, []

    def _bucket(self, channel_id: int) -> tuple[bool, dict[str, str]]:
        """Count a message write in ``channel_id``; (allowed, rate-limit headers)."""
        now = time.monotonic()
        window = self.buckets.setdefault(channel_id, collections.deque())
        while window and window[0] <= now - BUCKET_WINDOW:
            window.popleft()
        if len(window) >= BUCKET_WRITES:
            retry = window[0] + BUCKET_WINDOW - now
            return False, {"X-RateLimit-Limit": str(BUCKET_WRITES), "X-RateLimit-Remaining": "0",
                           "X-RateLimit-Reset-After": f"{retry:.3f}", "X-RateLimit-Reset": f"{time.time() + retry:.3f}",
                           "X-RateLimit-Bucket": f"msg{channel_id}", "X-RateLimit-Scope": "user",
                           "Retry-After": f"{retry:.3f}", "Via": "1.1 google"}
        window.append(now)
        reset_after = window[0] + BUCKET_WINDOW - now
        return True, {"X-RateLimit-Limit": str(BUCKET_WRITES),
                      "X-RateLimit-Remaining": str(BUCKET_WRITES - len(window)),
                      "X-RateLimit-Reset-After": f"{reset_after:.3f}",
                      "X-RateLimit-Reset": f"{time.time() + reset_after:.3f}",
                      "X-RateLimit-Bucket": f"msg{channel_id}"}

    def _rate_limited(self, headers: dict[str, str]) -> web.Response:
        self.too_many += 1
        retry = float(headers["Retry-After"])
        return _reply({"message": "You are being rate limited.", "retry_after": retry, "global": False}, 429, headers)

    def route_name(self, method: str, path: str) -> str:
        return method + " " + re.sub(r"/\d{6,}", "/{id}", path)

    @web.middleware
    async def middleware(self, request: web.Request, handler: Any) -> web.StreamResponse:
        path = request.path
        if path.startswith("/api/v10"):
            bare = path[len("/api/v10"):]
            if not (bare.startswith("/interactions/") or bare.startswith("/webhooks/")):
                self.rest[self.route_name(request.method, bare)] += 1
            else:
                self.hook[self.route_name(request.method, _generic(bare))] += 1
        try:
            response = await handler(request)
            if response.status >= 400 and response.status != 429:
                code = json.loads(response.body).get("code", 0) if isinstance(response, web.Response) and response.body else 0
                self.refused[f"{self.route_name(request.method, _generic(path.removeprefix('/api/v10')))} -> {response.status} {code}"] += 1
            return response
        except web.HTTPNotFound:
            name = self.route_name(request.method, path)
            if self.unknown[name] == 0:
                log.warning("unknown route %s", name)
            self.unknown[name] += 1
            return _error(404, "404: Not Found")
        except web.HTTPMethodNotAllowed:
            name = self.route_name(request.method, path)
            self.unknown[name] += 1
            return _error(405, "405: Method Not Allowed")

    # --- users, application

    async def me(self, request: web.Request) -> web.Response:
        return _reply(BOT_USER)

    async def application(self, request: web.Request) -> web.Response:
        return _reply({"id": str(BOT_ID), "name": "Cuarenta", "icon": None, "description": "", "summary": "",
                       "type": None, "bot_public": True, "bot_require_code_grant": False, "verify_key": "0" * 64,
                       "flags": 0, "owner": {"id": "1000", "username": "owner", "discriminator": "0", "avatar": None,
                                             "global_name": None, "public_flags": 0},
                       "team": None, "bot": BOT_USER, "redirect_uris": [], "interactions_endpoint_url": None,
                       "approximate_guild_count": 1, "tags": [], "install_params": None})

    async def gateway(self, request: web.Request) -> web.Response:
        return _reply({"url": "wss://gateway.invalid", "shards": 1,
                       "session_start_limit": {"total": 1000, "remaining": 1000, "reset_after": 0, "max_concurrency": 1}})

    async def list_emojis(self, request: web.Request) -> web.Response:
        return _reply({"items": self.emojis})

    async def create_emoji(self, request: web.Request) -> web.Response:
        body, _ = await self.body(request)
        emoji = {"id": str(self.snow()), "name": body.get("name"), "roles": [], "user": BOT_USER,
                 "require_colons": True, "managed": False, "animated": False, "available": True}
        self.emojis.append(emoji)
        return _reply(emoji, 201)

    async def commands(self, request: web.Request) -> web.Response:
        if request.method == "PUT":
            body, _ = await self.body(request)
            return _reply([dict(c, id=str(self.snow()), application_id=str(BOT_ID), version="1") for c in body])
        return _reply([])

    async def open_dm(self, request: web.Request) -> web.Response:
        body, _ = await self.body(request)
        user_id = int(body["recipient_id"])
        channel_id = self.dm_of.get(user_id)
        if channel_id is None:
            channel_id = self.dm_of[user_id] = self.snow()
            self.channels[channel_id] = {"id": str(channel_id), "type": 1, "last_message_id": None, "flags": 0,
                                         "recipients": [self.user(user_id)]}
        return _reply(self.channels[channel_id])

    # --- channels, messages

    async def get_channel(self, request: web.Request) -> web.Response:
        channel = self.channels.get(int(request.match_info["channel"]))
        if channel is None:
            return _error(404, "Unknown Channel", 10003)
        return _reply(channel)

    async def create_message(self, request: web.Request) -> web.Response:
        channel_id = int(request.match_info["channel"])
        if channel_id not in self.channels:
            return _error(404, "Unknown Channel", 10003)
        ok, headers = self._bucket(channel_id)
        if not ok:
            return self._rate_limited(headers)
        body, files = await self.body(request)
        return _reply(self.new_message(channel_id, body, files), 200, headers)

    def _message(self, request: web.Request) -> dict[str, Any] | None:
        message = self.messages.get(int(request.match_info["message"]))
        if message is None or int(message["channel_id"]) != int(request.match_info["channel"]):
            return None
        return message

    async def edit_message_route(self, request: web.Request) -> web.Response:
        channel_id = int(request.match_info["channel"])
        ok, headers = self._bucket(channel_id)
        if not ok:
            return self._rate_limited(headers)
        body, files = await self.body(request)
        message = self._message(request)
        if message is None:
            return _error(404, "Unknown Message", 10008)
        return _reply(self.edit_message(message, body, files), 200, headers)

    async def delete_message_route(self, request: web.Request) -> web.Response:
        channel_id = int(request.match_info["channel"])
        ok, headers = self._bucket(channel_id)
        if not ok:
            return self._rate_limited(headers)
        if self._message(request) is None or not self.delete_message(int(request.match_info["message"])):
            return _error(404, "Unknown Message", 10008)
        return web.Response(status=204, headers=headers)

    async def get_message(self, request: web.Request) -> web.Response:
        message = self._message(request)
        if message is None:
            return _error(404, "Unknown Message", 10008)
        return _reply(message)

    async def reaction(self, request: web.Request) -> web.Response:
        return web.Response(status=204)

    # --- interactions and webhooks

    async def callback(self, request: web.Request) -> web.Response:
        now = time.monotonic()
        iid = int(request.match_info["iid"])
        ctx = self.tokens.get(request.match_info["token"])
        if ctx is None or ctx["id"] != iid or now - ctx["at"] > 3.0:
            # Discord drops an interaction not answered within 3 s ("This interaction failed")
            if ctx is not None and ctx["id"] == iid and iid not in self.callbacks:
                self.callbacks[iid] = [now, int((await self.body(request))[0].get("type", 0)), 1]
                self.answered.add(iid)
                self.expired += 1
                if self.writer is not None:
                    self.writer.write(f"A {iid} -1\n".encode())
            return _error(404, "Unknown interaction", 10062)
        body, files = await self.body(request)
        kind = int(body.get("type", 0))
        data = body.get("data") or {}
        seen = self.callbacks.get(iid)
        if seen is not None or iid in self.answered:  # (``answered``: also those a take let go)
            if seen is not None:
                seen[2] += 1
            return _error(400, "Interaction has already been acknowledged.", 40060)
        self.callbacks[iid] = [now, kind, 1]
        self.answered.add(iid)
        if self.writer is not None:
            self.writer.write(f"A {iid} {kind}\n".encode())
        channel_id = ctx["channel_id"]
        metadata = {"id": str(iid), "type": ctx["type"], "user": self.user(ctx["user_id"]),
                    "authorizing_integration_owners": {}}
        resource: dict[str, Any] | None = None
        message_id: int | None = None
        loading = ephemeral = False
        if kind in (4, 5):
            flags = int(data.get("flags") or 0)
            ephemeral = bool(flags & 64)
            loading = kind == 5
            if kind == 4 and ephemeral and ctx["type"] == 3 and ctx.get("play"):
                self.refusals[(data.get("content") or "")[:80]] += 1
            message = self.new_message(channel_id, data, files, kind=20 if ctx["type"] == 2 else 0,
                                       flags=128 if loading else 0, interaction=metadata)
            ctx["original"] = int(message["id"])
            message_id = int(message["id"])
            resource = {"type": kind, "message": message}
        elif kind in (6, 7):
            source = self.messages.get(ctx.get("message_id") or 0)
            ctx["original"] = ctx.get("message_id")
            message_id = ctx.get("message_id")
            if kind == 7 and source is not None:
                resource = {"type": 7, "message": self.edit_message(source, data, files)}
        response: dict[str, Any] = {"interaction": {"id": str(iid), "type": ctx["type"],
                                                    "response_message_loading": loading,
                                                    "response_message_ephemeral": ephemeral}}
        if message_id is not None:
            response["interaction"]["response_message_id"] = str(message_id)
        if resource is not None:
            response["resource"] = resource
        if request.query.get("with_response", "").lower() not in ("1", "true"):
            return web.Response(status=204)  # Discord sends the callback object back only when asked
        return _reply(response)

    def _token(self, request: web.Request) -> dict[str, Any] | None:
        """The interaction of a webhook token, while it is valid (15 minutes)."""
        ctx = self.tokens.get(request.match_info["token"])
        if ctx is None or time.monotonic() - ctx["at"] > TOKEN_LIFETIME:
            return None
        return ctx

    async def original(self, request: web.Request) -> web.Response:
        ctx = self._token(request)
        if ctx is None:
            return _error(401, "Invalid Webhook Token", 50027)
        which = request.match_info["message"]
        message_id = ctx.get("original") if which == "@original" else int(which)
        message = self.messages.get(message_id or 0)
        if message is None or (message_id != ctx.get("original") and message_id not in ctx["followups"]):
            # a token reaches its interaction's response and follow-ups only
            return _error(404, "Unknown Message", 10008)
        if request.method == "GET":
            return _reply(message)
        if request.method == "DELETE":
            self.delete_message(int(message["id"]))
            return web.Response(status=204)
        body, files = await self.body(request)
        return _reply(self.edit_message(message, body, files))

    async def followup(self, request: web.Request) -> web.Response:
        ctx = self._token(request)
        if ctx is None:
            return _error(401, "Invalid Webhook Token", 50027)
        body, files = await self.body(request)
        metadata = {"id": str(ctx["id"]), "type": ctx["type"], "user": self.user(ctx["user_id"]),
                    "authorizing_integration_owners": {}}
        if ctx["id"] not in self.answered:
            return _error(404, "Unknown Webhook", 10015)  # no follow-up before the interaction's response
        message = self.new_message(ctx["channel_id"], body, files, interaction=metadata)
        ctx["followups"].add(int(message["id"]))
        return _reply(message)

    # --- the bench

    async def setup(self, request: web.Request) -> web.Response:
        body = await request.json()
        for user in body.get("users", []):
            self.users[int(user["id"])] = user
        for channel in body.get("channels", []):
            self.channels[int(channel["id"])] = channel
        return _reply({"ok": True})

    async def stats(self, request: web.Request) -> web.Response:
        return _reply({"callbacks": {str(k): v for k, v in self.callbacks.items()}, "rest": self.rest,
                       "webhook": self.hook, "unknown": self.unknown, "too_many": self.too_many, "expired": self.expired, "refused": self.refused,
                       "errors": _Errors.count,
                       "refusals": self.refusals, "clicks": self.clicks, "hand_waits": self.hand_waits,
                       "cpu": time.process_time() - self.cpu0, "wall": time.monotonic() - self.t0,
                       "messages": len(self.messages)})

    async def channel_route(self, request: web.Request) -> web.Response:
        """The last messages of a channel (``?user=<id>``: of that user's DM channel), newest last."""
        if "user" in request.query:
            channel_id = self.dm_of.get(int(request.query["user"]), 0)
        else:
            channel_id = int(request.match_info["channel"])
        ids = self.channel_messages.get(channel_id, [])[-int(request.query.get("last", "5")):]
        return _reply([self.messages[i] for i in ids])

    async def take(self, request: web.Request) -> web.Response:
        taken, self.callbacks = self.callbacks, {}
        gc.freeze()  # what the fake holds (every message) is not walked again by its collections
        return _reply({"callbacks": {str(k): v for k, v in taken.items()}, "rest": sum(self.rest.values()),
                       "cpu": time.process_time() - self.cpu0, "messages": len(self.messages),
                       **COLLECTIONS.take()})

    async def reset_route(self, request: web.Request) -> web.Response:
        self.reset()
        return _reply({"ok": True})

    # ------------------------------------------------------------------ the people

    @staticmethod
    def _controls(message: dict[str, Any]) -> dict[str, dict[str, Any]]:
        found: dict[str, dict[str, Any]] = {}
        stack = list(message.get("components") or [])
        while stack:
            item = stack.pop()
            if item.get("custom_id"):
                found[item["custom_id"]] = item
            stack.extend(item.get("components") or [])
        return found

    def _find_hand(self, user_id: int, wanted: list[str]) -> tuple[dict[str, Any], str] | None:
        channel_id = self.dm_of.get(user_id)
        if channel_id is None:
            return None
        for message_id in reversed(self.channel_messages.get(channel_id, [])[-6:]):
            message = self.messages[message_id]
            controls = self._controls(message)
            for custom_id in wanted:
                if custom_id in controls and not controls[custom_id].get("disabled"):
                    return message, custom_id
        return None

    async def click(self, request: dict[str, Any]) -> None:
        payload = request["payload"]
        user_id = int(payload["user"]["id"])
        menu, fallback = request.get("menu"), request["fallback"]
        wanted = ([menu] if menu else []) + [fallback["custom_id"]]
        started = time.monotonic()
        found = self._find_hand(user_id, wanted)
        while found is None and time.monotonic() - started < HAND_WAIT:
            channel_id = self.dm_of.get(user_id, 0)
            event = self.changed.setdefault(channel_id, asyncio.Event())
            try:
                await asyncio.wait_for(event.wait(), HAND_WAIT - (time.monotonic() - started))
            except TimeoutError:
                break
            found = self._find_hand(user_id, wanted)
        waited = time.monotonic() - started
        if waited > 0.001:
            self.hand_waits.append(waited)
        if found is None:  # the hand never showed it: click it on the latest hand anyway (a stale control)
            self.clicks["not on the hand (stale)"] += 1
            channel_id = self.dm_of.get(user_id, 0)
            ids = self.channel_messages.get(channel_id) or []
            message = self.messages.get(int(request.get("message_id") or 0)) or (self.messages[ids[-1]] if ids else None)
            custom_id = fallback["custom_id"]
        else:
            message, custom_id = found
        data: dict[str, Any] = {"custom_id": custom_id}
        if custom_id == menu:
            self.clicks["capture menu"] += 1
            offered = [o["value"] for o in self._controls(message)[menu].get("options", [])]
            plain = [v for v in offered if not v.startswith(request.get("page_prefix") or "\0")]
            value = next((v for v in request["values"] if v in offered), plain[0] if plain else offered[0])
            data.update(component_type=3, values=[value])
        else:
            if found is not None:
                self.clicks["card" if fallback["component_type"] == 2 else "trail menu"] += 1
            data["component_type"] = fallback["component_type"]
            if fallback["component_type"] == 3:
                data["values"] = fallback["values"]
        payload["data"] = data
        channel_id = self.dm_of.get(user_id, 0)
        payload["channel_id"] = str(channel_id)
        payload["channel"] = self.channels.get(channel_id) or {"id": str(channel_id), "type": 1}
        if message is not None:
            payload["message"] = message
        self._register(payload, message_id=int(message["id"]) if message is not None else None, play=True)
        self._send(payload)

    def _register(self, payload: dict[str, Any], *, message_id: int | None = None, play: bool = False) -> None:
        self.tokens[payload["token"]] = {"id": int(payload["id"]), "type": int(payload["type"]),
                                         "channel_id": int(payload["channel_id"]),
                                         "user_id": int((payload.get("member") or payload)["user"]["id"]),
                                         "message_id": message_id, "play": play, "at": time.monotonic(),
                                         "followups": set()}

    def _send(self, payload: dict[str, Any]) -> None:
        assert self.writer is not None
        self.writer.write(b"I " + payload["id"].encode() + b" " + json.dumps(payload).encode() + b"\n")

    async def people(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.writer = writer
        tasks: set[asyncio.Task[Any]] = set()
        while True:
            line = await reader.readline()
            if not line:
                break
            op, raw = line[:1], line[2:]
            request = json.loads(raw)
            if op == b"C":
                task = asyncio.ensure_future(self.click(request))
                tasks.add(task)
                task.add_done_callback(tasks.discard)
                task.add_done_callback(_raise)
            elif op == b"X":
                self._register(request)
                self._send(request)

    def app(self) -> web.Application:
        app = web.Application(middlewares=[self.middleware], client_max_size=64 * 1024 * 1024)
        r = app.router
        v = "/api/v10"
        r.add_get(v + "/users/@me", self.me)
        r.add_get(v + "/oauth2/applications/@me", self.application)
        r.add_get(v + "/applications/@me", self.application)
        r.add_get(v + "/gateway/bot", self.gateway)
        r.add_get(v + "/gateway", self.gateway)
        r.add_get(v + "/applications/{app}/emojis", self.list_emojis)
        r.add_post(v + "/applications/{app}/emojis", self.create_emoji)
        r.add_route("*", v + "/applications/{app}/commands", self.commands)
        r.add_route("*", v + "/applications/{app}/guilds/{guild}/commands", self.commands)
        r.add_post(v + "/users/@me/channels", self.open_dm)
        r.add_get(v + "/channels/{channel}", self.get_channel)
        r.add_post(v + "/channels/{channel}/messages", self.create_message)
        r.add_get(v + "/channels/{channel}/messages/{message}", self.get_message)
        r.add_patch(v + "/channels/{channel}/messages/{message}", self.edit_message_route)
        r.add_delete(v + "/channels/{channel}/messages/{message}", self.delete_message_route)
        r.add_route("*", v + "/channels/{channel}/messages/{message}/reactions/{rest:.*}", self.reaction)
        r.add_post(v + "/interactions/{iid}/{token}/callback", self.callback)
        r.add_post(v + "/webhooks/{app}/{token}", self.followup)
        r.add_route("*", v + "/webhooks/{app}/{token}/messages/{message}", self.original)
        r.add_post("/_bench/setup", self.setup)
        r.add_get("/_bench/stats", self.stats)
        r.add_post("/_bench/reset", self.reset_route)
        r.add_post("/_bench/take", self.take)
        r.add_get("/_bench/channel/{channel}", self.channel_route)
        return app


def _generic(path: str) -> str:
    """A route with its interaction and webhook tokens replaced."""
    path = re.sub(r"/interactions/\d+/[^/]+", "/interactions/{id}/{token}", path)
    return re.sub(r"/webhooks/\d+/[^/]+", "/webhooks/{app}/{token}", path)


def _raise(task: asyncio.Task[Any]) -> None:
    if not task.cancelled() and task.exception() is not None:
        log.error("click failed", exc_info=task.exception())


async def _main(conn: Any) -> None:
    fake = FakeDiscord()
    runner = web.AppRunner(fake.app(), access_log=None, handle_signals=False)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    http_port = site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]
    people = await asyncio.start_server(fake.people, "127.0.0.1", 0, limit=64 * 1024 * 1024)
    people_port = people.sockets[0].getsockname()[1]
    conn.send((http_port, people_port))
    loop = asyncio.get_running_loop()
    await loop.run_in_executor(None, conn.recv)  # anything (or EOF) from the parent: stop
    people.close()
    await runner.cleanup()


class Collections:
    """A process's garbage collections, each ``(generation, ms)``, gathered until `take` (installed as a
    ``gc.callbacks`` entry by `install`). The fake reads its own (a pause here delays its stamp of a
    callback); `bench/loopback.py` reads the bot's the same way."""

    def __init__(self) -> None:
        self.pauses: list[tuple[int, float]] = []
        self._began = 0.0

    def timed(self, phase: str, info: dict[str, Any]) -> None:
        if phase == "start":
            self._began = time.perf_counter()
        else:
            self.pauses.append((info["generation"], (time.perf_counter() - self._began) * 1000))

    def install(self) -> Collections:
        gc.callbacks.append(self.timed)
        return self

    def remove(self) -> None:
        gc.callbacks.remove(self.timed)

    def take(self) -> dict[str, float]:
        """Since the last take: gen-2 collections, the longest of them and of all (ms), and the total ms."""
        pauses, self.pauses = self.pauses, []
        return {"gc2": sum(1 for g, _ in pauses if g == 2),
                "gc2_ms": max((ms for g, ms in pauses if g == 2), default=0.0),
                "gc_max_ms": max((ms for _, ms in pauses), default=0.0), "gc_ms": sum(ms for _, ms in pauses)}


COLLECTIONS = Collections()
"""This process's (the fake's) collections, installed by `serve`."""


class _Errors(logging.Handler):
    """Counts this process's ERROR records (a handler that failed, a click that failed) for the stats."""

    count = 0

    def emit(self, record: logging.LogRecord) -> None:
        _Errors.count += 1


def serve(conn: Any) -> None:
    """Process entry point: serve until the pipe ``conn`` says stop (or closes)."""
    logging.basicConfig(level=logging.WARNING, format="fake discord: %(levelname)s %(name)s %(message)s")
    logging.getLogger().addHandler(_Errors(logging.ERROR))
    COLLECTIONS.install()
    try:
        asyncio.run(_main(conn))
    except (EOFError, KeyboardInterrupt):
        pass
