"""The live tables of a process, and how ended ones leave memory.

`TableRegistry` holds every table this process serves (``tables``, by id). A finished or closed table
stays for `KEEP_ENDED` seconds of the service's clock after its last change: its closing messages, its
rematch check, its record and "why?" buttons are served from memory meanwhile. Then it is dropped, with
what the other parts keep for it (an ended rematch check, the re-post cooldown, the computer player's task:
the ``dropped`` callback) and the presenter's per-table state (`bot.tables.ports.Notifier.forget`);
`bot.tables.TableService.fetch` reads it from the store whenever it is asked for again, as after a restart;
a rematch asked for on it keeps that copy again (`TableRegistry.adopt`), so that every answer to its ready
check shares one object and its locks.

Without this a long-running bot keeps every mesa it ever dealt: a finished game holds its plays and events
(~200 KB in memory, ``python bench/engine.py``), and the scans of the open tables that every click makes
(`TableRegistry.of_user`, `TableRegistry.in_channel`) walk every table ever dealt.
"""

from __future__ import annotations

import logging
from collections.abc import Callable

from .model import Table
from .notices import Notices
from .timers import Clock, Scheduler

log = logging.getLogger(__name__)

KEEP_ENDED = 15 * 60.0
"""Seconds an ended (finished or closed) table stays in memory after its last change (a rematch check's
answers and end are changes too); never less than while a check on it is open."""


class TableRegistry:
    """The tables in memory, and their eviction once ended.

    Args:
        scheduler, clock: arm the alarm that drops an ended table.
        notices: its presenter is told to forget a dropped table.
        pinned: ``pinned(table_id)`` is True while something still needs the ended table (an open rematch
            check); it is then kept, and the pin's end calls `keep` again.
        dropped: ``dropped(table_id)`` after a table left memory (or its alarm found it gone already).
    """

    def __init__(self, scheduler: Scheduler, clock: Clock, notices: Notices, *,
                 pinned: Callable[[int], bool], dropped: Callable[[int], None]) -> None:
        self.tables: dict[int, Table] = {}
        self._scheduler = scheduler
        self._clock = clock
        self._notices = notices
        self._pinned = pinned
        self._dropped = dropped

    def get(self, table_id: int) -> Table | None:
        """The table in memory, or None."""
        return self.tables.get(table_id)

    def add(self, table: Table) -> None:
        """Keep a table just opened or restored."""
        self.tables[table.id] = table

    def adopt(self, table: Table) -> Table:
        """Keep ``table``, a copy just read from the store, and return it; if another task kept a copy of it
        meanwhile, that one is returned instead, so that every caller holds one object and its locks. (The
        caller arms the alarms of a table it kept.)"""
        kept = self.tables.get(table.id)
        if kept is not None:
            return kept
        self.tables[table.id] = table
        return table

    def in_channel(self, channel_id: int) -> Table | None:
        """The open table of a channel, or None."""
        for table in self.tables.values():
            if table.channel_id == channel_id and table.is_open:
                return table
        return None

    def of_user(self, user_id: int) -> Table | None:
        """The open table where a user sits, or None (a user sits at one table at a time)."""
        for table in self.tables.values():
            if table.is_open and table.seat_of(user_id) is not None:
                return table
        return None

    def open_in_guild(self, guild_id: int) -> list[Table]:
        """The open tables of a server."""
        return [t for t in self.tables.values() if t.guild_id == guild_id and t.is_open]

    def keep(self, table: Table) -> None:
        """After a change of ``table`` was saved: an ended table is forgotten `KEEP_ENDED` seconds from
        now (every later change moves that on); an open one is kept."""
        key = (table.id, "forget")
        if table.is_open:
            self._scheduler.cancel(key)
            return
        table_id = table.id
        self._scheduler.arm(key, self._clock.now() + KEEP_ENDED, lambda: self.forget(table_id))

    async def forget(self, table_id: int) -> None:
        """Drop the ended table ``table_id`` from memory, after the notifications queued for it (its notify
        lock). A table that opened again (a reload from another process) is kept, and so is a pinned one."""
        table = self.tables.get(table_id)
        if table is None:
            self._dropped(table_id)
            return
        async with table.notify_lock:
            if self.tables.get(table_id) is not table or table.is_open or self._pinned(table_id):
                return
            del self.tables[table_id]
            self._dropped(table_id)
            self._notices.notifier.forget(table)
        log.debug("table %d: ended, dropped from memory", table_id)
