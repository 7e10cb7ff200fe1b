"""Discord's write budget over whole mesas: REST calls per play (all of them, and the bot-token calls that
Discord's global limit of about 50/s counts; the budget is at most 1.2 a play) and the densest 5 seconds
per channel.

The unmodified bot runs in SimCord as in production (edits coalesced once a second, the write budget on,
the table picture and the card emojis), and people play through their DM hands in virtual time: they
wait until the hand shows their turn, think 1.2 s, click. Computers answer at once (no pause), the
hardest case for the budget. Every bot-token message write (send, edit, delete) is logged with the
virtual instant it was made.

Run: ``python bench/writes.py`` (about a minute; ``--mesas N`` per scenario, default 2).
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import tempfile
import time
from pathlib import Path
from types import SimpleNamespace

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import discord  # noqa: E402
import simcord  # noqa: E402

from bot.app import CuarentaBot  # noqa: E402
from bot.config import Settings  # noqa: E402
from tests.support.clocked import WriteLog, play_clocked  # noqa: E402


async def scenario(name: str, players: int, people: int, mesa: int) -> dict[str, float]:
    """Play one mesa; return its figures."""
    with tempfile.TemporaryDirectory() as tmp:
        seeds = iter(f"bench-{name}-{mesa}-{i}" for i in range(1000))
        # computers think and pictures are drawn in this process: SimCord detaches the bot without closing
        # it, so worker processes per mesa would outlive it (and multiprocessing waits for them on SimCord's
        # frozen clock); the REST writes counted here do not depend on where that work is done
        settings = Settings(token="bench", database_path=str(Path(tmp) / "bench.db"), ai_delay=0, ai_workers=0,
                            picture_workers=0)
        bot = CuarentaBot(settings, ai_delay=0, seed_factory=lambda: next(seeds), edit_interval=1.0,
                          offload=_inline, shard_count=1)  # SimCord needs it; Discord decides in production
        async with simcord.run(bot) as env:
            guild = env.create_guild("Bench")
            channel = guild.create_text_channel("cuarenta")
            members = [guild.add_member(env.create_user(n)) for n in ("ana", "beto", "caro", "dani")[:people]]
            await env.bot.tree.sync()
            writes = WriteLog(env)
            undo = writes.install()
            try:
                start_requests = len(env.http_requests)
                await members[0].slash(channel, "cuarenta new", players=players, rules="quito")
                for member in members[1:]:
                    await member.slash(channel, "cuarenta join")
                table = env.bot.tables.tables[1]
                if table.status == "lobby":
                    await members[0].slash(channel, "cuarenta start")
                world = SimpleNamespace(env=env, bot=env.bot, channel=channel)
                started = env.now().timestamp()
                table = await play_clocked(world, 1, {m.id: m for m in members})
                seconds = env.now().timestamp() - started
                plays = len(table.game.plays)
                made = env.http_requests[start_requests:]
                requests = len(made)
                # Discord's global limit counts bot-token calls only: not interaction callbacks, not the
                # interaction-token (webhook) writes of the DM hands
                bot_token = sum(1 for r in made if not r.path.removeprefix("/api/v10").startswith(
                    ("/interactions/", "/webhooks/")))
                dense = writes.densest(5.0)
                dms = [dense[c] for c in dense if c != channel.id]
                return {"plays": plays, "requests": requests, "bot_token": bot_token,
                        "writes": len([w for w in writes.writes if not w.via_token]),
                        "public": dense.get(channel.id, 0), "dm": max(dms, default=0), "seconds": seconds}
            finally:
                undo()


async def _inline(func, *args):
    """Computer moves computed on the loop, as the tests do (SimCord settles a click while the bot's
    sleeps wait on its virtual clock; a move in a thread left that settling waiting for ever)."""
    return func(*args)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mesas", type=int, default=2)
    args = parser.parse_args()
    discord.utils.setup_logging(level=40)
    print("scenario                          mesas  plays  REST/play  bot-token/play  writes/play  "
          "max writes in 5 s (public / worst DM)  virtual min")
    for name, players, people in (("1v1, person vs computer", 2, 1), ("2v2, 2 people + 2 computers", 4, 2),
                                  ("1v1, two people", 2, 2), ("2v2, four people", 4, 4)):
        t0 = time.perf_counter()
        rows = [asyncio.run(scenario(name.split(",")[0], players, people, m)) for m in range(args.mesas)]
        plays = sum(r["plays"] for r in rows)
        print(f"{name:33} {len(rows):5}  {plays:5}  {sum(r['requests'] for r in rows) / plays:9.2f}  "
              f"{sum(r['bot_token'] for r in rows) / plays:14.2f}  "
              f"{sum(r['writes'] for r in rows) / plays:11.2f}  "
              f"{max(r['public'] for r in rows):>17} / {max(r['dm'] for r in rows):<18}  "
              f"{sum(r['seconds'] for r in rows) / 60:10.1f}   ({time.perf_counter() - t0:.0f} s wall)")


if __name__ == "__main__":
    main()
