"""Ended tables leave memory.

A finished or closed table stays in `TableService.tables` for `KEEP_ENDED` seconds of the service's clock
after its last change: its closing messages, its rematch check, its record and "why?" buttons are served
from memory meanwhile. Then it is dropped, with what this process keeps for it (an ended rematch check,
the re-post cooldown, the presenter's per-table state through the notifier's optional ``forget``);
`TableService.fetch` reads it from the store whenever it is asked for again, as after a restart; a rematch
asked for on it keeps that copy again (`MemoryMixin._adopt`), so that every answer to its ready check
shares one object and its locks.

Without this a long-running bot keeps every mesa it ever dealt: a finished game holds its plays and events
(~200 KB in memory, ``python bench/engine.py``), and the scans of the open tables that every click makes
(`TableService.table_of_user`, `TableService.table_in_channel`) walk every table ever dealt.

Mixed into `TableService` (which provides ``tables``, ``clock``, ``scheduler``, ``notifier``, ``_checks``,
``_reposted`` and ``_ai_tasks``).
"""

from __future__ import annotations

import logging

from .model import Table
from .rematch import ACCEPTED, OPEN

log = logging.getLogger(__name__)

KEEP_ENDED = 15 * 60.0
"""Seconds an ended (finished or closed) table stays in memory after its last change (a rematch check's
answers and end are changes too); never less than while a check on it is open."""


class MemoryMixin:
    """Drop ended tables from memory (see the module docstring)."""

    def _adopt(self, table: Table) -> Table:
        """Keep ``table``, a copy just read from the store, in memory (and arm its alarms: an ended one is
        dropped again `KEEP_ENDED` seconds from now); if another task kept a copy of it meanwhile, that
        one is returned instead, so that every caller holds one object and its locks."""
        kept: Table | None = self.tables.get(table.id)  # type: ignore[attr-defined]
        if kept is not None:
            return kept
        self.tables[table.id] = table  # type: ignore[attr-defined]
        self._arm(table)  # type: ignore[attr-defined]
        return table

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
        rematch check is open: the check's end arms this alarm again (`_rematch_changed`)."""
        table: Table | None = self.tables.get(table_id)  # type: ignore[attr-defined]
        if table is None:
            self._let_checks_go(table_id)
            return
        async with table.notify_lock:
            check = self._checks.get(table_id)  # type: ignore[attr-defined]
            if (self.tables.get(table_id) is not table or table.is_open  # type: ignore[attr-defined]
                    or (check is not None and check.status == OPEN)):
                return
            del self.tables[table_id]  # type: ignore[attr-defined]
            self._let_checks_go(table_id)
            self._reposted.pop(table_id, None)  # type: ignore[attr-defined]
            self._ai_tasks.pop(table_id, None)  # type: ignore[attr-defined]
            self.notifier.forget(table)  # type: ignore[attr-defined]
        log.debug("table %d: ended, dropped from memory", table_id)

    def _let_checks_go(self, table_id: int) -> None:
        """``table_id`` left memory: forget its ended ready check, unless that check dealt a rematch that is
        still being played (a late «Revancha» or «Acepto» on the old messages still answers with it), and
        forget every check that dealt ``table_id`` itself."""
        checks = self._checks  # type: ignore[attr-defined]
        check = checks.get(table_id)
        if check is not None and check.status != OPEN:
            new = self.tables.get(check.new_table) if check.status == ACCEPTED else None  # type: ignore[attr-defined]
            if new is None or not new.is_open:
                del checks[table_id]
        for old_id in [k for k, c in checks.items() if c.status == ACCEPTED and c.new_table == table_id]:
            del checks[old_id]
