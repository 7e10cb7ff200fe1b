"""Time for the table service: an injectable clock and a small alarm scheduler.

Every timing decision of the service (turn deadlines, reminders, the lobby timeout, a computer player's
pause) goes through a `Clock`: ``now()`` in UTC seconds (absolute, so deadlines can be stored and survive a
restart) and an awaitable ``sleep``. Production uses `SystemClock`; service tests use `ManualClock` and
advance it by hand; the SimCord tests use the bot's clock (`bot.app.DiscordClock`), which SimCord's
``env.advance_time`` drives. Nothing here sleeps on the real clock in tests.

`Scheduler` keeps at most one alarm per key: arming a key again replaces its alarm. An alarm re-reads the
clock after each sleep, so a clock moved by more (or less) than asked still fires at the right time; its
callback must re-check the state it acts on (under the table lock), which makes firing late, twice, or
after a restart harmless.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable, Hashable
from typing import Any, Protocol

log = logging.getLogger(__name__)

TURN_TIMER_DEFAULT = 90
"""Seconds per turn when neither the host nor the server chose."""
TURN_TIMER_MIN, TURN_TIMER_MAX = 30, 300
"""The range a host or a server may choose for the turn timer."""
LOBBY_TIMEOUT = 15 * 60
"""A lobby that has not started after this many seconds closes itself."""
RESTART_GRACE = 20.0
"""After a restart, a deadline that passed while the bot was down is moved to now + this many seconds: the
player gets a short, fair chance (and a reminder) instead of an instant expiry. A deadline still ahead
resumes exactly."""
REMIND_AT = 2 / 3
"""The reminder fires when this fraction of the turn time has passed."""


class Clock(Protocol):
    """Where the service reads the time and waits."""

    def now(self) -> float:
        """The current time as UTC seconds since the epoch."""

    async def sleep(self, seconds: float) -> None:
        """Wait ``seconds`` (of this clock's time)."""


class SystemClock:
    """The real clock: ``time.time()`` and `asyncio.sleep`."""

    def now(self) -> float:
        """UTC seconds since the epoch."""
        return time.time()

    async def sleep(self, seconds: float) -> None:
        """`asyncio.sleep`."""
        await asyncio.sleep(max(0.0, seconds))


class ManualClock:
    """A clock that moves only when told (service tests). ``sleep`` waits until `advance` passes its
    wake-up time; ``advance`` then lets the watched background tasks run until each is finished or asleep
    on this clock (`settle`), so a test never waits on the real clock.

    Args:
        start: the initial time (UTC seconds).
    """

    def __init__(self, start: float = 1_800_000_000.0) -> None:
        self._now = start
        self._sleepers: list[tuple[float, asyncio.Future[None]]] = []
        self._sleeping: set[asyncio.Task[Any]] = set()
        self._parked = asyncio.Event()
        self._watched: list[set[asyncio.Task[Any]]] = []
        self._owner: dict[asyncio.Future[None], asyncio.Task[Any]] = {}

    def watch(self, tasks: set[asyncio.Task[Any]]) -> None:
        """Settle these background tasks (a live set, e.g. the service's) after each `advance`."""
        self._watched.append(tasks)

    async def settle(self, rounds: int = 10_000) -> None:
        """Run the watched tasks until each is done or asleep on this clock."""
        for _ in range(rounds):
            self._parked.clear()
            pending = [t for tasks in self._watched for t in tasks if not t.done() and t not in self._sleeping]
            if not pending:
                await asyncio.sleep(0)
                if not [t for tasks in self._watched for t in tasks if not t.done() and t not in self._sleeping]:
                    return
                continue
            parked = asyncio.ensure_future(self._parked.wait())
            try:
                await asyncio.wait([*pending, parked], return_when=asyncio.FIRST_COMPLETED)
            finally:
                parked.cancel()
        raise RuntimeError("background tasks did not settle")

    def now(self) -> float:
        """The manual time."""
        return self._now

    async def sleep(self, seconds: float) -> None:
        """Wait until the clock has been advanced past now + ``seconds``."""
        if seconds <= 0:
            await asyncio.sleep(0)
            return
        future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._sleepers.append((self._now + seconds, future))
        task = asyncio.current_task()
        if task is not None:
            self._sleeping.add(task)
            self._owner[future] = task
        self._parked.set()
        try:
            await future
        finally:
            self._sleeping.discard(task)
            self._owner.pop(future, None)
            self._sleepers = [(w, f) for w, f in self._sleepers if f is not future]

    async def advance(self, seconds: float) -> None:
        """Move the clock forward and let the woken tasks (and what they start) run (`settle`)."""
        await self.settle()
        self._now += seconds
        for when, future in list(self._sleepers):
            if when <= self._now and not future.done():
                future.set_result(None)
                self._sleeping.discard(self._owner.pop(future, None))
        await self.settle()


class Scheduler:
    """Named alarms on a `Clock`: ``arm(key, when, callback)`` runs ``await callback()`` once the clock
    reaches ``when`` (UTC seconds), unless the key is re-armed or cancelled first.

    Args:
        clock: the clock.
        spawn: how to start a background task (the service's, so that ``close`` cancels it).
    """

    def __init__(self, clock: Clock, spawn: Callable[[Awaitable[Any]], asyncio.Task[Any]]) -> None:
        self.clock = clock
        self._spawn = spawn
        self._alarms: dict[Hashable, tuple[float, asyncio.Task[Any]]] = {}

    def arm(self, key: Hashable, when: float, callback: Callable[[], Awaitable[Any]]) -> None:
        """Set the alarm ``key`` to ``when`` with ``callback``, replacing the one set before."""
        self.cancel(key)
        task = self._spawn(self._run(key, when, callback))
        self._alarms[key] = (when, task)

    def when(self, key: Hashable) -> float | None:
        """The instant of a pending alarm, or None."""
        current = self._alarms.get(key)
        return current[0] if current is not None and not current[1].done() else None

    def cancel(self, key: Hashable) -> None:
        """Drop the alarm ``key`` (if any)."""
        current = self._alarms.pop(key, None)
        if current is not None and not current[1].done() and current[1] is not asyncio.current_task():
            current[1].cancel()

    def cancel_where(self, predicate: Callable[[Hashable], bool]) -> None:
        """Drop every alarm whose key matches (e.g. all alarms of one table)."""
        for key in [k for k in self._alarms if predicate(k)]:
            self.cancel(key)

    async def _run(self, key: Hashable, when: float, callback: Callable[[], Awaitable[Any]]) -> None:
        while True:
            left = when - self.clock.now()
            if left <= 0:
                break
            await self.clock.sleep(left)
        current = self._alarms.get(key)
        if current is not None and current[1] is asyncio.current_task():
            del self._alarms[key]
        await callback()


__all__ = [
    "LOBBY_TIMEOUT", "REMIND_AT", "RESTART_GRACE", "TURN_TIMER_DEFAULT", "TURN_TIMER_MAX", "TURN_TIMER_MIN",
    "Clock", "ManualClock", "Scheduler", "SystemClock",
]
