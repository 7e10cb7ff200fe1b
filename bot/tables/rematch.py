"""Rematch with consent: «Revancha» starts a ready check, and a new mesa is dealt only when every person
of the finished table has accepted within `READY_TIMEOUT` seconds (computer players accept). A decline
or the timeout cancels it.

`ReadyChecks` is the part of `bot.tables.service.TableService` that keeps them; the new mesa is opened by
the lobby (`bot.tables.lobby.Lobby.open_rematch`). An open check is kept in the store (``rematch_checks``)
from the moment it opens until it ends, with the id of its message once posted, so a restart resumes it
(`ReadyChecks.resume`): its buttons keep working and it
expires on time, its message edited, as without a restart.
"""

from __future__ import annotations

import asyncio
import functools
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from bot.store import Store

from .errors import ChannelBusyError, NotPlayingError, SeatError, TableError, WrongStateError
from .model import FINISHED, Table, link
from .notices import Notices
from .persistence import table_of_row
from .timers import Clock, Scheduler

if TYPE_CHECKING:
    from .memory import TableRegistry

log = logging.getLogger(__name__)

READY_TIMEOUT = 60.0
"""Seconds every person has to accept a rematch."""

OPEN, ACCEPTED, DECLINED, EXPIRED, FAILED = "open", "accepted", "declined", "expired", "failed"


@dataclass
class ReadyCheck:
    """A rematch ready check of a finished table.

    Attributes:
        table_id: the finished table. asked_by: the user who pressed «Revancha».
        deadline: when it expires (service clock, UTC seconds).
        waiting: user ids who have not answered yet; accepted: those who accepted (the asker included).
        status: ``open``, ``accepted`` (the new mesa was dealt: ``new_table``), ``declined`` (by
            ``declined_by``), ``expired``, or ``failed`` (the new table could not open: ``error``).
    """

    table_id: int
    asked_by: int
    deadline: float
    waiting: list[int] = field(default_factory=list)
    accepted: list[int] = field(default_factory=list)
    status: str = OPEN
    declined_by: int | None = None
    new_table: int | None = None
    error: TableError | None = None
    message_id: int | None = None
    """The presenter's message for this check (it posts it, then edits it)."""

    def to_dict(self) -> dict[str, Any]:
        """The open check as JSON-able data (kept while it is open; `from_dict` reads it back)."""
        return {"asked_by": self.asked_by, "deadline": self.deadline, "waiting": list(self.waiting),
                "accepted": list(self.accepted), "message_id": self.message_id}

    @classmethod
    def from_dict(cls, table_id: int, data: dict[str, Any]) -> ReadyCheck:
        """The open check of ``table_id`` kept as ``data`` (`to_dict`)."""
        message_id = data.get("message_id")
        return cls(table_id, int(data["asked_by"]), float(data["deadline"]),
                   waiting=[int(u) for u in data.get("waiting", [])],
                   accepted=[int(u) for u in data.get("accepted", [])],
                   message_id=int(message_id) if message_id is not None else None)


class ReadyChecks:
    """Ready checks for rematches, by the finished table's id (see the module docstring).

    Args:
        clock, scheduler: the checks' deadlines. store: keeps the open checks. registry: the live tables
        (and `TableRegistry.keep`: a table stays in memory while its check is open). notices: tells the
        presenter. fetch: a table by id (memory, then store). adopt: keeps a table read from the store.
        open_rematch: ``open_rematch(old, asker)`` opens and deals the new mesa (under the seating lock).
    """

    def __init__(self, clock: Clock, scheduler: Scheduler, store: Store, registry: TableRegistry,
                 notices: Notices, fetch: Callable[[int], Awaitable[Table]], adopt: Callable[[Table], Table],
                 open_rematch: Callable[[Table, int], Awaitable[Table]]) -> None:
        self.checks: dict[int, ReadyCheck] = {}
        self._guard = asyncio.Lock()
        """One ready-check change at a time (a double click opens one check)."""
        self._clock = clock
        self._scheduler = scheduler
        self._store = store
        self._registry = registry
        self._notices = notices
        self._fetch = fetch
        self._adopt = adopt
        self._open_rematch = open_rematch

    def is_open(self, table_id: int) -> bool:
        """Whether the check of ``table_id`` is open (its table is kept in memory meanwhile)."""
        check = self.checks.get(table_id)
        return check is not None and check.status == OPEN

    def let_go(self, table_id: int) -> None:
        """``table_id`` left memory: forget its ended ready check, unless that check dealt a rematch that is
        still being played (a late «Revancha» or «Acepto» on the old messages still answers with it), and
        forget every check that dealt ``table_id`` itself."""
        checks = self.checks
        check = checks.get(table_id)
        if check is not None and check.status != OPEN:
            new = self._registry.get(check.new_table) if check.status == ACCEPTED and check.new_table else None
            if new is None or not new.is_open:
                del checks[table_id]
        for old_id in [k for k, c in checks.items() if c.status == ACCEPTED and c.new_table == table_id]:
            del checks[old_id]

    def ready_check(self, table_id: int) -> ReadyCheck | None:
        """The ready check of a finished table, open or just ended, or None."""
        return self.checks.get(table_id)

    async def ask_rematch(self, table_id: int, *, user_id: int) -> ReadyCheck:
        """A player of a finished table asks for a rematch: a ready check opens (or the open one is
        returned, counting the click as an acceptance). With no other person at the table the new mesa is
        dealt at once.

        Raises:
            UnknownTableError, WrongStateError (the mesa is not over; ``err.rematch_refereed``: a league's or
            a tournament's table, `Table.rematch_allowed`), NotPlayingError,
            ChannelBusyError (another table is open in the channel), SeatError (a player of the mesa
            sits at another table now).
        """
        async with self._guard:
            return await self._ask_rematch(table_id, user_id)

    async def _ask_rematch(self, table_id: int, user_id: int) -> ReadyCheck:
        """`ask_rematch` under the rematch lock (a double click opens one check)."""
        old = await self._fetch(table_id)
        if old.status != FINISHED:
            raise WrongStateError("err.not_lobby" if old.is_open else "err.finished")
        if old.seat_of(user_id) is None:
            raise NotPlayingError()
        if not old.rematch_allowed:  # the competition deals its next mesa (a best-of-3, the next round)
            raise WrongStateError("err.rematch_refereed")
        old = self._adopt(old)  # read back from the store: one copy for every answer
        checks = self.checks
        current = checks.get(table_id)
        if current is not None and current.status == OPEN:
            return await self._vote(old, current, user_id, True)
        if current is not None and current.status == ACCEPTED and current.new_table is not None:
            new = self._registry.get(current.new_table)
            if new is not None and new.is_open and new.seat_of(user_id) is not None:
                return current  # a second click on «Revancha»: the same rematch
        busy = self._registry.in_channel(old.channel_id)
        if busy is not None:
            if busy.options.rematch_of == old.id:
                raise TableError("err.rematch_done", table=busy.id, link=link(busy))
            raise ChannelBusyError(table=busy.id, link=link(busy))
        people = [s.user_id for _, s in old.humans() if s.user_id is not None]
        for _, seat in old.humans():
            other = self._registry.of_user(seat.user_id)  # type: ignore[arg-type]
            if other is not None:
                raise SeatError("err.player_seated_elsewhere", name=seat.name, table=other.id,
                                channel=other.channel_id)
        check = ReadyCheck(table_id, user_id, self._clock.now() + READY_TIMEOUT,
                           waiting=[u for u in people if u != user_id], accepted=[user_id])
        checks[table_id] = check
        log.info("table %d: rematch ready check opened", table_id)
        if not check.waiting:
            await self._deal_rematch(old, check)
        else:
            self._scheduler.arm((table_id, "rematch"), check.deadline,
                               lambda: self._expire_rematch(table_id))
        await self._rematch_changed(old, check)
        return check

    async def vote_rematch(self, table_id: int, *, user_id: int, accept: bool) -> ReadyCheck:
        """A person answers the ready check. The last acceptance deals the new mesa; a decline ends it.
        An acceptance repeated after the check dealt (a double click) returns the dealt check.

        Raises:
            WrongStateError ``err.rematch_closed``: no open check (it ended, expired or the bot restarted).
            NotPlayingError: the user did not play the finished mesa.
        """
        async with self._guard:
            check = self.checks.get(table_id)
            old = await self._fetch(table_id)
            if old.seat_of(user_id) is None:
                raise NotPlayingError()
            if check is not None and check.status == ACCEPTED and accept and user_id in check.accepted:
                return check  # a second click on «Acepto» (a double click): the same answer, the new mesa
            if check is None or check.status != OPEN or self._clock.now() >= check.deadline:
                raise WrongStateError("err.rematch_closed")
            return await self._vote(self._adopt(old), check, user_id, accept)

    async def _vote(self, old: Table, check: ReadyCheck, user_id: int, accept: bool) -> ReadyCheck:
        """Record one answer of an open check (under the rematch lock)."""
        table_id = old.id
        if not accept:
            check.status, check.declined_by = DECLINED, user_id
            self._scheduler.cancel((table_id, "rematch"))
            log.info("table %d: rematch declined", table_id)
        elif user_id in check.waiting:
            check.waiting.remove(user_id)
            check.accepted.append(user_id)
            if not check.waiting:
                self._scheduler.cancel((table_id, "rematch"))
                await self._deal_rematch(old, check)
        await self._rematch_changed(old, check)
        return check

    async def _rematch_changed(self, old: Table, check: ReadyCheck) -> None:
        """A check opened or changed: keep it in the store while it is open (forget it once it ended), then
        let the presenter post or edit its message."""
        await self._store.save_rematch_check(
            check.table_id, check.to_dict() if check.status == OPEN else None)
        self._registry.keep(old)  # the check and its table leave memory after it
        notifier = self._notices.notifier
        self._notices.tell(old, "rematch_changed", lambda: notifier.rematch_changed(old, check))

    async def rematch_posted(self, check: ReadyCheck) -> None:
        """The presenter posted the message of ``check`` (``check.message_id``): keep it with the check, so
        that after a restart that message is the one edited."""
        async with self._guard:
            if check.status == OPEN and self.checks.get(check.table_id) is check:
                await self._store.save_rematch_check(check.table_id, check.to_dict())

    async def resume(self, serves_guild: Callable[[int], bool]) -> int:
        """After a restart: every kept open check of a server this process serves (``serves_guild``) is open
        again and its expiry armed (one whose time ran out while the bot was down expires at once, its
        message edited). A kept check of a table that is gone or not finished is forgotten. Returns the
        number of checks resumed."""
        resumed = 0
        for table_id, data in (await self._store.load_rematch_checks()).items():
            row = await self._store.load_table(table_id)
            if row is not None and not serves_guild(row.guild_id):
                continue  # the process that runs its server resumes it
            old = self._registry.get(table_id) or (table_of_row(row) if row is not None else None)
            if old is None or old.status != FINISHED or table_id in self.checks:
                await self._store.save_rematch_check(table_id, None)
                continue
            self._adopt(old)  # kept while its check is open
            check = self.checks[table_id] = ReadyCheck.from_dict(table_id, data)
            self._scheduler.arm((table_id, "rematch"), check.deadline, functools.partial(self._expire_rematch, table_id))
            resumed += 1
        if resumed:
            log.info("resumed %d rematch ready checks", resumed)
        return resumed

    async def _deal_rematch(self, old: Table, check: ReadyCheck) -> None:
        """Everyone accepted: open the new table and deal (its lobby and table messages follow)."""
        try:
            table = await self._open_rematch(old, check.asked_by)
        except TableError as error:
            check.status, check.error = FAILED, error
            log.info("table %d: rematch could not open (%s)", old.id, error.key)
            return
        check.status, check.new_table = ACCEPTED, table.id

    async def _expire_rematch(self, table_id: int) -> None:
        async with self._guard:
            check = self.checks.get(table_id)
            if check is None or check.status != OPEN:
                return
            check.status = EXPIRED
            log.info("table %d: rematch ready check expired", table_id)
            try:
                old = await self._fetch(table_id)
            except TableError:
                await self._store.save_rematch_check(table_id, None)
                return
            await self._rematch_changed(old, check)
