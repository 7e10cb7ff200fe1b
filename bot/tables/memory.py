"""Ended tables leave memory.

A finished or closed table stays in `TableService.tables` for `KEEP_ENDED` seconds of the service's clock
after its last change: its closing messages, its rematch check, its record and "why?" buttons are served
from memory meanwhile. Then it is dropped, with what this process keeps for it (an ended rematch check,
the re-post cooldown, the presenter's per-table state through the notifier's optional ``forget``);
`TableService.fetch` reads it from the store whenever it is asked for again, as after a restart, and keeps
that copy another `KEEP_ENDED` seconds (so two clicks on its old messages share one object and its locks).

Without this a long-running bot keeps every mesa it ever dealt: a finished game holds its plays and events
(~200 KB in memory, ``python bench/engine.py``), and the scans of the open tables that every click makes
(`TableService.table_of_user`, `TableService.table_in_channel`) walk every table ever dealt.

Mixed into `TableService` (which provides ``tables``, ``clock``, ``scheduler``, ``notifier``, ``_checks``,
``_reposted`` and ``_ai_tasks``).
"""

from __future__ import annotations

import logging
from typing import Any

from .model import Table
from .rematch import OPEN

log = logging.getLogger(__name__)

KEEP_ENDED = 15 * 60.0
"""Seconds an ended (finished or closed) table stays in memory after its last change; longer while a
rematch check on it is open."""


class MemoryMixin:
    """Drop ended tables from memory (see the module docstring)."""

    def _keep(self, table: Table) -> None:
        """After a change of ``table`` was saved: an ended table is forgotten `KEEP_ENDED` seconds from
        now (every later change moves that on); an open one is kept."""
        key = (table.id, "forget")
        if table.is_open:
            self.scheduler.cancel(key)  # type: ignore[attr-defined]
            return
        self.scheduler.arm(key, self.clock.now() + KEEP_ENDED,  # type: ignore[attr-defined]
                           lambda: self._forget(table.id))

    async def _forget(self, table_id: int) -> None:
        """Drop the ended table ``table_id`` from memory, after the notifications queued for it (its notify
        lock). A table that opened again (a reload from another process) is kept, and so is one whose
        rematch check is still open: it is looked at again `KEEP_ENDED` seconds after that check's end."""
        check = self._checks.get(table_id)  # type: ignore[attr-defined]
        if check is not None and check.status == OPEN:
            self.scheduler.arm((table_id, "forget"), check.deadline + KEEP_ENDED,  # type: ignore[attr-defined]
                               lambda: self._forget(table_id))
            return
        table: Table | None = self.tables.get(table_id)  # type: ignore[attr-defined]
        if table is None:  # a rematch asked for after the table had left memory: its check goes now
            self._checks.pop(table_id, None)  # type: ignore[attr-defined]
            return
        if table.is_open:
            return
        async with table.notify_lock:
            if self.tables.get(table_id) is not table or table.is_open:  # type: ignore[attr-defined]
                return
            check = self._checks.get(table_id)  # type: ignore[attr-defined]
            if check is not None and check.status == OPEN:  # asked for while its notifications ran
                return  # that check's changes arm this alarm again (`_rematch_changed`)
            del self.tables[table_id]  # type: ignore[attr-defined]
            self._checks.pop(table_id, None)  # type: ignore[attr-defined]
            self._reposted.pop(table_id, None)  # type: ignore[attr-defined]
            self._ai_tasks.pop(table_id, None)  # type: ignore[attr-defined]
            forget: Any = getattr(self.notifier, "forget", None)  # type: ignore[attr-defined]
            if forget is not None:
                forget(table)
        log.debug("table %d: ended, dropped from memory", table_id)
