"""Many live tables in one bot process: acknowledgement latency, REST calls, CPU and memory per play.

The unmodified bot (production settings: edits coalesced once a second, Discord's write budget on, the
table picture, card emojis) runs in SimCord, in this one process. N tables of 1 v 1, each in its own
channel, are played by people through their DM hands. Every round, the person in turn at *every* table
clicks at the same instant (a burst of N INTERACTION_CREATE events before the bot runs), then
``--think`` virtual seconds pass. A burst is harsher than N tables clicking at random moments: the last
click of a burst waits behind the N - 1 before it.

Printed per N:
- interactions answered, and those answered more than 3 s (real time) after they were dispatched;
- acknowledgement latency p50 / p95 / p99 (real ms from dispatch to the interaction callback);
- bot-token REST calls per play (the interaction callbacks are not counted);
- CPU ms per play (process time over the run: it includes SimCord's simulated Discord, which runs in the
  same process, so the bot's own share is lower);
- peak RSS of the process (MB).

Run: ``python bench/load.py`` (N = 1, 10, 50; ``--tables 1 10 50 200``, ``--rounds R``).

SimCord's own bookkeeping dominates the CPU here from about 50 tables on, so these CPU figures are not
the bot's: `bench/loopback.py` measures the unmodified bot alone, against a fake Discord in another
process, with tables played at real-time paces.
"""

from __future__ import annotations

import argparse
import asyncio
import resource
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import discord  # noqa: E402
import simcord  # noqa: E402

from bot.app import CuarentaBot  # noqa: E402
from bot.config import Settings  # noqa: E402
from bot.tables import PLAYING, choose_play  # noqa: E402
from bot.tables.choices import outcome  # noqa: E402
from tests.support.helpers import custom_ids, latest_hand, select_values  # noqa: E402


class Probe:
    """Times each interaction from its dispatch to its callback, and counts bot-token REST calls."""

    def __init__(self) -> None:
        self.sent: dict[int, float] = {}
        self.acked: dict[int, float] = {}
        self.rest = 0

    def install(self) -> Any:
        from simcord.http import router

        original = router.dispatch
        probe = self

        def dispatch(backend: Any, method: str, path: str, *args: Any, **kwargs: Any) -> Any:
            bare = path.split("?", 1)[0].removeprefix("/api/v10")
            if bare.startswith("/interactions/") and bare.endswith("/callback"):
                probe.acked.setdefault(int(bare.split("/")[2]), time.perf_counter())
            elif not bare.startswith("/webhooks/"):
                probe.rest += 1
            return original(backend, method, path, *args, **kwargs)

        router.dispatch = dispatch

        def undo() -> None:
            router.dispatch = original

        return undo


def next_click(table: Any, member: Any, pending: dict[int, str]) -> tuple[str, int, list[str]] | None:
    """The click the person in turn makes now: (custom_id, component type, select values)."""
    game = table.game
    seat = game.to_play
    view = game.view(seat)
    play = choose_play("greedy", game.seed, view)
    tid, nonce = table.id, table.nonce
    menu = f"c4:c:{tid}:{nonce}:{play.card.code}"
    hand = latest_hand(member)
    if menu in custom_ids(hand):
        value = "-" if play.is_trail else ".".join(c.code for c in play.sorted_captures())
        offered = select_values(hand, menu)
        if value not in offered:
            captures = [p for p in game.plays_for(play.card) if p.captures]
            twin = next((p for p in captures if outcome(p, view) == outcome(play, view)
                         and ".".join(c.code for c in p.sorted_captures()) in offered), None)
            value = ".".join(c.code for c in twin.sorted_captures()) if twin else offered[0]
        return menu, 3, [value]
    if play.is_trail and any(p.captures for p in game.plays_for(play.card)):
        return f"c4:t:{tid}:{nonce}", 3, [play.card.code]
    return f"c4:p:{tid}:{nonce}:{play.card.code}", 2, []


async def burst(env: Any, clicks: list[tuple[Any, Any, str, int, list[str]]], probe: Probe) -> None:
    """Emit every click before the bot runs, then let it work."""
    from simcord import actors
    from simcord.backend import serializers
    from simcord.enums import InteractionType

    env._begin_operation("burst")
    try:
        backend = env.backend
        for user, message, custom_id, kind, values in clicks:
            stored = actors._visible_message(user, message)
            data: dict[str, Any] = {"custom_id": custom_id, "component_type": kind}
            if kind == 3:
                data["values"] = values
            record, payload = actors._interactions.base_payload(
                backend, type=InteractionType.MESSAGE_COMPONENT, channel_id=stored.channel_id, guild_id=None,
                user_id=user.id, data=data)
            payload["message"] = dict(serializers.message_payload(backend, stored))
            record.source_message_id = stored.id
            env._notify_dispatch_observers(record)
            probe.sent[record.id] = time.perf_counter()
            backend.emit("INTERACTION_CREATE", payload)
        await env._settle_internal(dispatch="INTERACTION_CREATE")
    finally:
        env._end_operation()


async def run(tables: int, rounds: int, think: float) -> dict[str, float]:
    """Open ``tables`` 1 v 1 tables and play ``rounds`` bursts; return the figures."""
    with tempfile.TemporaryDirectory() as tmp:
        seeds = iter(f"load-{i}" for i in range(100000))
        # pictures drawn in this process: worker processes would outlive the bot SimCord detaches
        settings = Settings(token="bench", database_path=str(Path(tmp) / "load.db"), ai_delay=0, picture_workers=0)
        bot = CuarentaBot(settings, ai_delay=0, seed_factory=lambda: next(seeds), edit_interval=1.0,
                          shard_count=1)  # SimCord needs it; Discord decides in production
        async with simcord.run(bot) as env:
            # a burst of N plays takes real time (the default 5 s is for tests); SimCord also runs virtual
            # timers due within this window while it settles, so it stays well under the 300 s turn timer
            env.settle_timeout = 30.0  # a burst of N plays takes real time; the default 5 s is for tests
            guild = env.create_guild("Load")
            pairs = []
            for i in range(tables):
                channel = guild.create_text_channel(f"mesa-{i}")
                a = guild.add_member(env.create_user(f"a{i}"))
                b = guild.add_member(env.create_user(f"b{i}"))
                pairs.append((channel, a, b))
            await env.bot.tree.sync()
            for channel, a, b in pairs:
                await a.slash(channel, "cuarenta new", players=2, turn_timer=300)
                await b.slash(channel, "cuarenta join")
            live = {t.id: t for t in env.bot.tables.tables.values()}
            members = {m.id: m for _, a, b in pairs for m in (a, b)}
            probe = Probe()
            undo = probe.install()
            plays0 = {tid: len(t.game.plays) for tid, t in live.items()}
            cpu0, wall0 = time.process_time(), time.perf_counter()
            try:
                for _ in range(rounds):
                    clicks = []
                    for table in live.values():
                        if table.status != PLAYING or table.game is None or table.game.to_play is None:
                            continue
                        member = members[table.seats[table.game.to_play].user_id]
                        click = next_click(table, member, {})
                        if click is not None:
                            clicks.append((member.user, latest_hand(member), *click))
                    if not clicks:
                        break
                    await burst(env, clicks, probe)
                    await env.advance_time(think)
                await env.advance_time(5)
            finally:
                undo()
            cpu, wall = time.process_time() - cpu0, time.perf_counter() - wall0
            plays = sum(len(t.game.plays) - plays0[tid] for tid, t in live.items())
            # SimCord detaches the bot without closing it: stop its work and close the database here, or
            # aiosqlite's worker thread keeps the process alive at exit
            await env.bot.queue.close()
            await env.bot.tables.close()
            await env.bot.notifier.close()
            env.bot._store_open = False
            await env.bot.store.close()
    latencies = sorted((probe.acked[i] - s) * 1000 for i, s in probe.sent.items() if i in probe.acked)
    q = statistics.quantiles(latencies, n=100) if len(latencies) > 1 else latencies * 99
    return {
        "tables": tables, "interactions": len(probe.sent), "answered": len(latencies),
        "late": sum(1 for x in latencies if x > 3000) + len(probe.sent) - len(latencies),
        "p50": q[49], "p95": q[94], "p99": q[98], "plays": plays, "rest": probe.rest / max(1, plays),
        "cpu": cpu * 1000 / max(1, plays), "plays_s": plays / wall if wall else 0.0,
        "rss": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, nargs="+", default=[1, 10, 50])
    parser.add_argument("--rounds", type=int, default=40, help="bursts per run (one play per table each)")
    parser.add_argument("--think", type=float, default=1.0, help="virtual seconds between bursts")
    args = parser.parse_args()
    discord.utils.setup_logging(level=40)
    print("tables  interactions  answered  after 3 s   ack p50 / p95 / p99 ms   plays  plays/s (wall)  "
          "REST/play  CPU ms/play  peak RSS MB", flush=True)
    for n in args.tables:
        r = asyncio.run(run(n, args.rounds, args.think))
        print(f"{r['tables']:6}  {r['interactions']:12}  {r['answered']:8}  {r['late']:9}   "
              f"{r['p50']:7.1f} / {r['p95']:6.1f} / {r['p99']:6.1f}     {r['plays']:5}  {r['plays_s']:14.1f}  "
              f"{r['rest']:9.2f}  {r['cpu']:11.1f}  {r['rss']:11.0f}", flush=True)


if __name__ == "__main__":
    main()
