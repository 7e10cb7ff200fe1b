"""Tables that survive real people (issue 6): turn timers, AFK hand-over and return, leaving mid-game,
kicks, members removed from the server, the lobby timeout, "everyone gone", deleted channels, and timers
that resume after a restart.

`PresenceMixin` is part of `bot.tables.service.TableService` (kept in its own module). The rules:

- Every person's turn has an absolute deadline (``table.timers.deadline``, UTC seconds of the service's
  `Clock`), set when the turn starts and stored with the table in the same transaction as the play.
- At 2/3 of the time the player is reminded (once: ``reminded`` is stored before the reminder goes out).
- On expiry, under the table lock, the seat plays the ``medio`` computer player's move. Whoever takes the
  lock first wins: a click that got there first has already changed the nonce, so the expiry does
  nothing; the click is never told "expired". Two expiries in a row make the seat *away*: a computer player
  plays it until the person clicks their hand or uses ``/cuarenta back``.
- Leaving mid-game, being kicked or leaving the server hands the seat (and its cards, which stay in the
  game's hand for that seat) to a computer player for good, and the mesa becomes casual (unrated).
- A table with no person left who is not away ends: computer players never play on alone.
- After a restart, timers resume with the time that was left; a deadline that passed while the bot was
  down gets `RESTART_GRACE` seconds (and the reminder, if it had not gone out), not an instant expiry.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from typing import Any

from .errors import NotHostError, SeatError, WrongStateError
from .model import CLOSED, LOBBY, PLAYING, LeaveResult, Seat, Table
from .players import choose_play
from .timers import (
    LOBBY_TIMEOUT,
    REMIND_AT,
    RESTART_GRACE,
    TURN_TIMER_DEFAULT,
    TURN_TIMER_MAX,
    TURN_TIMER_MIN,
)

log = logging.getLogger(__name__)

SUBSTITUTE_LEVEL = "medio"
"""The computer player that plays an expired turn, an away person's seat, or the seat of someone who left."""

EXPIRIES_TO_AWAY = 2
"""Consecutive expired turns after which a computer player takes the seat until the person comes back."""


def clamp_turn_timer(seconds: int | None) -> int:
    """A turn timer within 30–300 seconds (None: the default)."""
    if seconds is None:
        return TURN_TIMER_DEFAULT
    return max(TURN_TIMER_MIN, min(TURN_TIMER_MAX, int(seconds)))


class PresenceMixin:
    """Timers and people coming and going; mixed into `TableService` (which provides ``tables``,
    ``store``, ``clock``, ``scheduler``, ``notifier``, ``offload``, ``_save``, ``_apply``, ``_after``,
    ``_spawn``)."""

    tables: dict[int, Table]

    # ------------------------------------------------------------------ settings

    async def guild_turn_timer(self, guild_id: int) -> int:
        """A server's default turn timer (the stored setting, else 90 s)."""
        stored = await self.store.guild_turn_timer(guild_id)  # type: ignore[attr-defined]
        return clamp_turn_timer(stored)

    async def set_guild_turn_timer(self, guild_id: int, seconds: int) -> None:
        """Set a server's default turn timer (30–300 s; for ``/cuarenta settings``)."""
        await self.store.set_guild_turn_timer(guild_id, clamp_turn_timer(seconds))  # type: ignore[attr-defined]

    # ------------------------------------------------------------------ clocks

    def _mark_casual(self, table: Table) -> None:
        """From now on the mesa is casual (unrated): ``tables.casual`` and ``meta["casual"]``."""
        table.casual = True
        table.meta["casual"] = True

    def _sync_timers(self, table: Table) -> None:
        """Under the lock, before saving: bring the turn deadline in line with whose turn it is."""
        tm = table.timers
        if table.status != LOBBY:
            tm.lobby_deadline = None
        game = table.game
        if table.status != PLAYING or game is None or game.to_play is None:
            tm.deadline = None
            return
        seat = game.to_play
        person = table.seats[seat]
        if person is None or person.autoplays:
            tm.deadline, tm.nonce, tm.seat, tm.reminded = None, table.nonce, seat, False
            return
        if tm.deadline is not None and tm.nonce == table.nonce and tm.seat == seat:
            return
        tm.deadline = self.clock.now() + tm.turn_timer  # type: ignore[attr-defined]
        tm.nonce, tm.seat, tm.reminded = table.nonce, seat, False

    def _arm(self, table: Table) -> None:
        """Set (or drop) the table's alarms from its stored clocks, and the one that drops it from memory
        once it ended (`bot.tables.memory`)."""
        scheduler = self.scheduler  # type: ignore[attr-defined]
        tm = table.timers
        tid = table.id
        if table.status == PLAYING and tm.deadline is not None:
            nonce = tm.nonce
            scheduler.arm((tid, "turn"), tm.deadline, lambda: self._expire(tid, nonce))
            if not tm.reminded:
                remind_at = tm.deadline - tm.turn_timer * (1 - REMIND_AT)
                scheduler.arm((tid, "remind"), remind_at, lambda: self._remind(tid, nonce))
            else:
                scheduler.cancel((tid, "remind"))
        else:
            scheduler.cancel((tid, "turn"))
            scheduler.cancel((tid, "remind"))
        if table.status == LOBBY and tm.lobby_deadline is not None:
            scheduler.arm((tid, "lobby"), tm.lobby_deadline, lambda: self._lobby_expire(tid))
        else:
            scheduler.cancel((tid, "lobby"))
        self._keep(table)  # type: ignore[attr-defined]  # an ended table leaves memory later (MemoryMixin)

    async def _start_lobby_clock(self, table: Table) -> None:
        """A new lobby: it closes itself after `LOBBY_TIMEOUT` unless it starts."""
        table.timers.lobby_deadline = self.clock.now() + LOBBY_TIMEOUT  # type: ignore[attr-defined]
        table.version = await self.store.save_timers(table.id, table.timers.to_dict())  # type: ignore[attr-defined]
        self._arm(table)

    async def _resume_clocks(self, table: Table) -> None:
        """After a restart: re-arm with the time that was left (a short grace when it ran out while the bot
        was down), and store any deadline moved."""
        tm = table.timers
        now = self.clock.now()  # type: ignore[attr-defined]
        before = tm.to_dict()
        if table.status == LOBBY:
            if tm.lobby_deadline is None:
                tm.lobby_deadline = now + LOBBY_TIMEOUT
            elif tm.lobby_deadline <= now:
                tm.lobby_deadline = now + RESTART_GRACE
        elif table.status == PLAYING:
            if tm.deadline is not None and tm.nonce == table.nonce:
                if tm.deadline <= now:
                    tm.deadline = now + min(RESTART_GRACE, tm.turn_timer)
            else:
                self._sync_timers(table)
        if tm.to_dict() != before:
            table.version = await self.store.save_timers(table.id, tm.to_dict())  # type: ignore[attr-defined]
        self._arm(table)

    def _note(self, table: Table, kind: str, **params: Any) -> None:
        """Tell the presenter about a table event in words (reminder, timeout, away, back, left …), in order
        with the other notifications."""
        self._tell(table, "table_note", lambda: self.notifier.table_note(table, kind, **params))  # type: ignore[attr-defined]

    def _tell(self, table: Table, what: str, call: Callable[[], Awaitable[None]]) -> None:
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

        self._spawn(run())  # type: ignore[attr-defined]

    async def _remind(self, table_id: int, nonce: int) -> None:
        """The 2/3 reminder (once per deadline, also across restarts)."""
        table = self.tables.get(table_id)
        if table is None:
            return
        async with self._held(table):
            tm = table.timers
            if (table.status != PLAYING or table.nonce != nonce or tm.nonce != nonce or tm.deadline is None
                    or tm.reminded):
                return
            tm.reminded = True
            table.version = await self.store.save_timers(table.id, tm.to_dict())  # type: ignore[attr-defined]
            seat, deadline = tm.seat, tm.deadline
        log.info("table %d: reminded seat %d", table.id, seat)
        self._note(table, "reminder", seat=seat, deadline=deadline)

    async def _expire(self, table_id: int, nonce: int) -> None:
        """A turn ran out: the seat plays the ``medio`` move; the second expiry in a row makes it away."""
        table = self.tables.get(table_id)
        if table is None:
            return
        async with self._held(table):
            tm = table.timers
            game = table.game
            if (table.status != PLAYING or game is None or table.nonce != nonce or tm.nonce != nonce
                    or tm.deadline is None):
                return
            if self.clock.now() < tm.deadline:  # type: ignore[attr-defined]
                self._arm(table)
                return
            seat = game.to_play
            person = table.seats[seat] if seat is not None else None
            if seat is None or person is None or person.autoplays:
                return
            play = await self.offload(choose_play, SUBSTITUTE_LEVEL, game.seed, game.view(seat))  # type: ignore[attr-defined]
            strikes = tm.strikes.get(str(seat), 0) + 1
            tm.strikes[str(seat)] = strikes
            away = strikes >= EXPIRIES_TO_AWAY
            if away:
                person.away = True
                self._mark_casual(table)
            events = await self._apply(table, seat, play)  # type: ignore[attr-defined]
            table.timed_out[seat] = play.card.code
            closed = self._close_if_nobody_left(table)
            if closed:
                await self._save(table)  # type: ignore[attr-defined]
        log.info("table %d: seat %d timed out (%d in a row)%s", table.id, seat, strikes, " — away" if away else "")
        self._note(table, "away" if away else "expired", seat=seat)
        self._after(table, events=events, closed=closed)  # type: ignore[attr-defined]

    def _close_if_nobody_left(self, table: Table) -> bool:
        """Under the lock: end a table in play where no person is left who is not away."""
        if table.status == PLAYING and not table.present_humans():
            table.status = CLOSED
            log.info("table %d: nobody left, ended", table.id)
            return True
        return False

    async def _lobby_expire(self, table_id: int) -> None:
        """A lobby that did not start in time closes and frees its seats."""
        table = self.tables.get(table_id)
        if table is None:
            return
        async with self._held(table):
            tm = table.timers
            if table.status != LOBBY or tm.lobby_deadline is None:
                return
            if self.clock.now() < tm.lobby_deadline:  # type: ignore[attr-defined]
                self._arm(table)
                return
            table.status = CLOSED
            await self._save(table)  # type: ignore[attr-defined]
        log.info("table %d: lobby timed out", table.id)
        self._note(table, "lobby_timeout")
        self._after(table, closed=True)  # type: ignore[attr-defined]

    # ------------------------------------------------------------------ coming back

    async def _come_back(self, table: Table, seat: int) -> bool:
        """Under the lock: a person's own action (a click on their hand). Clears their strikes; when they
        were away, they take their seat back (persisted). Returns True when they were away."""
        person = table.seats[seat]
        table.seen[seat] = self.clock.now()  # type: ignore[attr-defined]
        table.timers.strikes.pop(str(seat), None)
        if person is None or not person.away:
            return False
        person.away = False
        await self._save(table)  # type: ignore[attr-defined]
        log.info("table %d: seat %d is back", table.id, seat)
        self._note(table, "back", seat=seat)
        return True

    async def back(self, user_id: int) -> Table:
        """``/cuarenta back`` (or the "I'm back" button): take your seat back from the computer player.

        Raises:
            SeatError: the user is not seated at an open table. WrongStateError: the table is not in play.
        """
        table = self.table_of_user(user_id)  # type: ignore[attr-defined]
        if table is None:
            raise SeatError("err.not_seated")
        async with self._held(table):
            if table.status != PLAYING:
                raise WrongStateError("err.not_started" if table.status == LOBBY else "err.finished")
            seat = table.seat_of(user_id)
            if seat is None:
                raise SeatError("err.not_seated")
            was_away = await self._come_back(table, seat)
        if was_away:
            self._after(table)  # type: ignore[attr-defined]
        return table

    # ------------------------------------------------------------------ leaving, kicks, removals

    def _substitute(self, table: Table, seat: int) -> Seat | None:
        """Under the lock: a computer player takes a person's seat for good (its hand stays in the game's
        hand for the seat: nothing is dealt, lost or copied). The mesa becomes casual; hosting passes to
        the next person at the table. Returns the new host, if hosting passed."""
        person = table.seats[seat]
        assert person is not None and not person.is_ai
        number = 1 + max((s.ai_number for s in table.seats if s is not None), default=0)
        table.hand_over(seat, Seat(None, "", ai=SUBSTITUTE_LEVEL, ai_number=number, stands_for=person.name))
        table.timers.strikes.pop(str(seat), None)
        self._mark_casual(table)
        return self._pass_host(table, person.user_id, seat)

    @staticmethod
    def _pass_host(table: Table, leaving: int | None, seat: int) -> Seat | None:
        """When the host leaves, hosting passes to the next person in seat order (present ones first)."""
        if table.host_id != leaving:
            return None
        order = [(seat + k) % table.players for k in range(1, table.players + 1)]
        people = [(i, s) for i in order if (s := table.seats[i]) is not None and not s.is_ai]
        people.sort(key=lambda p: p[1].away)
        table.host_id = people[0][1].user_id if people else None
        return people[0][1] if people else None

    async def leave_game(self, table_id: int, *, user_id: int, reason: str = "left") -> LeaveResult:
        """Leave a table in play: a computer player takes the seat and the hand, the mesa plays on, casual.
        ``reason`` is ``left``, ``kicked`` or ``removed`` (left the server).

        Raises:
            WrongStateError: the table is not in play. SeatError: not seated.
        """

        table = await self.fetch(table_id)  # type: ignore[attr-defined]
        async with self._held(table), self._unchanged_on_error(table):  # type: ignore[attr-defined]
            if table.status != PLAYING:
                raise WrongStateError("err.finished" if not table.is_open else "err.not_started")
            seat = table.seat_of(user_id)
            if seat is None:
                raise SeatError("err.not_seated")
            name = table.seats[seat].name  # type: ignore[union-attr]
            locale = table.seats[seat].locale  # type: ignore[union-attr]
            new_host = self._substitute(table, seat)
            closed = self._close_if_nobody_left(table)
            await self._save(table)  # type: ignore[attr-defined]
        log.info("table %d: seat %d handed to a computer player (%s)", table.id, seat, reason)
        self._note(table, reason, seat=seat, name=name, user_id=user_id, locale=locale, ended=closed)
        if new_host is not None and not closed:
            self._note(table, "host", name=new_host.name, user_id=new_host.user_id)
        self._after(table, closed=closed)  # type: ignore[attr-defined]
        return LeaveResult(closed, new_host)

    async def kick(self, table_id: int, *, user_id: int, target_id: int, can_manage: bool = False) -> LeaveResult:
        """The host (or a member with Manage Server) removes a person: in a lobby the seat is freed, in play
        a computer player takes it.

        Raises:
            WrongStateError: the table is over. NotHostError: not allowed (``err.not_allowed_kick``; at a
            competition's table, `Table.refereed`, only a member who can manage the server may:
            ``err.kick_refereed``). SeatError: the target is not seated, or is the one asking.
        """

        table = await self.fetch(table_id)  # type: ignore[attr-defined]
        if table.refereed and not can_manage:  # hosting a competition's table is no power over the other side
            raise NotHostError("err.kick_refereed")
        if table.host_id != user_id and not can_manage:
            raise NotHostError("err.not_allowed_kick")
        if table.seat_of(target_id) is None:  # first: someone not seated (the asker too) is told so
            raise SeatError("err.kick_not_seated")
        if target_id == user_id:
            raise SeatError("err.kick_self")
        if table.status == PLAYING:
            return await self.leave_game(table_id, user_id=target_id, reason="kicked")
        async with self._held(table), self._unchanged_on_error(table):  # type: ignore[attr-defined]
            if table.status != LOBBY:
                raise WrongStateError("err.finished")
            seat = table.seat_of(target_id)
            if seat is None:
                raise SeatError("err.kick_not_seated")
            name = table.seats[seat].name  # type: ignore[union-attr]
            table.seats[seat] = None
            new_host = self._pass_host(table, target_id, seat)
            closed = not table.humans()
            if closed:
                table.status = CLOSED
            await self._save(table)  # type: ignore[attr-defined]
        self._note(table, "kicked", seat=seat, name=name, user_id=target_id, ended=closed)
        self._after(table, lobby=not closed, closed=closed)  # type: ignore[attr-defined]
        return LeaveResult(closed, new_host)

    async def member_gone(self, guild_id: int, user_id: int) -> Table | None:
        """A member left the server or was removed from it: they leave their table of that server (a lobby
        seat is freed; in play a computer player takes it). Returns the table, if any."""
        table = self.table_of_user(user_id)  # type: ignore[attr-defined]
        if table is None or table.guild_id != guild_id:
            return None
        try:
            if table.status == PLAYING:
                await self.leave_game(table.id, user_id=user_id, reason="removed")
            else:
                await self.leave(table.id, user_id=user_id)  # type: ignore[attr-defined]
        except (SeatError, WrongStateError):
            return None
        return table

    async def channel_gone(self, channel_id: int) -> Table | None:
        """The table's channel or thread was deleted (CHANNEL_DELETE, THREAD_DELETE, a write answered
        10003 Unknown Channel, or missing at a reconcile): the table ends at once and frees its players,
        and nothing more is written to that channel."""
        table = self.table_in_channel(channel_id)  # type: ignore[attr-defined]
        if table is None:
            return None
        table.channel_gone = True
        await self._force_close(table, "channel deleted")
        return table

    async def reconcile_guild(self, guild_id: int, exists: Callable[[int], Awaitable[bool]]) -> list[Table]:
        """A server became available (at start, or after an outage): every open table of it whose channel
        or thread no longer exists ends, as on CHANNEL_DELETE (the delete may have happened while the bot
        was down, so no event will ever come). ``exists(channel_id)`` says whether a channel is there.
        Returns the tables ended."""
        ended = []
        for table in [t for t in self.tables.values() if t.guild_id == guild_id and t.is_open]:
            if not await exists(table.channel_id):
                if await self.channel_gone(table.channel_id) is not None:
                    ended.append(table)
        if ended:
            log.info("guild %d: %d tables ended, their channels are gone", guild_id, len(ended))
        return ended

    async def guild_gone(self, guild_id: int) -> list[Table]:
        """The bot left (or was removed from) a server: its open tables end and free their players;
        nothing more is written to the server's channels."""
        tables = [t for t in self.tables.values() if t.guild_id == guild_id and t.is_open]
        for table in tables:
            table.channel_gone = True
            await self._force_close(table, "server left")
        return tables

    async def _force_close(self, table: Table, why: str) -> None:
        async with self._held(table):
            if not table.is_open:
                return
            table.status = CLOSED
            await self._save(table)  # type: ignore[attr-defined]
        log.info("table %d ended: %s", table.id, why)
        self._after(table, closed=True)  # type: ignore[attr-defined]
