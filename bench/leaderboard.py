"""Ratings benchmark: rate and store 10,000 chicas among 1,000 players in one server, then time
leaderboard pages, stats and history. A benchmark, not a test.

Usage::

    python bench/leaderboard.py [--chicas 10000] [--players 1000] [--queries 300] [--db PATH]

Setup: a database opened exactly as the bot opens it (`Store.open`; a SQLite file: WAL, foreign keys,
default ``synchronous=FULL``; or, with ``--db postgresql://…``, a PostgreSQL database), the bot's own
migrations, and a `Ratings` repository on the store's `Database`. Chicas alternate 1v1 / 2v2; players
are drawn with a skewed activity (some play a lot), the winner follows a hidden skill (logistic), and
every mesa is two or three chicas at one table, with its ``tables`` and ``mesas`` rows as the store
writes them. One chica in 20 has a computer player (casual; stored, not rated).

Figures (wall time of the awaited call, in ms, on this machine):
- **record, own commit**: `Ratings.record_chica` in its own transaction (on SQLite BEGIN IMMEDIATE …
  COMMIT, with the WAL fsync). Goal: < 2 ms.
- **record, in caller's transaction**: the same call made while a transaction is open (how the table
  service should call it, next to the play it stores), commit excluded: the rating's marginal cost.
- **baseline**: one ``UPDATE`` + commit, the floor any stored write pays (the commit's fsync).
- **leaderboard page**: `Ratings.leaderboard` for pages spread over the board, both modes, with a viewer
  (rank in the footer). Goal: < 20 ms.
- **stats**, **history**: `Ratings.stats` / `Ratings.history` for random players.
Each line: median, p95, p99, mean. The rating math alone (openskill) is reported in µs.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import math
import random
import shutil
import statistics
import sys
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.ratings import ChicaResult, Ratings, SeatStats, rate  # noqa: E402
from bot.store import Store  # noqa: E402

GUILD = 424242
START = datetime(2026, 1, 1, tzinfo=UTC)


def summary(name: str, samples: list[float]) -> str:
    """One line: median, p95, p99, mean of samples in ms."""
    s = sorted(samples)

    def pct(p: float) -> float:
        return s[min(len(s) - 1, int(p * len(s)))]

    return (f"{name:<40} n={len(s):>6}  median {statistics.median(s):7.3f} ms  p95 {pct(0.95):7.3f}"
            f"  p99 {pct(0.99):7.3f}  mean {statistics.fmean(s):7.3f}")


def pick_players(rng: random.Random, n: int, k: int, weights: list[float]) -> list[int]:
    """k distinct players, drawn by activity weight."""
    out: set[int] = set()
    while len(out) < k:
        out.add(rng.choices(range(1, n + 1), weights)[0])
    return list(out)


def make_schedule(chicas: int, players: int, seed: int = 7) -> list[tuple[int, list[ChicaResult], list]]:
    """Mesas as ``(table_id, results, seats)``; about ``chicas`` results in all."""
    rng = random.Random(seed)
    skill = {p: rng.gauss(0, 1) for p in range(1, players + 1)}
    weights = [rng.paretovariate(1.5) for _ in range(players)]
    mesas = []
    count = 0
    table = 0
    when = START
    while count < chicas:
        table += 1
        size = 2 if table % 2 else 4
        seats: list[int | None] = pick_players(rng, players, size, weights)  # type: ignore[assignment]
        if table % 20 == 0:
            seats[-1] = None
        teams = (tuple(seats[0::2]), tuple(seats[1::2]))
        results = []
        wins = [0, 0]
        number = 0
        while max(wins) < 2 and count < chicas:
            number += 1
            when += timedelta(seconds=rng.randint(60, 900))
            strength = [sum(skill[u] if u is not None else 0.0 for u in t) for t in teams]
            p0 = 1 / (1 + math.exp(strength[1] - strength[0]))
            winner = 0 if rng.random() < p0 else 1
            wins[winner] += 1
            stats = tuple(tuple(SeatStats(rng.randint(0, 3), rng.randint(0, 2), rng.randint(0, 1)) for _ in t)
                          for t in teams)
            results.append(ChicaResult(GUILD, table, number, teams, winner,
                                       scores=(40, rng.randrange(0, 40, 2)) if winner == 0 else
                                       (rng.randrange(0, 40, 2), 40),
                                       zapatero=rng.random() < 0.1, stats=stats, finished_at=when))
            count += 1
        mesas.append((table, results, seats, wins))
    return mesas


async def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--chicas", type=int, default=10_000)
    ap.add_argument("--players", type=int, default=1_000)
    ap.add_argument("--queries", type=int, default=300, help="timed calls per query kind")
    ap.add_argument("--db", help="a SQLite file or a postgresql:// URL (default: a temporary SQLite file)")
    ap.add_argument("--synchronous", choices=("FULL", "NORMAL"), default="FULL",
                    help="PRAGMA synchronous, SQLite only (the bot's store leaves SQLite's default, FULL)")
    args = ap.parse_args()

    tmp = Path(tempfile.mkdtemp(prefix="cuarenta-bench-"))
    path = args.db or str(tmp / "bench.db")
    store = await Store.open(path)
    conn = store.db
    if conn.dialect == "sqlite":  # (not `execute`: SQLite refuses this PRAGMA inside a transaction)
        await conn.fetch(f"PRAGMA synchronous={args.synchronous}")
    clock_now = [START]
    ratings = Ratings(conn, clock=lambda: clock_now[0])
    await ratings.set_settings(GUILD, min_games=10, active_days=3650)

    schedule = make_schedule(args.chicas, args.players)
    total = sum(len(r) for _, r, _, _ in schedule)
    where = f"synchronous={args.synchronous}; db {path}" if conn.dialect == "sqlite" else f"db {path}"
    print(f"{total} chicas in {len(schedule)} mesas among {args.players} players, one server; {where}")

    # the rating math alone (best of 5 x 2,000)
    best = math.inf
    for _ in range(5):
        t = time.perf_counter()
        for _ in range(2000):
            rate([[(25.0, 5.0), (27.0, 4.0)], [(24.0, 6.0), (26.0, 3.0)]], 0)
        best = min(best, time.perf_counter() - t)
    print(f"rating math, 2v2 update (bot.ratings.rate): {best / 2000 * 1e6:.1f} µs")

    own: list[float] = []
    joined: list[float] = []
    bare: list[float] = []
    rated = 0
    for i, (table, results, seats, wins) in enumerate(schedule):
        async with conn.transaction():
            await conn.execute(
                "INSERT INTO tables (id, guild_id, channel_id, host_id, players, preset, status, seed, seats)"
                " VALUES (?, ?, 1, NULL, ?, 'quito', 'finished', ?, '[]')", table, GUILD, len(seats), str(table),
            )
            await conn.execute(
                "INSERT INTO mesas (table_id, guild_id, channel_id, preset, players, seed, winner, chicas_a,"
                " chicas_b, zapateria, seats) VALUES (?, ?, 1, 'quito', ?, ?, ?, ?, ?, 0, ?)",
                table, GUILD, len(seats), str(table), 0 if wins[0] > wins[1] else 1, wins[0], wins[1],
                json.dumps(seats),
            )
        for r in results:
            if i % 2:  # inside an open transaction, as the table service would call it
                async with conn.transaction():
                    await conn.execute("UPDATE tables SET updated_at = ? WHERE id = ?", "x", table)
                    t = time.perf_counter()
                    rec = await ratings.record_chica(r)
                    joined.append((time.perf_counter() - t) * 1000)
            else:
                t = time.perf_counter()
                rec = await ratings.record_chica(r)
                own.append((time.perf_counter() - t) * 1000)
                # baseline, interleaved so disk contention hits both alike: the smallest write the
                # store makes (one UPDATE + commit)
                t = time.perf_counter()
                await conn.execute("UPDATE tables SET updated_at = ? WHERE id = ?", "y", table)
                bare.append((time.perf_counter() - t) * 1000)
            rated += rec.rated
    clock_now[0] = schedule[-1][1][-1].finished_at + timedelta(hours=1)
    print(f"rated {rated} of {total} chicas")
    print(summary("record_chica, own commit (fsync)", own))
    print(summary("record_chica, in caller's transaction", joined))
    print(summary("baseline: one UPDATE + commit", bare))

    # a retry is a no-op
    again = await ratings.record_chica(schedule[0][1][0])
    assert not again.stored

    rng = random.Random(3)
    boards = {}
    for mode in ("1v1", "2v2"):
        boards[mode] = await ratings.leaderboard(GUILD, mode)
        print(f"{mode}: {boards[mode].total} ranked players, {boards[mode].pages} pages")
    times = []
    for q in range(args.queries):
        mode = ("1v1", "2v2")[q % 2]
        page = rng.randrange(boards[mode].pages)
        viewer = rng.randint(1, args.players)
        t = time.perf_counter()
        await ratings.leaderboard(GUILD, mode, page=page, viewer=viewer)
        times.append((time.perf_counter() - t) * 1000)
    print(summary("leaderboard page (+ viewer rank)", times))

    users = [rng.randint(1, args.players) for _ in range(args.queries)]
    for name, call in (("stats", ratings.stats), ("history (10 mesas)", ratings.history)):
        times = []
        for u in users:
            t = time.perf_counter()
            await call(GUILD, u)
            times.append((time.perf_counter() - t) * 1000)
        print(summary(name, times))
    busiest, n = await conn.fetchrow(
        "SELECT user_id, COUNT(*) AS n FROM chica_players WHERE user_id IS NOT NULL GROUP BY user_id"
        " ORDER BY n DESC, user_id LIMIT 1"
    )
    times = []
    for _ in range(50):
        t = time.perf_counter()
        await ratings.stats(GUILD, busiest)
        times.append((time.perf_counter() - t) * 1000)
    print(summary(f"stats of the busiest player ({n} chicas)", times))

    # closing the season at this size
    t = time.perf_counter()
    closed = await ratings.end_season(GUILD, "Temporada 2")
    print(f"end_season (freeze {sum(1 for _ in closed.top)} modes, soft reset): "
          f"{(time.perf_counter() - t) * 1000:.1f} ms")
    times = []
    for q in range(args.queries):
        mode = ("1v1", "2v2")[q % 2]
        t = time.perf_counter()
        await ratings.leaderboard(GUILD, mode, season=1, page=rng.randrange(boards[mode].pages),
                                  viewer=rng.randint(1, args.players))
        times.append((time.perf_counter() - t) * 1000)
    print(summary("frozen leaderboard page (closed season)", times))
    await store.close()
    if not args.db:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    asyncio.run(main())
