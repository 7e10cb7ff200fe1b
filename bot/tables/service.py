"""The table service: the only place a table's lifecycle lives.

It takes user intents (create, join, add a computer player, leave, start, play card X with capture Y,
end, rematch), validates them against the seats and the engine under the table's lock, persists every
accepted change before moving on, and tells the presenter through a `Notifier` (no discord import).

`TableService` is a façade over parts that each own their state and are put together here:

- `TableRegistry` (`memory`): the live tables, and ended ones leaving memory;
- `TableLocks` (`shared`): a table held for one change (its asyncio lock, and its row on PostgreSQL);
- `TableWriter` (`persistence`): saving a table and applying a play;
- `TurnClock` and `Presence` (`presence`): deadlines, alarms, AFK, leaving, kicks, gone channels;
- `Lobby` (`lobby`): opening, seating, starting, and the rematch's new mesa;
- `ReadyChecks` (`rematch`): rematch ready checks;
- `ComputerPlayers` (`computer`): computer moves;
- `Notices` (`notices`) and `Background` (`background`): the presenter, told in order, and background work.

Every refusal raises a `TableError` subclass and changes nothing.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from bot.engine import Card, CardError, Event, GameView, Play, RefusedPlayError
from bot.houserules.settings import HouseSettingsRepo
from bot.ratings import Ratings
from bot.store import Store

from .background import Background
from .choices import distinct_captures
from .computer import ComputerPlayers
from .errors import (
    IllegalPlayError,
    NoTableHereError,
    NotHostError,
    NotPlayingError,
    NotYourTurnError,
    SeatError,
    StaleError,
    UnknownTableError,
    WrongStateError,
)
from .lobby import Lobby
from .memory import TableRegistry
from .model import CLOSED, LOBBY, PLAYING, LeaveResult, Table, link
from .notices import Notices
from .persistence import MesaHook, TableWriter, game_of, table_of_row
from .players import DEFAULT_LEVEL
from .ports import Notifier
from .presence import Presence, TurnClock
from .rated import ChicaRecords
from .rematch import ReadyCheck, ReadyChecks
from .shared import TableLocks
from .timers import Clock, Scheduler, SystemClock

log = logging.getLogger(__name__)

Offload = Callable[..., Awaitable[Any]]

_game_of = game_of  # the name tests and tools import


@dataclass(frozen=True)
class Choice:
    """The clicked card can capture in several ways: the player must choose one (nothing changed).

    Attributes:
        card: the card clicked. options: its capture plays. can_trail: trailing it is legal too.
        view: the seat's view, to describe the options.
    """

    card: Card
    options: tuple[Play, ...]
    can_trail: bool
    view: GameView


@dataclass(frozen=True)
class Played:
    """A play was accepted and persisted. ``events`` are what it caused; ``seat`` who played."""

    seat: int
    play: Play
    events: tuple[Event, ...]


class TableService:
    """Tables in memory (the truth is the store), one `asyncio.Lock` per table; a façade over its parts
    (see the module docstring), each reachable as an attribute.

    Args:
        store: the open `Store`.
        notifier: the presenter; set later with `set_notifier` if needed.
        ai_delay: seconds a computer player waits before playing (0 in tests).
        seed_factory: makes a game seed (default: random 63-bit); tests pass a fixed one.
        offload: runs slow pure work off the loop (default `asyncio.to_thread`).
        ratings: the ratings repository (default: one over ``store.db``).
        clock: the `Clock` of every timer (turns, reminders, lobby timeout, computer players' pause);
            default `SystemClock`. Tests inject one they advance.
    """

    def __init__(
        self,
        store: Store,
        notifier: Notifier | None = None,
        *,
        ai_delay: float = 0.8,
        seed_factory: Callable[[], str] | None = None,
        offload: Offload | None = None,
        ratings: Ratings | None = None,
        clock: Clock | None = None,
    ) -> None:
        self.store = store
        self.clock: Clock = clock or SystemClock()
        self.ratings = ratings or Ratings(store.db)
        self.offload: Offload = offload or asyncio.to_thread
        self.house = HouseSettingsRepo(store)
        """Each server's default house rules and whether mesas under house rules are rated."""
        self.mesa_hooks: list[MesaHook] = []
        """Called with the table inside the transaction that saves the last play of a mesa, in the same
        task: run SQL through ``store.db`` (it joins that transaction; do not open another connection or
        commit). Competitions record their results here, exactly once, as ratings are. A hook that raises
        rolls the play back."""
        self.serves_guild: Callable[[int], bool] = lambda _guild_id: True
        """Whether this process runs the shard of a server (`bot.config.Settings.runs_guild`): a restart
        restores only those servers' open tables and rematch checks, and every other table is loaded
        at its first click (`fetch`). Several processes over one PostgreSQL thus resume each table once."""
        self._languages: dict[int, str] = {}

        self.background = Background()
        self.scheduler = Scheduler(self.clock, self.background.spawn)
        self.notices = Notices(self.background, self.clock, notifier, then=self._kick_ai)
        self.registry = TableRegistry(self.scheduler, self.clock, self.notices,
                                      pinned=self._pinned, dropped=self._dropped)
        self.chicas = ChicaRecords(store, self.ratings, self.registry.get)
        self.turns = TurnClock(self.clock, self.scheduler, store, keep=self.registry.keep)
        self.locks = TableLocks(store, self.turns.arm, self.background, self.notices, live=self.registry.get,
                                tables=lambda: list(self.registry.tables), sleep=self.clock.sleep)
        self.writer = TableWriter(store, self.turns, self.mesa_hooks, lambda table: self._record_chicas(table),
                                  self.clock)
        self.presence = Presence(self.clock, self.registry, self.locks, self.writer, self.turns, self.notices,
                                 self.offload, self.fetch)
        self.turns.bind(self.presence)
        self.lobby = Lobby(store, self.clock, self.registry, self.locks, self.writer, self.turns, self.notices,
                           self.house, seed_factory or (lambda: str(secrets.randbits(63))), self.default_preset,
                           self.fetch)
        self.rematch = ReadyChecks(self.clock, self.scheduler, store, self.registry, self.notices, self.fetch,
                                   self._adopt, self.lobby.open_rematch)
        self.computer = ComputerPlayers(self.clock, ai_delay, self.offload, self.background, self.locks,
                                        self.writer, self.notices)

    # ------------------------------------------------------------------ the parts' state, for callers and tests

    @property
    def notifier(self) -> Notifier:
        """The presenter."""
        return self.notices.notifier

    def set_notifier(self, notifier: Notifier) -> None:
        """Attach the presenter."""
        self.notices.notifier = notifier

    @property
    def tables(self) -> dict[int, Table]:
        """The tables in memory, by id (`TableRegistry.tables`)."""
        return self.registry.tables

    @property
    def ai_delay(self) -> float:
        """Seconds a computer player waits before playing."""
        return self.computer.delay

    @ai_delay.setter
    def ai_delay(self, seconds: float) -> None:
        self.computer.delay = seconds

    @property
    def seed_factory(self) -> Callable[[], str]:
        """Makes a game seed."""
        return self.lobby.seed_factory

    @property
    def _tasks(self) -> set[asyncio.Task[Any]]:
        return self.background.tasks

    @property
    def _ai_tasks(self) -> dict[int, asyncio.Task[Any]]:
        return self.computer.tasks

    @property
    def _reposted(self) -> dict[int, float]:
        return self.notices.reposted

    @property
    def _checks(self) -> dict[int, ReadyCheck]:
        return self.rematch.checks

    def _kick_ai(self, table: Table) -> None:
        """Make sure a computer player whose turn it is will play."""
        self.computer.kick(table)

    def _pinned(self, table_id: int) -> bool:
        """An ended table stays in memory while its rematch check is open."""
        return self.rematch.is_open(table_id)

    def _dropped(self, table_id: int) -> None:
        """A table left memory: what the parts keep for it goes too."""
        self.rematch.let_go(table_id)
        self.notices.forget(table_id)
        self.computer.forget(table_id)

    def _adopt(self, table: Table) -> Table:
        """Keep ``table``, just read from the store, unless a copy is kept already (`TableRegistry.adopt`);
        a table kept now has its alarms armed (an ended one leaves memory again later)."""
        kept = self.registry.adopt(table)
        if kept is table:
            self.turns.arm(table)
        return kept

    # ------------------------------------------------------------------ loading

    async def load(self) -> int:
        """Restore every open table of the servers this process serves (`serves_guild`) from the store
        (after a restart) and resume computer players whose turn it is. Returns the number of tables
        restored."""
        rows = [row for row in await self.store.load_open_tables() if self.serves_guild(row.guild_id)]
        now = self.clock.now()
        for row in rows:
            table = table_of_row(row)
            self.registry.add(table)
            # who acted when is kept in memory only; after a restart everyone counts as just seen, so
            # the hands are edited in place (an open capture menu stays) rather than re-sent as alerts
            table.seen.update({seat: now for seat, _ in table.humans()})
            await self.turns.resume(table)
            if table.status == PLAYING:
                self.background.spawn(self._resume(table))
        log.info("restored %d open tables", len(rows))
        self.locks.follow()
        await self.resume_rematch_checks()
        await self.catch_up_ratings()
        return len(rows)

    async def _resume(self, table: Table) -> None:
        await self.notices.resumed(table)
        self._kick_ai(table)

    async def close(self) -> None:
        """Stop background work (computer players, notifications) before the store closes."""
        await self.background.close()

    # ------------------------------------------------------------------ ratings

    def is_casual(self, table: Table) -> bool:
        """True when the chicas of this table must not be rated (`ChicaRecords.is_casual`)."""
        return self.chicas.is_casual(table)

    async def _record_chicas(self, table: Table) -> None:
        """Inside the transaction saving a play that ended a chica: record and rate it (`ChicaRecords.record`)."""
        await self.chicas.record(table)

    async def catch_up_ratings(self) -> int:
        """Record the finished chicas not recorded yet, e.g. after a restart (`ChicaRecords.catch_up`).
        Returns how many were recorded now."""
        return await self.chicas.catch_up()

    async def seat_names(self, guild_id: int, user_ids: list[int]) -> dict[int, str]:
        """The names users had at their last seat in this guild (boards fall back on them)."""
        return await self.store.seat_names(guild_id, user_ids)

    async def default_preset(self, guild_id: int) -> str:
        """The rules preset of new tables in a guild (the server setting; ``quito`` by default)."""
        return (await self.ratings.settings(guild_id)).default_preset

    async def table_place(self, guild_id: int) -> str:
        """Where a guild's new tables play: ``"channel"`` or ``"thread"`` (`bot.ratings.Settings.table_place`)."""
        return (await self.ratings.settings(guild_id)).table_place

    # ------------------------------------------------------------------ queries

    def get(self, table_id: int) -> Table:
        """The table with this id in memory: open, or ended less than `bot.tables.memory.KEEP_ENDED`
        seconds ago (`fetch` also reads the store).

        Raises:
            UnknownTableError: no such table in memory.
        """
        table = self.registry.get(table_id)
        if table is None:
            raise UnknownTableError()
        return table

    async def fetch(self, table_id: int) -> Table:
        """Like `get`, but also looks in the store. An ended table read from the store is a fresh copy,
        not kept (a rematch asked for on it keeps one, so that several clicks share it); an open one opened
        by another process (PostgreSQL) is kept and served by this one from now on.

        Raises:
            UnknownTableError: no such table.
        """
        table = self.registry.get(table_id)
        if table is None:
            if not 0 < table_id < 2**63:  # SQLite integers are 64-bit: a forged id names no table
                raise UnknownTableError()
            row = await self.store.load_table(table_id)
            if row is None:
                raise UnknownTableError()
            table = table_of_row(row)
            if self.store.shared and table.is_open:
                table = self._adopt(table)  # two clicks that both read it: one copy
        return table

    async def forget_ended_with(self, user_id: int) -> int:
        """Drop from memory the ended tables where ``user_id`` sat or hosted (their data was just deleted
        and the stored rows anonymized: the next read is the stored row). Returns how many were dropped."""
        ended = [table.id for table in list(self.tables.values()) if not table.is_open and (
            table.host_id == user_id or any(s is not None and s.user_id == user_id for s in table.seats)
            or any(spell.held_by.user_id == user_id for spell in table.seat_history))]
        for table_id in ended:
            await self.registry.forget(table_id)
        return len(ended)

    def table_in_channel(self, channel_id: int) -> Table | None:
        """The open table of a channel, or None."""
        return self.registry.in_channel(channel_id)

    def require_table_in_channel(self, channel_id: int) -> Table:
        """The open table of a channel.

        Raises:
            NoTableHereError: none.
        """
        table = self.table_in_channel(channel_id)
        if table is None:
            raise NoTableHereError()
        return table

    def table_of_user(self, user_id: int) -> Table | None:
        """The open table where a user sits, or None (a user sits at one table at a time)."""
        return self.registry.of_user(user_id)

    def link(self, table: Table) -> str:
        """A jump link to the table's current message (or the channel mention)."""
        return link(table)

    def hand_view(self, table: Table, user_id: int) -> tuple[int, GameView]:
        """The seat of a player and what it may see.

        Raises:
            NotPlayingError: the user has no seat. WrongStateError: the game has not started.
        """
        seat = table.seat_of(user_id)
        if seat is None:
            raise NotPlayingError()
        if table.game is None:
            raise WrongStateError("err.not_started")
        table.seen[seat] = self.clock.now()
        return seat, table.game.view(seat)

    async def public_language(self, guild_id: int) -> str:
        """The language of a guild's public messages (default Spanish)."""
        lang = self._languages.get(guild_id)
        if lang is None:
            lang = await self.store.guild_language(guild_id) or "es"
            self._languages[guild_id] = lang
        return lang

    async def set_public_language(self, guild_id: int, lang: str) -> None:
        """Choose a guild's public language: ``"es"``, ``"en"`` or ``"pt"`` (`bot.i18n.LANGUAGES`)."""
        await self.store.set_guild_language(guild_id, lang)
        self._languages[guild_id] = lang

    # ------------------------------------------------------------------ the lobby

    async def create(
        self, *, guild_id: int, channel_id: int, user_id: int, name: str, locale: str, players: int = 4,
        preset: str | None = None, guild_name: str = "", channel_name: str = "", turn_timer: int | None = None,
        hints: bool = False, refereed: str | None = None,
    ) -> Table:
        """Open a table in a channel (`Lobby.create`, which says what the arguments mean and what it raises)."""
        return await self.lobby.create(
            guild_id=guild_id, channel_id=channel_id, user_id=user_id, name=name, locale=locale, players=players,
            preset=preset, guild_name=guild_name, channel_name=channel_name, turn_timer=turn_timer, hints=hints,
            refereed=refereed)

    def check_host(self, user_id: int) -> None:
        """Refuse now what `create` would refuse for this host (`Lobby.check_host`; raises `SeatError`)."""
        self.lobby.check_host(user_id)

    async def join(self, table_id: int, *, user_id: int, name: str, locale: str, team: int | None = None) -> int:
        """Seat a user; returns the team (`Lobby.join`)."""
        return await self.lobby.join(table_id, user_id=user_id, name=name, locale=locale, team=team)

    async def add_computer(self, table_id: int, *, user_id: int, team: int | None = None,
                           level: str = DEFAULT_LEVEL) -> int:
        """The host seats a computer player; returns its team (`Lobby.add_computer`)."""
        return await self.lobby.add_computer(table_id, user_id=user_id, team=team, level=level)

    async def leave(self, table_id: int, *, user_id: int) -> LeaveResult:
        """Leave a table: a lobby seat is freed (`Lobby.leave`); in play a computer player takes the seat
        (`Presence.leave_game`).

        Raises:
            WrongStateError: the table ended. SeatError: not seated.
        """
        table = await self.fetch(table_id)
        if table.status == PLAYING:
            return await self.presence.leave_game(table_id, user_id=user_id)
        return await self.lobby.leave(table, user_id)

    async def start(self, table_id: int, *, user_id: int) -> None:
        """The host starts the table (`Lobby.start`)."""
        await self.lobby.start(table_id, user_id=user_id)

    async def change_lobby(self, table_id: int, *, user_id: int, change: Callable[[Table], None]) -> Table:
        """A host's change to a lobby's settings (`Lobby.change_lobby`)."""
        return await self.lobby.change_lobby(table_id, user_id=user_id, change=change)

    async def refresh_lobbies(self, guild_id: int, change: Callable[[Table], bool]) -> int:
        """A server setting's change to each open lobby of it (`Lobby.refresh_lobbies`)."""
        return await self.lobby.refresh_lobbies(guild_id, change)

    # ------------------------------------------------------------------ timers and people coming and going

    async def guild_turn_timer(self, guild_id: int) -> int:
        """A server's default turn timer (the stored setting, else 90 s)."""
        return await self.turns.guild_turn_timer(guild_id)

    async def set_guild_turn_timer(self, guild_id: int, seconds: int) -> None:
        """Set a server's default turn timer (30–300 s; for ``/cuarenta settings``)."""
        await self.turns.set_guild_turn_timer(guild_id, seconds)

    async def back(self, user_id: int) -> Table:
        """``/cuarenta back``: take your seat back from the computer player (`Presence.back`)."""
        return await self.presence.back(user_id)

    async def leave_game(self, table_id: int, *, user_id: int, reason: str = "left") -> LeaveResult:
        """Leave a table in play (`Presence.leave_game`)."""
        return await self.presence.leave_game(table_id, user_id=user_id, reason=reason)

    async def kick(self, table_id: int, *, user_id: int, target_id: int, can_manage: bool = False) -> LeaveResult:
        """The host (or a member with Manage Server) removes a person (`Presence.kick`)."""
        return await self.presence.kick(table_id, user_id=user_id, target_id=target_id, can_manage=can_manage)

    async def member_gone(self, guild_id: int, user_id: int) -> Table | None:
        """A member left the server or was removed from it: they leave their table of that server (a lobby
        seat is freed; in play a computer player takes it). Returns the table, if any."""
        table = self.registry.of_user(user_id)
        if table is None or table.guild_id != guild_id:
            return None
        try:
            if table.status == PLAYING:
                await self.presence.leave_game(table.id, user_id=user_id, reason="removed")
            else:
                await self.leave(table.id, user_id=user_id)
        except (SeatError, WrongStateError):
            return None
        return table

    async def channel_gone(self, channel_id: int) -> Table | None:
        """The table's channel or thread was deleted: the table ends (`Presence.channel_gone`)."""
        return await self.presence.channel_gone(channel_id)

    async def reconcile_guild(self, guild_id: int, exists: Callable[[int], Awaitable[bool]]) -> list[Table]:
        """End the open tables of a server whose channel is gone (`Presence.reconcile_guild`)."""
        return await self.presence.reconcile_guild(guild_id, exists)

    async def guild_gone(self, guild_id: int) -> list[Table]:
        """The bot left a server: its open tables end (`Presence.guild_gone`)."""
        return await self.presence.guild_gone(guild_id)

    # ------------------------------------------------------------------ rematch

    def ready_check(self, table_id: int) -> ReadyCheck | None:
        """The ready check of a finished table, open or just ended, or None."""
        return self.rematch.ready_check(table_id)

    async def ask_rematch(self, table_id: int, *, user_id: int) -> ReadyCheck:
        """A player of a finished table asks for a rematch (`ReadyChecks.ask_rematch`)."""
        return await self.rematch.ask_rematch(table_id, user_id=user_id)

    async def vote_rematch(self, table_id: int, *, user_id: int, accept: bool) -> ReadyCheck:
        """A person answers the ready check (`ReadyChecks.vote_rematch`)."""
        return await self.rematch.vote_rematch(table_id, user_id=user_id, accept=accept)

    async def rematch_posted(self, check: ReadyCheck) -> None:
        """The presenter posted the message of ``check`` (`ReadyChecks.rematch_posted`)."""
        await self.rematch.rematch_posted(check)

    async def resume_rematch_checks(self) -> int:
        """After a restart: resume the kept open checks of the servers this process serves
        (`ReadyChecks.resume`). Returns how many."""
        return await self.rematch.resume(self.serves_guild)

    # ------------------------------------------------------------------ several processes (PostgreSQL)

    async def behind(self, table: Table) -> bool:
        """Whether another process saved ``table`` since this one loaded or saved it (`TableLocks.behind`)."""
        return await self.locks.behind(table)

    async def catch_up(self, table: Table) -> None:
        """Reload ``table`` if another process saved it since (`TableLocks.catch_up`)."""
        await self.locks.catch_up(table)

    # ------------------------------------------------------------------ playing

    async def play(self, table_id: int, *, user_id: int, nonce: int, card: str,
                   captures: str | None = None, trail: bool = False, ask: bool = False) -> Played | Choice:
        """A player plays ``card`` from the hand shown at turn ``nonce``.

        Args:
            captures: the chosen capture as card codes (``"3C 4H JS"``), from the second step; empty or
                with a card twice, it is refused (`IllegalPlayError`).
            trail: trail the card even though it could capture (the explicit trail control).
            ask: only ask which capture (a page of the capture menu): the `Choice` of a card that has one;
                any other card is refused (`IllegalPlayError`), and nothing is ever played.

        Returns:
            `Played` once accepted and persisted; or `Choice` when the card can capture in several ways
            and neither ``captures`` nor ``trail`` says which (nothing changed).

        Raises (and change nothing about the game):
            UnknownTableError, WrongStateError (not started / finished), NotPlayingError,
            NotYourTurnError (params: seat), StaleError, IllegalPlayError.

        A seated person who was away (two expired turns) is back from any click on their hand,
        even a refused one: that presence change is the one effect a refused click can have.
        """
        table = await self.fetch(table_id)
        async with self.locks.held(table):
            seat = table.seat_of(user_id)
            if seat is None:  # first: someone not seated is told so, whatever the table's state
                raise NotPlayingError()
            if table.status == LOBBY:
                raise WrongStateError("err.not_started")
            if table.status != PLAYING or table.game is None or table.game.is_over:
                raise WrongStateError("err.finished")
            await self.presence.come_back(table, seat)  # a click on their hand: the person is here
            game = table.game
            if nonce != table.nonce:
                if game.to_play != seat:
                    raise NotYourTurnError(seat=game.to_play)
                raise StaleError()
            if game.to_play != seat:
                raise NotYourTurnError(seat=game.to_play)
            try:
                the_card = Card.parse(card)
                options = game.plays_for(the_card)
            except (CardError, RefusedPlayError):
                raise IllegalPlayError("err.card_not_in_hand") from None
            capture_options = distinct_captures((p for p in options if p.captures), game.view(seat))
            can_trail = any(p.is_trail for p in options)
            if ask:
                if len(capture_options) > 1:
                    return Choice(the_card, capture_options, can_trail, game.view(seat))
                raise IllegalPlayError()  # no menu for this card: a page of one plays nothing
            if trail:
                if not can_trail:
                    raise IllegalPlayError("err.must_capture", card=str(the_card))
                play = Play.trail(the_card)
            elif captures is not None:
                codes = captures.split()
                if not codes or len(set(codes)) != len(codes):
                    raise IllegalPlayError()  # no capture chosen (a trail is ``trail``), or a card twice
                try:
                    play = Play.parse(the_card, captures)
                except CardError:
                    raise IllegalPlayError() from None
                if play not in options:
                    raise IllegalPlayError()
            elif len(capture_options) > 1:
                return Choice(the_card, capture_options, can_trail, game.view(seat))
            elif capture_options:
                play = capture_options[0]
            else:
                play = Play.trail(the_card)
            events = await self.writer.apply(table, seat, play)
            table.timed_out.pop(seat, None)
        self.notices.after(table, events=events)
        return Played(seat, play, tuple(events))

    def request_repost(self, table: Table) -> None:
        """Re-post the table message at the bottom of the channel, at most once per
        `bot.tables.notices.REPOST_COOLDOWN` seconds per table (`Notices.request_repost`, which says what it
        raises)."""
        self.notices.request_repost(table, first=self.locks.current)

    # ------------------------------------------------------------------ ending

    async def end(self, table_id: int, *, user_id: int, can_manage: bool = False) -> Table:
        """End an open table (the host, or a member with Manage Server; at a competition's table,
        `Table.refereed`, only the latter, since the competition decides what an ended mesa counts for).

        Raises:
            WrongStateError: already finished or closed. NotHostError: not allowed (``err.not_allowed_end``,
            ``err.end_refereed``).
        """
        table = await self.fetch(table_id)
        async with self.locks.held(table), self.writer.unchanged_on_error(table):
            if not table.is_open:
                raise WrongStateError("err.finished")
            if table.refereed and not can_manage:  # a player could end a refereed mesa they are losing
                raise NotHostError("err.end_refereed")
            if table.host_id != user_id and not can_manage:
                raise NotHostError("err.not_allowed_end")
            table.status = CLOSED
            await self.writer.save(table)
        log.info("table %d ended by user %d", table.id, user_id)
        self.notices.after(table, closed=True)
        return table
