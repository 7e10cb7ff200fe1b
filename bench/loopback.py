"""Many live tables over a loopback fake Discord: the unmodified bot's own acknowledgement latency, REST
calls, CPU and memory per play.

Three things run, on 127.0.0.1:

- **a fake Discord** (`bench/fake_discord.py`, its own process): the REST API the bot calls (messages,
  DMs, interaction callbacks, webhook edits and follow-ups, application emojis), with the per-channel
  rate-limit headers of 5 writes / 5 s (429 past them). It keeps every message, so a click carries the DM
  hand exactly as Discord would show it, and holds the bot to Discord's rules: an interaction answered
  after 3 s is refused (10062), a token reaches only its interaction's response and follow-ups, for 15
  minutes;
- **the bot** (the bench process), unmodified, with production settings: ``edit_interval`` 1 s, the write
  budget, the table picture, card emojis, INFO logging (to a file). ``bot.login`` runs ``setup_hook``
  against the fake; no gateway is connected: the GUILD_CREATE of one server (N text channels, 2 N
  members, the bot as administrator) is fed to ``parse_guild_create``, READY is dispatched, and every
  INTERACTION_CREATE arrives from the fake as JSON text, read and handed to
  ``ConnectionState.parse_interaction_create`` as the gateway would;
- **the people** (a driver in the bench process): N tables of 1 v 1, both seats people playing from their
  DM hands. A table is opened with ``/cuarenta new players:2 turn_timer:300`` and ``/cuarenta join``, and
  opened again in the same channel when its mesa ends, so N tables stay live. The person in turn picks
  the play with ``choose_play("greedy", …)`` (from the bot's in-memory game, as `bench/load.py`) and
  clicks it on their DM hand: a card button, then the capture menu when the bot shows one, or the trail
  select. The fake waits, if needed, until the hand shows that control (the bot's coalesced DM edit, or a
  new DM when it alerts the turn), and puts the hand message in the interaction.
  Paces: ``fast``, a click 0.5–1.5 s (uniform) after the previous answer at that table; ``human``,
  5–10 s between plays (the second step of a play, the capture menu, always comes 0.5–1.5 s after the first).

Printed per N (one line):
- plays in the run and plays/s;
- acknowledgement latency p50 / p95 / p99: ms from the moment the bot process read the event to the
  moment its first callback reached the fake (``time.monotonic``, one clock for both processes);
- interactions answered after 3 s, and not answered at all (5 s of grace after the run);
- bot-token REST calls per play (interaction callbacks and webhook calls are not counted; the 3 routes
  called most are printed below the table), and per second (Discord allows a bot 50/s);
- CPU ms per play: the bot's process (``process_time``, every thread: the event loop, aiosqlite's thread,
  the worker pools' threads) minus the driver's own CPU (``thread_time`` of its code; the event loop's
  cost of its sleeps and futures, some tens of µs a click, stays in); plus its worker processes (the
  picture workers, the computer players' workers, from ``/proc``); and the total of the two (below the table: each thread's share, and the
  time in the kernel of the process and of its workers). Then the
  fake Discord's CPU share (% of one core);
- peak RSS of the bench process (MB; each N runs in a fresh process).
Then, per N: every route called, how each click was run (discord.py's dispatch or the bot's router
fallback), the bot's ERROR / WARNING log records (counted, the first few printed), unknown routes,
requests the fake refused, 429s, and refusals the people were shown.

Every run first plays ``--warm`` seconds unmeasured (default 10): a bot that has run for a while has drawn
each card at each size the table picture uses and holds the picture's caches; the figures are its steady
state.

Run: ``python bench/loopback.py`` (N = 1, 10, 50 fast, then 200 human), or
``python bench/loopback.py --tables 1 10 50 --pace fast --seconds 20``;
``--profile FILE`` runs cProfile in the bench process during the run, timed by the process's CPU clock
(``time.process_time``: a wall clock would charge to a ``write`` the time the woken reader, the fake or
a worker, holds the other core) (stats in FILE, or FILE.<N> for several N), and prints the top 25 bot/, cogs/ and discord/ frames by tottime and by cumtime, and the top
15 of all frames (C too) by tottime; the CPU and latency figures of a profiled run include the
profiler's overhead. ``--dump FILE`` writes the first table's last messages, as the fake holds them.
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import cProfile
import io
import itertools
import json
import logging
import multiprocessing
import os
import pstats
import random
import resource
import secrets
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

import fake_discord  # noqa: E402

BOT_ID = fake_discord.BOT_ID
GUILD_ID = 1200000000000000000
ADMIN = str((1 << 53) - 1)
MEMBER_PERMS = str(0x0000_0400 | 0x0000_0800 | 0x8000_0000 | 0x0001_0000 | 0x0000_4000 | 0x0000_8000)
"""view channel, send messages, use application commands, read history, embed links, attach files."""
DM_APP_PERMS = str(0x0000_0400 | 0x0000_0800 | 0x0000_4000 | 0x0000_8000 | 0x0001_0000 | 0x0004_0000)
LATE = 3.0
GRACE = 5.0
PACES = {"fast": (0.5, 1.5), "human": (5.0, 10.0)}
STEP = (0.5, 1.5)
"""The delay before the second step of a play (the capture menu), whatever the pace."""


class Errors(logging.Handler):
    """Counts the bot's ERROR and WARNING records and keeps the first few."""

    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.counts: collections.Counter[str] = collections.Counter()
        self.first: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.counts[record.levelname] += 1
        if len(self.first) < 8:
            text = f"{record.levelname} {record.name}: {record.getMessage()}"
            if record.exc_info:
                text += "\n    " + "    ".join(logging.Formatter().formatException(record.exc_info).splitlines(True)[-3:])
            self.first.append(text)


class Driver:
    """The people: N seats pairs, one channel each; opens tables, clicks, waits for answers."""

    def __init__(self, bot: Any, n: int, pace: str, rng: random.Random) -> None:
        self.bot = bot
        self.n = n
        self.pace = PACES[pace]
        self.rng = rng
        self.cpu = 0.0
        """thread_time spent in the driver's own code."""
        self.ids = itertools.count((int(time.time() * 1000) - fake_discord.DISCORD_EPOCH) << 22 | (7 << 17))
        self.sent: dict[int, float] = {}
        self.pending: dict[int, asyncio.Future[int]] = {}
        self.writer: asyncio.StreamWriter | None = None
        self.stop = False
        self.recording = False
        self.tables_by_slot: dict[int, Any] = {}
        self.all_tables: dict[int, tuple[Any, int]] = {}
        """The live table of each slot, with its plays when the measure began (0 for a table opened since)."""
        self.ended_plays = 0
        """Plays measured at tables that ended and were let go (a long run keeps no ended table)."""
        self.latencies: list[float] = []
        """Acknowledgement latencies (ms) already taken from the fake by a sampled run."""
        self.opened = 0
        self.finished = 0
        self.ack_timeouts = 0
        self.paths: collections.Counter[str] = collections.Counter()
        """Component clicks by who runs them: discord.py's DynamicItem dispatch, or the bot's router fallback
        (the control is not on the message the click carries)."""
        self.slots = []
        for i in range(n):
            channel = {"id": str(GUILD_ID + 1000 + i), "type": 0, "guild_id": str(GUILD_ID), "name": f"mesa-{i}",
                       "position": i, "permission_overwrites": [], "nsfw": False, "parent_id": None, "topic": None,
                       "last_message_id": None, "rate_limit_per_user": 0, "flags": 0}
            people = [self._user(GUILD_ID + 100000 + 2 * i + k, f"{'ab'[k]}{i}") for k in range(2)]
            self.slots.append((channel, people))

    @staticmethod
    def _user(uid: int, name: str) -> dict[str, Any]:
        return {"id": str(uid), "username": name, "discriminator": "0", "global_name": name.upper(), "avatar": None,
                "public_flags": 0, "bot": False, "avatar_decoration_data": None, "primary_guild": None}

    def users(self) -> list[dict[str, Any]]:
        return [u for _, people in self.slots for u in people]

    def guild_create(self) -> dict[str, Any]:
        joined = "2024-01-01T00:00:00+00:00"

        def member(user: dict[str, Any], roles: list[str]) -> dict[str, Any]:
            return {"user": user, "roles": roles, "joined_at": joined, "deaf": False, "mute": False, "flags": 0,
                    "nick": None, "avatar": None, "banner": None, "pending": False, "premium_since": None,
                    "communication_disabled_until": None}

        everyone = {"id": str(GUILD_ID), "name": "@everyone", "permissions": MEMBER_PERMS, "position": 0,
                    "color": 0, "hoist": False, "managed": False, "mentionable": False, "flags": 0}
        bot_role = {"id": str(GUILD_ID + 1), "name": "Cuarenta", "permissions": ADMIN, "position": 1, "color": 0,
                    "hoist": False, "managed": True, "mentionable": False, "flags": 0,
                    "tags": {"bot_id": str(BOT_ID)}}
        members = [member(fake_discord.BOT_USER, [bot_role["id"]])] + [member(u, []) for u in self.users()]
        return {
            "id": str(GUILD_ID), "name": "Loopback", "icon": None, "splash": None, "discovery_splash": None,
            "owner_id": self.users()[0]["id"], "afk_channel_id": None, "afk_timeout": 300, "verification_level": 0,
            "default_message_notifications": 1, "explicit_content_filter": 0, "roles": [everyone, bot_role],
            "emojis": [], "stickers": [], "features": [], "mfa_level": 0, "application_id": None,
            "system_channel_id": None, "system_channel_flags": 0, "rules_channel_id": None,
            "max_members": 500000, "vanity_url_code": None, "description": None, "banner": None,
            "premium_tier": 0, "premium_subscription_count": 0, "preferred_locale": "es-ES",
            "public_updates_channel_id": None, "nsfw_level": 0, "premium_progress_bar_enabled": False,
            "joined_at": joined, "large": len(members) > 250, "unavailable": False, "member_count": len(members),
            "voice_states": [], "members": members, "channels": [c for c, _ in self.slots], "threads": [],
            "presences": [], "stage_instances": [], "guild_scheduled_events": [], "soundboard_sounds": [],
        }

    # ------------------------------------------------------------------ the wire

    def _base(self, kind: int) -> dict[str, Any]:
        iid = next(self.ids)
        return {"id": str(iid), "application_id": str(BOT_ID), "type": kind, "token": secrets.token_urlsafe(24),
                "version": 1, "locale": "es-419", "entitlements": [], "attachment_size_limit": 10485760}

    def _expect(self, payload: dict[str, Any]) -> asyncio.Future[int]:
        iid = int(payload["id"])
        future: asyncio.Future[int] = asyncio.get_running_loop().create_future()
        self.pending[iid] = future
        return future

    def command(self, slot: int, who: int, sub: str, options: list[dict[str, Any]]) -> asyncio.Future[int]:
        channel, people = self.slots[slot]
        user = people[who]
        payload = self._base(2)
        payload.update(
            data={"id": str(self.command_id), "name": self.group, "type": 1, "guild_id": str(GUILD_ID),
                  "options": [{"name": sub, "type": 1, "options": options}]},
            guild_id=str(GUILD_ID), guild={"id": str(GUILD_ID), "locale": "es-ES", "features": []},
            channel_id=channel["id"], channel=channel, guild_locale="es-ES", app_permissions=ADMIN,
            member={"user": user, "roles": [], "joined_at": "2024-01-01T00:00:00+00:00", "deaf": False,
                    "mute": False, "flags": 0, "nick": None, "avatar": None, "pending": False,
                    "premium_since": None, "permissions": MEMBER_PERMS, "communication_disabled_until": None},
            authorizing_integration_owners={"0": str(GUILD_ID)}, context=0)
        future = self._expect(payload)
        assert self.writer is not None
        self.writer.write(b"X " + json.dumps(payload).encode() + b"\n")
        return future

    def click(self, table: Any) -> tuple[asyncio.Future[int], int]:
        """The person in turn clicks their play on their DM hand; returns (answered, the nonce clicked)."""
        from bot.tables import choose_play
        from bot.tables.choices import outcome
        from bot.ui.render import PAGE_VALUE_PREFIX

        game = table.game
        seat = game.to_play
        view = game.view(seat)
        play = choose_play("greedy", game.seed, view)
        tid, nonce, code = table.id, table.nonce, play.card.code
        value = "-" if play.is_trail else ".".join(c.code for c in play.sorted_captures())
        values = [value] + [".".join(c.code for c in p.sorted_captures()) for p in game.plays_for(play.card)
                            if p.captures and p != play and outcome(p, view) == outcome(play, view)]
        if play.is_trail and any(p.captures for p in game.plays_for(play.card)):
            fallback = {"custom_id": f"c4:t:{tid}:{nonce}", "component_type": 3, "values": [code]}
        else:
            fallback = {"custom_id": f"c4:p:{tid}:{nonce}:{code}", "component_type": 2}
        person = table.seats[seat]
        user = next(u for _, people in self.slots for u in people if int(u["id"]) == person.user_id)
        payload = self._base(3)
        payload.update(user=user, app_permissions=DM_APP_PERMS, context=1,
                       authorizing_integration_owners={"1": user["id"]})
        record = table.messages.dms.get(str(seat)) or {}
        request = {"payload": payload, "menu": f"c4:c:{tid}:{nonce}:{code}", "values": values, "fallback": fallback,
                   "page_prefix": PAGE_VALUE_PREFIX, "message_id": record.get("message")}
        future = self._expect(payload)
        assert self.writer is not None
        self.writer.write(b"C " + json.dumps(request).encode() + b"\n")
        return future, nonce

    async def receive(self, reader: asyncio.StreamReader) -> None:
        parse = self.bot._connection.parse_interaction_create
        loads = __import__("discord").utils._from_json
        while True:
            line = await reader.readline()
            if not line:
                return
            t0 = time.thread_time()
            if line[:1] == b"I":
                _, iid, raw = line.split(b" ", 2)
                self.sent.setdefault(int(iid), time.monotonic())
                self.cpu += time.thread_time() - t0
                try:
                    parse(loads(raw))  # as the gateway does with an INTERACTION_CREATE
                except Exception:
                    logging.getLogger("bench").exception("parse_interaction_create failed")
            elif line[:1] == b"A":
                _, iid, kind = line.split()
                future = self.pending.pop(int(iid), None)
                if future is not None and not future.done():
                    future.set_result(int(kind))
                self.cpu += time.thread_time() - t0

    async def on_interaction(self, interaction: Any) -> None:
        """A listener beside the bot's: which path will run each click (the driver's cost)."""
        from bot.ui.router import is_dispatched

        t0 = time.thread_time()
        if self.recording and interaction.type.value == 3:
            data = interaction.data or {}
            dispatched = is_dispatched(self.bot.dynamic_factories, int(data.get("component_type", 0)),
                                       str(data.get("custom_id", "")), interaction.message)
            self.paths["discord.py dispatch" if dispatched else "router fallback"] += 1
        self.cpu += time.thread_time() - t0

    # ------------------------------------------------------------------ the people

    async def _answered(self, future: asyncio.Future[int], timeout: float = 30.0) -> int | None:
        try:
            return await asyncio.wait_for(future, timeout)
        except TimeoutError:
            self.ack_timeouts += 1
            return None

    async def open_table(self, slot: int) -> Any:
        """``/cuarenta new players:2 turn_timer:300`` then ``/cuarenta join``; the started table."""
        from bot.tables import PLAYING

        channel_id = int(self.slots[slot][0]["id"])
        for _attempt in range(3):
            t0 = time.thread_time()
            first = self.command(slot, 0, self.sub_new, [{"name": self.opt_players, "type": 4, "value": 2},
                                                          {"name": self.opt_timer, "type": 4, "value": 300}])
            self.cpu += time.thread_time() - t0
            await self._answered(first)
            t0 = time.thread_time()
            second = self.command(slot, 1, self.sub_join, [])
            self.cpu += time.thread_time() - t0
            await self._answered(second)
            for _ in range(200):
                table = self.bot.tables.table_in_channel(channel_id)
                if table is not None and table.game is not None and table.status == PLAYING:
                    self.opened += 1
                    return table
                await asyncio.sleep(0.05)
        raise RuntimeError(f"table in channel {slot} did not start")

    async def play_slot(self, slot: int, first_delay: float) -> None:
        from bot.tables import PLAYING

        table = self.tables_by_slot[slot]
        await asyncio.sleep(first_delay)
        while not self.stop:
            if table.status != PLAYING or table.game is None or table.game.is_over:
                self.finished += 1
                if table.id in self.all_tables:  # its plays counted, the table let go (the bot's to keep or drop)
                    _, before = self.all_tables.pop(table.id)
                    self.ended_plays += len(table.game.plays) - before if table.game is not None else 0
                table = self.tables_by_slot[slot] = await self.open_table(slot)
                self.all_tables[table.id] = (table, 0)
                await asyncio.sleep(self.rng.uniform(*self.pace))
                continue
            t0 = time.thread_time()
            future, nonce = self.click(table)
            self.cpu += time.thread_time() - t0
            kind = await self._answered(future)
            # the answer is in: wait until the play is made (a click acknowledged by the watchdog, type 6,
            # is answered before the play), or the capture menu is shown (type 7, same nonce)
            for _ in range(200):
                if table.nonce != nonce or table.status != PLAYING or kind in (-1, 4, 7) or kind is None:
                    break
                await asyncio.sleep(0.05)
            step = table.nonce == nonce and kind == 7
            await asyncio.sleep(self.rng.uniform(*(STEP if step else self.pace)))

    def start(self) -> None:
        """The people start playing (at every table, after a random first pause)."""
        self.done_tasks = [asyncio.ensure_future(self.play_slot(s, self.rng.uniform(0, self.pace[1])))
                           for s in range(self.n)]

    def plays(self) -> int:
        """Plays made since the measure began."""
        return self.ended_plays + sum(len(t.game.plays) - p0 for t, p0 in self.all_tables.values()
                                      if t.game is not None)

    async def play(self, seconds: float) -> None:
        """Let the people play ``seconds``, then stop them."""
        await asyncio.sleep(seconds)
        self.stop = True

    async def wind_down(self) -> list[str]:
        """Wait for the people to stop; the errors of any that failed (their table stopped being played)."""
        import traceback

        outcomes = await asyncio.gather(*self.done_tasks, return_exceptions=True)
        return ["".join(traceback.format_exception(e)).strip().splitlines()[-1] for e in outcomes
                if isinstance(e, BaseException)]


async def bench(n: int, pace: str, seconds: float, profile: str | None, seed: int,
                dump: str | None = None, postgres: str | None = None, warm: float = 0.0,
                picture_workers: int | None = None, sample_every: float = 0.0,
                keep_ended: float | None = None, report: Any = None, settle: bool = True) -> dict[str, Any]:
    """One run of ``n`` tables at ``pace`` (see the module docstring); the figures as a dict. With
    ``sample_every`` (seconds), also the figures of each interval of the run (``result["samples"]``, see
    `_sampled`), each also given to ``report`` as it is taken; ``keep_ended`` sets the bot's
    `bot.tables.memory.KEEP_ENDED` (seconds). ``settle`` (default) tunes the garbage collector after the
    start-up, as `python -m bot` does (`bot.heap.settle`)."""
    import aiohttp
    import discord

    from bot.app import CuarentaBot
    from bot.config import Settings

    if keep_ended is not None:
        from bot.tables import memory

        memory.KEEP_ENDED = keep_ended
    ctx = multiprocessing.get_context("spawn")
    here, there = ctx.Pipe()
    server = ctx.Process(target=fake_discord.serve, args=(there,), name="fake-discord")
    server.start()
    http_port, people_port = here.recv()
    base = f"http://127.0.0.1:{http_port}"
    discord.http.Route.BASE = f"{base}/api/v10"

    if os.environ.get("BENCH_PICTURE_NICE"):  # --picture-nice
        from bot.ui import picture_workers as picture_workers_module

        picture_workers_module.NICE = int(os.environ["BENCH_PICTURE_NICE"])
    tmp = tempfile.TemporaryDirectory()
    errors = Errors()
    log_file = logging.FileHandler(Path(tmp.name) / "bot.log")
    discord.utils.setup_logging(handler=log_file, level=logging.INFO, root=True)
    for name in ("discord.http", "discord.webhook.async_", "discord.gateway", "aiosqlite", "asyncpg"):
        logging.getLogger(name).setLevel(logging.INFO)
    logging.getLogger().addHandler(errors)

    seeds = (f"loopback-{seed}-{i}" for i in itertools.count())
    from bot.store.db import create_postgres_database

    database_url = await create_postgres_database(postgres, f"cuarenta_loopback_{os.getpid()}") if postgres else ""
    settings = Settings(token="bench", database_path=str(Path(tmp.name) / "load.db"), database_url=database_url,
                        ai_delay=0, **({} if picture_workers is None else {"picture_workers": picture_workers}))
    bot = CuarentaBot(settings, ai_delay=0, seed_factory=lambda: next(seeds), edit_interval=1.0, shard_count=1)
    driver = Driver(bot, n, pace, random.Random(seed))
    result: dict[str, Any] = {"tables": n, "pace": pace}
    session = aiohttp.ClientSession()
    try:
        await session.post(f"{base}/_bench/setup", json={"users": driver.users(),
                                                          "channels": [c for c, _ in driver.slots]})
        await bot.login("bench")  # setup_hook: the store, the services, the cogs, the card emojis
        group = bot.tree.get_command("cuarenta")
        assert group is not None, [c.name for c in bot.tree.get_commands()]
        new, join = group.get_command("new"), group.get_command("join")  # type: ignore[union-attr]
        driver.group, driver.sub_new, driver.sub_join = group.name, new.name, join.name
        params = {p.name: p.display_name for p in new.parameters}
        driver.opt_players, driver.opt_timer = params["players"], params["turn_timer"]
        driver.command_id = 1300000000000000000
        bot.add_listener(driver.on_interaction, "on_interaction")
        bot._connection.parse_guild_create(json.loads(json.dumps(driver.guild_create())))
        bot._connection.call_handlers("ready")
        bot.dispatch("ready")
        if settle:  # where `python -m bot` calls it: after login (setup_hook), before the gateway's events
            from bot import heap

            heap.settle()
        reader, writer = await asyncio.open_connection("127.0.0.1", people_port, limit=64 * 1024 * 1024)
        driver.writer = writer
        receiver = asyncio.ensure_future(driver.receive(reader))

        gate = asyncio.Semaphore(10)

        async def open_one(slot: int) -> None:
            async with gate:
                driver.tables_by_slot[slot] = await driver.open_table(slot)

        await asyncio.gather(*(open_one(s) for s in range(n)))
        await asyncio.sleep(3.0)  # the lobbies, welcome DMs and first table posts settle
        driver.start()
        if warm:  # play unmeasured first: the card art of every size met, the picture's caches filled
            await asyncio.sleep(warm)
        driver.all_tables = {t.id: (t, len(t.game.plays)) for t in driver.tables_by_slot.values()
                             if t.game is not None}
        driver.ended_plays = 0
        driver.opened = 0
        await session.post(f"{base}/_bench/reset")
        driver.sent.clear()
        driver.recording = True
        errors_before = sum(errors.counts.values())
        profiler = cProfile.Profile(time.process_time) if profile else None
        cpu0, drv0, wall0 = time.process_time(), driver.cpu, time.monotonic()
        times0 = os.times()
        threads0 = _thread_cpu()
        workers0 = _descendants_cpu(server.pid or 0)
        workers_kernel0 = _descendants_cpu(server.pid or 0, kernel=True)
        pictures0 = bot.picture_workers.pictures if bot.picture_workers is not None else 0
        if profiler is not None:
            profiler.enable()
        if sample_every:
            result["samples"] = await _sampled(driver, bot, session, base, seconds, sample_every, server.pid or 0,
                                               report)
        else:
            await driver.play(seconds)
        if profiler is not None:
            profiler.disable()
        cpu, drv, wall = time.process_time() - cpu0, driver.cpu - drv0, time.monotonic() - wall0
        times = os.times()
        kernel = times.system - times0.system  # the bot process's time in the kernel (sockets, pipes, files)
        threads = {k: v - threads0.get(k, 0.0) for k, v in _thread_cpu().items()}
        workers_by_pid = {pid: v - workers0.get(pid, 0.0) for pid, v in _descendants_cpu(server.pid or 0).items()}
        workers = sum(workers_by_pid.values())
        workers_kernel = sum(v - workers_kernel0.get(pid, 0.0)
                             for pid, v in _descendants_cpu(server.pid or 0, kernel=True).items())
        pictures = (bot.picture_workers.pictures if bot.picture_workers is not None else 0) - pictures0
        plays = driver.plays()
        async with session.get(f"{base}/_bench/stats") as response:
            at_end = await response.json()
        dispatched = {i: s for i, s in driver.sent.items() if s <= wall0 + wall}
        driver_errors = await driver.wind_down()
        await asyncio.sleep(GRACE)
        async with session.get(f"{base}/_bench/stats") as response:
            final = await response.json()
        callbacks = final["callbacks"]
        latencies = sorted([*driver.latencies, *((callbacks[str(i)][0] - s) * 1000 for i, s in dispatched.items()
                                                 if str(i) in callbacks)])
        dispatched_count = len(dispatched) + len(driver.latencies)
        q = statistics.quantiles(latencies, n=100) if len(latencies) > 1 else (latencies or [0.0]) * 99
        rest_total = sum(at_end["rest"].values())
        result.update(
            seconds=wall, plays=plays, plays_s=plays / wall, interactions=dispatched_count, answered=len(latencies),
            late=sum(1 for x in latencies if x > LATE * 1000), unanswered=dispatched_count - len(latencies),
            p50=q[49], p95=q[94], p99=q[98], max=latencies[-1] if latencies else 0.0,
            rest=rest_total / max(1, plays), rest_s=rest_total / wall,
            routes=collections.Counter(at_end["rest"]).most_common(), webhook=at_end["webhook"],
            threads={k: v * 1000 / max(1, plays) for k, v in sorted(threads.items(), key=lambda kv: -kv[1]) if v > 0},
            cpu=(cpu - drv) * 1000 / max(1, plays), workers=workers * 1000 / max(1, plays),
            total=(cpu - drv + workers) * 1000 / max(1, plays), kernel=kernel * 1000 / max(1, plays),
            workers_kernel=workers_kernel * 1000 / max(1, plays), pictures=pictures, cpu_share=(cpu - drv) / wall, driver_cpu=drv * 1000 / max(1, plays),
            server_cpu=at_end["cpu"] / wall,
            rss=resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
            rss_end=_rss_now(), driver_errors=driver_errors, refused=final["refused"], expired=final["expired"], fake_errors=final["errors"],
            unknown=final["unknown"], too_many=final["too_many"], refusals=final["refusals"], clicks=final["clicks"],
            hand_waits=final["hand_waits"], paths=dict(driver.paths), opened=driver.opened, ack_timeouts=driver.ack_timeouts,
            errors=dict(errors.counts), errors_in_run=sum(errors.counts.values()) - errors_before,
            first_errors=errors.first, log_lines=sum(1 for _ in open(Path(tmp.name) / "bot.log", errors="replace")),
        )
        if dump:
            first_channel, people = driver.slots[0]
            shown = {"channel": f"{base}/_bench/channel/{first_channel['id']}?last=5"}
            shown.update({p["username"]: f"{base}/_bench/channel/0?user={p['id']}&last=3" for p in people})
            out = {}
            for name, url in shown.items():
                async with session.get(url) as response:
                    out[name] = await response.json()
            Path(dump).write_text(json.dumps(out, indent=1, ensure_ascii=False))
        if profiler is not None:
            profiler.dump_stats(profile)
            result["profile"] = profile
        writer.close()
        receiver.cancel()
    finally:
        await session.close()
        await bot.close()
        here.send("stop")
        server.join(10)
        if server.is_alive():
            server.terminate()
        tmp.cleanup()
    return result


async def _sampled(driver: Driver, bot: Any, session: Any, base: str, seconds: float, every: float,
                   fake_pid: int, report: Any = None) -> list[dict[str, Any]]:
    """Let the people play ``seconds``; every ``every`` seconds, the interval's figures: plays and plays/s,
    acknowledgement p50 / p99 and answers after 3 s (the fake's callbacks taken and matched, so that
    neither process keeps every interaction), bot-token REST calls per play, CPU ms per play (the bot's
    process less the driver, and its workers), and the state the bot holds at its end: RSS, tables in
    the service (and how many of them ended), the DM-hand presenter's and the public presenter's
    per-table entries, the write budget's channels and the timers pending; and the process's garbage
    collections: how many of the oldest generation and the longest of those (ms), and the time in every
    collection per play (ms); and the same collection figures of the fake Discord's process (its pauses
    delay the stamps that the latencies are read from) with the messages it holds. The sampling's own CPU
    is counted as the driver's."""
    from bot.tables import PLAYING

    gc_log = fake_discord.Collections().install()  # this process's (the bot's) collections
    samples: list[dict[str, Any]] = []
    start = time.monotonic()
    last = {"t": start, "cpu": time.process_time(), "driver": driver.cpu, "plays": driver.plays(), "rest": 0,
            "workers": sum(_descendants_cpu(fake_pid).values())}
    while (left := start + seconds - time.monotonic()) > 0:
        await asyncio.sleep(min(every, left))
        t0 = time.thread_time()
        async with session.post(f"{base}/_bench/take") as response:
            taken = await response.json()
        latencies = []
        for iid, (at, _kind, _count) in taken["callbacks"].items():
            sent = driver.sent.pop(int(iid), None)
            if sent is not None:
                latencies.append((at - sent) * 1000)
        driver.latencies.extend(latencies)
        latencies.sort()
        now, cpu, plays = time.monotonic(), time.process_time(), driver.plays()
        workers = sum(_descendants_cpu(fake_pid).values())
        hands = bot.notifier.hands
        tables = bot.tables.tables
        made = max(1, plays - last["plays"])
        gcs = gc_log.take()
        driver.cpu += time.thread_time() - t0
        samples.append({
            "t": now - start, "plays": plays - last["plays"], "plays_s": (plays - last["plays"]) / (now - last["t"]),
            "p50": latencies[len(latencies) // 2] if latencies else 0.0,
            "p99": latencies[min(len(latencies) - 1, int(len(latencies) * 0.99))] if latencies else 0.0,
            "late": sum(1 for x in latencies if x > LATE * 1000),
            "rest": (taken["rest"] - last["rest"]) / made,
            "cpu": ((cpu - last["cpu"]) - (driver.cpu - last["driver"])) * 1000 / made,
            "workers": (workers - last["workers"]) * 1000 / made,
            "rss": _rss_now(), "held": len(tables), "ended": sum(1 for t in tables.values() if not t.is_open),
            "playing": sum(1 for t in tables.values() if t.status == PLAYING), "mesas_ended": driver.finished,
            "hands": sum(len(d) for d in (hands._keys, hands._alerted, hands._last_write, hands._posted,
                                          hands._tokens, hands._pumps)),
            "public": len(bot.notifier._public), "channels": bot.notifier.budget.channels(),
            "alarms": len(bot.tables.scheduler._alarms),
            "gc2": gcs["gc2"], "gc2_ms": gcs["gc2_ms"], "gc_ms": gcs["gc_ms"] / made, "gc_max_ms": gcs["gc_max_ms"],
            "fake_gc2": taken["gc2"], "fake_gc_max_ms": taken["gc_max_ms"], "fake_gc_ms": taken["gc_ms"] / made,
            "fake_messages": taken["messages"],
        })
        last = {"t": now, "cpu": cpu, "driver": driver.cpu, "plays": plays, "rest": taken["rest"], "workers": workers}
        if report is not None:
            report(samples[-1])
    driver.stop = True
    gc_log.remove()
    return samples


def _thread_cpu() -> dict[str, float]:
    """CPU seconds so far of each thread of this process (``/proc/self/task``), by the Python name of the
    thread without its number (threads of one name summed; "other" for threads Python does not know)."""
    import threading

    names = {t.native_id: t.name.split(" (")[0].rstrip("0123456789-_") or t.name for t in threading.enumerate()}
    out: dict[str, float] = collections.Counter()
    tick = os.sysconf("SC_CLK_TCK")
    for task in Path("/proc/self/task").iterdir():
        try:
            fields = (task / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        out[names.get(int(task.name), "other")] += (int(fields[11]) + int(fields[12])) / tick
    return dict(out)


def _descendants_cpu(exclude: int, kernel: bool = False) -> dict[int, float]:
    """CPU seconds so far of every process under this one (the bot's picture and computer-player workers,
    their forkserver), by pid, leaving out ``exclude`` (the fake Discord) and its own children; with
    ``kernel``, only their time in the kernel."""
    tick = os.sysconf("SC_CLK_TCK")
    parents: dict[int, int] = {}
    cpu: dict[int, float] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        parents[int(entry.name)] = int(fields[1])
        cpu[int(entry.name)] = (int(fields[12]) if kernel else int(fields[11]) + int(fields[12])) / tick
    me, out = os.getpid(), {}
    for pid in cpu:
        if pid == me:
            continue
        chain, at = [], pid
        while at in parents and at not in (me, 0, 1):
            chain.append(at)
            at = parents[at]
        if at == me and exclude not in chain:
            out[pid] = cpu[pid]
    return out


def _rss_now() -> float:
    """The bench process's resident set now (MB)."""
    try:
        return int(Path("/proc/self/statm").read_text().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 2**20
    except OSError:
        return 0.0


def under_test() -> str:
    """The bot's code measured: the commit, and the files of bot/ and cogs/ changed since."""
    import subprocess

    def git(*args: str) -> str:
        try:
            return subprocess.run(["git", *args], cwd=ROOT, capture_output=True, text=True, check=False).stdout.rstrip()
        except OSError:
            return ""

    head = git("log", "-1", "--format=%h %s").strip()[:72] or "?"
    dirty = [line[3:] for line in git("status", "--porcelain", "--", "bot", "cogs").splitlines()]
    if not dirty:
        return f"bot under test: {head}"
    import hashlib

    digest = hashlib.sha1(git("diff", "HEAD", "--", "bot", "cogs").encode()).hexdigest()[:8]
    return f"bot under test: {head} + uncommitted changes (diff {digest}) to {', '.join(dirty)}"


def _child(n: int, pace: str, seconds: float, profile: str | None, seed: int, dump: str | None,
           postgres: str | None, warm: float, picture_workers: int | None, conn: Any, **extra: Any) -> None:
    try:
        from bot import loop  # the bot's own event loop (uvloop), as `python -m bot` runs it

        conn.send(loop.run(bench(n, pace, seconds, profile, seed, dump, postgres, warm, picture_workers, **extra)))
    except BaseException as exc:  # noqa: BLE001 - reported to the parent, which prints it
        import traceback

        conn.send({"failed": "".join(traceback.format_exception(exc))})
        raise


HEADER = ("tables  pace   duration s  plays  plays/s   ack p50 / p95 / p99 ms   after 3 s  unanswered  "
          "REST/play  REST/s  CPU ms/play: bot + workers = total  fake CPU %  peak RSS MB")


def line(r: dict[str, Any]) -> str:
    return (f"{r['tables']:6}  {r['pace']:5}  {r['seconds']:10.1f}  {r['plays']:5}  {r['plays_s']:7.1f}   "
            f"{r['p50']:7.1f} / {r['p95']:6.1f} / {r['p99']:6.1f}   {r['late']:9}  {r['unanswered']:10}  "
            f"{r['rest']:9.2f}  {r['rest_s']:6.1f}  {r['cpu']:17.2f} + {r['workers']:7.2f} = {r['total']:5.2f}  "
            f"{100 * r['server_cpu']:10.1f}  {r['rss']:11.0f}")


def details(r: dict[str, Any]) -> list[str]:
    out = []
    top = ", ".join(f"{route} {count / max(1, r['plays']):.2f}" for route, count in r["routes"][:3])
    every = ", ".join(f"{route} {count}" for route, count in r["routes"])
    out.append(f"  N={r['tables']} {r['pace']}: top REST routes per play: {top}")
    out.append(f"    every bot-token call: {every}; interaction/webhook calls: {dict(r['webhook'])}")
    waits = sorted(r["hand_waits"])
    wait = (f"{len(waits)} waited for their hand to show the control, median {1000 * statistics.median(waits):.0f} ms"
            if waits else "none waited for their hand")
    out.append(f"    interactions {r['interactions']} (answered {r['answered']}, max {r['max']:.0f} ms); clicks "
               f"{dict(r['clicks'])} run by {r['paths']}; {wait}; tables reopened {r['opened']}; bot CPU {100 * r['cpu_share']:.0f}% "
               f"of a core; driver {r['driver_cpu']:.2f} ms/play (subtracted); RSS at the end {r['rss_end']:.0f} MB")
    split = ", ".join(f"{name} {ms:.2f}" for name, ms in r["threads"].items())
    out.append(f"    CPU ms/play by thread of the bot's process (the driver's share still in MainThread; 10 ms ticks): "
               f"{split}; of the process's CPU, {r['kernel']:.2f} in the kernel; its worker processes {r['workers']:.2f} "
               f"({r['workers_kernel']:.2f} in the kernel; {r['pictures']} pictures drawn by workers)")
    if r["unknown"]:
        out.append(f"    unknown routes: {r['unknown']}")
    if r["driver_errors"]:
        out.append(f"    DRIVER FAILED at {len(r['driver_errors'])} tables (not played to the end): {r['driver_errors'][:3]}")
    if r["fake_errors"]:
        out.append(f"    ERROR records in the fake Discord (printed on its stderr): {r['fake_errors']}")
    if r["expired"]:
        out.append(f"    answered after 3 s, refused by the fake as Discord does (10062): {r['expired']}")
    if r["refused"]:
        out.append(f"    requests the fake refused: {dict(r['refused'])}")
    if r["too_many"]:
        out.append(f"    429 rate limited: {r['too_many']}")
    if r["refusals"]:
        out.append(f"    refusals shown to people: {sum(r['refusals'].values())} {dict(list(r['refusals'].items())[:3])}")
    if r["ack_timeouts"]:
        out.append(f"    driver gave up waiting for an answer: {r['ack_timeouts']}")
    out.append(f"    bot log: {r['log_lines']} lines; WARNING/ERROR records {r['errors'] or 'none'}")
    for text in r["first_errors"][:5]:
        out.append("      " + text.replace("\n", "\n      "))
    return out


def print_profile(path: str) -> None:
    """The top 25 frames of bot/, cogs/ and discord/ by tottime and by cumtime, then the top 15 of every
    frame by tottime (C functions too: PNG encoding, JSON, sockets). The timer is cProfile's (wall
    clock): ``select.epoll.poll`` is the event loop waiting, and a coroutine's ncalls counts its
    resumptions."""
    stats = pstats.Stats(path)
    site = next((p for p in sys.path if p.endswith("site-packages")), "")
    for key, frames, count, what in (("tottime", r"/(bot|cogs)/|/discord/", 25, "bot/, cogs/ and discord/ frames"),
                                     ("cumulative", r"/(bot|cogs)/|/discord/", 25, "bot/, cogs/ and discord/ frames"),
                                     ("tottime", "", 15, "frames of any code")):
        buffer = io.StringIO()
        stats.stream = buffer
        stats.sort_stats(key).print_stats(*((frames,) if frames else ()), count)
        text = buffer.getvalue()
        total = next((ln for ln in text.splitlines() if "function calls" in ln), "")
        start = text.find("   ncalls")
        print(f"--- {Path(path).name}: top {count} {what} by {key} ({total.strip()})")
        print(text[start:].replace(site + "/", "").replace(str(ROOT) + "/", "").rstrip())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, nargs="+", help="N, the live tables (default: 1 10 50 fast, 200 human)")
    parser.add_argument("--pace", choices=tuple(PACES), default=None)
    parser.add_argument("--seconds", type=float, help="length of each run (default 30 fast, 60 human)")
    parser.add_argument("--warm", type=float, default=10.0,
                        help="seconds of play before the measured run (default 10): the steady state is measured, "
                        "not the first drawing of each card size")
    parser.add_argument("--picture-workers", type=int, default=None, metavar="N",
                        help="the bot's PICTURE_WORKERS (default: its own default; 0 draws in the bot's process)")
    parser.add_argument("--picture-nice", type=int, default=None, metavar="N",
                        help="the picture workers' os.nice (default: bot.ui.picture_workers.NICE; 0: the bot's priority)")
    parser.add_argument("--profile", metavar="FILE", help="cProfile the bench process; dump the stats to FILE")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--dump", metavar="FILE", help="write the first table's last messages (channel, both DMs) "
                        "as the fake Discord holds them to FILE (FILE.<N> for several N)")
    parser.add_argument("--postgres", metavar="URL", help="run the bot on PostgreSQL: a server's postgresql://…/postgres "
                        "URL (each run makes a fresh database there); default SQLite in a temporary file")
    args = parser.parse_args()
    if args.picture_nice is not None:  # read by each run's process (`bench`)
        os.environ["BENCH_PICTURE_NICE"] = str(args.picture_nice)
    if args.tables is None and args.pace is None:
        runs = [(1, "fast"), (10, "fast"), (50, "fast"), (200, "human")]
    else:
        runs = [(n, args.pace or "fast") for n in (args.tables or [1, 10, 50])]
    ctx = multiprocessing.get_context("spawn")
    results = []
    print(under_test() + (" — PostgreSQL (asyncpg)" if args.postgres else " — SQLite (aiosqlite)"), flush=True)
    print(HEADER, flush=True)
    for n, pace in runs:
        seconds = args.seconds or (30.0 if pace == "fast" else 60.0)
        profile = None
        if args.profile:
            profile = args.profile if len(runs) == 1 else f"{args.profile}.{n}"
        dump = None
        if args.dump:
            dump = args.dump if len(runs) == 1 else f"{args.dump}.{n}"
        here, there = ctx.Pipe()
        child = ctx.Process(target=_child, args=(n, pace, seconds, profile, args.seed, dump, args.postgres, args.warm,
                                                            args.picture_workers, there),
                            name=f"bench-{n}")
        child.start()
        r = here.recv()
        child.join()
        if "failed" in r:
            print(f"N={n} {pace}: the run failed\n{r['failed']}", flush=True)
            continue
        results.append(r)
        print(line(r), flush=True)
    for r in results:
        print("\n".join(details(r)))
    for r in results:
        if r.get("profile"):
            print_profile(r["profile"])


if __name__ == "__main__":
    os.environ.setdefault("PYTHONHASHSEED", "0")
    main()
