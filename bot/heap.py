"""The garbage collector of a long-running bot process (the acknowledgement p99 over hours).

CPython frees most objects by reference counting. Its cyclic collector also walks, from time to time,
every container object the process holds. The oldest generation's collection is a pause of the whole event
loop that grows with the heap. On the bench machine a bot at 50 fast tables holds about 90,000 tracked
objects a minute in (two thirds of them the start-up's: modules, classes, functions, the message catalogs,
discord.py's command tree). That pause was 80–180 ms, two or three times a minute. Every click that arrived
during one was answered that much later, and the p99 rose with it (`bench/soak.py`).

`settle` is called once, when start-up is over (`python -m bot`, after ``login``, which runs
``setup_hook``, and before the gateway connects; the loopback bench at the same point):

- one full collection, then ``gc.freeze()``: everything alive then (the start-up's objects) moves to the
  permanent generation, which no later collection walks. Those objects are still freed by reference
  counting if they are ever dropped; only a reference cycle among them would stay (start-up objects
  live as long as the process);
- the youngest generation's threshold goes from 700 to `YOUNG_THRESHOLD` allocations. The bot's cyclic
  garbage (an ``Interaction`` and its ``InteractionResponse`` refer to each other, as do asyncio tasks and
  the exceptions they hold) is then freed by the young collections before it is promoted. Fewer objects
  reach the oldest generation, whose collection becomes rare: once in 10 minutes instead of two or three
  times a minute at 50 fast tables. A middle-generation collection then walks up to ten times as many
  objects: up to ~60 ms there, against 80–180 ms for each oldest-generation collection before.

Not called by the tests, which build many bots in one process: a frozen heap would keep every one of them.
"""

from __future__ import annotations

import gc
import logging

log = logging.getLogger(__name__)

YOUNG_THRESHOLD = 10_000
"""Net allocations of tracked objects between two collections of the youngest generation (CPython's
default is 700)."""
OLDER_THRESHOLDS = (10, 10)
"""Young collections per middle-generation collection, and middle per oldest (CPython's defaults). The
oldest also waits until a quarter of its objects are new (CPython's own rule)."""


def settle() -> int:
    """Collect once, freeze what start-up left alive, and raise the youngest generation's threshold (see
    the module docstring). Returns the number of objects frozen. Call once per process, after start-up."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(YOUNG_THRESHOLD, *OLDER_THRESHOLDS)
    frozen = gc.get_freeze_count()
    log.info("garbage collector: %d start-up objects frozen, thresholds %s", frozen, gc.get_threshold())
    return frozen


__all__ = ["OLDER_THRESHOLDS", "YOUNG_THRESHOLD", "settle"]
