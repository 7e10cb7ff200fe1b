"""Computer players move: every turn in a row whose seat a computer plays (a computer player, or a person
away or gone), each after the service's ``ai_delay``, the move computed off the loop."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from typing import Any

from bot.engine import Game

from .background import Background
from .errors import TableBusyError
from .model import PLAYING, Seat, Table
from .notices import Notices
from .persistence import TableWriter
from .players import DEFAULT_LEVEL, choose_play
from .presence import SUBSTITUTE_LEVEL
from .shared import TableLocks
from .timers import Clock

log = logging.getLogger(__name__)


class ComputerPlayers:
    """The computer-move runner: one task per table at most (``tasks``, by table id).

    Args:
        clock: the pause before each move. delay: that pause, in seconds (0 in tests; settable).
        offload: runs `choose_play` off the loop. background: runs the moves (and says when closing).
        locks, writer: hold the table and apply the move. notices: tells the presenter of each move.
    """

    def __init__(self, clock: Clock, delay: float, offload: Callable[..., Awaitable[Any]],
                 background: Background, locks: TableLocks, writer: TableWriter, notices: Notices) -> None:
        self.delay = delay
        self.tasks: dict[int, asyncio.Task[Any]] = {}
        self._clock = clock
        self._offload = offload
        self._background = background
        self._locks = locks
        self._writer = writer
        self._notices = notices

    def kick(self, table: Table) -> None:
        """Make sure a computer player whose turn it is will play."""
        if self._background.closing or table.status != PLAYING or table.game is None:
            return
        to_play = table.game.to_play
        seat = table.seats[to_play] if to_play is not None else None
        if seat is None or not seat.autoplays:
            return
        task = self.tasks.get(table.id)
        if task is not None and not task.done():
            return
        self.tasks[table.id] = self._background.spawn(self._run(table))

    def forget(self, table_id: int) -> None:
        """The table left memory: drop its task."""
        self.tasks.pop(table_id, None)

    async def _run(self, table: Table) -> None:
        """Play every turn in a row whose seat a computer plays, each after `delay` seconds. Whose turn it
        is, and whether a computer still plays that seat, is read again after every await (the pause, the
        move's computation, the table lock): a person who took the seat back, or played, meanwhile keeps the
        turn, and no move is computed for a seat not to play."""
        while table.status == PLAYING and table.game is not None and not self._background.closing:
            game = table.game
            seat_index = game.to_play
            if seat_index is None:
                return
            seat = table.seats[seat_index]
            if seat is None or not seat.autoplays:
                return
            nonce = table.nonce
            if self.delay:
                await self._clock.sleep(self.delay)
                if not self._still_to_play(table, game, nonce, seat_index, seat):
                    continue  # the game moved on, or the person came back: read the turn again
            view = game.view(seat_index)
            level = seat.ai or (SUBSTITUTE_LEVEL if seat.away else DEFAULT_LEVEL)
            play = await self._offload(choose_play, level, game.seed, view)
            try:
                async with self._locks.held(table):
                    if not self._still_to_play(table, game, nonce, seat_index, seat):
                        continue
                    events = await self._writer.apply(table, seat_index, play)
            except TableBusyError:
                # another process holds the table: its change moves the game on and kicks the computer there
                log.info("table %d: busy in another process; its computer move is left to it", table.id)
                return
            await self._notices.notify(table, events=events)

    def _still_to_play(self, table: Table, game: Game, nonce: int, seat_index: int, seat: Seat) -> bool:
        """Whether the computer move `_run` started for ``seat_index`` at turn ``nonce`` is still to make:
        the same game in play, no play since, the same `Seat` in the chair and a computer still playing it."""
        return (not self._background.closing and table.status == PLAYING and table.game is game
                and table.nonce == nonce and game.to_play == seat_index and table.seats[seat_index] is seat
                and seat.autoplays)
