"""Live leaderboards: the one leaderboard message per server and mode that an admin pinned, kept current as
ratings change. This module holds the state and the timing; the Discord writes are a `BoardWriter`
(`bot.ui.live_board`), the ids are stored by `bot.ratings.live_repo` (migration 0020).

The rule: the ratings repository tells `LiveBoards.changed` (one of its `Ratings.on_rated` observers) the
server and mode of every chica it rates; a live board of that server and mode is then edited once, after
`SETTLE` seconds at least (the chica's transaction is committed by then) and never sooner than `INTERVAL`
seconds after its last edit or post, so any number of rated chicas in between make one edit. An edit
Discord refuses for a while (a 429 such as 30046, the limit on edits of messages older than an hour, or a
5xx) is tried again an interval later; a message or channel that is gone (10008, 10003) drops the board.
Times are the bot's clock (`now` in seconds, `sleep`), which SimCord drives in tests.
"""

from __future__ import annotations

import asyncio
import enum
import logging
from collections.abc import Awaitable, Callable, Iterable
from typing import Any, Protocol

from .live_repo import LiveBoard, LiveBoardRepo

log = logging.getLogger(__name__)

INTERVAL = 300.0
"""Seconds between two edits of one live leaderboard, at least (five minutes)."""
SETTLE = 5.0
"""Seconds a rated chica waits before the edit it asks for, at least."""


class Outcome(enum.Enum):
    """What an edit of a live leaderboard came to."""

    EDITED = "edited"
    """Edited (or refused for good for another reason: the next rated chica tries again)."""
    GONE = "gone"
    """The message or its channel is gone: the board is dropped."""
    LATER = "later"
    """Refused for a while (rate limit, 30046, a 5xx): tried again an interval later."""


class BoardWriter(Protocol):
    """The Discord side of the live leaderboards."""

    async def post(self, guild_id: int, mode: str, channel_id: int) -> int | None:
        """Send the leaderboard of ``mode`` in the channel; its message id, or None when Discord refused."""

    async def edit(self, board: LiveBoard) -> Outcome:
        """Edit the board's message with the current leaderboard."""

    async def retire(self, board: LiveBoard) -> None:
        """Edit the board's message to say it is no longer kept current (failures are ignored)."""


Key = tuple[int, str]


class LiveBoards:
    """The live leaderboards of every server this process serves.

    Args:
        repo: where their ids are stored. now: the bot's clock (seconds). sleep: its wait.
        interval: seconds between two edits of one board, at least. settle: seconds a rated chica waits.

    Set `writer` before `pin` or any edit; without one, rated chicas are only noted.
    """

    def __init__(self, repo: LiveBoardRepo, *, now: Callable[[], float],
                 sleep: Callable[[float], Awaitable[Any]], interval: float = INTERVAL,
                 settle: float = SETTLE) -> None:
        self.repo = repo
        self.now = now
        self.sleep = sleep
        self.interval = interval
        self.settle = settle
        self.writer: BoardWriter | None = None
        self._boards: dict[Key, LiveBoard] = {}
        self._edited: dict[Key, float] = {}
        self._dirty: set[Key] = set()
        self._tasks: dict[Key, asyncio.Task[None]] = {}
        self._lock = asyncio.Lock()

    async def load(self) -> None:
        """Read the stored boards (at startup): they are edited at their next rated chica."""
        self._boards = {(b.guild_id, b.mode): b for b in await self.repo.all()}

    def board(self, guild_id: int, mode: str) -> LiveBoard | None:
        """The server's live board of ``mode``, if any."""
        return self._boards.get((guild_id, mode))

    def changed(self, guild_id: int, mode: str) -> None:
        """The server's standings of ``mode`` changed (a chica rated, a new season, a setting of the
        leaderboard): its live board, if any, is due an edit. The `Ratings.on_rated` observer."""
        key = (guild_id, mode)
        if key not in self._boards:
            return
        self._dirty.add(key)
        task = self._tasks.get(key)
        if task is None or task.done():
            self._tasks[key] = asyncio.ensure_future(self._keep(key))

    async def _keep(self, key: Key) -> None:
        try:
            while key in self._dirty and key in self._boards and self.writer is not None:
                due = max(self._edited.get(key, float("-inf")) + self.interval, self.now() + self.settle)
                await self.sleep(max(0.0, due - self.now()))
                board = self._boards.get(key)
                if board is None:
                    break
                self._dirty.discard(key)
                outcome = await self.writer.edit(board)
                self._edited[key] = self.now()
                if outcome is Outcome.GONE:
                    log.info("live leaderboard %d %s: its message is gone, dropped", *key)
                    await self._forget(board)
                elif outcome is Outcome.LATER:
                    self._dirty.add(key)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("live leaderboard %d %s: keeping it current failed", *key)

    async def _forget(self, board: LiveBoard) -> None:
        key = (board.guild_id, board.mode)
        if self._boards.get(key) == board:
            del self._boards[key]
            self._dirty.discard(key)
        await self.repo.delete(board)

    async def _stop(self, key: Key) -> None:
        """Cancel the key's pending edit (an edit of a board being removed or replaced must not land after
        the message says it is no longer live)."""
        task = self._tasks.get(key)
        if task is not None and task is not asyncio.current_task() and not task.done():
            del self._tasks[key]
            task.cancel()
            await asyncio.gather(task, return_exceptions=True)

    async def pin(self, guild_id: int, mode: str, channel_id: int) -> LiveBoard | None:
        """Post a live leaderboard of ``mode`` in the channel and keep it current; the server's earlier one
        of that mode, if any, is edited to say it is no longer live. None when Discord refused the post
        (the earlier board stays live).

        Raises:
            RuntimeError: no `writer` is set.
        """
        if self.writer is None:
            raise RuntimeError("live leaderboards need a writer")
        async with self._lock:
            message_id = await self.writer.post(guild_id, mode, channel_id)
            if message_id is None:
                return None
            key = (guild_id, mode)
            old = self._boards.get(key)
            new = LiveBoard(guild_id, mode, channel_id, message_id)
            await self.repo.save(new)
            self._boards[key] = new
            self._edited[key] = self.now()
            self._dirty.discard(key)
        if old is not None and old.message_id != new.message_id:
            await self._stop(key)
            await self.writer.retire(old)
        return new

    async def unpin(self, guild_id: int, modes: Iterable[str]) -> list[LiveBoard]:
        """Stop keeping the server's live boards of ``modes`` current; each is edited to say so. Returns
        the boards removed (none: the server had none of those)."""
        removed: list[LiveBoard] = []
        async with self._lock:
            for mode in modes:
                board = self._boards.get((guild_id, mode))
                if board is not None:
                    await self._forget(board)
                    removed.append(board)
        for board in removed:
            await self._stop((board.guild_id, board.mode))
            if self.writer is not None:
                await self.writer.retire(board)
        return removed

    async def close(self) -> None:
        """Stop the pending edits (the bot is closing; the next start edits at the next rated chica)."""
        tasks = [t for t in self._tasks.values() if not t.done()]
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        self._tasks.clear()
