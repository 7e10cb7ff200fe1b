"""Discord's budgets: per channel, about 5 message writes (send, edit, delete) per 5 seconds in each
channel, the public one and every DM (`WriteBudget`); for the whole bot, about 50 bot-token requests per
second (`RequestRate`, which counts them and says when optional work should wait). The presenter asks `WriteBudget.acquire` before every bot-token
write; a write that would exceed the budget waits for its slot instead of drawing a 429. Callers render
what they send *after* the slot is granted, so a waiting edit always carries the latest state
(coalescing). Interaction answers are not channel writes and never wait here.

A slot is held from its grant until the write's request has *finished*, and for a window after that
(`WriteBudget.install` sees each message write's request start and end): Discord counts a write when it
arrives, anywhere between the grant (the table picture may still be drawn then) and the answer, so five
writes in flight fill the window however long they take.
"""

from __future__ import annotations

import asyncio
import time
from collections import deque
from collections.abc import Awaitable, Callable
from typing import Any, Protocol

import discord

WRITES = 5
"""Writes allowed per window in one channel."""
WINDOW = 5.25
"""The window, in seconds: Discord's 5 s, with a margin for the clocks of both sides."""


MESSAGE_WRITES = frozenset({("POST", "/channels/{channel_id}/messages"),
                            ("PATCH", "/channels/{channel_id}/messages/{message_id}"),
                            ("DELETE", "/channels/{channel_id}/messages/{message_id}")})
"""The bot-token routes (discord.py ``Route`` method and path) that are channel message writes."""

_GRANTED, _FLYING, _DONE = 0, 1, 2


class _Slot:
    """One write in a channel's window: granted (``at`` is the grant), in flight (its request started and
    has not answered: it fills the window, whatever ``at``), or done (``at`` is when it answered)."""

    __slots__ = ("at", "state")

    def __init__(self, at: float, state: int) -> None:
        self.at = at
        self.state = state

    def holds(self, now: float, window: float) -> bool:
        return self.state == _FLYING or self.at > now - window


PRUNE_EVERY = 1024
"""Writes between two passes that drop the channels with no write in the window (`WriteBudget._prune`)."""


class WriteBudget:
    """A sliding-window limiter per channel. A channel with no write in the window and no writer waiting
    is forgotten now and then (every `PRUNE_EVERY` writes): a long-running bot writes to the DM channel of
    every person it ever dealt to, and keeps only the channels written to lately.

    Each slot counts from its grant; once `install` is called, a message write's request takes the
    channel's oldest granted slot (or a new one, for a write that did not ask) and holds it while in flight,
    then counts from its answer. A granted slot whose request never comes (the caller had nothing left to
    write) counts from its grant.

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
        self._log: dict[int, deque[_Slot]] = {}
        self._locks: dict[int, asyncio.Lock] = {}
        self._landed: dict[int, asyncio.Event] = {}
        self._writes = 0

    def _now(self) -> float:
        return self._clock() if self._clock else time.monotonic()

    def wait_time(self, channel_id: int) -> float:
        """Seconds until a write in ``channel_id`` would be allowed (0 when it would be now; infinity when
        the window is full of writes in flight: the first to answer frees it)."""
        if not self.enabled:
            return 0.0
        log = self._log.get(channel_id)
        now = self._now()
        if log is None:
            return 0.0
        while log and not log[0].holds(now, self.window):
            log.popleft()
        holding = [slot for slot in log if slot.holds(now, self.window)]
        if len(holding) < self.writes:
            return 0.0
        ends = [slot.at + self.window - now for slot in holding if slot.state != _FLYING]
        return min(ends) if len(holding) - len(ends) < self.writes else float("inf")

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
                if wait == float("inf"):
                    await self._landed.setdefault(channel_id, asyncio.Event()).wait()
                else:
                    await self._sleep(wait)
            self._log.setdefault(channel_id, deque()).append(_Slot(self._now(), _GRANTED))
        self._writes += 1
        if self._writes % PRUNE_EVERY == 0:
            self._prune()

    def _prune(self) -> None:
        """Forget every channel whose last write left the window and whose lock nobody holds: its next
        write starts a fresh history, which is what the window would show for it anyway."""
        now = self._now()
        for channel_id in [c for c, log in self._log.items() if not any(s.holds(now, self.window) for s in log)]:
            lock = self._locks.get(channel_id)
            if lock is None or not lock.locked():
                del self._log[channel_id]
                self._locks.pop(channel_id, None)

    def channels(self) -> int:
        """How many channels this budget holds a history for."""
        return len(self._log)

    def _takeoff(self, channel_id: int) -> _Slot:
        """A message write's request in ``channel_id`` starts: the oldest granted slot still in the window
        is now in flight (a write that did not ask, or asked a window ago, takes a new slot)."""
        log = self._log.setdefault(channel_id, deque())
        now = self._now()
        slot = next((s for s in log if s.state == _GRANTED and s.holds(now, self.window)), None)
        if slot is None:
            slot = _Slot(self._now(), _FLYING)
            log.append(slot)
        slot.state = _FLYING
        return slot

    def _landing(self, channel_id: int, slot: _Slot) -> None:
        """That request answered (or failed): the slot counts from now; a writer waiting for it goes on."""
        slot.at, slot.state = self._now(), _DONE
        landed = self._landed.pop(channel_id, None)
        if landed is not None:
            landed.set()

    def install(self, http: Any) -> None:
        """Follow every message write made through ``http`` (a ``discord.http.HTTPClient``) from now on:
        each holds a slot of its channel from its start until its answer (`MESSAGE_WRITES`)."""
        original = http.request

        async def request(route: Any, **kwargs: Any) -> Any:
            channel_id = getattr(route, "channel_id", None)
            if not self.enabled or channel_id is None or (route.method, route.path) not in MESSAGE_WRITES:
                return await original(route, **kwargs)
            slot = self._takeoff(int(channel_id))
            try:
                return await original(route, **kwargs)
            finally:
                self._landing(int(channel_id), slot)

        http.request = request


SHED_AT = 40.0
"""Bot-token requests per second from which optional work (a public table edit) waits: Discord allows
about 50 for the whole bot; interaction callbacks and interaction-token writes do not count."""
MAX_SHED = 6.0
"""Seconds an optional write waits at most for the rate to fall (the public table then lags that much)."""


class RequestObserver(Protocol):
    """Who counts the bot-token requests by route (`bot.ops.metrics.BotMetrics`), told by `RequestRate`."""

    def request_done(self, method: str, route: str, limited: bool) -> None:
        """A request ended (answered, or failed): ``method`` and ``route`` are discord.py's ``Route`` method
        and path template (``"PATCH"``, ``"/channels/{channel_id}/messages/{message_id}"``); ``limited``:
        it failed with Discord's 429 (the retries discord.py makes itself are in its own log)."""


class RequestRate:
    """The bot's own bot-token REST request rate, over a sliding window.

    `install` wraps a discord.py ``HTTPClient``'s ``request`` (every bot-token call passes there;
    interaction callbacks and webhook/interaction-token writes go through discord.py's webhook adapter
    and are not counted, as Discord does not count them against the global limit).

    Args:
        limit: requests per second from which `busy` is True (default `SHED_AT`).
        window: seconds the rate is averaged over.
        clock: monotonic seconds (default `time.monotonic`; SimCord drives it in tests).
        observer: told of every request once it ended (`RequestObserver`), or None.
    """

    def __init__(self, limit: float = SHED_AT, window: float = 1.0, *,
                 clock: Callable[[], float] | None = None, observer: RequestObserver | None = None) -> None:
        if limit <= 0 or window <= 0:
            raise ValueError("a request rate needs a positive limit and window")
        self.limit = limit
        self.window = window
        self._clock = clock
        self._times: deque[float] = deque()
        self.total = 0
        """Bot-token requests counted since the start."""
        self.shed = 0
        """Optional writes that waited because the rate was at the limit."""
        self.observer = observer

    def _now(self) -> float:
        return self._clock() if self._clock else time.monotonic()

    def record(self) -> None:
        """Count one bot-token request, now (requests older than the window are dropped here too, so a
        bot that never asks `rate` keeps no more than a window of them)."""
        now = self._now()
        times = self._times
        while times and times[0] <= now - self.window:
            times.popleft()
        times.append(now)
        self.total += 1

    def rate(self) -> float:
        """Requests per second over the last ``window`` seconds."""
        now = self._now()
        times = self._times
        while times and times[0] <= now - self.window:
            times.popleft()
        return len(times) / self.window

    def busy(self) -> bool:
        """True when the rate has reached ``limit``: optional work should wait."""
        return self.rate() >= self.limit

    def wait_time(self) -> float:
        """Seconds until the rate falls below ``limit`` if nothing more is sent (0 when it is below)."""
        if not self.busy():
            return 0.0
        times = self._times
        allowed = max(0, int(self.limit * self.window) - 1)  # requests that may stay in the window
        return max(0.0, times[len(times) - 1 - allowed] + self.window - self._now())

    def install(self, http: Any) -> None:
        """Count every request made through ``http`` (a ``discord.http.HTTPClient``) from now on."""
        original = http.request

        async def request(route: Any, **kwargs: Any) -> Any:
            self.record()
            observer = self.observer
            if observer is None:
                return await original(route, **kwargs)
            limited = False
            try:
                return await original(route, **kwargs)
            except Exception as exc:
                limited = isinstance(exc, discord.RateLimited) or getattr(exc, "status", None) == 429
                raise
            finally:
                observer.request_done(route.method, route.path, limited)

        http.request = request
