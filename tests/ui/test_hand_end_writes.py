"""Discord's budget of about 5 writes per 5 s in each channel holds around a hand's end (the table's last
edits, the hand's record, the next hand's table) with real request latency: a whole mesa, a person and a
computer both playing as fast as they can. Every bot-token message write is logged at the
virtual instant it *starts* (before the injected latency), which is the earliest Discord can count it."""

from __future__ import annotations

import asyncio
import random
import re
from collections import defaultdict

import pytest

from bot.tables import FINISHED
from tests.support.clocked import play_clocked
from tests.support.helpers import LOOKS

MESSAGE_WRITE = re.compile(r"/channels/(\d+)/messages(?:/\d+)?$")


async def _inline(func, *args):
    return func(*args)


class Latency:
    """Every bot-token message write (POST, PATCH, DELETE) takes 0.02 to 0.15 s to reach Discord and 0.01
    to 0.05 s to come back (drawn from a seeded generator), and is logged with its start; drawing the table
    picture takes 0.2 to 1.5 s, as in the bot's picture worker processes. All of it is SimCord's virtual
    time (`wait`): as real sleeps, a whole mesa took five real minutes, mostly idle."""

    def __init__(self, env_now, seed: int = 31) -> None:
        self.now = env_now
        self.rng = random.Random(seed)
        self.starts: dict[int, list[float]] = defaultdict(list)
        self.slow_channels: set[int] = set()
        """The channels whose writes take the latency (all when empty): the table channel, whose budget
        is the one at stake; the DMs' writes are counted and checked without it."""

    def install(self, monkeypatch) -> None:
        from simcord.http.client import FakeHTTPClient

        original = FakeHTTPClient.request
        latency = self

        async def request(client, route, **kwargs):
            match = MESSAGE_WRITE.search(route.url.split("?", 1)[0])
            if not (match and route.method in ("POST", "PATCH", "DELETE")):
                return await original(client, route, **kwargs)
            latency.starts[int(match[1])].append(latency.now())
            if latency.slow_channels and int(match[1]) not in latency.slow_channels:
                return await original(client, route, **kwargs)  # a DM: counted, without latency
            await latency.wait(latency.rng.uniform(0.02, 0.15))
            try:
                return await original(client, route, **kwargs)
            finally:
                await latency.wait(latency.rng.uniform(0.01, 0.05))

        monkeypatch.setattr(FakeHTTPClient, "request", request)

    def attach(self, env) -> None:
        """The injected latency waits in ``env``'s virtual time from now on (as the bot's presenter does:
        ``make_bot(virtual=True)``)."""
        self.holder["env"] = env

    async def wait(self, seconds: float) -> None:
        """Sleep ``seconds`` of SimCord's virtual time: declared as an external wait (SimCord's public
        `external_wait`), the sleep resumes when the test advances the clock, not after real seconds
        (which made a whole mesa take many real minutes, mostly idle)."""
        env = self.holder.get("env") if hasattr(self, "holder") else None
        if env is None:
            await asyncio.sleep(seconds)
            return
        from simcord.backend.errors import SetupError

        try:
            await env.external_wait(asyncio.sleep(seconds), reason="injected Discord latency")
        except SetupError:  # not inside the bot's own work (nothing to resume it): a real sleep
            await asyncio.sleep(seconds)

    def densest(self, window: float = 5.0) -> dict[int, int]:
        """Per channel, the most writes started in any ``window`` seconds (half-open)."""
        worst = {}
        for channel, times in self.starts.items():
            times = sorted(times)
            best = j = 0
            for i, start in enumerate(times):
                while j < len(times) and times[j] < start + window:
                    j += 1
                best = max(best, j - i)
            worst[channel] = best
        return worst


@pytest.fixture
def latency(monkeypatch):
    holder: dict[str, Latency] = {}
    lat = Latency(lambda: holder["env"].now().timestamp())
    lat.install(monkeypatch)
    lat.holder = holder
    return lat


class SlowPictures:
    """Stands for `bot.ui.picture_workers.PictureWorkers`: the picture comes back after a while."""

    def __init__(self, latency: Latency) -> None:
        self.latency = latency

    async def render(self, table_id: int, scene) -> bytes:
        from bot.ui.picture import render_table

        await self.latency.wait(self.latency.rng.uniform(0.2, 1.5))
        return render_table(scene)


@pytest.fixture
def simcord_bot(make_bot, latency):
    """The bot as in production (coalesced edits, write budget, pictures), computer moves inline, waits in
    virtual time; its message writes and its pictures take the injected latency (patched before the bot
    is built)."""
    bot = make_bot(edit_interval=1.0, write_budget=True, offload=_inline, virtual=True, **LOOKS)
    original = bot.setup_hook

    async def setup_hook():
        await original()
        bot.notifier.picture_workers = SlowPictures(latency)

    bot.setup_hook = setup_hook
    return bot


async def _play(world, latency, members, think):
    latency.attach(world.env)
    latency.slow_channels = {world.channel.id}
    table = await play_clocked(world, 1, members, think=think)
    assert table.status == FINISHED
    hands = sum(1 for e in table.game.events if e.kind == "hand_start")
    assert hands >= 3
    worst = latency.densest(5.0)
    print("densest:", worst, "channel", world.channel.id)
    assert worst[world.channel.id] >= 4, "the table channel was written to at its budget"
    assert max(worst.values()) <= 5, worst


@pytest.mark.slow
async def test_1v1_person_against_a_computer_both_fast(world, latency):
    latency.attach(world.env)
    await world.ana.slash(world.channel, "cuarenta new", players=2, rules="quito")
    await world.ana.select(world.channel.last_message, ["medio"], custom_id="c4:v:1")
    await _play(world, latency, {world.ana.id: world.ana}, think=0.0)


@pytest.mark.slow
async def test_2v2_two_people_and_two_computers_all_fast(world, latency):
    """Four seats write more around a hand's end (two DM hands, two computers' moves between them): the
    table channel still gets at most 5 writes in any 5 s, over a whole mesa of `rapido`."""
    latency.attach(world.env)
    await world.ana.slash(world.channel, "cuarenta new", players=4, rules="rapido")
    await world.beto.slash(world.channel, "cuarenta join", team="A")
    lobby = world.channel.last_message
    await world.ana.select(lobby, ["medio"], custom_id="c4:v:1")
    await world.ana.select(lobby, ["medio"], custom_id="c4:v:1")
    await _play(world, latency, {world.ana.id: world.ana, world.beto.id: world.beto}, think=0.0)
