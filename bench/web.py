"""Web pages benchmark: one server with 1,000 players and 10,000 finished mesas (about 25,000 rated chicas,
bench/leaderboard.py's schedule) and a few real mesas played through the table service, then every kind
of page (`bot.web`) fetched over loopback HTTP from the bot's own routes. A benchmark, not a test.

Usage::

    python bench/web.py [--mesas 10000] [--players 1000] [--queries 200] [--db PATH]

The names come from the stored seats only (no member cache: the case of a bot without the members
intent). Each line: median, p95, p99, mean, in ms, of the whole request (the query, the template, the
HTTP round trip on 127.0.0.1). Goal: each kind under 50 ms.

Measured on the development machine (2 shared cores, SQLite, 10,000 mesas, 23,468 chicas, 1,000 players;
200 requests each): leaderboard page median 4.9 ms, p95 5.2; player profile 15.0 / 34.8; mesa replay step
7.3 / 16.7. Before the stored seat names were kept per server (`bot.web.context.NAMES_FOR`), scanning them
on every page made the leaderboard's median 245 ms.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

import aiohttp  # noqa: E402
from aiohttp import web  # noqa: E402
from leaderboard import GUILD, make_schedule, summary  # noqa: E402

from bot.ratings import Ratings  # noqa: E402
from bot.store import Store  # noqa: E402
from bot.tables import FINISHED, Played, TableService, choose_play  # noqa: E402
from bot.web import WebContext, web_routes  # noqa: E402
from bot.web.data import player_numbers, set_web_pages  # noqa: E402

GOAL_MS = 50.0


class NoCache:
    """A directory with no member cached (names come from the stored seats)."""

    def guild_name(self, guild_id: int) -> str | None:
        return "Bench Club"

    async def member_names(self, guild_id: int, user_ids: list[int]) -> dict[int, str]:
        return {}


async def _inline(func, *args):
    return func(*args)


async def fill(store: Store, ratings: Ratings, mesas: int, players: int) -> None:
    """``mesas`` finished mesas with their tables, mesas and rated chicas, 100 mesas a transaction."""
    schedule = make_schedule(int(mesas * 2.6), players)[:mesas]
    db = store.db
    for start in range(0, len(schedule), 100):
        async with db.transaction():
            for table, results, seats, wins in schedule[start:start + 100]:
                named = [{"user_id": u, "name": f"Jugador {u}", "ai": None, "ai_number": 0, "locale": "es"}
                         if u is not None else {"user_id": None, "name": "", "ai": "medio", "ai_number": 1,
                                                "locale": "es"} for u in seats]
                await db.execute(
                    "INSERT INTO tables (id, guild_id, channel_id, host_id, players, preset, status, seed, seats)"
                    " VALUES (?, ?, 1, NULL, ?, 'quito', 'finished', ?, ?)", table, GUILD, len(seats), str(table),
                    json.dumps(named))
                await db.execute(
                    "INSERT INTO mesas (table_id, guild_id, channel_id, preset, players, seed, winner, chicas_a,"
                    " chicas_b, zapateria, seats) VALUES (?, ?, 1, 'quito', ?, ?, ?, ?, ?, 0, ?)",
                    table, GUILD, len(seats), str(table), 0 if wins[0] > wins[1] else 1, wins[0], wins[1],
                    json.dumps(seats))
                for r in results:
                    await ratings.record_chica(r)
    print(f"{len(schedule)} mesas, {sum(len(r) for _, r, _, _ in schedule)} chicas, {players} players")


async def real_mesas(store: Store, count: int) -> list[int]:
    """``count`` 1 v 1 mesas played to their end by two people with the greedy choice (their replays)."""
    ids = []
    for i in range(count):
        service = TableService(store, ai_delay=0, seed_factory=lambda i=i: f"bench-{i}", offload=_inline)
        table = await service.create(guild_id=GUILD, channel_id=9, user_id=1, name="Jugador 1", locale="es",
                                     players=2, preset="quito")
        await service.join(table.id, user_id=2, name="Jugador 2", locale="es")
        while table.status != FINISHED:
            game = table.game
            seat = game.to_play
            play = choose_play("greedy", game.seed, game.view(seat))
            can_capture = any(p.captures for p in game.plays_for(play.card))
            result = await service.play(table.id, user_id=table.seats[seat].user_id, nonce=table.nonce,
                                        card=play.card.code, trail=play.is_trail and can_capture,
                                        captures=" ".join(c.code for c in play.captures) or None)
            assert isinstance(result, Played)
        ids.append(table.id)
        await service.close()
    return ids


async def timed(session: aiohttp.ClientSession, base: str, paths: list[str]) -> list[float]:
    out = []
    for path in paths:
        t = time.perf_counter()
        async with session.get(base + path) as response:
            await response.read()
            assert response.status == 200, (path, response.status)
        out.append((time.perf_counter() - t) * 1000)
    return out


async def main() -> None:
    import logging
    logging.basicConfig(level=logging.ERROR)
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--mesas", type=int, default=10_000)
    ap.add_argument("--players", type=int, default=1_000)
    ap.add_argument("--queries", type=int, default=200, help="timed requests per kind of page")
    ap.add_argument("--db", help="a SQLite file or a postgresql:// URL (default: a temporary SQLite file)")
    args = ap.parse_args()
    tmp = Path(tempfile.mkdtemp(prefix="cuarenta-bench-web-"))
    store = await Store.open(args.db or str(tmp / "bench.db"))
    ratings = Ratings(store.db)
    await ratings.set_settings(GUILD, min_games=10, active_days=0)
    t = time.perf_counter()
    await fill(store, ratings, args.mesas, args.players)
    replays = await real_mesas(store, 3)
    await set_web_pages(store.db, GUILD, True)
    print(f"filled in {time.perf_counter() - t:.0f} s ({store.db.dialect})")

    app = web.Application()
    web_routes(WebContext(store, ratings, NoCache()))(app)
    runner = web.AppRunner(app, access_log=None)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    base = f"http://127.0.0.1:{runner.addresses[0][1]}/s/{GUILD}"
    rng = random.Random(5)
    numbers = list((await player_numbers(store.db, GUILD, range(1, args.players + 1))).values())
    boards = {m: (await ratings.leaderboard(GUILD, m)).pages for m in ("1v1", "2v2")}
    steps = {m: len(await store.plays(m)) for m in replays}
    kinds = {
        "leaderboard page": [f"/leaderboard?mode={m}&page={rng.randint(1, boards[m])}"
                             for m in (rng.choice(("1v1", "2v2")) for _ in range(args.queries))],
        "player profile": [f"/players/{rng.choice(numbers)}" for _ in range(args.queries)],
        "mesa replay step": [f"/mesas/{m}?step={rng.randint(1, steps[m])}"
                             for m in (rng.choice(replays) for _ in range(args.queries))],
    }
    worst = 0.0
    async with aiohttp.ClientSession() as session:
        for name, paths in kinds.items():
            await timed(session, base, paths[:5])  # warm: templates compiled, caches filled
            samples = await timed(session, base, paths)
            p95 = sorted(samples)[int(0.95 * len(samples))]
            worst = max(worst, statistics.median(samples), p95)
            print(summary(name, samples))
    print(f"goal: every median and p95 under {GOAL_MS:.0f} ms: {'met' if worst < GOAL_MS else 'NOT met'}")
    await runner.cleanup()
    await store.close()
    if not args.db:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    asyncio.run(main())
