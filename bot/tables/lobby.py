"""The lobby of a table: open it, sit, seat computer players, leave, start, and the host's changes to its
house rules, and the rematch's new mesa. `Lobby` is a part of `bot.tables.service.TableService`. Every
refusal raises a `TableError` subclass and changes nothing.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from dataclasses import replace
from typing import Any

from bot.engine import Event, Game, Rules, RulesError
from bot.houserules.menu import HouseRuleError
from bot.houserules.menu import apply as apply_house_rules
from bot.houserules.settings import HouseSettingsRepo
from bot.store import ChannelBusyError as StoreChannelBusy
from bot.store import Store

from .errors import ChannelBusyError, NotHostError, NotPlayingError, SeatError, TableError, WrongStateError
from .memory import TableRegistry
from .model import CLOSED, FINISHED, LOBBY, PLAYING, TEAMS, LeaveResult, Seat, Table, TableOptions, link
from .notices import Notices
from .persistence import TableWriter
from .players import DEFAULT_LEVEL, SEAT_LEVELS
from .presence import TurnClock, clamp_turn_timer
from .shared import TableLocks
from .timers import Clock

log = logging.getLogger(__name__)


class Lobby:
    """Lobby operations of `TableService`.

    Args:
        store, clock: the tables' store and time. registry: the live tables. locks, writer: hold and save a
        table. turns: its clocks and the servers' turn timers. notices: tells the presenter. house: the
        servers' default house rules. seed_factory: makes a game seed. default_preset: a server's rules
        preset. fetch: a table by id (memory, then store).
    """

    def __init__(self, store: Store, clock: Clock, registry: TableRegistry, locks: TableLocks,
                 writer: TableWriter, turns: TurnClock, notices: Notices, house: HouseSettingsRepo,
                 seed_factory: Callable[[], str], default_preset: Callable[[int], Awaitable[str]],
                 fetch: Callable[[int], Awaitable[Table]]) -> None:
        self._store = store
        self._clock = clock
        self._registry = registry
        self._locks = locks
        self._writer = writer
        self._turns = turns
        self._notices = notices
        self._house = house
        self.seed_factory = seed_factory
        self._default_preset = default_preset
        self._fetch = fetch
        self.seating = asyncio.Lock()
        """Serialises every operation that seats a person (create, join, rematch) across all tables, so
        that "not seated elsewhere" and the seat it guards are one atomic step (taken before a table lock)."""

    async def create(
        self, *, guild_id: int, channel_id: int, user_id: int, name: str, locale: str, players: int = 4,
        preset: str | None = None, guild_name: str = "", channel_name: str = "", turn_timer: int | None = None,
        hints: bool = False, refereed: str | None = None,
    ) -> Table:
        """Open a table in a channel, with the host seated on team A. ``preset`` None: the guild's default
        rules preset. ``turn_timer``: seconds per turn (30–300; None: the guild's default turn timer).
        ``hints``: a practice table (hands show pistas; never rated). ``refereed``: the competition that opened it (``"queue"``, ``"league"``, ``"tournament"``;
        `Table.refereed`): its players cannot remove each other, and a league's or a tournament's mesa has
        no rematch (`Table.rematch_allowed`). The lobby closes itself if it has not started within 15
        minutes.

        Raises:
            ChannelBusyError: the channel holds an open table (params: table, link).
            SeatError: the host already sits at another table.
            TableError: bad players or preset.
        """
        if players not in (2, 4):
            raise TableError("err.illegal")
        house: dict[str, Any] = {}
        if preset is None:
            preset = await self._default_preset(guild_id)
            house = await self._default_house(guild_id, preset)
        try:
            Rules.preset(preset)
        except RulesError:
            raise TableError("err.bad_preset", preset=preset) from None
        async with self.seating:
            return await self._create_seated(
                guild_id=guild_id, channel_id=channel_id, user_id=user_id, name=name, locale=locale,
                players=players, preset=preset, guild_name=guild_name, channel_name=channel_name,
                turn_timer=turn_timer, hints=hints, house=house, refereed=refereed)

    async def _default_house(self, guild_id: int, preset: str) -> dict[str, Any]:
        """The server's default house rules on top of ``preset`` (what differs from it), or none when
        they no longer make a valid `Rules` with it."""
        house = (await self._house.get(guild_id)).house
        if not house:
            return {}
        base = Rules.preset(preset)
        cleaned = {k: v for k, v in house.items() if hasattr(base, k) and getattr(base, k) != v}
        try:
            apply_house_rules(preset, cleaned)
        except HouseRuleError:
            log.info("guild %d: default house rules do not fit preset %s; not applied", guild_id, preset)
            return {}
        return cleaned

    async def _create_seated(
        self, *, guild_id: int, channel_id: int, user_id: int, name: str, locale: str, players: int,
        preset: str, guild_name: str, channel_name: str, turn_timer: int | None, hints: bool = False,
        house: dict[str, Any] | None = None, refereed: str | None = None,
    ) -> Table:
        """`create` under the seating lock: the checks and the new table's insert are one step."""
        busy = self._registry.in_channel(channel_id)
        if busy is not None:
            raise ChannelBusyError(table=busy.id, link=link(busy))
        self._check_not_seated_elsewhere(user_id, None)
        seats: list[Seat | None] = [None] * players
        seats[0] = Seat(user_id, name, locale=locale)
        options = TableOptions(guild_name=guild_name, channel_name=channel_name, hints=hints,
                               refereed=refereed or None, house=dict(house or {}),
                               house_rated=bool(house) and (await self._house.get(guild_id)).rated)
        try:
            table_id = await self._store.create_table(
                guild_id=guild_id, channel_id=channel_id, host_id=user_id, players=players, preset=preset,
                seats=[s.to_dict() if s else None for s in seats], meta=options.to_dict(),
            )
        except StoreChannelBusy:
            raise ChannelBusyError(table="?", link=f"<#{channel_id}>") from None
        table = Table(id=table_id, guild_id=guild_id, channel_id=channel_id, host_id=user_id,
                      players=players, preset=preset, seats=seats, options=options)
        table.timers.turn_timer = (clamp_turn_timer(turn_timer) if turn_timer is not None
                                   else await self._turns.guild_turn_timer(guild_id))
        self._registry.add(table)
        await self._turns.start_lobby(table)
        log.info("table %d created in channel %d (%d players, %s)", table_id, channel_id, players, preset)
        self._notices.after(table, lobby=True)
        return table

    def check_host(self, user_id: int) -> None:
        """Refuse now what `create` would refuse for this host (seated at another table), before a caller
        spends work on a place for the table (a thread opened for it). `create` checks again, under the
        seating lock.

        Raises:
            SeatError: the user already sits at another table (params: table, channel).
        """
        self._check_not_seated_elsewhere(user_id, None)

    def _check_not_seated_elsewhere(self, user_id: int, table: Table | None) -> None:
        other = self._registry.of_user(user_id)
        if other is not None and other is not table:
            raise SeatError("err.seated_elsewhere", table=other.id, channel=other.channel_id)

    @staticmethod
    def _require_lobby(table: Table) -> None:
        if table.status == PLAYING:
            raise WrongStateError("err.not_lobby")
        if table.status in (FINISHED, CLOSED):
            raise WrongStateError("err.finished")

    async def join(self, table_id: int, *, user_id: int, name: str, locale: str,
                   team: int | None = None) -> int:
        """Seat a user; ``team`` 0 (A), 1 (B) or None (the emptier team, A on a tie). Returns the team.
        A table that becomes full starts.

        Raises:
            SeatError: already seated here (said even once the table started), or elsewhere; team or table
            full. WrongStateError: not a lobby.
        """
        table = await self._fetch(table_id)
        async with self.seating, self._locks.held(table), self._writer.unchanged_on_error(table):
            if table.is_open and table.seat_of(user_id) is not None:  # said first: told where they sit
                raise SeatError("err.already_seated", table=table.id)
            self._require_lobby(table)
            self._check_not_seated_elsewhere(user_id, table)
            team = self._pick_team(table, team)
            seat = table.free_seats(team)[0]
            table.seats[seat] = Seat(user_id, name, locale=locale)
            table.seen[seat] = self._clock.now()
            events = await self._maybe_start(table)
            await self._writer.save(table)
        log.info("table %d: user %d joined seat %d", table.id, user_id, seat)
        self._notices.after(table, lobby=True, events=events)
        return team

    def _pick_team(self, table: Table, team: int | None) -> int:
        if team is None:
            free = [len(table.free_seats(t)) for t in (0, 1)]
            if free == [0, 0]:
                raise SeatError("err.table_full")
            return 0 if free[0] >= free[1] else 1
        if not table.free_seats(team):
            raise SeatError("err.team_full", team=TEAMS[team])
        return team

    async def add_computer(self, table_id: int, *, user_id: int, team: int | None = None,
                           level: str = DEFAULT_LEVEL) -> int:
        """Seat a computer player of ``level`` (`SEAT_LEVELS`; only the host picks them). Returns its team.
        A full table starts.

        Raises:
            TableError ``err.illegal``: not a level a seat can have. WrongStateError: not a lobby.
            NotPlayingError: the user is not seated. NotHostError: a seated player who is not the host.
            SeatError: no free seat.
        """
        if level not in SEAT_LEVELS:
            raise TableError("err.illegal")
        table = await self._fetch(table_id)
        async with self._locks.held(table), self._writer.unchanged_on_error(table):
            self._require_lobby(table)
            if table.seat_of(user_id) is None:
                raise NotPlayingError("err.not_seated")
            if table.host_id != user_id:
                raise NotHostError("err.host_only_computer")
            try:
                team = self._pick_team(table, team)
            except SeatError:
                raise SeatError("err.no_seat_for_bot") from None
            seat = table.free_seats(team)[0]
            table.seen[table.seat_of(user_id)] = self._clock.now()  # type: ignore[index]
            number = 1 + max((s.ai_number for s in table.seats if s is not None), default=0)
            table.seats[seat] = Seat(None, "", ai=level, ai_number=number)
            events = await self._maybe_start(table)
            await self._writer.save(table)
        log.info("table %d: computer player %d in seat %d", table.id, number, seat)
        self._notices.after(table, lobby=True, events=events)
        return team

    async def leave(self, table: Table, user_id: int) -> LeaveResult:
        """Unseat a user from a lobby. When the host leaves, the next person seated becomes host; with
        nobody left, the table closes.

        Raises:
            WrongStateError: the table started or ended. SeatError: not seated.
        """
        async with self._locks.held(table), self._writer.unchanged_on_error(table):
            self._require_lobby(table)
            seat = table.seat_of(user_id)
            if seat is None:
                raise SeatError("err.not_seated")
            table.seats[seat] = None
            result = LeaveResult(False, None)
            if table.host_id == user_id:
                humans = table.humans()
                if humans:
                    table.host_id = humans[0][1].user_id
                    result = LeaveResult(False, humans[0][1])
                else:
                    table.status = CLOSED
                    result = LeaveResult(True, None)
            await self._writer.save(table)
        log.info("table %d: user left seat %d%s", table.id, seat, " (closed)" if result.closed else "")
        if result.closed:
            self._notices.after(table, closed=True)
        else:
            self._notices.after(table, lobby=True)
        return result

    async def start(self, table_id: int, *, user_id: int) -> None:
        """The host starts the table; empty seats are filled with computer players.

        Raises:
            WrongStateError: not a lobby. NotHostError: not the host.
        """
        table = await self._fetch(table_id)
        async with self._locks.held(table), self._writer.unchanged_on_error(table):
            self._require_lobby(table)
            if table.host_id != user_id:
                raise NotHostError()
            table.seen[table.seat_of(user_id)] = self._clock.now()  # type: ignore[index]
            number = max((s.ai_number for s in table.seats if s is not None), default=0)
            for i, seat in enumerate(table.seats):
                if seat is None:
                    number += 1
                    table.seats[i] = Seat(None, "", ai=DEFAULT_LEVEL, ai_number=number)
            events = await self._maybe_start(table)
            await self._writer.save(table)
        self._notices.after(table, lobby=True, events=events)

    async def change_lobby(self, table_id: int, *, user_id: int, change: Callable[[Table], None]) -> Table:
        """A host's change to a lobby's settings (its house rules): ``change(table)`` mutates the table
        under its lock; the change is persisted and the lobby re-rendered. A change that raises leaves the
        table as it was. A started table's rules never change.

        Raises:
            WrongStateError: not a lobby. NotHostError ``err.host_only_house``: not the host. Whatever
            ``change`` raises.
        """
        table = await self._fetch(table_id)
        async with self._locks.held(table), self._writer.unchanged_on_error(table):
            self._require_lobby(table)
            if table.host_id != user_id:
                raise NotHostError("err.host_only_house")
            change(table)
            await self._writer.save(table)
        self._notices.after(table, lobby=True)
        return table

    async def refresh_lobbies(self, guild_id: int, change: Callable[[Table], bool]) -> int:
        """Apply a server setting's ``change`` to each open lobby of ``guild_id`` under its lock; a lobby
        the change touched (it returns True) is persisted and re-rendered. Returns how many changed."""
        changed = 0
        for table in [t for t in self._registry.tables.values() if t.guild_id == guild_id and t.status == LOBBY]:
            async with self._locks.held(table), self._writer.unchanged_on_error(table):
                if table.status != LOBBY or not change(table):
                    continue
                await self._writer.save(table)
            self._notices.after(table, lobby=True)
            changed += 1
        return changed

    async def _maybe_start(self, table: Table) -> list[Event] | None:
        """Deal when the table is full (under the lock); returns the deal's events."""
        if not table.is_full or table.status != LOBBY:
            return None
        table.seed = table.seed or self.seed_factory()
        table.game = Game.new(table.rules, table.players, table.seed)
        table.status = PLAYING
        table.timers.started = self._clock.now()
        if table.house:  # decided once, at the start, as the lobby said
            table.options = replace(table.options, house_rated=(await self._house.get(table.guild_id)).rated)
        log.info("table %d started", table.id)
        return list(table.game.events)

    async def open_rematch(self, old: Table, user_id: int) -> Table:
        """Every person of the finished ``old`` accepted a rematch: open a new table in its channel with the
        same seats (``user_id`` its host) and deal (its lobby and table messages follow).

        Raises:
            ChannelBusyError (another table is open in the channel), SeatError (someone sits at another
            table).
        """
        async with self.seating:
            return await self._open_rematch(old, user_id)

    async def _open_rematch(self, old: Table, user_id: int) -> Table:
        """Open a new table in the channel of the finished ``old`` with the same seats (``user_id`` its
        host) and start it at once, under the seating lock (`open_rematch`). A second
        call (the rematch of ``old`` is already open and ``user_id`` sits there) gets that same table back.

        Raises:
            ChannelBusyError (another table is open in the channel), SeatError (someone sits at another
            table).
        """
        busy = self._registry.in_channel(old.channel_id)
        if busy is not None:
            if busy.options.rematch_of == old.id and busy.seat_of(user_id) is not None:
                return busy
            raise ChannelBusyError(table=busy.id, link=link(busy))
        for _, seat in old.humans():
            other = self._registry.of_user(seat.user_id)  # type: ignore[arg-type]
            if other is not None and seat.user_id != user_id:
                raise SeatError("err.player_seated_elsewhere", name=seat.name, table=other.id,
                                channel=other.channel_id)
            self._check_not_seated_elsewhere(seat.user_id, None)  # type: ignore[arg-type]
        seats = [Seat.from_dict({**s.to_dict(), "away": False}) if s else None for s in old.seats]
        # a rematch is a casual table, even after a queue match (and starts with no seat history)
        options = replace(old.options, refereed=None, queue_match=None, rematch_of=old.id)
        try:
            table_id = await self._store.create_table(
                guild_id=old.guild_id, channel_id=old.channel_id, host_id=user_id, players=old.players,
                preset=old.preset, seats=[s.to_dict() if s else None for s in seats], meta=options.to_dict(),
            )
        except StoreChannelBusy:
            raise ChannelBusyError(table="?", link=f"<#{old.channel_id}>") from None
        table = Table(id=table_id, guild_id=old.guild_id, channel_id=old.channel_id, host_id=user_id,
                      players=old.players, preset=old.preset, seats=seats, options=options)
        table.timers.turn_timer = old.timers.turn_timer
        self._registry.add(table)
        async with self._locks.held(table):
            events = await self._maybe_start(table)
            await self._writer.save(table)
        self._notices.after(table, lobby=True, events=events)
        return table
