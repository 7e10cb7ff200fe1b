"""`bot.tables.workers.ProcessOffload`: computer moves computed in worker processes.

The functions the workers run are module-level here, so a worker imports them by name.
"""

from __future__ import annotations

import asyncio
import os
import signal
from pathlib import Path

import pytest

from bot.ai import PimcPlayer, rng_for
from bot.engine import GameView, Play
from bot.tables.players import choose_play
from bot.tables.workers import OffloadClosedError, ProcessOffload, default_context, default_workers

from .helpers import random_position


def dificil_uncapped(seed: str, view: GameView) -> Play:
    """The dificil choice without its 120 ms safety cap: the same move on any machine, at any load (the
    capped search can stop early on a busy machine, and then only that move depends on timing)."""
    return PimcPlayer(time_cap=None).choose(view, rng_for(seed, view))


def die_once(flag: str) -> int:
    """Kill the worker the first time (``flag`` does not exist yet); then return the pid."""
    path = Path(flag)
    if not path.exists():
        path.write_text("died")
        os._exit(3)
    return os.getpid()


def die_unless_in(pid: int) -> str:
    """Kill every worker process; answer only in process ``pid`` (the test's, i.e. in a thread)."""
    if os.getpid() != pid:
        os._exit(3)
    return "answered in the test's process"


def positions(count: int) -> list[tuple[str, GameView]]:
    """``(seed, view of the seat in turn)`` of random positions: 1 v 1 and 2 v 2, with and without the
    seed-002 variants."""
    out = []
    for i in range(count):
        game = random_position("quito", 2 if i % 2 == 0 else 4, 700 + i, variant=("plain", "both")[i % 3 == 0])
        out.append((game.seed, game.view(game.to_play)))
    return out


@pytest.fixture(scope="module")
def offload():
    pool = ProcessOffload(2)
    yield pool
    pool.close()


def test_the_defaults_are_forkserver_or_spawn_and_at_most_two_workers():
    assert default_context() in ("forkserver", "spawn")
    assert 1 <= default_workers() <= 2
    pool = ProcessOffload()
    assert pool.max_workers == default_workers() and pool.context == default_context()
    assert not pool.started, "no process before the first call"
    with pytest.raises(ValueError):
        ProcessOffload(context="fork")
    with pytest.raises(ValueError):
        ProcessOffload(0)


async def test_moves_computed_in_workers_are_the_moves_computed_inline(offload):
    cases = positions(8)
    for seed, view in cases:
        assert await offload(dificil_uncapped, seed, view) == dificil_uncapped(seed, view)
        for level in ("facil", "medio", "greedy"):
            assert await offload(choose_play, level, seed, view) == choose_play(level, seed, view)
    # choose_play itself, as the service calls it: dificil's capped search returns a legal play
    moves = await asyncio.gather(*(offload(choose_play, "dificil", seed, view) for seed, view in cases))
    assert all(move in view.legal_plays for move, (_seed, view) in zip(moves, cases, strict=True))
    assert offload.calls == len(cases) * 5 and offload.restarts == 0 and offload.fallbacks == 0


async def test_the_calls_run_in_other_processes(offload):
    pids = set(await asyncio.gather(*(offload(os.getpid) for _ in range(6))))
    assert os.getpid() not in pids
    assert 1 <= len(pids) <= 2, "at most max_workers processes"


async def test_a_killed_worker_is_replaced_and_the_next_move_is_still_right():
    pool = ProcessOffload(1)
    try:
        worker = await pool(os.getpid)
        os.kill(worker, signal.SIGKILL)
        seed, view = positions(1)[0]
        assert await pool(choose_play, "medio", seed, view) == choose_play("medio", seed, view)
        assert pool.restarts == 1 and pool.fallbacks == 0
        assert await pool(os.getpid) not in (worker, os.getpid())
    finally:
        pool.close()


async def test_a_call_that_kills_its_worker_is_retried_once_in_a_new_pool(tmp_path):
    pool = ProcessOffload(1)
    try:
        pid = await pool(die_once, str(tmp_path / "flag"))
        assert pid != os.getpid(), "the retry ran in a worker of the new pool"
        assert pool.restarts == 1 and pool.fallbacks == 0
    finally:
        pool.close()


async def test_after_two_broken_pools_the_call_runs_in_a_thread_and_the_next_uses_a_new_pool():
    pool = ProcessOffload(1)
    try:
        assert await pool(die_unless_in, os.getpid()) == "answered in the test's process"
        assert pool.restarts == 2 and pool.fallbacks == 1
        assert await pool(os.getpid) != os.getpid(), "the next call is back in a worker process"
    finally:
        pool.close()


async def test_close_is_idempotent_and_a_call_after_it_raises():
    pool = ProcessOffload(1)
    pool.close()  # before any call: nothing to shut down
    assert pool.closed and not pool.started
    pool = ProcessOffload(1)
    assert await pool(os.getpid) != os.getpid()
    pool.close()
    pool.close()
    assert pool.closed and not pool.started
    with pytest.raises(OffloadClosedError):
        await pool(os.getpid)


async def test_close_with_calls_in_flight_does_not_hang():
    """A call a worker already took returns its answer; one still queued raises OffloadClosedError."""
    pool = ProcessOffload(1)
    await pool(os.getpid)  # the worker is up
    seed, view = positions(1)[0]
    calls = [asyncio.ensure_future(pool(choose_play, "medio", seed, view)) for _ in range(6)]
    await asyncio.sleep(0)  # every call is submitted
    pool.close()
    done = await asyncio.wait_for(asyncio.gather(*calls, return_exceptions=True), 60)
    expected = choose_play("medio", seed, view)
    assert all(r == expected or isinstance(r, OffloadClosedError) for r in done), done
