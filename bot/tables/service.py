"""The table service: the only place a table's lifecycle lives.

It takes user intents (create, join, add a computer player, leave, start, play card X with capture Y,
end, rematch), validates them against the seats and the engine under the table's lock, persists every
accepted change before moving on, and tells the presenter through a `Notifier` (no discord import).

Every refusal raises a `TableError` subclass and changes nothing.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import Any

from bot import engine
from bot.engine import Card, CardError, Event, EventKind, Game, GameView, Play
from bot.houserules.settings import HouseSettingsRepo
from bot.ratings import Ratings, chica_results
from bot.store import Store, TableRow

from .choices import distinct_captures
from .errors import (
    IllegalPlayError,
    NoTableHereError,
    NotHostError,
    NotPlayingError,
    NotYourTurnError,
    StaleError,
    TableBusyError,
    TableError,
    UnknownTableError,
    WrongStateError,
)
from .lobby import LobbyMixin
from .memory import MemoryMixin
from .model import CLOSED, FINISHED, LOBBY, PLAYING, Messages, Seat, Table, Timers
from .notifier import Notifier, NullNotifier
from .players import DEFAULT_LEVEL, choose_play
from .presence import SUBSTITUTE_LEVEL, PresenceMixin
from .rematch import RematchMixin
from .shared import SharedTablesMixin
from .timers import Clock, Scheduler, SystemClock

log = logging.getLogger(__name__)

Offload = Callable[..., Awaitable[Any]]


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


class TableService(LobbyMixin, PresenceMixin, RematchMixin, MemoryMixin, SharedTablesMixin):
    """Tables in memory (the truth is the store), one `asyncio.Lock` per table.

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
        self.notifier: Notifier = notifier or NullNotifier()
        self.ai_delay = ai_delay
        self.seed_factory = seed_factory or (lambda: str(secrets.randbits(63)))
        self.offload: Offload = offload or asyncio.to_thread
        self.tables: dict[int, Table] = {}
        self._languages: dict[int, str] = {}
        self._tasks: set[asyncio.Task[Any]] = set()
        self._ai_tasks: dict[int, asyncio.Task[Any]] = {}
        self._closing = False
        self.scheduler = Scheduler(self.clock, self._spawn)
        self._seating = asyncio.Lock()
        """Serialises every operation that seats a person (create, join, rematch) across all tables, so
        that "not seated elsewhere" and the seat it guards are one atomic step (taken before a table lock)."""
        self._reposted: dict[int, float] = {}
        self.serves_guild: Callable[[int], bool] = lambda _guild_id: True
        """Whether this process runs the shard of a server (`bot.config.Settings.runs_guild`): a restart
        restores only those servers' open tables and rematch checks, and every other table is loaded
        at its first click (`fetch`). Several processes over one PostgreSQL thus resume each table once."""
        self.house = HouseSettingsRepo(store)
        """Each server's default house rules and whether mesas under house rules are rated (issue 14)."""
        self.mesa_hooks: list[Callable[[Table], Awaitable[None]]] = []
        """Called with the table inside the transaction that saves the last play of a mesa, in the same
        task: run SQL through ``store.db`` (it joins that transaction; do not open another connection or
        commit). Competitions record their results here, exactly once, as ratings are. A hook that raises
        rolls the play back."""
        self._init_rematch()

    def set_notifier(self, notifier: Notifier) -> None:
        """Attach the presenter."""
        self.notifier = notifier

    # ------------------------------------------------------------------ loading

    async def load(self) -> int:
        """Restore every open table of the servers this process serves (`serves_guild`) from the store
        (after a restart) and resume computer players whose turn it is. Returns the number of tables
        restored."""
        rows = [row for row in await self.store.load_open_tables() if self.serves_guild(row.guild_id)]
        now = self.clock.now()
        for row in rows:
            table = self._from_row(row)
            self.tables[table.id] = table
            # who acted when is kept in memory only; after a restart everyone counts as just seen, so
            # the hands are edited in place (an open capture menu stays) rather than re-sent as alerts
            table.seen.update({seat: now for seat, _ in table.humans()})
            await self._resume_clocks(table)
            if table.status == PLAYING:
                self._spawn(self._resume(table))
        log.info("restored %d open tables", len(rows))
        await self.resume_rematch_checks()
        await self.catch_up_ratings()
        return len(rows)

    async def _resume(self, table: Table) -> None:
        async with table.notify_lock:
            try:
                await self.notifier.resumed(table)
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("table %d: refreshing after a restart failed", table.id)
        self._kick_ai(table)

    def _from_row(self, row: TableRow) -> Table:
        return Table(
            id=row.id, guild_id=row.guild_id, channel_id=row.channel_id, host_id=row.host_id,
            players=row.players, preset=row.preset, status=row.status, seed=row.seed,
            seats=[Seat.from_dict(s) if s else None for s in row.seats],
            game=_game_of(row),
            messages=Messages.from_dict(row.messages), meta={**row.meta, **({"casual": True} if row.casual else {})},
            timers=Timers.from_dict(row.timers), casual=row.casual, version=row.version,
        )

    async def close(self) -> None:
        """Stop background work (computer players, notifications) before the store closes."""
        self._closing = True
        tasks = [t for t in self._tasks if not t.done()]
        for task in tasks:
            task.cancel()
        if tasks:
            await asyncio.gather(*tasks, return_exceptions=True)

    # ------------------------------------------------------------------ ratings (issue 4)

    RATING_CATCH_UP_DAYS = 7
    """Finished tables this recent are checked for unrecorded chicas at startup."""

    def is_casual(self, table: Table) -> bool:
        """True when the chicas of this table must not be rated (still stored and counted in stats).

        The hook for "a player left mid-game, unrated from then on": a table whose ``casual`` flag is set
        (or whose ``meta`` has ``"casual": true``) is casual, and so is a practice table with hints, and a
        table under house rules unless its server rates them (decided at the start, ``meta["house_rated"]``). Whether games with computer players are rated is the server's
        ``rate_bots`` setting, decided by the ratings repository.
        """
        return bool(getattr(table, "casual", False) or table.meta.get("casual", False) or table.meta.get("hints")
                    or (table.house and not table.meta.get("house_rated", False)))

    def _chica_results(self, table: Table) -> list[Any]:
        game = table.game
        if game is None:
            return []
        return chica_results(game.events, [s.user_id if s else None for s in table.seats],
                             guild_id=table.guild_id, table_id=table.id, casual=self.is_casual(table))

    async def _record_chicas(self, table: Table) -> None:
        """Inside the store's transaction saving a play that ended a chica: record and rate every
        finished chica of the table not yet recorded (exactly once: the key is table + chica number).

        A failure is logged and the play is still saved: the startup catch-up records it later."""
        try:
            await self.ratings.record_chicas(self._chica_results(table))  # a savepoint of the save
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("table %d: recording the finished chica failed; it is retried at startup", table.id)

    async def catch_up_ratings(self) -> int:
        """Record (and rate) the finished chicas of open and recently finished tables that were not
        recorded yet, e.g. after a restart. Returns how many were recorded now."""
        rows = [r for r in await self.store.load_open_tables() if r.game]
        rows += await self.store.load_finished_tables(self.RATING_CATCH_UP_DAYS)
        recorded = 0
        for row in rows:
            table = self.tables.get(row.id) or self._from_row(row)
            try:
                done = await self.ratings.record_chicas(self._chica_results(table))
            except Exception:
                log.exception("table %d: ratings catch-up failed", row.id)
                continue
            recorded += sum(1 for d in done if d.stored)
        if recorded:
            log.info("ratings catch-up recorded %d chicas", recorded)
        return recorded

    async def seat_names(self, guild_id: int, user_ids: list[int]) -> dict[int, str]:
        """The names users had at their last seat in this guild (boards fall back on them)."""
        return await self.store.seat_names(guild_id, user_ids)

    async def default_preset(self, guild_id: int) -> str:
        """The rules preset of new tables in a guild (the server setting; ``quito`` by default)."""
        return (await self.ratings.settings(guild_id)).default_preset

    # ------------------------------------------------------------------ queries

    def get(self, table_id: int) -> Table:
        """The table with this id in memory: open, or ended less than `bot.tables.memory.KEEP_ENDED`
        seconds ago (`fetch` also reads the store).

        Raises:
            UnknownTableError: no such table in memory.
        """
        table = self.tables.get(table_id)
        if table is None:
            raise UnknownTableError()
        return table

    async def fetch(self, table_id: int) -> Table:
        """Like `get`, but also looks in the store. An ended table read from the store is a fresh copy,
        not kept (`bot.tables.memory.MemoryMixin._adopt` keeps one where several clicks must share it); an
        open one opened by another process (PostgreSQL) is kept and served by this one from now on.

        Raises:
            UnknownTableError: no such table.
        """
        table = self.tables.get(table_id)
        if table is None:
            if not 0 < table_id < 2**63:  # SQLite integers are 64-bit: a forged id names no table
                raise UnknownTableError()
            row = await self.store.load_table(table_id)
            if row is None:
                raise UnknownTableError()
            table = self._from_row(row)
            if self.store.shared and table.is_open:
                table = self._adopt(table)  # two clicks that both read it: one copy
        return table

    def table_in_channel(self, channel_id: int) -> Table | None:
        """The open table of a channel, or None."""
        for table in self.tables.values():
            if table.channel_id == channel_id and table.is_open:
                return table
        return None

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
        for table in self.tables.values():
            if table.is_open and table.seat_of(user_id) is not None:
                return table
        return None

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
        """Choose a guild's public language (``"es"`` or ``"en"``)."""
        await self.store.set_guild_language(guild_id, lang)
        self._languages[guild_id] = lang

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

        A seated person who was away (issue 6: two expired turns) is back from any click on their hand,
        even a refused one: that presence change is the one effect a refused click can have.
        """
        table = await self.fetch(table_id)
        async with self._held(table):
            seat = table.seat_of(user_id)
            if seat is None:  # first: someone not seated is told so, whatever the table's state
                raise NotPlayingError()
            if table.status == LOBBY:
                raise WrongStateError("err.not_started")
            if table.status != PLAYING or table.game is None or table.game.is_over:
                raise WrongStateError("err.finished")
            await self._come_back(table, seat)  # a click on their hand: the person is here (issue 6)
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
            except (CardError, engine.IllegalPlayError):
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
            events = await self._apply(table, seat, play)
            table.timed_out.pop(seat, None)
        self._after(table, events=events)
        return Played(seat, play, tuple(events))

    async def _apply(self, table: Table, seat: int, play: Play) -> list[Event]:
        """Play under the lock and persist; on a storage failure the in-memory game is restored."""
        game = table.game
        assert game is not None
        before = game.snapshot()  # constant size: the rollback costs the same at any point of the mesa
        try:
            events = game.play(play, seat=seat)
        except engine.IllegalPlayError:
            raise IllegalPlayError() from None
        try:
            await self._save(table, play=(len(game.plays) - 1, seat, play))
        except BaseException:
            game.restore(before)
            if table.status == FINISHED:
                table.status = PLAYING
            raise
        log.debug("table %d: seat %d played (nonce %d)", table.id, seat, table.nonce)
        return events

    def _kick_ai(self, table: Table) -> None:
        """Make sure a computer player whose turn it is will play."""
        if self._closing or table.status != PLAYING or table.game is None:
            return
        to_play = table.game.to_play
        if to_play is None or not table.seats[to_play] or not table.seats[to_play].autoplays:  # type: ignore[union-attr]
            return
        task = self._ai_tasks.get(table.id)
        if task is not None and not task.done():
            return
        self._ai_tasks[table.id] = self._spawn(self._run_ai(table))

    async def _run_ai(self, table: Table) -> None:
        """Play every turn in a row whose seat a computer plays (a computer player, or a person away), each
        after `ai_delay` seconds. Whose turn it is, and whether a computer still plays that seat, is read
        again after every await (the pause, the move's computation, the table lock): a person who took the
        seat back, or played, meanwhile keeps the turn, and no move is computed for a seat not to play."""
        while table.status == PLAYING and table.game is not None and not self._closing:
            game = table.game
            seat_index = game.to_play
            if seat_index is None:
                return
            seat = table.seats[seat_index]
            if seat is None or not seat.autoplays:
                return
            nonce = table.nonce
            if self.ai_delay:
                await self.clock.sleep(self.ai_delay)
                if not self._ai_still_to_play(table, game, nonce, seat_index, seat):
                    continue  # the game moved on, or the person came back: read the turn again
            view = game.view(seat_index)
            level = seat.ai or (SUBSTITUTE_LEVEL if seat.away else DEFAULT_LEVEL)
            play = await self.offload(choose_play, level, game.seed, view)
            try:
                async with self._held(table):
                    if not self._ai_still_to_play(table, game, nonce, seat_index, seat):
                        continue
                    events = await self._apply(table, seat_index, play)
            except TableBusyError:
                # another process holds the table: its change moves the game on and kicks the computer there
                log.info("table %d: busy in another process; its computer move is left to it", table.id)
                return
            await self._notify(table, events=events)

    def _ai_still_to_play(self, table: Table, game: Game, nonce: int, seat_index: int, seat: Seat) -> bool:
        """Whether the computer move `_run_ai` started for ``seat_index`` at turn ``nonce`` is still to make:
        the same game in play, no play since, the same `Seat` in the chair and a computer still playing it."""
        return (not self._closing and table.status == PLAYING and table.game is game and table.nonce == nonce
                and game.to_play == seat_index and table.seats[seat_index] is seat and seat.autoplays)

    REPOST_COOLDOWN = 30.0
    """Seconds (of the service's clock) between two re-posts of one table asked with ``/cuarenta table``."""

    def request_repost(self, table: Table) -> None:
        """Re-post the table message at the bottom of the channel (after pending notifications), at most
        once per `REPOST_COOLDOWN` seconds per table, whoever asks.

        Raises:
            WrongStateError: the game has not started. TableError ``err.repost_cooldown`` (params: table,
            link, seconds): the table was re-posted less than `REPOST_COOLDOWN` seconds ago.
        """
        if table.game is None:
            raise WrongStateError("err.not_started")
        now = self.clock.now()
        last = self._reposted.get(table.id)
        if last is not None and now - last < self.REPOST_COOLDOWN:
            raise TableError("err.repost_cooldown", table=table.id, link=self.link(table),
                             seconds=max(1, int(self.REPOST_COOLDOWN - (now - last) + 0.999)))
        self._reposted[table.id] = now
        self._spawn(self._repost(table))

    async def _repost(self, table: Table) -> None:
        async with table.notify_lock:
            await self.notifier.repost(table)

    # ------------------------------------------------------------------ ending

    async def end(self, table_id: int, *, user_id: int, can_manage: bool = False) -> Table:
        """End an open table (the host, or a member with Manage Server; at a competition's table,
        `Table.refereed`, only the latter, since the competition decides what an ended mesa counts for).

        Raises:
            WrongStateError: already finished or closed. NotHostError: not allowed (``err.not_allowed_end``,
            ``err.end_refereed``).
        """
        table = await self.fetch(table_id)
        async with self._held(table), self._unchanged_on_error(table):
            if not table.is_open:
                raise WrongStateError("err.finished")
            if table.refereed and not can_manage:  # a player could end a refereed mesa they are losing
                raise NotHostError("err.end_refereed")
            if table.host_id != user_id and not can_manage:
                raise NotHostError("err.not_allowed_end")
            table.status = CLOSED
            await self._save(table)
        log.info("table %d ended by user %d", table.id, user_id)
        self._after(table, closed=True)
        return table

    # ------------------------------------------------------------------ persistence and notification

    async def _save(self, table: Table, play: tuple[int, int, Play] | None = None) -> None:
        game = table.game
        mesa = None
        if game is not None and game.is_over and table.status == PLAYING:
            table.status = FINISHED
            mesa_won = [e for e in game.events if e.kind == "mesa_won"][-1]
            mesa = {
                "guild_id": table.guild_id, "channel_id": table.channel_id, "preset": table.preset,
                "players": table.players, "seed": str(table.seed), "winner": game.winner,
                "chicas_a": game.chicas[0], "chicas_b": game.chicas[1], "zapateria": int(mesa_won.zapatero),
                "seats": [s.user_id if s else None for s in table.seats],
            }
        row_play = None
        before_commit = None
        if play is not None:
            seq, seat, p = play
            row_play = (seq, seat, p.card.code, " ".join(c.code for c in p.sorted_captures()))
            ended_chica = game is not None and _play_ended_chica(game)
            hooks = list(self.mesa_hooks) if mesa is not None else []
            if ended_chica or hooks:
                async def before_commit() -> None:
                    if ended_chica:
                        await self._record_chicas(table)
                    for hook in hooks:
                        await hook(table)
        self._sync_timers(table)
        table.version = await self.store.save_table(
            table_id=table.id, host_id=table.host_id, status=table.status, seed=table.seed,
            seats=[s.to_dict() if s else None for s in table.seats],
            game=game.snapshot() if game is not None else None, play=row_play, mesa=mesa,
            before_commit=before_commit, timers=table.timers.to_dict(), casual=table.casual,
            meta=table.meta if play is None else None,
        )
        self._arm(table)

    async def save_messages(self, table: Table) -> None:
        """Persist the presenter's message ids for a table."""
        await self.store.save_messages(table.id, table.messages.to_dict())

    def _spawn(self, coro: Awaitable[Any]) -> asyncio.Task[Any]:
        task = asyncio.ensure_future(coro)
        self._tasks.add(task)
        task.add_done_callback(self._task_done)
        return task

    def _task_done(self, task: asyncio.Task[Any]) -> None:
        self._tasks.discard(task)
        if task.cancelled() or task.exception() is None:
            return
        if isinstance(task.exception(), TableBusyError):  # an alarm whose table another process held: that
            log.warning("background work skipped: its table was busy in another process")  # process re-arms it
            return
        log.error("background work failed", exc_info=task.exception())

    def _after(self, table: Table, *, lobby: bool = False, events: Sequence[Event] | None = None,
               closed: bool = False) -> None:
        """Notify (in order, per table) and let computer players move, after the caller's lock."""
        self._spawn(self._after_run(table, lobby=lobby, events=events, closed=closed))

    async def _after_run(self, table: Table, *, lobby: bool, events: Sequence[Event] | None,
                         closed: bool) -> None:
        await self._notify(table, lobby=lobby, events=events, closed=closed)
        self._kick_ai(table)

    async def _notify(self, table: Table, *, lobby: bool = False, events: Sequence[Event] | None = None,
                      closed: bool = False) -> None:
        """Tell the presenter, in order; one failing message never holds up the next (the game goes on)."""
        calls: list[Callable[[], Awaitable[None]]] = []
        if lobby:
            calls.append(lambda: self.notifier.lobby_changed(table))
        if events:
            calls.append(lambda: self.notifier.game_changed(table, events))
        if closed:
            calls.append(lambda: self.notifier.table_closed(table))
        async with table.notify_lock:
            for call in calls:
                try:
                    await call()
                except asyncio.CancelledError:
                    raise
                except Exception:
                    log.exception("table %d: notifying failed", table.id)


def _game_of(row: TableRow) -> Game | None:
    """The game of a stored table: rebuilt from its snapshot and plays (`Game.from_snapshot`), or from a
    whole saved game (version 1, written before issue 13 and not yet migrated).

    Raises:
        engine.PositionError: the stored game is damaged, or its plays do not rebuild it.
    """
    if not row.game:
        return None
    if row.game.get("version") == 2:
        return Game.from_snapshot(row.game, [Play.parse(card, captures.split()) for _, card, captures in row.plays])
    return Game.from_dict(row.game)


def _play_ended_chica(game: Game) -> bool:
    """True when the last accepted play finished a chica (a CHICA_WON after the last PLAYED event)."""
    for event in reversed(game.events):
        if event.kind == EventKind.CHICA_WON:
            return True
        if event.kind == EventKind.PLAYED:
            return False
    return False
