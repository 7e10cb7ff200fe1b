"""Discord's write budget per channel: about 5 message writes (send, edit, delete) per 5 seconds in each
channel, the public one and every DM. The presenter asks `WriteBudget.acquire` before every bot-token
write; a write that would exceed the budget waits for its slot instead of drawing a 429. Callers render
what they send *after* the slot is granted, so a waiting edit always carries the latest state
(coalescing). Interaction answers are not channel writes and never wait here.
"""

from __future__ import annotations

import asyncio
import time
from collections import deque
from collections.abc import Awaitable, Callable
from typing import Any

WRITES = 5
"""Writes allowed per window in one channel."""
WINDOW = 5.25
"""The window, in seconds: Discord's 5 s, with a margin for the clocks of both sides."""


class WriteBudget:
    """A sliding-window limiter per channel.

    Args:
        writes: writes allowed per window in a channel; window: its length in seconds.
        clock: monotonic seconds (default `time.monotonic`, which SimCord drives in tests).
        sleep: how to wait (default `asyncio.sleep`).
        enabled: False lets every write through at once (unit tests of other behaviour).
    """

    def __init__(self, writes: int = WRITES, window: float = WINDOW, *, clock: Callable[[], float] | None = None,
                 sleep: Callable[[float], Awaitable[Any]] | None = None, enabled: bool = True) -> None:
        if writes < 1 or window <= 0:
            raise ValueError("a budget needs at least one write per positive window")
        self.writes = writes
        self.window = window
        self.enabled = enabled
        self._clock = clock
        self._sleep = sleep or asyncio.sleep
        self._log: dict[int, deque[float]] = {}
        self._locks: dict[int, asyncio.Lock] = {}

    def _now(self) -> float:
        return self._clock() if self._clock else time.monotonic()

    def wait_time(self, channel_id: int) -> float:
        """Seconds until a write in ``channel_id`` would be allowed (0 when it would be now)."""
        if not self.enabled:
            return 0.0
        log = self._log.get(channel_id)
        now = self._now()
        if log is None:
            return 0.0
        while log and log[0] <= now - self.window:
            log.popleft()
        return 0.0 if len(log) < self.writes else log[0] + self.window - now

    async def acquire(self, channel_id: int) -> None:
        """Wait until a write in ``channel_id`` fits the budget, then count it. Waiters of one channel are
        served in order."""
        if not self.enabled:
            return
        lock = self._locks.setdefault(channel_id, asyncio.Lock())
        async with lock:
            while True:
                wait = self.wait_time(channel_id)
                if wait <= 0:
                    break
                await self._sleep(wait)
            self._log.setdefault(channel_id, deque()).append(self._now())

    def forget(self, channel_id: int) -> None:
        """Drop a channel's history (its table ended)."""
        self._log.pop(channel_id, None)
        lock = self._locks.get(channel_id)
        if lock is not None and not lock.locked():
            self._locks.pop(channel_id, None)
