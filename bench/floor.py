"""The floor of a play's CPU in the bot's process: what discord.py, aiohttp, aiosqlite and the event loop
cost for the traffic of one play, with no game, no words built and no picture drawn.

At 50 fast tables (``python bench/loopback.py``) a play is, in the bot's process:

- one INTERACTION_CREATE: its JSON parsed, ``ConnectionState.parse_interaction_create`` (the interaction,
  its user, its message with the hand's components) and discord.py's `DynamicItem` dispatch (the message's
  components turned into a View, the item rebuilt from its custom_id) to a callback that
- saves the play: one trip to SQLite's thread (aiosqlite) with the play's row and the ~1 KB snapshot,
- answers the click with UPDATE_MESSAGE (`bot.ui.delivery.update_message`, the clicker's hand),
- edits the next player's DM hand through a click token (`bot.ui.delivery.edit_token_message`),
- and, for ``--public`` of the plays (0.84 in the loopback runs: the public edits are coalesced), edits the
  public message with its picture, multipart (`bot.ui.delivery.edit_channel_message`).

Here the callback makes that save and sends those three requests through the bot's own `bot.ui.wire`
functions, with payloads built once before the run from a real game (`render.hand_payload`,
`render.table_payload` and a picture from `render_table`). Discord is a canned aiohttp server in another
process that reads each body and answers as Discord does (204 for the callback, the message's JSON for the
edits), so its CPU is not counted. ``--rate`` paces the clicks as the loopback's players are paced: at a
lower rate fewer plays share each wake-up of the event loop, and a play costs more.

Prints the CPU ms per play of this process (``time.process_time``; of it, the kernel's share; the bench's
own part of a click, building the fake interaction, subtracted): what discord.py, aiohttp and aiosqlite
take for the traffic a play makes today, a lower bound under the bot's own figure in ``python
bench/loopback.py`` (it leaves out the gateway's websocket, a capture menu's second click, logging and the
picture's pipe). The traffic itself is the bot's choice: ``--public`` sets the share of plays that edit the
public message.

    python bench/floor.py [--plays 3000] [--tables 50] [--rate 50] [--public 0.84]
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import json
import multiprocessing
import os
import random
import re
import secrets
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import fake_discord  # noqa: E402  (bench/: the fake's message shapes and its bot user)

BOT_ID = fake_discord.BOT_ID
CLICK_TIMEOUT = 0.1
"""Seconds each click of a loop may take on average before the run stops (a click discord.py did not
dispatch never ends), on top of twice the paced run's length."""


def payloads() -> tuple[Any, Any, Any, bytes, str]:
    """(clicker's hand, next player's hand, public message with its picture, PNG, the game's snapshot as
    JSON) of a 1 v 1 table three plays into its mesa, built as the bot builds them."""
    import payloads as built  # bench/payloads.py: a table as the bot holds one

    from bot.ui import render
    from bot.ui.picture import render_table
    from bot.ui.table_scene import table_scene

    table = built.new_table(0)
    game = table.game
    assert game is not None
    rng = random.Random(3)
    for _ in range(3):
        game.play(rng.choice(game.legal_plays()))
    seat = game.to_play
    assert seat is not None
    picture = render_table(table_scene(table, "es"))
    mine = render.hand_payload(table, 1 - seat, game.view(1 - seat), "es", faces=built.FACES)
    theirs = render.hand_payload(table, seat, game.view(seat), "es", faces=built.FACES)
    public = render.with_picture(render.table_payload(table, "es", faces=built.FACES), picture)
    return mine, theirs, public, picture, json.dumps(game.snapshot())


def _body(payload: Any) -> dict[str, Any]:
    """The JSON body discord.py sends for ``payload`` as an edit (the attachments' descriptions included)."""
    from discord.http import handle_message_parameters

    with handle_message_parameters(**payload.edit_kwargs()) as params:
        return dict(params.payload or {})


def _serve(conn: Any, hand: bytes, public: bytes) -> None:
    """Process entry point: a canned Discord on 127.0.0.1 until the pipe says stop."""
    from aiohttp import web

    async def me(request: web.Request) -> web.Response:
        return web.Response(body=json.dumps(fake_discord.BOT_USER).encode(), content_type="application/json")

    async def application(request: web.Request) -> web.Response:
        return await fake_discord.FakeDiscord().application(request)

    async def callback(request: web.Request) -> web.Response:
        await request.read()
        return web.Response(status=204)

    async def original(request: web.Request) -> web.Response:
        await request.read()
        return web.Response(body=hand, content_type="application/json")

    async def channel(request: web.Request) -> web.Response:
        await request.read()
        return web.Response(body=public, content_type="application/json")

    async def main() -> None:
        app = web.Application(client_max_size=64 * 1024 * 1024)
        v = "/api/v10"
        app.router.add_get(v + "/users/@me", me)
        app.router.add_get(v + "/oauth2/applications/@me", application)
        app.router.add_post(v + "/interactions/{iid}/{token}/callback", callback)
        app.router.add_patch(v + "/webhooks/{app}/{token}/messages/@original", original)
        app.router.add_patch(v + "/channels/{channel}/messages/{message}", channel)
        runner = web.AppRunner(app, access_log=None, handle_signals=False)
        await runner.setup()
        site = web.TCPSite(runner, "127.0.0.1", 0)
        await site.start()
        conn.send(site._server.sockets[0].getsockname()[1])  # type: ignore[union-attr]  # noqa: SLF001
        await asyncio.get_running_loop().run_in_executor(None, conn.recv)
        await runner.cleanup()

    try:
        asyncio.run(main())
    except (EOFError, KeyboardInterrupt):
        pass


async def run(plays: int, tables: int, public_share: float, rate: float) -> dict[str, float]:
    """``plays`` plays over ``tables`` concurrent click loops, about ``rate`` plays a second in all (0: as
    fast as they go); the CPU figures of this process."""
    import discord

    from bot.store.db import SqliteDatabase

    mine, theirs, public, picture, snapshot = payloads()
    folder = tempfile.TemporaryDirectory()
    db = await SqliteDatabase.open(str(Path(folder.name) / "floor.db"))
    await db.batch([("CREATE TABLE tables (id INTEGER PRIMARY KEY, game TEXT, version INTEGER)", ()),
                    ("CREATE TABLE plays (table_id INTEGER, seq INTEGER, seat INTEGER, card TEXT, captures TEXT,"
                     " PRIMARY KEY (table_id, seq))", ()),
                    ("INSERT INTO tables VALUES (1, ?, 0)", (snapshot,))])
    fake = fake_discord.FakeDiscord()
    dm = 2_000_000_000_000_000_000
    hand_message = fake.new_message(dm, _body(theirs), [])  # the hand clicked: the one in turn, enabled
    theirs_message = json.dumps(hand_message).encode()
    public_message = json.dumps(fake.new_message(3_000_000_000_000_000_000, _body(public),
                                                 [("table.png", picture)])).encode()
    custom_ids = [c["custom_id"] for row in hand_message["components"] for c in row.get("components", [])
                  if c.get("type") == 2 and "custom_id" in c]
    assert custom_ids, "the hand has no buttons"
    custom_id = custom_ids[0]

    ctx = multiprocessing.get_context("spawn")
    here, there = ctx.Pipe()
    server = ctx.Process(target=_serve, args=(there, theirs_message, public_message), name="canned-discord")
    server.start()
    there.close()  # the server's end: a server that dies closes the pipe, and the wait below ends
    client: discord.Client | None = None
    try:
        if not here.poll(30):
            raise RuntimeError("the canned Discord did not start in 30 s")
        port = here.recv()
        discord.http.Route.BASE = f"http://127.0.0.1:{port}/api/v10"
        client = discord.Client(intents=discord.Intents.none())
        return await _clicks(client, db, plays, tables, public_share, rate, (mine, theirs, public), snapshot,
                             hand_message, dm, custom_id)
    finally:
        if client is not None:
            await client.close()
        await db.close()
        folder.cleanup()
        try:
            here.send("stop")
        except OSError:
            pass
        server.join(5)
        if server.is_alive():
            server.terminate()


async def _clicks(client: Any, db: Any, plays: int, tables: int, public_share: float, rate: float,
                  messages: tuple[Any, Any, Any], snapshot: str, hand_message: dict[str, Any], dm: int,
                  custom_id: str) -> dict[str, float]:
    """The run itself, logged in as ``client`` (see `run`)."""
    import discord

    from bot.ui import delivery as wire

    mine, theirs, public = messages

    done: dict[int, asyncio.Future[None]] = {}
    rng = random.Random(1)

    class Hand(discord.ui.DynamicItem[discord.ui.Button[Any]], template=re.escape(custom_id)):
        """The hand's first button; its callback makes a play's save and its three writes."""

        def __init__(self) -> None:
            super().__init__(discord.ui.Button(custom_id=custom_id))

        @classmethod
        async def from_custom_id(cls, interaction: discord.Interaction, item: Any, match: Any) -> Hand:
            return cls()

        async def callback(self, interaction: discord.Interaction) -> None:
            future = done.pop(int(interaction.id))
            try:
                await db.batch([  # the play's save: its row and the snapshot, one trip to SQLite's thread
                    ("UPDATE tables SET game = ?, version = version + 1 WHERE id = 1 RETURNING version",
                     (snapshot,)),
                    ("INSERT INTO plays VALUES (1, ?, 0, '7D', '-')", (interaction.id,))])
                await wire.update_message(interaction, mine)
                await wire.edit_token_message(wire.ClickToken.of(interaction), None, theirs)
                if rng.random() < public_share:
                    await wire.edit_channel_message(interaction.client, 3_000_000_000_000_000_000, 1, public)
            except Exception as exc:  # a refused request would make the floor a lie: the run stops on it
                future.set_exception(exc)
            else:
                future.set_result(None)

    await client.login("floor")
    client.add_dynamic_items(Hand)
    user = {"id": "1400000000000000001", "username": "ana", "discriminator": "0", "global_name": "Ana María",
            "avatar": None}
    ids = itertools.count(1_500_000_000_000_000_000)
    base = {"application_id": str(BOT_ID), "type": 3, "version": 1, "locale": "es-419", "entitlements": [],
            "attachment_size_limit": 10485760, "user": user, "app_permissions": "0", "context": 1,
            "authorizing_integration_owners": {"1": user["id"]}, "channel_id": str(dm),
            "channel": {"id": str(dm), "type": 1}, "data": {"custom_id": custom_id, "component_type": 2},
            "message": hand_message}
    driver = [0.0]  # CPU seconds of this bench's own part of a click (the fake's payload), subtracted
    parse = client._connection.parse_interaction_create  # noqa: SLF001 - what the gateway calls
    loads = discord.utils._from_json  # noqa: SLF001
    raw_of = json.dumps

    async def loop(count: int) -> None:
        gap = tables / rate if rate else 0.0
        await asyncio.sleep(rng.random() * gap)
        for _ in range(count):
            if gap:
                await asyncio.sleep(gap * (0.5 + rng.random()))
            t0 = time.thread_time()
            iid = next(ids)
            raw = raw_of({**base, "id": str(iid), "token": secrets.token_urlsafe(24)}).encode()
            future = done[iid] = asyncio.get_running_loop().create_future()
            driver[0] += time.thread_time() - t0
            parse(loads(raw))  # the bot's: the gateway's JSON and discord.py's parse and dispatch
            await future

    async def all_of(count: int) -> None:
        share = count // tables
        deadline = (2 * count / rate if rate else 0.0) + CLICK_TIMEOUT * share
        try:  # one deadline for the whole run: a timer per click would be counted as the bot's work
            await asyncio.wait_for(asyncio.gather(*(loop(share) for _ in range(tables))), deadline)
        except TimeoutError:
            raise RuntimeError(f"{count} clicks not answered in {deadline:.1f} s (one not dispatched?)") from None

    await all_of(max(tables, plays // 10))  # warm-up: connections opened, code paths met
    driver[0] = 0.0
    times0, cpu0, wall0 = os.times(), time.process_time(), time.monotonic()
    await all_of(plays)
    times1, cpu1, wall1 = os.times(), time.process_time(), time.monotonic()
    measured = plays // tables * tables
    return {"plays": measured, "seconds": wall1 - wall0, "cpu_ms": (cpu1 - cpu0 - driver[0]) * 1000 / measured,
            "driver_ms": driver[0] * 1000 / measured,
            "kernel_ms": (times1.system - times0.system) * 1000 / measured}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--plays", type=int, default=3000)
    parser.add_argument("--rate", type=float, default=50.0,
                        help="plays a second in all (default 50, the loopback's 50 fast tables; 0: unpaced)")
    parser.add_argument("--tables", type=int, default=50, help="concurrent click loops (default 50)")
    parser.add_argument("--public", type=float, default=0.84,
                        help="share of the plays that edit the public message (default 0.84, as measured)")
    args = parser.parse_args()
    if args.plays < args.tables or args.tables < 1:
        parser.error("--plays must be at least --tables, and --tables at least 1")
    from bot.loop import run as run_loop

    result = run_loop(run(args.plays, args.tables, args.public, args.rate))
    print(f"{result['plays']} plays, {args.tables} concurrent, public edit on {args.public:.0%} of them, "
          f"{result['plays'] / result['seconds']:.0f} plays/s (asked {args.rate:g}; 0 = unpaced)")
    print(f"floor CPU ms/play of the bot's process (discord.py, aiohttp, aiosqlite and the event loop): {result['cpu_ms']:.2f} "
          f"(of it {result['kernel_ms']:.2f} in the kernel; the bench's own {result['driver_ms']:.2f} subtracted)")


if __name__ == "__main__":
    main()
