"""Background work of the competition services: tasks they own (alarms, presenter calls), logged when
they fail, cancelled at close."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable
from typing import Any

log = logging.getLogger(__name__)


class Background:
    """Mixin: ``_spawn`` a task, ``_tell`` the presenter (``self.presenter``) in the background, ``close``."""

    presenter: Any

    def _init_background(self) -> None:
        self._tasks: set[asyncio.Task[Any]] = set()

    def _spawn(self, coro: Awaitable[Any]) -> asyncio.Task[Any]:
        task = asyncio.ensure_future(coro)
        self._tasks.add(task)
        task.add_done_callback(self._task_done)
        return task

    def _task_done(self, task: asyncio.Task[Any]) -> None:
        self._tasks.discard(task)
        if not task.cancelled() and task.exception() is not None:
            log.error("%s: background work failed", type(self).__name__, exc_info=task.exception())

    def _tell(self, method: str, *args: Any) -> None:
        """Call the presenter's ``method(*args)`` in the background (a failure is logged)."""
        if self.presenter is None:
            return
        call = getattr(self.presenter, method)

        async def run() -> None:
            try:
                await call(*args)
            except Exception:
                log.exception("%s: %s failed", type(self).__name__, method)

        self._spawn(run())

    async def close(self) -> None:
        """Stop the alarms and pending work."""
        for task in list(self._tasks):
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)
