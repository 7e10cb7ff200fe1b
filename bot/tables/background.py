"""The table service's background work: every task it starts (notifications, alarms, computer moves) is
kept here, so that `Background.close` stops them all before the store closes and a failure is logged."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable
from typing import Any

from .errors import TableBusyError

log = logging.getLogger(__name__)


class Background:
    """The live set of background tasks (``tasks``; tests watch it with `ManualClock.watch`)."""

    def __init__(self) -> None:
        self.tasks: set[asyncio.Task[Any]] = set()
        self.closing = False
        """True once `close` began: computer players stop moving."""

    def spawn(self, coro: Awaitable[Any]) -> asyncio.Task[Any]:
        """Run ``coro`` in the background; it is cancelled by `close`, and an error it raises is logged."""
        task = asyncio.ensure_future(coro)
        self.tasks.add(task)
        task.add_done_callback(self._done)
        return task

    def _done(self, task: asyncio.Task[Any]) -> None:
        self.tasks.discard(task)
        if task.cancelled() or task.exception() is None:
            return
        if isinstance(task.exception(), TableBusyError):  # an alarm whose table another process held: that
            log.warning("background work skipped: its table was busy in another process")  # process re-arms it
            return
        log.error("background work failed", exc_info=task.exception())

    async def close(self) -> None:
        """Cancel every pending task and wait for them to end."""
        self.closing = True
        tasks = [t for t in self.tasks if not t.done()]
        for task in tasks:
            task.cancel()
        if tasks:
            await asyncio.gather(*tasks, return_exceptions=True)
