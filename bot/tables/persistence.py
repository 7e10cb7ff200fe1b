"""Saving a table: every accepted change is persisted before the service moves on.

`TableWriter` writes a table's row (with the play that changed it, the mesa's result when it ended, the
chicas it finished and the competitions' hooks, all in one transaction), applies a play with rollback on
a storage failure, and puts a table back as it was when a change cannot be saved. `table_of_row` rebuilds
a table from its stored row.
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import TYPE_CHECKING

from bot import engine
from bot.engine import Event, EventKind, Game, Play
from bot.store import Store, TableRow

from .errors import IllegalPlayError
from .model import FINISHED, PLAYING, Messages, Seat, Table, Timers
from .ports import NullObserver, TableObserver

if TYPE_CHECKING:
    from .presence import TurnClock
    from .timers import Clock

log = logging.getLogger(__name__)

MesaHook = Callable[[Table], Awaitable[None]]


class TableWriter:
    """Persists tables.

    Args:
        store: the open `Store`. turns: brings the turn clock in line before a save and re-arms it after.
        mesa_hooks: the service's live list of hooks run in the transaction that saves a mesa's last play.
        record_chicas: records the chicas a play finished, inside that transaction (a failure is logged
            by it, and the play is still saved).
        clock: times a mesa from its deal (`Timers.started`) to its end.

    Attribute ``observer``: the `TableObserver` told of every play saved and every mesa that ended (by
    default `NullObserver`; the bot sets its metrics).
    """

    def __init__(self, store: Store, turns: TurnClock, mesa_hooks: list[MesaHook],
                 record_chicas: Callable[[Table], Awaitable[None]], clock: Clock) -> None:
        self._store = store
        self._turns = turns
        self._mesa_hooks = mesa_hooks
        self._record_chicas = record_chicas
        self._clock = clock
        self.observer: TableObserver = NullObserver()

    async def save(self, table: Table, play: tuple[int, int, Play] | None = None) -> None:
        """Persist ``table`` (and ``play``: its sequence number, seat and play); a mesa that just ended is
        marked finished and its result stored, then said in one INFO line (table, server, winning side,
        duration, plays: never a card) and told to the `observer`. Its alarms are re-armed from the saved
        timers."""
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
            hooks = list(self._mesa_hooks) if mesa is not None else []
            if ended_chica or hooks:
                record = self._record_chicas

                async def before_commit() -> None:
                    if ended_chica:
                        await record(table)
                    for hook in hooks:
                        await hook(table)
        self._turns.sync(table)
        table.version = await self._store.save_table(
            table_id=table.id, host_id=table.host_id, status=table.status, seed=table.seed,
            seats=[s.to_dict() if s else None for s in table.seats],
            game=game.snapshot() if game is not None else None, play=row_play, mesa=mesa,
            before_commit=before_commit, timers=table.timers.to_dict(), casual=table.casual,
            meta=table.meta_json() if play is None else None,
        )
        self._turns.arm(table)
        if mesa is not None and game is not None:
            started = table.timers.started
            seconds = max(0.0, self._clock.now() - started) if started is not None else None
            log.info("mesa ended: table %d, server %d, winner side %s, chicas %d-%d, %s, %d plays", table.id,
                     table.guild_id, "AB"[game.winner or 0], game.chicas[0], game.chicas[1],
                     f"{seconds:.0f} s" if seconds is not None else "duration unknown", len(game.plays))
            self.observer.mesa_finished(table, seconds)

    async def apply(self, table: Table, seat: int, play: Play) -> list[Event]:
        """Play under the lock and persist; on a storage failure the in-memory game is restored.

        Raises:
            IllegalPlayError: the engine refused the play (nothing changed).
        """
        game = table.game
        assert game is not None
        before = game.snapshot()  # constant size: the rollback costs the same at any point of the mesa
        try:
            events = game.play(play, seat=seat)
        except engine.RefusedPlayError:
            raise IllegalPlayError() from None
        try:
            await self.save(table, play=(len(game.plays) - 1, seat, play))
        except BaseException:
            game.restore(before)
            if table.status == FINISHED:
                table.status = PLAYING
            raise
        self.observer.played(table)
        log.debug("table %d: seat %d played (nonce %d)", table.id, seat, table.nonce)
        return events

    @staticmethod
    @contextlib.asynccontextmanager
    async def unchanged_on_error(table: Table) -> AsyncIterator[None]:
        """Under the table lock: if the change cannot be persisted, the table is put back as it was
        (seats, with their away flags, host, status, seed, game, timers, casual flag, options and seat
        history)."""
        seats = [s.to_dict() if s is not None else None for s in table.seats]
        host, status, seed, casual = table.host_id, table.status, table.seed, table.casual
        game = table.game
        snapshot = game.snapshot() if game is not None else None
        timers = table.timers.to_dict()
        options, seat_history = table.options, list(table.seat_history)  # options and spells are immutable
        try:
            yield
        except BaseException:
            table.seats = [Seat.from_dict(s) if s is not None else None for s in seats]
            table.host_id, table.status, table.seed, table.casual = host, status, seed, casual
            table.game = game
            if game is not None and snapshot is not None:
                game.restore(snapshot)
            table.timers = Timers.from_dict(timers)
            table.options, table.seat_history = options, seat_history
            raise


def table_of_row(row: TableRow) -> Table:
    """The table a stored row describes (a fresh object).

    Raises:
        engine.PositionError: the stored game is damaged (`game_of`).
    """
    options, seat_history, casual = Table.meta_parts(row.meta)
    return Table(
        id=row.id, guild_id=row.guild_id, channel_id=row.channel_id, host_id=row.host_id,
        players=row.players, preset=row.preset, status=row.status, seed=row.seed,
        seats=[Seat.from_dict(s) if s else None for s in row.seats],
        game=game_of(row),
        messages=Messages.from_dict(row.messages), options=options, seat_history=seat_history,
        timers=Timers.from_dict(row.timers), casual=row.casual or casual, version=row.version,
    )


def game_of(row: TableRow) -> Game | None:
    """The game of a stored table: rebuilt from its snapshot and plays (`Game.from_snapshot`), or from a
    whole saved game (version 1, not yet migrated).

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
