"""Table pictures drawn in worker processes (issue 13), so that drawing them never holds the event loop.

A table picture (`bot.ui.picture.render_table`) costs one to two milliseconds of Pillow and Python a
play: in the bot's process it would be the largest part of a play's work on the event loop, and delay
other tables' answers while it runs. `PictureWorkers` draws them in worker processes instead: the scene
(`bot.ui.scene.table_scene`, public state only, about a kilobyte pickled) goes to a worker and the PNG
(about 30 KB) comes back.

- **One pipe per worker, read by the event loop.** A request is one write to the worker's pipe and the
  answer is read when the pipe is readable (``loop.add_reader``): no thread of the bot's process takes
  part (a `concurrent.futures.ProcessPoolExecutor` hands each call through two threads and three queues,
  several times this cost). At most `IN_FLIGHT` requests wait in a worker's pipe, so a write never fills
  it and never blocks the loop.
- **Each table always goes to the same worker** (table id modulo the workers): that worker's caches
  (tiles, compressed bands, laid-out parts) hold the table's last picture, and the next play's picture
  redraws only what changed, as in one process.
- **A worker that dies** (killed, out of memory), or answers nothing for `ANSWER_TIMEOUT` seconds (then it
  is ended), fails the pictures it held; each is asked once more of a
  new worker, then drawn in a thread of the bot's process, so a table message never loses its picture for
  that. `restarts` and `fallbacks` count those events.

This module imports neither discord nor the store; a worker imports Pillow and `bot.ui.picture` only.
"""

from __future__ import annotations

import asyncio
import itertools
import logging
import os
import pickle
from collections.abc import Sequence
from typing import Any

from bot.tables.workers import OffloadClosedError, init_worker, mp_context

from .picture import TableScene, render_table

log = logging.getLogger(__name__)

PRELOAD: tuple[str, ...] = ("bot.ui.picture",)
"""What a picture worker imports when it starts (Pillow, the card art, the picture's modules)."""

IN_FLIGHT = 16
"""Requests a worker's pipe holds at most (about 1 KB each: far below a pipe's 64 KB)."""

ANSWER_TIMEOUT = 10.0
"""Seconds a picture is waited for (a picture takes milliseconds): a worker that takes longer is taken
for stuck, ended, and the picture asked again."""


class PictureWorkerDied(RuntimeError):
    """The worker process drawing a picture ended before answering (internal: the picture is asked again)."""


def _serve(conn: Any, preload: Sequence[str]) -> None:
    """A worker: read ``(number, scene)`` requests from ``conn``, answer ``(number, True, png)`` or
    ``(number, False, exception)``, until the bot's end of the pipe closes."""
    init_worker(preload)
    while True:
        try:
            number, scene = pickle.loads(conn.recv_bytes())
        except (EOFError, OSError):
            return
        try:
            answer: tuple[int, bool, Any] = (number, True, render_table(scene))
        except Exception as exc:  # noqa: BLE001 - reported to the caller, in the bot's process
            answer = (number, False, exc)
        try:
            try:
                data = pickle.dumps(answer, pickle.HIGHEST_PROTOCOL)
            except Exception:  # noqa: BLE001 - an exception that does not pickle
                data = pickle.dumps((number, False, RuntimeError(repr(answer[2]))), pickle.HIGHEST_PROTOCOL)
            conn.send_bytes(data)
        except OSError:
            return


class _Worker:
    """One worker process and the requests it holds."""

    def __init__(self, context: Any, preload: Sequence[str]) -> None:
        self.conn, child = context.Pipe()
        self.process = context.Process(target=_serve, args=(child, tuple(preload)), name="cuarenta-pictures",
                                       daemon=True)
        self.process.start()
        child.close()
        self.loop = asyncio.get_running_loop()
        self.pending: dict[int, asyncio.Future[bytes]] = {}
        self.slots = asyncio.Semaphore(IN_FLIGHT)
        self.alive = True
        self.loop.add_reader(self.conn.fileno(), self._readable)
        # uvloop makes the descriptor non-blocking when it starts watching it; this end reads and writes
        # whole messages (an answer is read once it starts to arrive, a request never fills the pipe:
        # `IN_FLIGHT`), so it stays blocking, as `multiprocessing.Connection` expects
        os.set_blocking(self.conn.fileno(), True)

    async def draw(self, number: int, scene: TableScene) -> bytes:
        """Send one request and wait for its answer.

        Raises:
            PictureWorkerDied: the worker ended first. Whatever `render_table` raised in the worker.
        """
        async with self.slots:
            if not self.alive:
                raise PictureWorkerDied("the picture worker had ended")
            future: asyncio.Future[bytes] = self.loop.create_future()
            self.pending[number] = future
            try:
                self.conn.send_bytes(pickle.dumps((number, scene), pickle.HIGHEST_PROTOCOL))
            except OSError as exc:  # the worker is gone
                self.pending.pop(number, None)
                self._ended()
                raise PictureWorkerDied("the picture worker had ended") from exc
            try:
                return await asyncio.wait_for(future, ANSWER_TIMEOUT)
            except TimeoutError:
                log.warning("a picture worker did not answer in %.0f s; ending it", ANSWER_TIMEOUT)
                self.process.kill()
                self._ended()
                raise PictureWorkerDied("the picture worker was stuck") from None
            finally:
                self.pending.pop(number, None)

    def _readable(self) -> None:
        try:
            number, ok, value = pickle.loads(self.conn.recv_bytes())
        except (EOFError, OSError):
            self._ended()
            return
        except Exception:  # an answer that does not read: this worker's pipe can no longer be trusted
            log.exception("a picture worker's answer could not be read; ending it")
            self.process.kill()
            self._ended()
            return
        future = self.pending.pop(number, None)
        if future is None or future.done():  # its caller gave up (cancelled)
            return
        if ok:
            future.set_result(value)
        else:
            future.set_exception(value)

    def _ended(self, error: BaseException | None = None) -> None:
        """The worker ended (or is closed): stop reading, fail what it held."""
        if self.alive:
            self.alive = False
            self.loop.remove_reader(self.conn.fileno())
            self.conn.close()
        for future in self.pending.values():
            if not future.done():
                future.set_exception(error or PictureWorkerDied("the picture worker ended"))
        self.pending.clear()

    def close(self) -> None:
        """Close the pipe: the worker ends once it has answered what it is drawing."""
        self._ended(OffloadClosedError("the picture workers are closed"))


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
            pictures drawn in a thread after two workers ended with them.
    """

    def __init__(self, workers: int, *, context: str | None = None, preload: Sequence[str] = PRELOAD) -> None:
        if workers < 1:
            raise ValueError(f"workers must be at least 1, not {workers}")
        self._context = mp_context(context)
        self._preload = tuple(preload)
        self._workers: list[_Worker | None] = [None] * workers
        self._numbers = itertools.count()
        self._closed = False
        self.pictures = 0
        self.restarts = 0
        self.fallbacks = 0

    def pids(self) -> list[int]:
        """The process ids of the workers running now (tests; `bench/loopback.py` reads /proc instead)."""
        return [w.process.pid for w in self._workers if w is not None and w.alive and w.process.pid]

    async def render(self, table_id: int, scene: TableScene) -> bytes:
        """The PNG of ``scene`` (`render_table`), drawn by table ``table_id``'s worker.

        Raises:
            SceneError, CardError: as `render_table`.
            bot.tables.workers.OffloadClosedError: the workers were closed.
        """
        index = table_id % len(self._workers)
        for attempt in (1, 2):
            worker = self._worker(index)
            try:
                png = await worker.draw(next(self._numbers), scene)
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
        a picture still waited for, or asked for afterwards, raises `OffloadClosedError`."""
        self._closed = True
        for worker in self._workers:
            if worker is not None:
                worker.close()


__all__ = ["IN_FLIGHT", "PRELOAD", "PictureWorkers"]
