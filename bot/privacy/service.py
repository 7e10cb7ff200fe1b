"""A member's data in their hands, and a server's data gone some days after the bot left it.

`PrivacyService` answers the privacy cog: what is kept about a person (`summary`), all their rows as a JSON
document (`export`), and their deletion (`delete`: ratings and names deleted, seats in finished mesas
anonymized; refused while they are in something still going on). It also remembers when the bot left a
server (`guild_left`, forgotten by `guild_joined`) and, once a day on the service's clock, deletes every row
of each server it left `prune_days` days ago or more (`prune_due`). The clock is the bot's (SimCord's virtual
time in the tests), so a test moves a month ahead without waiting.

The SQL is in `bot.privacy.repo`.
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime
from typing import Any

from bot.store import Store
from bot.tables import TableError
from bot.tables.timers import Clock, Scheduler

from .repo import PrivacyRepo, Summary, anonymous_id

log = logging.getLogger(__name__)

DAY = 86_400.0
"""Seconds in a day: how often the pruning runs."""
FIRST_PRUNE = 60.0
"""Seconds after the start before the first pruning (a bot restarted every day still prunes)."""
EXPORT_FORMAT = "cuarenta-export/1"
"""The ``format`` field of an export: its shape (`PrivacyRepo.rows`) has this version."""


class PrivacyError(TableError):
    """A deletion was refused (the guard answers it in the user's language)."""

    key = "privacy.err.generic"


class SeatedError(PrivacyError):
    """They sit at, host, or held a seat earlier at an open table: they must leave it, or wait until it ends
    (params: ``tables``, "#3, #7")."""

    key = "privacy.err.open_table"


class QueuedError(PrivacyError):
    """They wait in the matchmaking queue: they must leave it first."""

    key = "privacy.err.queue"


class CompetingError(PrivacyError):
    """They play in or organize a league or tournament that has not ended."""

    key = "privacy.err.competition"


class RematchError(PrivacyError):
    """A rematch ready check that names them is open."""

    key = "privacy.err.rematch"


class PrivacyService:
    """What the privacy cog calls.

    Args:
        store: the open store.
        clock: the bot's clock (`bot.tables.timers.Clock`; UTC seconds and its sleep).
        prune_days: days after the bot left a server before its data is deleted (``PRUNE_DAYS_AFTER_LEAVE``).
        forget_tables: called with a user id after their data was deleted, to drop from memory the ended
            tables that still name them (`bot.tables.TableService.forget_ended_with`): the next read of
            those tables is the anonymized row.
    """

    def __init__(self, store: Store, clock: Clock, *, prune_days: int = 30,
                 forget_tables: Callable[[int], Awaitable[object]] | None = None) -> None:
        self.forget_tables = forget_tables
        self.repo = PrivacyRepo(store.db)
        self.db = store.db
        self.clock = clock
        self.prune_days = prune_days
        self._tasks: set[asyncio.Task[Any]] = set()
        self.scheduler = Scheduler(clock, self._spawn)

    def _spawn(self, work: Awaitable[Any]) -> asyncio.Task[Any]:
        task = asyncio.ensure_future(work)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        return task

    # ---------------------------------------------------------------- one member's data

    async def summary(self, user_id: int) -> Summary:
        """What is kept about ``user_id``, in every server (`bot.privacy.repo.Summary`)."""
        return await self.repo.summary(user_id)

    async def export(self, user_id: int) -> bytes:
        """Every row about ``user_id`` and nobody else (`PrivacyRepo.rows`) as UTF-8 JSON:
        ``{"format", "user_id", "exported_at" (ISO-8601 UTC), "data": {table: [rows]}}``."""
        rows = await self.repo.rows(user_id)
        when = datetime.fromtimestamp(self.clock.now(), UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
        document = {"format": EXPORT_FORMAT, "user_id": user_id, "exported_at": when, "data": rows}
        return json.dumps(document, ensure_ascii=False, indent=1, default=str).encode("utf-8")

    async def delete(self, user_id: int) -> dict[str, int]:
        """Delete ``user_id``'s ratings, statistics and names and anonymize their seats and entries
        (`PrivacyRepo.delete_user`), after checking in the same transaction that nothing of theirs is
        going on. Returns the rows changed per table.

        Raises:
            SeatedError, QueuedError, CompetingError, RematchError: something of theirs is still going on.
        """
        async with self.db.transaction():
            blocked = await self.repo.blockers(user_id)
            if blocked.open_tables:
                raise SeatedError(tables=", ".join(f"#{t}" for t in blocked.open_tables))
            if blocked.queued:
                raise QueuedError()
            if blocked.competitions:
                raise CompetingError()
            if blocked.rematch_checks:
                raise RematchError()
            done = await self.repo.delete_user(user_id, anonymous_id())
        if self.forget_tables is not None:
            await self.forget_tables(user_id)
        log.info("a member's data was deleted on request: %d rows changed", sum(done.values()))
        return done

    # ---------------------------------------------------------------- servers the bot left

    async def guild_left(self, guild_id: int) -> None:
        """The bot left server ``guild_id`` now: its data goes in `prune_days` days."""
        await self.repo.mark_left(guild_id, self.clock.now())
        log.info("guild %d left: its data is deleted in %d days unless the bot comes back", guild_id,
                 self.prune_days)

    async def guild_joined(self, guild_id: int) -> None:
        """The bot joined server ``guild_id`` (again), or found it there at a connection: nothing of it is to
        be deleted. A read first: every server comes by at each start, and only one the bot had left is
        written."""
        if await self.repo.left_at(guild_id) is not None:
            await self.repo.mark_joined(guild_id)
            log.info("guild %d: the bot is back, its data is kept", guild_id)

    async def reconcile(self, present: set[int], serves: Callable[[int], bool]) -> list[int]:
        """At a connection: the servers the database knows but the bot is not in any more (``present`` are
        the ones it is in, ``serves(guild_id)`` says whether this process runs that server's shard) were left
        while the bot was down, so no removal event will ever come: they are marked left now (an earlier
        mark stays). Returns the servers newly found gone."""
        gone = []
        for guild_id in sorted(await self.repo.known_guilds() - present):
            if serves(guild_id) and await self.repo.left_at(guild_id) is None:
                await self.repo.mark_left(guild_id, self.clock.now())
                gone.append(guild_id)
        if gone:
            log.info("%d servers were left while the bot was down: their data is deleted in %d days", len(gone),
                     self.prune_days)
        return gone

    async def prune_due(self) -> list[int]:
        """Delete the data of every server the bot left `prune_days` days ago or more; their ids."""
        due = await self.repo.departed_before(self.clock.now() - self.prune_days * DAY)
        for guild_id in due:
            rows = await self.repo.prune_guild(guild_id)
            log.info("guild %d: its data was deleted, %d days after the bot left (%d rows)", guild_id,
                     self.prune_days, rows)
        return due

    def start(self, first: float = FIRST_PRUNE) -> None:
        """Arm the pruning: once ``first`` seconds from now, then every day."""
        self.scheduler.arm("prune", self.clock.now() + first, self._daily)

    async def _daily(self) -> None:
        try:
            await self.prune_due()
        except Exception:
            log.exception("pruning the data of servers left failed; trying again tomorrow")
        self.start(DAY)

    async def close(self) -> None:
        """Stop the pruning."""
        self.scheduler.cancel("prune")
        for task in list(self._tasks):
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)


__all__ = ["DAY", "EXPORT_FORMAT", "CompetingError", "PrivacyError", "PrivacyService", "QueuedError",
           "RematchError", "SeatedError"]
