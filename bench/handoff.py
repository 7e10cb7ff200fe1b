"""What handing a table picture to a worker process costs the bot's process (CPU ms a picture).

400 pictures of 50 games played in turn (1 v 1, a random legal play each), asked three at a time at about
45 a second, as at 50 fast tables: ``workers`` through the bot's `bot.ui.picture_workers.PictureWorkers` (one
worker), ``executor`` through a bare ``concurrent.futures.ProcessPoolExecutor(1)`` with
``loop.run_in_executor``. Prints the bot process's CPU (``time.process_time``: every thread, the
drawing in the worker not included) per picture. Compare `PictureWorkers` of two commits by running this
at each.

    python bench/handoff.py workers|executor
"""

from __future__ import annotations

import asyncio
import random
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

import render as bench_render  # noqa: E402

from bot.engine import Game, Rules  # noqa: E402
from bot.tables.workers import init_worker, mp_context  # noqa: E402
from bot.ui.picture import TableScene, render_table  # noqa: E402
from bot.ui.picture_workers import PictureWorkers  # noqa: E402


def scenes(games: int = 50, rounds: int = 8) -> list[TableScene]:
    """The scene after each play of ``games`` games played in turn, ``rounds`` plays each."""
    rng = random.Random(2)
    played = [Game.new(Rules.preset("quito"), 2, f"handoff-{i}") for i in range(games)]
    out = []
    for _ in range(rounds):
        for game in played:
            if game.winner is None:
                game.play(rng.choice(game.legal_plays()))
                out.append(bench_render.scene_of(game.view(None)))
    return out


async def main(kind: str) -> None:
    asked = scenes()
    if kind == "workers":
        workers = PictureWorkers(1)

        def call(scene: TableScene) -> asyncio.Future[bytes]:
            return asyncio.ensure_future(workers.render(1, scene))
    else:
        pool = ProcessPoolExecutor(1, mp_context=mp_context(None), initializer=init_worker,
                                   initargs=(("bot.ui.picture",),))
        loop = asyncio.get_running_loop()

        def call(scene: TableScene) -> asyncio.Future[bytes]:
            return loop.run_in_executor(pool, render_table, scene)
    for scene in asked[:50]:  # warm-up: the worker started, the card art drawn
        await call(scene)
    start = time.process_time()
    for i in range(0, len(asked), 3):
        await asyncio.gather(*(call(scene) for scene in asked[i:i + 3]))
        await asyncio.sleep(3 / 45)
    cpu = time.process_time() - start
    print(f"{kind}: {len(asked)} pictures, the bot's process {cpu / len(asked) * 1e3:.3f} ms of CPU a picture")
    if kind == "workers":
        workers.close()
    else:
        pool.shutdown()


if __name__ == "__main__":
    from bot import loop as event_loop

    event_loop.run(main(sys.argv[1] if len(sys.argv) > 1 else "workers"))
