"""The periodic INFO line of what the bot is doing: the live tables, the lobbies and the plays since the
line before, every `PULSE_EVERY` seconds of the table service's clock (so SimCord's virtual time drives
it in tests), as ``live: 3 tables in play, 1 lobby, 412 plays in the last 300 s``. Nothing about any
table's cards or hands."""

from __future__ import annotations

import logging
from collections.abc import Callable

from bot.tables.timers import Clock, Scheduler

log = logging.getLogger(__name__)

PULSE_EVERY = 300.0
"""Seconds between two lines."""

KEY = ("ops", "pulse")
"""The pulse's alarm in the service's `Scheduler` (no table's alarm key starts with a string)."""


class Pulse:
    """Logs `PULSE_EVERY` seconds a line of the live tables (see the module docstring).

    Args:
        clock, scheduler: the table service's clock and scheduler (the alarm is cancelled with the
            service's background work when it closes).
        live: ``() -> (tables in play, open lobbies)``. plays: ``() -> plays saved since the start``.
        every: seconds between two lines.
    """

    def __init__(self, clock: Clock, scheduler: Scheduler, live: Callable[[], tuple[int, int]],
                 plays: Callable[[], int], every: float = PULSE_EVERY) -> None:
        self._clock = clock
        self._scheduler = scheduler
        self._live = live
        self._plays = plays
        self.every = every
        self._last = 0

    def start(self) -> None:
        """Arm the first line, `every` seconds from now."""
        self._last = self._plays()
        self._scheduler.arm(KEY, self._clock.now() + self.every, self._tick)

    def stop(self) -> None:
        """Cancel the next line."""
        self._scheduler.cancel(KEY)

    async def _tick(self) -> None:
        playing, lobbies = self._live()
        plays = self._plays()
        log.info("live: %d tables in play, %d %s, %d plays in the last %.0f s", playing, lobbies,
                 "lobby" if lobbies == 1 else "lobbies", plays - self._last, self.every)
        self._last = plays
        self._scheduler.arm(KEY, self._clock.now() + self.every, self._tick)
