"""Tables that survive real people: turn timers, AFK hand-over and return, leaving mid-game,
kicks, members removed from the server, the lobby timeout, "everyone gone", deleted channels, and timers
that resume after a restart.

Two parts of `bot.tables.service.TableService`: `TurnClock` keeps each table's deadlines and alarms, and
`Presence` handles what happens when they ring and when people come and go. The rules:

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

import logging
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any, Protocol

from bot.store import Store

from .errors import NotHostError, SeatError, WrongStateError
from .model import CLOSED, LOBBY, PLAYING, LeaveResult, Seat, Table
from .notices import Notices
from .players import choose_play
from .timers import (
    LOBBY_TIMEOUT,
    REMIND_AT,
    RESTART_GRACE,
    TURN_TIMER_DEFAULT,
    TURN_TIMER_MAX,
    TURN_TIMER_MIN,
    Clock,
    Scheduler,
)

if TYPE_CHECKING:
    from .memory import TableRegistry
    from .persistence import TableWriter
    from .shared import TableLocks

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


def mark_casual(table: Table) -> None:
    """From now on the mesa is casual (unrated): `Table.casual` (stored as ``tables.casual`` and in
    ``tables.meta``)."""
    table.casual = True


class TurnAlarms(Protocol):
    """What a table's alarms call (`Presence` implements it)."""

    async def remind(self, table_id: int, nonce: int) -> None:
        """The turn ``nonce`` reached its reminder."""

    async def expire(self, table_id: int, nonce: int) -> None:
        """The turn ``nonce`` ran out."""

    async def lobby_expire(self, table_id: int) -> None:
        """The lobby did not start in time."""


class TurnClock:
    """Each table's deadlines (stored in ``table.timers``) and the alarms armed from them.

    Args:
        clock, scheduler: time and the alarms. store: saves the timers alone.
        keep: after each arming, decides whether an ended table stays in memory
            (`bot.tables.memory.TableRegistry.keep`).
    """

    def __init__(self, clock: Clock, scheduler: Scheduler, store: Store, keep: Callable[[Table], None]) -> None:
        self._clock = clock
        self._scheduler = scheduler
        self._store = store
        self._keep = keep
        self._alarms: TurnAlarms | None = None

    def bind(self, alarms: TurnAlarms) -> None:
        """Set what the alarms call (once, when the service is put together)."""
        self._alarms = alarms

    async def guild_turn_timer(self, guild_id: int) -> int:
        """A server's default turn timer (the stored setting, else 90 s)."""
        stored = await self._store.guild_turn_timer(guild_id)
        return clamp_turn_timer(stored)

    async def set_guild_turn_timer(self, guild_id: int, seconds: int) -> None:
        """Set a server's default turn timer (30–300 s; for ``/cuarenta settings``)."""
        await self._store.set_guild_turn_timer(guild_id, clamp_turn_timer(seconds))

    def sync(self, table: Table) -> None:
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
        tm.deadline = self._clock.now() + tm.turn_timer
        tm.nonce, tm.seat, tm.reminded = table.nonce, seat, False

    def arm(self, table: Table) -> None:
        """Set (or drop) the table's alarms from its stored clocks, and the one that drops it from memory
        once it ended (`bot.tables.memory`)."""
        alarms = self._alarms
        assert alarms is not None, "TurnClock.bind was not called"
        scheduler = self._scheduler
        tm = table.timers
        tid = table.id
        if table.status == PLAYING and tm.deadline is not None:
            nonce = tm.nonce
            scheduler.arm((tid, "turn"), tm.deadline, lambda: alarms.expire(tid, nonce))
            if not tm.reminded:
                remind_at = tm.deadline - tm.turn_timer * (1 - REMIND_AT)
                scheduler.arm((tid, "remind"), remind_at, lambda: alarms.remind(tid, nonce))
            else:
                scheduler.cancel((tid, "remind"))
        else:
            scheduler.cancel((tid, "turn"))
            scheduler.cancel((tid, "remind"))
        if table.status == LOBBY and tm.lobby_deadline is not None:
            scheduler.arm((tid, "lobby"), tm.lobby_deadline, lambda: alarms.lobby_expire(tid))
        else:
            scheduler.cancel((tid, "lobby"))
        self._keep(table)  # an ended table leaves memory later

    async def start_lobby(self, table: Table) -> None:
        """A new lobby: it closes itself after `LOBBY_TIMEOUT` unless it starts."""
        table.timers.lobby_deadline = self._clock.now() + LOBBY_TIMEOUT
        table.version = await self._store.save_timers(table.id, table.timers.to_dict())
        self.arm(table)

    async def resume(self, table: Table) -> None:
        """After a restart: re-arm with the time that was left (a short grace when it ran out while the bot
        was down), and store any deadline moved."""
        tm = table.timers
        now = self._clock.now()
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
                self.sync(table)
        if tm.to_dict() != before:
            table.version = await self._store.save_timers(table.id, tm.to_dict())
        self.arm(table)

    async def save_timers(self, table: Table) -> None:
        """Store the table's timers alone (a reminder marked sent)."""
        table.version = await self._store.save_timers(table.id, table.timers.to_dict())


class Presence:
    """Alarms that ring (`TurnAlarms`) and people who come and go.

    Args:
        clock: the service's clock. registry: the live tables. locks, writer: hold and save a table.
        turns: its clocks. notices: tells the presenter. offload: runs the substitute's move off the loop.
        fetch: a table by id (memory, then store).
    """

    def __init__(self, clock: Clock, registry: TableRegistry, locks: TableLocks, writer: TableWriter,
                 turns: TurnClock, notices: Notices, offload: Callable[..., Awaitable[Any]],
                 fetch: Callable[[int], Awaitable[Table]]) -> None:
        self._clock = clock
        self._registry = registry
        self._locks = locks
        self._writer = writer
        self._turns = turns
        self._notices = notices
        self._offload = offload
        self._fetch = fetch

    async def remind(self, table_id: int, nonce: int) -> None:
        """The 2/3 reminder (once per deadline, also across restarts)."""
        table = self._registry.get(table_id)
        if table is None:
            return
        async with self._locks.held(table):
            tm = table.timers
            if (table.status != PLAYING or table.nonce != nonce or tm.nonce != nonce or tm.deadline is None
                    or tm.reminded):
                return
            tm.reminded = True
            await self._turns.save_timers(table)
            seat, deadline = tm.seat, tm.deadline
        log.info("table %d: reminded seat %d", table.id, seat)
        self._notices.note(table, "reminder", seat=seat, deadline=deadline)

    async def expire(self, table_id: int, nonce: int) -> None:
        """A turn ran out: the seat plays the ``medio`` move; the second expiry in a row makes it away."""
        table = self._registry.get(table_id)
        if table is None:
            return
        async with self._locks.held(table):
            tm = table.timers
            game = table.game
            if (table.status != PLAYING or game is None or table.nonce != nonce or tm.nonce != nonce
                    or tm.deadline is None):
                return
            if self._clock.now() < tm.deadline:
                self._turns.arm(table)
                return
            seat = game.to_play
            person = table.seats[seat] if seat is not None else None
            if seat is None or person is None or person.autoplays:
                return
            play = await self._offload(choose_play, SUBSTITUTE_LEVEL, game.seed, game.view(seat))
            strikes = tm.strikes.get(str(seat), 0) + 1
            tm.strikes[str(seat)] = strikes
            away = strikes >= EXPIRIES_TO_AWAY
            if away:
                person.away = True
                mark_casual(table)
            events = await self._writer.apply(table, seat, play)
            table.timed_out[seat] = play.card.code
            closed = self._close_if_nobody_left(table)
            if closed:
                await self._writer.save(table)
        log.info("table %d: seat %d timed out (%d in a row)%s", table.id, seat, strikes, " — away" if away else "")
        self._notices.note(table, "away" if away else "expired", seat=seat)
        self._notices.after(table, events=events, closed=closed)

    def _close_if_nobody_left(self, table: Table) -> bool:
        """Under the lock: end a table in play where no person is left who is not away."""
        if table.status == PLAYING and not table.present_humans():
            table.status = CLOSED
            log.info("table %d: nobody left, ended", table.id)
            return True
        return False

    async def lobby_expire(self, table_id: int) -> None:
        """A lobby that did not start in time closes and frees its seats."""
        table = self._registry.get(table_id)
        if table is None:
            return
        async with self._locks.held(table):
            tm = table.timers
            if table.status != LOBBY or tm.lobby_deadline is None:
                return
            if self._clock.now() < tm.lobby_deadline:
                self._turns.arm(table)
                return
            table.status = CLOSED
            await self._writer.save(table)
        log.info("table %d: lobby timed out", table.id)
        self._notices.note(table, "lobby_timeout")
        self._notices.after(table, closed=True)

    # ------------------------------------------------------------------ coming back

    async def come_back(self, table: Table, seat: int) -> bool:
        """Under the lock: a person's own action (a click on their hand). Clears their strikes; when they
        were away, they take their seat back (persisted). Returns True when they were away."""
        person = table.seats[seat]
        table.seen[seat] = self._clock.now()
        table.timers.strikes.pop(str(seat), None)
        if person is None or not person.away:
            return False
        person.away = False
        await self._writer.save(table)
        log.info("table %d: seat %d is back", table.id, seat)
        self._notices.note(table, "back", seat=seat)
        return True

    async def back(self, user_id: int) -> Table:
        """``/cuarenta back`` (or the "I'm back" button): take your seat back from the computer player.

        Raises:
            SeatError: the user is not seated at an open table. WrongStateError: the table is not in play.
        """
        table = self._registry.of_user(user_id)
        if table is None:
            raise SeatError("err.not_seated")
        async with self._locks.held(table):
            if table.status != PLAYING:
                raise WrongStateError("err.not_started" if table.status == LOBBY else "err.finished")
            seat = table.seat_of(user_id)
            if seat is None:
                raise SeatError("err.not_seated")
            was_away = await self.come_back(table, seat)
        if was_away:
            self._notices.after(table)
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
        mark_casual(table)
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

        table = await self._fetch(table_id)
        async with self._locks.held(table), self._writer.unchanged_on_error(table):
            if table.status != PLAYING:
                raise WrongStateError("err.finished" if not table.is_open else "err.not_started")
            seat = table.seat_of(user_id)
            if seat is None:
                raise SeatError("err.not_seated")
            name = table.seats[seat].name  # type: ignore[union-attr]
            locale = table.seats[seat].locale  # type: ignore[union-attr]
            new_host = self._substitute(table, seat)
            closed = self._close_if_nobody_left(table)
            await self._writer.save(table)
        log.info("table %d: seat %d handed to a computer player (%s)", table.id, seat, reason)
        self._notices.note(table, reason, seat=seat, name=name, user_id=user_id, locale=locale, ended=closed)
        if new_host is not None and not closed:
            self._notices.note(table, "host", name=new_host.name, user_id=new_host.user_id)
        self._notices.after(table, closed=closed)
        return LeaveResult(closed, new_host)

    async def kick(self, table_id: int, *, user_id: int, target_id: int, can_manage: bool = False) -> LeaveResult:
        """The host (or a member with Manage Server) removes a person: in a lobby the seat is freed, in play
        a computer player takes it.

        Raises:
            WrongStateError: the table is over. NotHostError: not allowed (``err.not_allowed_kick``; at a
            competition's table, `Table.refereed`, only a member who can manage the server may:
            ``err.kick_refereed``). SeatError: the target is not seated, or is the one asking.
        """

        table = await self._fetch(table_id)
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
        async with self._locks.held(table), self._writer.unchanged_on_error(table):
            if table.status != LOBBY:
                raise WrongStateError("err.finished")
            if table.host_id != user_id and not can_manage:  # the host may have passed while we waited
                raise NotHostError("err.not_allowed_kick")
            seat = table.seat_of(target_id)
            if seat is None:
                raise SeatError("err.kick_not_seated")
            name = table.seats[seat].name  # type: ignore[union-attr]
            table.seats[seat] = None
            new_host = self._pass_host(table, target_id, seat)
            closed = not table.humans()
            if closed:
                table.status = CLOSED
            await self._writer.save(table)
        self._notices.note(table, "kicked", seat=seat, name=name, user_id=target_id, ended=closed)
        self._notices.after(table, lobby=not closed, closed=closed)
        return LeaveResult(closed, new_host)

    async def channel_gone(self, channel_id: int) -> Table | None:
        """The table's channel or thread was deleted (CHANNEL_DELETE, THREAD_DELETE, a write answered
        10003 Unknown Channel, or missing at a reconcile): the table ends at once and frees its players,
        and nothing more is written to that channel."""
        table = self._registry.in_channel(channel_id)
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
        for table in self._registry.open_in_guild(guild_id):
            if not await exists(table.channel_id):
                if await self.channel_gone(table.channel_id) is not None:
                    ended.append(table)
        if ended:
            log.info("guild %d: %d tables ended, their channels are gone", guild_id, len(ended))
        return ended

    async def guild_gone(self, guild_id: int) -> list[Table]:
        """The bot left (or was removed from) a server: its open tables end and free their players;
        nothing more is written to the server's channels."""
        tables = self._registry.open_in_guild(guild_id)
        for table in tables:
            table.channel_gone = True
            await self._force_close(table, "server left")
        return tables

    async def _force_close(self, table: Table, why: str) -> None:
        async with self._locks.held(table):
            if not table.is_open:
                return
            table.status = CLOSED
            await self._writer.save(table)
        log.info("table %d ended: %s", table.id, why)
        self._notices.after(table, closed=True)
