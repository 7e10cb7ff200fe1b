"""Rematch with consent: «Revancha» starts a ready check, and a new mesa is dealt only when every person
of the finished table has accepted within `READY_TIMEOUT` seconds (computer players accept). A decline
or the timeout cancels it.

Mixed into `TableService` (which provides ``tables``, ``store``, ``clock``, ``scheduler``, ``notifier``,
``fetch``, ``_seating``, ``_held``, ``_maybe_start``, ``_save``, ``_after``, ``table_in_channel``,
``table_of_user``, ``_check_not_seated_elsewhere``, ``link``, ``serves_guild`` and ``_spawn``). An open
check is kept in the store (``rematch_checks``) from the moment it opens until it ends, with the id of its
message once posted, so a restart resumes it (`resume_rematch_checks`): its buttons keep working and it
expires on time, its message edited, as without a restart.
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass, field
from typing import Any

from bot.store import ChannelBusyError as StoreChannelBusy

from .errors import ChannelBusyError, NotPlayingError, SeatError, TableError, WrongStateError
from .model import FINISHED, Seat, Table

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


class RematchMixin:
    """Ready checks for rematches (see the module docstring)."""

    def _init_rematch(self) -> None:
        """Set up the ready checks (called by the service's constructor)."""
        self._checks: dict[int, ReadyCheck] = {}
        self._rematch_guard = asyncio.Lock()
        """One ready-check change at a time (a double click opens one check)."""

    def ready_check(self, table_id: int) -> ReadyCheck | None:
        """The ready check of a finished table, open or just ended, or None."""
        return self._checks.get(table_id)

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
        async with self._rematch_guard:
            return await self._ask_rematch(table_id, user_id)

    async def _ask_rematch(self, table_id: int, user_id: int) -> ReadyCheck:
        """`ask_rematch` under the rematch lock (a double click opens one check)."""
        old = await self.fetch(table_id)  # type: ignore[attr-defined]
        if old.status != FINISHED:
            raise WrongStateError("err.not_lobby" if old.is_open else "err.finished")
        if old.seat_of(user_id) is None:
            raise NotPlayingError()
        if not old.rematch_allowed:  # the competition deals its next mesa (a best-of-3, the next round)
            raise WrongStateError("err.rematch_refereed")
        old = self._adopt(old)  # type: ignore[attr-defined]  # read back from the store: one copy for every answer
        checks = self._checks
        current = checks.get(table_id)
        if current is not None and current.status == OPEN:
            return await self._vote(old, current, user_id, True)
        if current is not None and current.status == ACCEPTED and current.new_table is not None:
            new = self.tables.get(current.new_table)  # type: ignore[attr-defined]
            if new is not None and new.is_open and new.seat_of(user_id) is not None:
                return current  # a second click on «Revancha»: the same rematch
        busy = self.table_in_channel(old.channel_id)  # type: ignore[attr-defined]
        if busy is not None:
            if busy.meta.get("rematch_of") == old.id:
                raise TableError("err.rematch_done", table=busy.id, link=self.link(busy))  # type: ignore[attr-defined]
            raise ChannelBusyError(table=busy.id, link=self.link(busy))  # type: ignore[attr-defined]
        people = [s.user_id for _, s in old.humans() if s.user_id is not None]
        for _, seat in old.humans():
            other = self.table_of_user(seat.user_id)  # type: ignore[attr-defined, arg-type]
            if other is not None:
                raise SeatError("err.player_seated_elsewhere", name=seat.name, table=other.id,
                                channel=other.channel_id)
        check = ReadyCheck(table_id, user_id, self.clock.now() + READY_TIMEOUT,  # type: ignore[attr-defined]
                           waiting=[u for u in people if u != user_id], accepted=[user_id])
        checks[table_id] = check
        log.info("table %d: rematch ready check opened", table_id)
        if not check.waiting:
            await self._deal_rematch(old, check)
        else:
            self.scheduler.arm((table_id, "rematch"), check.deadline,  # type: ignore[attr-defined]
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
        async with self._rematch_guard:
            check = self._checks.get(table_id)
            old = await self.fetch(table_id)  # type: ignore[attr-defined]
            if old.seat_of(user_id) is None:
                raise NotPlayingError()
            if check is not None and check.status == ACCEPTED and accept and user_id in check.accepted:
                return check  # a second click on «Acepto» (a double click): the same answer, the new mesa
            if check is None or check.status != OPEN or self.clock.now() >= check.deadline:  # type: ignore[attr-defined]
                raise WrongStateError("err.rematch_closed")
            return await self._vote(self._adopt(old), check, user_id, accept)  # type: ignore[attr-defined]

    async def _vote(self, old: Table, check: ReadyCheck, user_id: int, accept: bool) -> ReadyCheck:
        """Record one answer of an open check (under the rematch lock)."""
        table_id = old.id
        if not accept:
            check.status, check.declined_by = DECLINED, user_id
            self.scheduler.cancel((table_id, "rematch"))  # type: ignore[attr-defined]
            log.info("table %d: rematch declined", table_id)
        elif user_id in check.waiting:
            check.waiting.remove(user_id)
            check.accepted.append(user_id)
            if not check.waiting:
                self.scheduler.cancel((table_id, "rematch"))  # type: ignore[attr-defined]
                await self._deal_rematch(old, check)
        await self._rematch_changed(old, check)
        return check

    async def _rematch_changed(self, old: Table, check: ReadyCheck) -> None:
        """A check opened or changed: keep it in the store while it is open (forget it once it ended), then
        let the presenter post or edit its message."""
        await self.store.save_rematch_check(  # type: ignore[attr-defined]
            check.table_id, check.to_dict() if check.status == OPEN else None)
        self._keep(old)  # type: ignore[attr-defined]  # the check and its table leave memory after it
        self._tell(old, "rematch_changed", lambda: self.notifier.rematch_changed(old, check))  # type: ignore[attr-defined]

    async def rematch_posted(self, check: ReadyCheck) -> None:
        """The presenter posted the message of ``check`` (``check.message_id``): keep it with the check, so
        that after a restart that message is the one edited."""
        async with self._rematch_guard:
            if check.status == OPEN and self._checks.get(check.table_id) is check:
                await self.store.save_rematch_check(check.table_id, check.to_dict())  # type: ignore[attr-defined]

    async def resume_rematch_checks(self) -> int:
        """After a restart: every kept open check of a server this process serves (`serves_guild`) is open
        again and its expiry armed (one whose time ran out while the bot was down expires at once, its
        message edited). A kept check of a table that is gone or not finished is forgotten. Returns the
        number of checks resumed."""
        resumed = 0
        for table_id, data in (await self.store.load_rematch_checks()).items():  # type: ignore[attr-defined]
            row = await self.store.load_table(table_id)  # type: ignore[attr-defined]
            if row is not None and not self.serves_guild(row.guild_id):  # type: ignore[attr-defined]
                continue  # the process that runs its server resumes it
            old = self.tables.get(table_id) or (self._from_row(row) if row is not None else None)  # type: ignore[attr-defined]
            if old is None or old.status != FINISHED or table_id in self._checks:
                await self.store.save_rematch_check(table_id, None)  # type: ignore[attr-defined]
                continue
            self._adopt(old)  # type: ignore[attr-defined]  # kept while its check is open
            check = self._checks[table_id] = ReadyCheck.from_dict(table_id, data)
            self.scheduler.arm((table_id, "rematch"), check.deadline,  # type: ignore[attr-defined]
                               lambda table_id=table_id: self._expire_rematch(table_id))
            resumed += 1
        if resumed:
            log.info("resumed %d rematch ready checks", resumed)
        return resumed

    async def _rematch_seated(self, old: Table, user_id: int) -> Table:
        """Open a new table in the channel of the finished ``old`` with the same seats (``user_id`` its
        host) and start it at once; called under the seating lock when every person accepted. A second
        call (the rematch of ``old`` is already open and ``user_id`` sits there) gets that same table back.

        Raises:
            ChannelBusyError (another table is open in the channel), SeatError (someone sits at another
            table).
        """
        busy = self.table_in_channel(old.channel_id)  # type: ignore[attr-defined]
        if busy is not None:
            if busy.meta.get("rematch_of") == old.id and busy.seat_of(user_id) is not None:
                return busy
            raise ChannelBusyError(table=busy.id, link=self.link(busy))  # type: ignore[attr-defined]
        for _, seat in old.humans():
            other = self.table_of_user(seat.user_id)  # type: ignore[attr-defined, arg-type]
            if other is not None and seat.user_id != user_id:
                raise SeatError("err.player_seated_elsewhere", name=seat.name, table=other.id,
                                channel=other.channel_id)
            self._check_not_seated_elsewhere(seat.user_id, None)  # type: ignore[attr-defined, arg-type]
        seats = [Seat.from_dict({**s.to_dict(), "away": False}) if s else None for s in old.seats]
        meta = {**{k: v for k, v in old.meta.items() if k not in ("casual", "refereed", "queue_match", Table.SEAT_HISTORY)},
                "rematch_of": old.id}  # a rematch is a casual table, even after a queue match
        try:
            table_id = await self.store.create_table(  # type: ignore[attr-defined]
                guild_id=old.guild_id, channel_id=old.channel_id, host_id=user_id, players=old.players,
                preset=old.preset, seats=[s.to_dict() if s else None for s in seats], meta=meta,
            )
        except StoreChannelBusy:
            raise ChannelBusyError(table="?", link=f"<#{old.channel_id}>") from None
        table = Table(id=table_id, guild_id=old.guild_id, channel_id=old.channel_id, host_id=user_id,
                      players=old.players, preset=old.preset, seats=seats, meta=meta)
        table.timers.turn_timer = old.timers.turn_timer
        self.tables[table_id] = table  # type: ignore[attr-defined]
        async with self._held(table):  # type: ignore[attr-defined]
            events = await self._maybe_start(table)  # type: ignore[attr-defined]
            await self._save(table)  # type: ignore[attr-defined]
        self._after(table, lobby=True, events=events)  # type: ignore[attr-defined]
        return table

    async def _deal_rematch(self, old: Table, check: ReadyCheck) -> None:
        """Everyone accepted: open the new table and deal (its lobby and table messages follow)."""
        try:
            async with self._seating:  # type: ignore[attr-defined]
                table = await self._rematch_seated(old, check.asked_by)  # type: ignore[attr-defined]
        except TableError as error:
            check.status, check.error = FAILED, error
            log.info("table %d: rematch could not open (%s)", old.id, error.key)
            return
        check.status, check.new_table = ACCEPTED, table.id

    async def _expire_rematch(self, table_id: int) -> None:
        async with self._rematch_guard:
            check = self._checks.get(table_id)
            if check is None or check.status != OPEN:
                return
            check.status = EXPIRED
            log.info("table %d: rematch ready check expired", table_id)
            try:
                old = await self.fetch(table_id)  # type: ignore[attr-defined]
            except TableError:
                await self.store.save_rematch_check(table_id, None)  # type: ignore[attr-defined]
                return
            await self._rematch_changed(old, check)
