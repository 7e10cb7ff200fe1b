"""Event-loop responsiveness while computer players think. A benchmark, not a test.

K ``dificil`` moves are started at once (``choose_play("dificil", seed, view)`` on K different random
positions, as `TableService` calls it), through (i) ``asyncio.to_thread`` (threads of this process: the
search holds the GIL) and (ii) `bot.tables.workers.ProcessOffload` (worker processes). Meanwhile a ticker
coroutine sleeps 5 ms in a loop and records how late each wake-up is: that lateness is what every other
table's acknowledgement waits on.

Printed per offload and K: the ticker's lateness p50 / p99 / max (ms), the number of ticks, and moves/s
(K moves over the wall time from the first start to the last answer). Each (offload, K) is run
``--repeat`` times (default 5) and the figures pooled; the process pool is started and warmed (every worker
has imported the AI) before it is timed, as it is in a bot that has played one move.

Run: ``python bench/ai_workers.py [--k 1 4 16] [--workers 2] [--repeat 5]``.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import sys
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bot.engine import Game, GameView, Rules  # noqa: E402
from bot.tables.players import choose_play  # noqa: E402
from bot.tables.workers import ProcessOffload  # noqa: E402

TICK = 0.005
"""The ticker's sleep (s)."""


def positions(count: int, offset: int = 0) -> list[tuple[str, GameView]]:
    """``(seed, view)`` of ``count`` quito 1 v 1 positions a few plays into a deal (the search is
    costliest early in a deal, when the most cards are hidden), reproducible."""
    import random

    out = []
    i = offset
    while len(out) < count:
        rng = random.Random(f"bench-ai-workers/{i}")
        game = Game.new(Rules.preset("quito"), players=2, seed=f"bench/{i}")
        for _ in range(rng.randrange(0, 6)):
            game.play(rng.choice(game.legal_plays()))
        i += 1
        if not game.is_over:
            out.append((game.seed, game.view(game.to_play)))
    return out


async def ticker(stop: asyncio.Event, lags: list[float]) -> None:
    """Sleep `TICK` in a loop until ``stop``; append each wake-up's lateness (ms) to ``lags``."""
    loop = asyncio.get_running_loop()
    while not stop.is_set():
        due = loop.time() + TICK
        await asyncio.sleep(TICK)
        lags.append(max(0.0, loop.time() - due) * 1000)


async def one_run(offload: Callable[..., Awaitable[Any]], cases: list[tuple[str, GameView]],
                  lags: list[float]) -> float:
    """Start every case's dificil move at once with the ticker running; return the wall seconds."""
    stop = asyncio.Event()
    tick = asyncio.create_task(ticker(stop, lags))
    await asyncio.sleep(TICK * 2)  # the ticker is running
    start = time.perf_counter()
    await asyncio.gather(*(offload(choose_play, "dificil", seed, view) for seed, view in cases))
    wall = time.perf_counter() - start
    stop.set()
    await tick
    return wall


async def measure(name: str, offload: Callable[..., Awaitable[Any]], k: int, repeat: int) -> dict[str, Any]:
    lags: list[float] = []
    walls = []
    for r in range(repeat):
        walls.append(await one_run(offload, positions(k, offset=1000 * r), lags))
    q = statistics.quantiles(lags, n=100, method="inclusive") if len(lags) > 1 else lags * 99
    return {"offload": name, "k": k, "ticks": len(lags), "p50": q[49], "p99": q[98], "max": max(lags),
            "moves_s": k * repeat / sum(walls)}


async def main(ks: list[int], workers: int, repeat: int) -> None:
    pool = ProcessOffload(workers)
    try:
        # start and warm the pool: every worker up, the AI imported, one search done
        await asyncio.gather(*(pool(choose_play, "dificil", seed, view) for seed, view in positions(workers * 2)))
        print(f"cpus {os.cpu_count()}, process workers {pool.max_workers} ({pool.context}), "
              f"ticker {TICK * 1000:.0f} ms, {repeat} runs per row")
        print(f"{'offload':<18} {'K':>3} {'ticks':>6} {'lag p50':>8} {'lag p99':>8} {'lag max':>8} {'moves/s':>8}")
        for k in ks:
            for name, offload in (("asyncio.to_thread", asyncio.to_thread), ("ProcessOffload", pool)):
                row = await measure(name, offload, k, repeat)
                print(f"{row['offload']:<18} {row['k']:>3} {row['ticks']:>6} {row['p50']:>8.2f} "
                      f"{row['p99']:>8.2f} {row['max']:>8.2f} {row['moves_s']:>8.1f}")
        print(f"(lag in ms; process pool restarts {pool.restarts}, thread fallbacks {pool.fallbacks})")
    finally:
        pool.close()


if __name__ == "__main__":  # the workers import this file as __mp_main__: nothing runs then
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--k", type=int, nargs="+", default=[1, 4, 16], help="concurrent moves")
    parser.add_argument("--workers", type=int, default=2, help="worker processes")
    parser.add_argument("--repeat", type=int, default=5, help="runs per row, pooled")
    args = parser.parse_args()
    asyncio.run(main(args.k, args.workers, args.repeat))
