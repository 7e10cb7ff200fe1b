"""How the table service tells its presenter (`bot.tables.ports.Notifier`) what changed: in order per
table (under the table's ``notify_lock``), after the change is persisted, outside the table lock, and in the
background, so that one failing message never holds up the next (the game goes on)."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Sequence
from typing import Any

from bot.engine import Event

from .background import Background
from .errors import TableBusyError, TableError, WrongStateError
from .model import Table, link
from .ports import Notifier, NullNotifier
from .timers import Clock

log = logging.getLogger(__name__)

REPOST_COOLDOWN = 30.0
"""Seconds (of the service's clock) between two re-posts of one table asked with ``/cuarenta table``."""


class Notices:
    """The presenter and the ordered calls to it.

    Args:
        background: runs the notifications. clock: times the re-posts' cooldown. then: called with the table after each `after` notified
            (the service lets computer players move there).
    """

    def __init__(self, background: Background, clock: Clock, notifier: Notifier | None,
                 then: Callable[[Table], None]) -> None:
        self.notifier: Notifier = notifier or NullNotifier()
        self.reposted: dict[int, float] = {}
        """When each table was last re-posted (`request_repost`), by table id."""
        self._clock = clock
        self._background = background
        self._then = then

    def after(self, table: Table, *, lobby: bool = False, events: Sequence[Event] | None = None,
              closed: bool = False) -> None:
        """Notify (in order, per table) and then let computer players move, in the background; called
        after the change was saved and its lock released. With no flag it tells the presenter nothing: a
        change of state only (a pause, a seat gone away) is shown by a `note`, whose line the presenter
        posts before it redraws the table message and the hands."""
        self._background.spawn(self._after_run(table, lobby=lobby, events=events, closed=closed))

    async def _after_run(self, table: Table, *, lobby: bool, events: Sequence[Event] | None,
                         closed: bool) -> None:
        await self.notify(table, lobby=lobby, events=events, closed=closed)
        self._then(table)

    async def notify(self, table: Table, *, lobby: bool = False, events: Sequence[Event] | None = None,
                     closed: bool = False) -> None:
        """Tell the presenter, in order; one failing message never holds up the next (the game goes on)."""
        notifier = self.notifier
        calls: list[Callable[[], Awaitable[None]]] = []
        if lobby:
            calls.append(lambda: notifier.lobby_changed(table))
        if events:
            calls.append(lambda: notifier.game_changed(table, events))
        if closed:
            calls.append(lambda: notifier.table_closed(table))
        async with table.notify_lock:
            for call in calls:
                try:
                    await call()
                except asyncio.CancelledError:
                    raise
                except Exception:
                    log.exception("table %d: notifying failed", table.id)

    def note(self, table: Table, kind: str, **params: Any) -> None:
        """Tell the presenter about a table event in words (`Notifier.table_note`: reminder, timeout, away,
        back, left …), in order with the other notifications."""
        notifier = self.notifier
        self.tell(table, "table_note", lambda: notifier.table_note(table, kind, **params))

    def tell(self, table: Table, what: str, call: Callable[[], Awaitable[None]]) -> None:
        """Run the presenter's ``call()`` in the background, in order with the table's other notifications
        (under its notify lock); a failure is logged (as ``what``)."""

        async def run() -> None:
            async with table.notify_lock:
                try:
                    await call()
                except asyncio.CancelledError:
                    raise
                except Exception:
                    log.exception("table %d: %s failed", table.id, what)

        self._background.spawn(run())

    async def resumed(self, table: Table) -> None:
        """After a restart: the presenter refreshes the table's messages (a failure is logged)."""
        async with table.notify_lock:
            try:
                await self.notifier.resumed(table)
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("table %d: refreshing after a restart failed", table.id)

    def request_repost(self, table: Table, first: Callable[[Table], Awaitable[None]] | None = None) -> None:
        """Re-post the table message at the bottom of the channel (after pending notifications), at most
        once per `REPOST_COOLDOWN` seconds per table, whoever asks; ``first`` runs before (the service
        catches a table that another process changed up, so the latest state is posted).

        Raises:
            WrongStateError: the game has not started. TableError ``err.repost_cooldown`` (params: table,
            link, seconds): the table was re-posted less than `REPOST_COOLDOWN` seconds ago.
        """
        if table.game is None:
            raise WrongStateError("err.not_started")
        now = self._clock.now()
        last = self.reposted.get(table.id)
        if last is not None and now - last < REPOST_COOLDOWN:
            raise TableError("err.repost_cooldown", table=table.id, link=link(table),
                             seconds=max(1, int(REPOST_COOLDOWN - (now - last) + 0.999)))
        self.reposted[table.id] = now
        self._background.spawn(self.repost(table, first))

    def forget(self, table_id: int) -> None:
        """The table left memory: drop its re-post time."""
        self.reposted.pop(table_id, None)

    async def repost(self, table: Table, first: Callable[[Table], Awaitable[None]] | None = None) -> None:
        """The presenter posts the table message again (in order with the other notifications), once
        ``first(table)`` is done; not when it finds the table busy in another process (`TableBusyError`)."""
        if first is not None:
            try:
                await first(table)
            except TableBusyError:
                log.info("table %d: not re-posted, another process held it", table.id)
                return
        async with table.notify_lock:
            await self.notifier.repost(table)

    async def reloaded(self, table: Table, hand: int | None) -> None:
        """The presenter takes over a table another process had changed (`Notifier.reloaded`)."""
        async with table.notify_lock:
            await self.notifier.reloaded(table, hand)

    async def overtaken(self, table: Table, version: int) -> bool:
        """The presenter hears that another process saved ``table`` at ``version`` (`Notifier.overtaken`,
        in order with the other notifications); returns whether a write of it was on its way."""
        async with table.notify_lock:
            if version <= table.version:  # this process reloaded it meanwhile (and saved, or caught up)
                return False
            return await self.notifier.overtaken(table, version)

    async def caught_up(self, table: Table) -> None:
        """The presenter writes again what an overtaken write showed (`Notifier.caught_up`)."""
        async with table.notify_lock:
            await self.notifier.caught_up(table)
