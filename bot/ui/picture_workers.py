"""Table pictures drawn in worker processes, so that drawing them never holds the event loop.

A table picture (`bot.ui.picture.render_table`) costs a few milliseconds of Pillow and Python a play: in
the bot's process it would be the largest part of a play's work on the event loop, and delay other
tables' answers while it runs. `PictureWorkers` draws them in worker processes instead: the scene
(`bot.ui.table_scene.table_scene`, public state only, about a kilobyte pickled) goes to a worker and the PNG
(about 30 KB) comes back.

- **Each worker is a `concurrent.futures.ProcessPoolExecutor` of one process.** Its hand-off costs the
  bot's process ~0.3 ms of CPU a picture more than a pipe read by the event loop (docs/SCALING.md, "Speed
  devices kept and removed"), well inside the budget of a play.
- **Each table always goes to the same worker** (table id modulo the workers): that worker's caches
  (tiles, laid-out parts) hold the table's last picture, and the next play's picture redraws only what
  changed, as in one process.
- **A worker that dies** (killed, out of memory: the executor is broken), or answers nothing for
  `ANSWER_TIMEOUT` seconds (then it is killed), fails the pictures it held; each is asked once more of a
  new worker, then drawn in a thread of the bot's process, so a table message never loses its picture for
  that. `restarts` and `fallbacks` count those events.

This module imports neither discord nor the store; a worker imports Pillow and `bot.ui.picture` only.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import signal
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any, TypeVar

from bot.tables.workers import OffloadClosedError, init_worker, mp_context

from .picture import TableScene, render_table

log = logging.getLogger(__name__)

PRELOAD: tuple[str, ...] = ("bot.ui.picture",)
"""What a picture worker imports when it starts (Pillow, the card art, the picture's modules)."""

ANSWER_TIMEOUT = 10.0
"""Seconds a picture is waited for (a picture takes milliseconds): a worker that takes longer is taken
for stuck, killed, and the picture asked again."""

NICE = 10
"""How much a picture worker lowers its own CPU priority (``os.nice``): on a machine with fewer free cores
than busy processes, the event loop's thread (which answers clicks) gets a core before a picture, which
is coalesced and may wait (docs/SCALING.md, "Speed devices kept and removed"). 0 leaves it as is."""

_T = TypeVar("_T")


def _start_worker(preload: Sequence[str], nice: int) -> None:
    """A picture worker's start: `NICE`, then as any worker (`init_worker`)."""
    if nice:
        with contextlib.suppress(OSError):
            os.nice(nice)
    init_worker(preload)


class PictureWorkerDied(RuntimeError):
    """The worker process drawing a picture ended before answering (internal: the picture is asked again)."""


class _Worker:
    """One worker process: a `ProcessPoolExecutor` of one process, and that process's id once known."""

    def __init__(self, context: Any, preload: Sequence[str]) -> None:
        self.pool = ProcessPoolExecutor(1, mp_context=context, initializer=_start_worker,
                                        initargs=(tuple(preload), NICE))
        self.pid: int | None = None
        self.alive = True

    async def draw(self, scene: TableScene) -> bytes:
        """The PNG of ``scene``, drawn by this worker.

        Raises:
            PictureWorkerDied: the worker ended (or was closed) first. Whatever `render_table` raised.
        """
        if self.pid is None:  # its first call: the process starts, and says who it is (to be killed if stuck)
            self.pid = await self._call(os.getpid)
        return await self._call(render_table, scene)

    async def _call(self, fn: Callable[..., _T], *args: Any) -> _T:
        if not self.alive:
            raise PictureWorkerDied("the picture worker had ended")
        try:
            future = self.pool.submit(fn, *args)
        except (BrokenProcessPool, RuntimeError) as exc:  # broken, or shut down
            self.end()
            raise PictureWorkerDied("the picture worker had ended") from exc
        try:
            return await asyncio.wait_for(asyncio.wrap_future(future), ANSWER_TIMEOUT)
        except BrokenProcessPool as exc:  # the process died, or its answer did not read
            self.end()
            raise PictureWorkerDied("the picture worker ended") from exc
        except TimeoutError:
            log.warning("a picture worker did not answer in %.0f s; ending it", ANSWER_TIMEOUT)
            self.end(kill=True)
            raise PictureWorkerDied("the picture worker was stuck") from None
        except asyncio.CancelledError:
            if future.cancelled() and not self.alive:  # closed with the picture still queued
                raise PictureWorkerDied("the picture worker was closed") from None
            raise

    def end(self, kill: bool = False) -> None:
        """Stop using this worker (idempotent, never blocks): killed first when ``kill`` (a stuck process
        would keep the executor's own thread waiting for it); pictures still queued are cancelled."""
        if not self.alive:
            return
        self.alive = False
        if kill and self.pid is not None:
            with contextlib.suppress(ProcessLookupError):
                os.kill(self.pid, signal.SIGKILL)
        self.pool.shutdown(wait=False, cancel_futures=True)


class PictureWorkers:
    """``await workers.render(table_id, scene)`` → the PNG of ``scene``, drawn in a worker process.

    Args:
        workers: worker processes, at least 1 (each started at its first picture).
        context: the `multiprocessing` start method (default `bot.tables.workers.default_context`:
            forkserver on Linux; never fork, the bot's process runs threads).
        preload: modules each worker imports when it starts (default `PRELOAD`).

    Raises:
        ValueError: ``workers`` < 1, or ``context`` is ``"fork"`` or unknown here.

    Attributes:
        pictures: pictures drawn by a worker. restarts: workers replaced after ending. fallbacks:
            pictures drawn in a thread after two workers ended with them. pending: pictures asked and not
            yet drawn (queued, or being drawn): the queue's depth.
    """

    def __init__(self, workers: int, *, context: str | None = None, preload: Sequence[str] = PRELOAD) -> None:
        if workers < 1:
            raise ValueError(f"workers must be at least 1, not {workers}")
        self._context = mp_context(context)
        self._preload = tuple(preload)
        self._workers: list[_Worker | None] = [None] * workers
        self._closed = False
        self.pictures = 0
        self.restarts = 0
        self.fallbacks = 0
        self.pending = 0

    def pids(self) -> list[int]:
        """The process ids of the workers running now (tests; `bench/loopback.py` reads /proc instead)."""
        return [w.pid for w in self._workers if w is not None and w.alive and w.pid is not None]

    async def render(self, table_id: int, scene: TableScene) -> bytes:
        """The PNG of ``scene`` (`render_table`), drawn by table ``table_id``'s worker.

        Raises:
            SceneError, CardError: as `render_table`.
            bot.tables.workers.OffloadClosedError: the workers were closed.
        """
        self.pending += 1
        try:
            return await self._render(table_id, scene)
        finally:
            self.pending -= 1

    async def _render(self, table_id: int, scene: TableScene) -> bytes:
        """`render` without the count of pending pictures."""
        index = table_id % len(self._workers)
        for attempt in (1, 2):
            worker = self._worker(index)
            try:
                png = await worker.draw(scene)
            except PictureWorkerDied:
                if self._closed:
                    raise OffloadClosedError("the picture workers are closed") from None
                log.warning("a picture worker ended with a picture (attempt %d)", attempt)
                continue
            self.pictures += 1
            return png
        self.fallbacks += 1
        log.warning("picture workers ended twice with one picture; drawing it in a thread")
        return await asyncio.to_thread(render_table, scene)

    def _worker(self, index: int) -> _Worker:
        if self._closed:
            raise OffloadClosedError("the picture workers are closed")
        worker = self._workers[index]
        if worker is None or not worker.alive:
            if worker is not None:
                self.restarts += 1
                log.warning("picture worker %d ended; starting another", index)
            worker = self._workers[index] = _Worker(self._context, self._preload)
        return worker

    def close(self) -> None:
        """Stop the workers (idempotent, never blocks): each ends once it has answered what it is drawing;
        a picture still queued, or asked for afterwards, raises `OffloadClosedError`."""
        self._closed = True
        for worker in self._workers:
            if worker is not None:
                worker.end()


__all__ = ["ANSWER_TIMEOUT", "NICE", "PRELOAD", "PictureWorkers"]
