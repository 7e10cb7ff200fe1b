"""Computer moves in worker processes, so one table's slow search never delays the event loop.

The ``dificil`` search (`bot.ai.dificil`) is pure Python and holds the GIL for tens of milliseconds a move:
run in a thread (`asyncio.to_thread`) it still stalls the event loop, and with it every table's
acknowledgement. `ProcessOffload` is an offload for `TableService` (``offload=``) that runs the call in a
`concurrent.futures.ProcessPoolExecutor` instead, through ``loop.run_in_executor``.

What crosses the process boundary is pickled: the function must be importable by name (a module-level
function such as `bot.tables.players.choose_play`, not a lambda or a closure), and its arguments and
result picklable (a `GameView` is: frozen dataclasses of tuples, cards, events, rules and plays). A level
added with `bot.tables.players.register_level` in the bot's process is unknown in the workers (they import
the modules afresh): register levels at import time of a module the workers import, or use threads.

This module imports neither discord nor the store. The workers import what `PRELOAD` names and what
unpickling the function needs: for `choose_play` that is the `bot.tables` package, whose modules import
`bot.store` (aiosqlite) without opening anything, never discord.
"""

from __future__ import annotations

import asyncio
import importlib
import logging
import multiprocessing
import os
import signal
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any, TypeVar

log = logging.getLogger(__name__)

T = TypeVar("T")

PRELOAD: tuple[str, ...] = ("bot.tables.players",)
"""Modules every worker imports when it starts (about 0.25 s), so the first move it runs does not pay the
import: `choose_play` and the computer players (`bot.ai`, `bot.engine`)."""


class OffloadClosedError(RuntimeError):
    """A `ProcessOffload` was called after `ProcessOffload.close` (or closed while the call was queued)."""


def default_workers() -> int:
    """``min(2, os.cpu_count())``, at least 1: the worker processes of a `ProcessOffload` by default."""
    return max(1, min(2, os.cpu_count() or 1))


def default_context() -> str:
    """``"forkserver"`` where the platform has it (Linux), else ``"spawn"``. Never ``"fork"``: the bot's
    process runs threads (aiosqlite's, the executor's) that a forked child would inherit mid-lock."""
    return "forkserver" if "forkserver" in multiprocessing.get_all_start_methods() else "spawn"


def mp_context(method: str | None = None) -> multiprocessing.context.BaseContext:
    """The `multiprocessing` context of the bot's worker processes: ``method`` (default
    `default_context`).

    Raises:
        ValueError: ``method`` is ``"fork"`` (the bot's process runs threads) or unknown here.
    """
    method = method or default_context()
    if method == "fork":
        raise ValueError("the 'fork' start method is refused: the bot's process runs threads")
    return multiprocessing.get_context(method)


def init_worker(modules: Sequence[str]) -> None:
    """A worker's start: ignore SIGINT (Ctrl+C reaches the whole process group; the bot's process closes
    the pool itself) and import ``modules``. An import that fails is left for the call to report."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    for name in modules:
        try:
            importlib.import_module(name)
        except Exception:  # the call that needs it raises the real error, in the bot's process
            pass


class ProcessOffload:
    """``await offload(fn, *args)`` returns ``fn(*args)`` computed in a worker process.

    The pool starts at the first call (no process runs before a computer plays), with ``max_workers``
    processes at most, each started as needed. A worker that dies (killed, out of memory, ``os._exit``)
    breaks the whole pool (`BrokenProcessPool`): the call is then retried once in a new pool and, if that
    breaks too, run in a thread (`asyncio.to_thread`), so a computer player never stops playing; later
    calls start with a new pool again. `restarts` and `fallbacks` count those events.

    Args:
        max_workers: worker processes, at least 1 (default `default_workers`: ``min(2, os.cpu_count())``).
        context: the `multiprocessing` start method, ``"forkserver"`` or ``"spawn"`` (default
            `default_context`).
        preload: modules each worker imports at start (default `PRELOAD`).

    Raises:
        ValueError: ``max_workers`` < 1, or ``context`` is ``"fork"`` or unknown to this platform.

    Attributes:
        calls: calls answered by a worker process. restarts: pools replaced after breaking.
        fallbacks: calls run in a thread after two broken pools. pending: calls asked and not yet
        answered (waiting for a worker, or being computed): the queue's depth.
    """

    def __init__(self, max_workers: int | None = None, *, context: str | None = None,
                 preload: Sequence[str] = PRELOAD) -> None:
        if max_workers is not None and max_workers < 1:
            raise ValueError(f"max_workers must be at least 1, not {max_workers}")
        self._context = mp_context(context)
        self.context = self._context.get_start_method()
        self.max_workers = max_workers or default_workers()
        self.preload = tuple(preload)
        self._pool: ProcessPoolExecutor | None = None
        self._closed = False
        self.calls = 0
        self.restarts = 0
        self.fallbacks = 0
        self.pending = 0

    @property
    def closed(self) -> bool:
        """`close` was called: every later call raises `OffloadClosedError`."""
        return self._closed

    @property
    def started(self) -> bool:
        """A pool exists (a call was made since the start or the last restart, and no close since)."""
        return self._pool is not None

    async def __call__(self, fn: Callable[..., T], *args: Any) -> T:
        """``fn(*args)``, computed in a worker process (in a thread after two broken pools).

        Raises:
            OffloadClosedError: the offload is closed, or was closed while the call waited in the queue.
            Whatever ``fn`` raises (re-raised here), and the pickling errors of a ``fn``, argument or
            result that does not pickle (`pickle.PicklingError`, `TypeError`, `AttributeError`).
        """
        self._check_open()
        self.pending += 1
        try:
            return await self._call(fn, *args)
        finally:
            self.pending -= 1

    async def _call(self, fn: Callable[..., T], *args: Any) -> T:
        """`__call__` without the count of pending calls."""
        loop = asyncio.get_running_loop()
        for attempt in (1, 2):
            pool = self._ensure_pool()
            try:
                future = loop.run_in_executor(pool, fn, *args)
            except (BrokenProcessPool, OSError) as exc:  # broken already, or a worker could not start
                self._discard(pool, attempt, exc)
                continue
            try:
                result = await future
            except BrokenProcessPool as exc:
                self._discard(pool, attempt, exc)
                self._check_open()
                continue
            except asyncio.CancelledError:
                task = asyncio.current_task()
                if self._closed and future.cancelled() and task is not None and not task.cancelling():
                    raise OffloadClosedError("the process offload was closed before the call ran") from None
                raise
            self.calls += 1
            return result
        self.fallbacks += 1
        log.warning("offloaded call: the worker processes broke twice; this call runs in a thread")
        return await asyncio.to_thread(fn, *args)

    def close(self) -> None:
        """Shut the pool down without waiting; idempotent, never blocks.

        Calls still queued are cancelled (their callers get `OffloadClosedError`); a call a worker has
        already taken finishes there and returns normally; the workers exit once idle (a ``dificil`` move
        is capped at about 150 ms). Every later call raises `OffloadClosedError`.
        """
        self._closed = True
        pool, self._pool = self._pool, None
        if pool is not None:
            pool.shutdown(wait=False, cancel_futures=True)

    # ------------------------------------------------------------------ internals

    def _check_open(self) -> None:
        if self._closed:
            raise OffloadClosedError("the process offload is closed")

    def _ensure_pool(self) -> ProcessPoolExecutor:
        if self._pool is None:
            self._pool = ProcessPoolExecutor(self.max_workers, mp_context=self._context,
                                             initializer=init_worker, initargs=(self.preload,))
        return self._pool

    def _discard(self, pool: ProcessPoolExecutor, attempt: int, exc: BaseException) -> None:
        """Forget a broken pool (once, however many calls it failed) so the next call starts a new one."""
        if self._pool is pool:
            self._pool = None
            self.restarts += 1
            log.warning("offloaded call: a worker process died (%s); restarting the pool (attempt %d)",
                        type(exc).__name__, attempt)
            pool.shutdown(wait=False, cancel_futures=True)
