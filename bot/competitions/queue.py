"""The matchmaking queue: join a server's queue for 1 v 1 or 2 v 2, get matched, accept within
60 s, play at a table the bot opens (and referees) in the server's queue channel.

The rules, as built:

- A person waits in one queue at a time (across servers too), and never while seated at a table.
- When enough people wait in a mode (2 for 1 v 1, 4 for 2 v 2), the earliest ones are proposed a match
  and pinged. Each must accept within `ACCEPT_TIMEOUT` seconds. When all accept, the bot opens a thread in
  the queue channel and a table in it with their seats; in 2 v 2 the teams are the split of the four with
  the smallest difference in rating (`balance.balanced_teams`, the server's current season, 2 v 2).
- Whoever declines, or has not accepted when the time is up, leaves the queue; the others go back to it
  in their place (their ``joined_at`` is kept), and matching runs again.
- An entry expires `EXPIRE_AFTER` seconds after joining or after its last "still here", with a "still
  there?" DM `REMIND_AFTER` seconds in.
- Entries and their clocks are stored (migration 0004) and survive a restart. A proposal still waiting
  for answers at a restart is dropped, and its people are matched again from the queue (a new ping).

The service holds no Discord code: it talks to a `QueuePresenter`, and opens tables through the
`TableService`'s public methods.
"""

from __future__ import annotations

import asyncio
import functools
import itertools
import logging
import time
from dataclasses import dataclass, field, replace
from typing import Any, Protocol

from bot.store import Store
from bot.tables import TableError, TableService
from bot.tables.timers import Clock, Scheduler

from .background import Background
from .balance import balanced_teams
from .referee import Place
from .repo import Entry, QueueRepo

log = logging.getLogger(__name__)

MODES = ("1v1", "2v2")
MATCH_SIZE = {"1v1": 2, "2v2": 4}
ACCEPT_TIMEOUT = 60.0
"""Seconds each matched person has to accept."""
REMIND_AFTER = 20 * 60.0
"""Seconds in the queue (since joining or the last "still here") before the "still there?" DM."""
EXPIRE_AFTER = 30 * 60.0
"""Seconds in the queue (since joining or the last "still here") after which the entry expires."""


class QueueError(TableError):
    """A refused queue action (an i18n key and its parameters, like every `TableError`)."""


@dataclass
class Proposal:
    """A proposed match waiting for its people to accept.

    Attributes:
        id: in-memory number (a proposal does not outlive a restart). users: in queue order.
        names: user id → name. accepted / declined: who answered. deadline: UTC seconds.
        status: ``open``, ``started`` (``table_id``, ``channel_id`` set) or ``cancelled`` (``missing``:
        who declined or did not answer; with ``seated``, who sat down at another table after accepting).
        message_id: the ping's message, set by the presenter.
    """

    id: int
    guild_id: int
    mode: str
    users: list[int]
    names: dict[int, str]
    deadline: float
    accepted: set[int] = field(default_factory=set)
    declined: set[int] = field(default_factory=set)
    status: str = "open"
    table_id: int | None = None
    channel_id: int | None = None
    missing: list[int] = field(default_factory=list)
    seated: bool = False
    message_id: int | None = None


class QueuePresenter(Protocol):
    """What the queue tells Discord (implemented by `bot.competitions.present.QueueDiscord`)."""

    async def queue_changed(self, guild_id: int, counts: dict[str, int]) -> None:
        """The number waiting changed: update the queue message."""

    async def match_changed(self, proposal: Proposal) -> None:
        """A proposal was made, answered, started or cancelled: post or edit its ping."""

    async def make_channel(self, proposal: Proposal, channel_id: int) -> Place:
        """Open the place of the match's table under the queue channel."""

    async def tell(self, entry: Entry, kind: str, **params: Any) -> None:
        """A DM to one person: ``still_there`` (with a "still here" button), ``expired``, ``no_show``."""

    async def pings_dropped(self, pings: list[tuple[int, int, int, str | None]]) -> None:
        """After a restart: the pings (``(message_id, channel_id, guild_id, final)``) left with buttons lose
        them and show ``final`` (how their match ended, when its edit had failed), else say that the restart
        dropped their proposal (`QueueService.ping_done` each)."""


class QueueService(Background):
    """The matchmaking queue of every server.

    Args:
        store: the open store. tables: the table service (tables are opened through it).
        clock: the `Clock` of the accept, reminder and expiry alarms (the tables' clock).
    """

    STARTED_KEPT = 256
    """Started proposals remembered for a late second «Aceptar»."""

    def __init__(self, store: Store, tables: TableService, clock: Clock,
                 presenter: QueuePresenter | None = None) -> None:
        self.repo = QueueRepo(store)
        self.tables = tables
        self.clock = clock
        self.presenter = presenter
        self.entries: dict[int, Entry] = {}
        self.proposals: dict[int, Proposal] = {}
        """The open proposals by id (an ended one is dropped: the presenter holds it while it writes)."""
        self._started: dict[int, Proposal] = {}
        """The latest proposals that started a table (`STARTED_KEPT`): a late second «Aceptar» is told so."""
        # Ids go in the pings' buttons: they start from the wall clock's milliseconds, so that a ping left
        # from before a restart never names a proposal of this process.
        self._ids = itertools.count(int(time.time() * 1000))
        self._lock = asyncio.Lock()
        self._init_background()
        self.scheduler = Scheduler(clock, self._spawn)

    async def load(self) -> int:
        """Restore the stored entries of the servers this process runs (`TableService.serves_guild`) and
        their alarms (after a restart), then match again. The pings of the proposals the restart dropped
        are handed to the presenter (``pings_dropped``) first. Returns how many entries were restored."""
        dropped = [p for p in await self.repo.pings() if self.tables.serves_guild(p[2])]
        if dropped and self.presenter is not None:
            self._spawn(self.presenter.pings_dropped(dropped))
        for entry in await self.repo.entries():
            if not self.tables.serves_guild(entry.guild_id):
                continue  # another process runs that server, and its queue (docs/SCALING.md §7)
            self.entries[entry.user_id] = entry
            self._arm(entry)
        for guild_id, mode in {(e.guild_id, e.mode) for e in self.entries.values()}:
            async with self._lock:
                await self._match(guild_id, mode)
        return len(self.entries)

    # ------------------------------------------------------------------ queries

    def counts(self, guild_id: int) -> dict[str, int]:
        """How many wait in each mode of a server (people in a proposed match included)."""
        out = dict.fromkeys(MODES, 0)
        for entry in self.entries.values():
            if entry.guild_id == guild_id:
                out[entry.mode] += 1
        return out

    def _proposed(self, user_id: int) -> Proposal | None:
        return next((p for p in self.proposals.values() if p.status == "open" and user_id in p.users), None)

    # ------------------------------------------------------------------ people

    async def set_channel(self, guild_id: int, channel_id: int, message_id: int | None) -> None:
        """Make ``channel_id`` the server's queue channel (matches open as threads there)."""
        await self.repo.set_queue_channel(guild_id, channel_id, message_id)

    async def queue_channel(self, guild_id: int) -> tuple[int, int | None] | None:
        """The server's queue channel and queue message ids, or None."""
        return await self.repo.queue_channel(guild_id)

    async def join(self, *, guild_id: int, user_id: int, name: str, locale: str, mode: str) -> int:
        """Wait in a server's queue for ``mode``. Returns how many wait in that mode now.

        Raises:
            QueueError: ``err.queue_mode`` (unknown mode), ``err.queue_no_channel`` (the server has no
            queue channel), ``err.queue_seated`` (params: table; seated at a table),
            ``err.queue_already`` (params: mode; already waiting in a queue).
        """
        if mode not in MODES:
            raise QueueError("err.queue_mode")
        if await self.repo.queue_channel(guild_id) is None:
            raise QueueError("err.queue_no_channel")
        async with self._lock:
            seated = self.tables.table_of_user(user_id)
            if seated is not None:
                raise QueueError("err.queue_seated", table=seated.id)
            if user_id in self.entries:
                raise QueueError("err.queue_already", mode=self.entries[user_id].mode)
            now = self.clock.now()
            entry = Entry(user_id, guild_id, mode, name, locale, now, now)
            await self.repo.add(entry)
            self.entries[user_id] = entry
            self._arm(entry)
            log.info("queue: user %d waits for %s in guild %d", user_id, mode, guild_id)
            count = self.counts(guild_id)[mode]
            await self._match(guild_id, mode)
        self._changed(guild_id)
        return count

    async def leave(self, user_id: int) -> Entry:
        """Leave the queue (also from a proposed match, which is then cancelled for the others).

        Raises:
            QueueError: ``err.queue_not_in``.
        """
        async with self._lock:
            entry = self.entries.get(user_id)
            if entry is None:
                raise QueueError("err.queue_not_in")
            proposal = self._proposed(user_id)
            if proposal is not None:
                proposal.declined.add(user_id)
                await self._cancel(proposal)
            else:
                await self._drop([user_id])
            await self._match(entry.guild_id, entry.mode)
        self._changed(entry.guild_id)
        return entry

    async def member_gone(self, guild_id: int, user_id: int) -> bool:
        """A member left server ``guild_id`` or was removed from it: they leave its queue (a match proposed
        to them is cancelled for the others, who keep their place). Returns whether they were waiting
        there."""
        entry = self.entries.get(user_id)
        if entry is None or entry.guild_id != guild_id:
            return False
        try:
            await self.leave(user_id)
        except QueueError:  # left meanwhile
            return False
        return True

    async def ping_posted(self, proposal: Proposal, channel_id: int) -> None:
        """The presenter posted the ping of ``proposal`` (``message_id`` set): kept until it shows how the
        match ended, so that a restart, which drops the proposal, can take its buttons away."""
        if proposal.message_id is not None:
            await self.repo.add_ping(proposal.message_id, channel_id, proposal.guild_id)

    async def ping_done(self, message_id: int) -> None:
        """A ping shows how its match ended (or was dealt with after a restart): forget it."""
        await self.repo.remove_ping(message_id)

    async def ping_unshown(self, message_id: int, content: str) -> None:
        """The edit that would show how a ping's match ended failed: ``content`` is kept with the ping, and
        a restart shows it (`QueuePresenter.pings_dropped`) rather than say the match was dropped."""
        await self.repo.set_ping_final(message_id, content)

    async def still_here(self, user_id: int) -> Entry:
        """"Still here": the entry's 30 minutes start again (its place is kept).

        Raises:
            QueueError: ``err.queue_not_in``.
        """
        async with self._lock:
            entry = self.entries.get(user_id)
            if entry is None:
                raise QueueError("err.queue_not_in")
            entry.renewed_at, entry.reminded = self.clock.now(), False
            await self.repo.renew(user_id, entry.renewed_at, False)
            self._arm(entry)
        return entry

    def match_guild(self, proposal_id: int) -> int | None:
        """The server of a proposed (or just started) match; None when no such match is known."""
        proposal = self.proposals.get(proposal_id) or self._started.get(proposal_id)
        return proposal.guild_id if proposal is not None else None

    async def answer(self, proposal_id: int, user_id: int, accept: bool) -> Proposal:
        """Accept or decline a proposed match. When the last person accepts, the table opens.

        A second «Aceptar» by someone of a match that has just started returns that match (``started``).

        Raises:
            QueueError: ``err.match_gone`` (no such open proposal), ``err.match_not_yours``,
                ``err.queue_seated`` (params: table; an acceptance by someone seated at a table: nothing
                changes).
        """
        async with self._lock:
            proposal = self.proposals.get(proposal_id)
            if proposal is None:
                started = self._started.get(proposal_id)
                if accept and started is not None and user_id in started.users:
                    return started  # a second click on the last «Aceptar»: the match that it started
            if proposal is None or proposal.status != "open":
                raise QueueError("err.match_gone")
            if user_id not in proposal.users:
                raise QueueError("err.match_not_yours")
            if accept:
                seated = self.tables.table_of_user(user_id)
                if seated is not None:  # nothing changes: they may leave that table, or decline
                    raise QueueError("err.queue_seated", table=seated.id)
                proposal.accepted.add(user_id)
                if proposal.accepted >= set(proposal.users):
                    await self._open(proposal)
                    if proposal.seated:  # the others keep their place: match them again (not after a
                        await self._match(proposal.guild_id, proposal.mode)  # failure, which would repeat)
                else:
                    self._tell_match(proposal)
            else:
                proposal.declined.add(user_id)
                await self._cancel(proposal)
                await self._match(proposal.guild_id, proposal.mode)
        self._changed(proposal.guild_id)
        return proposal

    # ------------------------------------------------------------------ matching (under the lock)

    async def _match(self, guild_id: int, mode: str) -> None:
        """Propose matches while enough people wait (the earliest first)."""
        while True:
            waiting = sorted((e for e in self.entries.values() if e.guild_id == guild_id and e.mode == mode
                              and self._proposed(e.user_id) is None), key=lambda e: (e.joined_at, e.user_id))
            seated = [e.user_id for e in waiting if self.tables.table_of_user(e.user_id) is not None]
            if seated:  # sat down at a table meanwhile: never in a queue while seated
                await self._drop(seated)
                continue
            size = MATCH_SIZE[mode]
            if len(waiting) < size:
                return
            chosen = waiting[:size]
            proposal = Proposal(next(self._ids), guild_id, mode, [e.user_id for e in chosen],
                                {e.user_id: e.name for e in chosen}, self.clock.now() + ACCEPT_TIMEOUT)
            self.proposals[proposal.id] = proposal
            pid = proposal.id
            self.scheduler.arm(("accept", pid), proposal.deadline, functools.partial(self._accept_expired, pid))
            log.info("queue: match %d proposed in guild %d (%s)", pid, guild_id, mode)
            self._tell_match(proposal)

    async def _accept_expired(self, proposal_id: int) -> None:
        async with self._lock:
            proposal = self.proposals.get(proposal_id)
            if proposal is None or proposal.status != "open":
                return
            await self._cancel(proposal, no_show=True)
            await self._match(proposal.guild_id, proposal.mode)
        self._changed(proposal.guild_id)

    async def _cancel(self, proposal: Proposal, *, no_show: bool = False) -> None:
        """Whoever declined (or, at the deadline, did not accept) leaves the queue; the others stay in
        their place."""
        missing = [u for u in proposal.users if u in proposal.declined or (no_show and u not in proposal.accepted)]
        proposal.status, proposal.missing = "cancelled", missing
        self.scheduler.cancel(("accept", proposal.id))
        self.proposals.pop(proposal.id, None)  # ended: a late answer finds no open proposal either way
        if no_show:
            for user_id in missing:
                entry = self.entries.get(user_id)
                if entry is not None:
                    self._spawn(self._dm(entry, "no_show"))
        await self._drop(missing)
        log.info("queue: match %d cancelled (%d missing)", proposal.id, len(missing))
        self._tell_match(proposal)

    async def _open(self, proposal: Proposal) -> None:
        """Everyone accepted: open the place and the table, seat them, start. Someone who sat down at a
        table since they accepted cancels the match (they leave the queue, the others keep their place),
        and a table that opened but could not seat everyone is ended."""
        self.scheduler.cancel(("accept", proposal.id))
        seated = [u for u in proposal.users if self.tables.table_of_user(u) is not None]
        if seated:
            log.info("queue: match %d cannot open (%d seated elsewhere)", proposal.id, len(seated))
            proposal.declined |= set(seated)
            proposal.seated = True
            await self._cancel(proposal)
            return
        entries = [self.entries[u] for u in proposal.users]
        table = None
        where = await self.repo.queue_channel(proposal.guild_id)
        try:
            if where is None or self.presenter is None:
                raise QueueError("err.queue_no_channel")
            place = await self.presenter.make_channel(proposal, where[0])
            channel_id = place.channel_id
            if proposal.mode == "2v2":
                ratings = await self.repo.ratings(proposal.guild_id, "2v2", proposal.users)
                team_a, team_b = balanced_teams(proposal.users, ratings)
                order = [(team_a[0], 0), (team_a[1], 0), (team_b[0], 1), (team_b[1], 1)]
            else:
                order = [(proposal.users[0], 0), (proposal.users[1], 1)]
            by_user = {e.user_id: e for e in entries}
            host = by_user[order[0][0]]
            table = await self.tables.create(guild_id=proposal.guild_id, channel_id=channel_id,
                                             user_id=host.user_id, name=host.name, locale=host.locale,
                                             players=MATCH_SIZE[proposal.mode], guild_name=place.guild_name,
                                             channel_name=place.channel_name,
                                             # the named preset, never house rules: rated
                                             preset=await self.tables.default_preset(proposal.guild_id),
                                             refereed="queue")
            table.options = replace(table.options, queue_match=proposal.id)
            for user_id, team in order[1:]:
                e = by_user[user_id]
                await self.tables.join(table.id, user_id=user_id, name=e.name, locale=e.locale,
                                       team=team if proposal.mode == "2v2" else None)
        except Exception as exc:
            log.warning("queue: match %d could not open its table (%s)", proposal.id, exc)
            if table is not None:  # not left seated alone at a table nobody else can join
                try:
                    await self.tables.end(table.id, user_id=table.host_id or 0, can_manage=True)
                except Exception:
                    log.exception("queue: match %d: its table %d could not be ended", proposal.id, table.id)
            proposal.declined |= {u for u in proposal.users if self.tables.table_of_user(u) is not None}
            await self._cancel(proposal)
            return
        proposal.status, proposal.table_id, proposal.channel_id = "started", table.id, channel_id
        self.proposals.pop(proposal.id, None)
        self._started[proposal.id] = proposal
        while len(self._started) > self.STARTED_KEPT:
            del self._started[next(iter(self._started))]
        await self._drop(proposal.users)
        log.info("queue: match %d opened table %d", proposal.id, table.id)
        self._tell_match(proposal)

    async def _drop(self, user_ids: list[int]) -> None:
        for user_id in user_ids:
            self.entries.pop(user_id, None)
            self.scheduler.cancel(("remind", user_id))
            self.scheduler.cancel(("expire", user_id))
        await self.repo.remove(user_ids)

    # ------------------------------------------------------------------ entry clocks

    def _arm(self, entry: Entry) -> None:
        uid = entry.user_id
        if not entry.reminded:
            self.scheduler.arm(("remind", uid), entry.renewed_at + REMIND_AFTER, lambda: self._remind(uid))
        self.scheduler.arm(("expire", uid), entry.renewed_at + EXPIRE_AFTER, lambda: self._expire(uid))

    async def _remind(self, user_id: int) -> None:
        async with self._lock:
            entry = self.entries.get(user_id)
            if entry is None or entry.reminded or self.clock.now() < entry.renewed_at + REMIND_AFTER:
                return
            entry.reminded = True
            await self.repo.renew(user_id, entry.renewed_at, True)
        await self._dm(entry, "still_there", deadline=entry.renewed_at + EXPIRE_AFTER)

    async def _expire(self, user_id: int) -> None:
        async with self._lock:
            entry = self.entries.get(user_id)
            if entry is None or self.clock.now() < entry.renewed_at + EXPIRE_AFTER:
                return
            proposal = self._proposed(user_id)
            if proposal is not None:  # being matched right now: decide after the answers
                uid = user_id
                self.scheduler.arm(("expire", uid), proposal.deadline + 1, lambda: self._expire(uid))
                return
            await self._drop([user_id])
            log.info("queue: user %d expired", user_id)
        await self._dm(entry, "expired")
        self._changed(entry.guild_id)

    # ------------------------------------------------------------------ telling

    async def _dm(self, entry: Entry, kind: str, **params: Any) -> None:
        if self.presenter is None:
            return
        try:
            await self.presenter.tell(entry, kind, **params)
        except Exception:
            log.exception("queue: telling user %d failed", entry.user_id)

    def _tell_match(self, proposal: Proposal) -> None:
        self._tell("match_changed", proposal)

    def _changed(self, guild_id: int) -> None:
        self._tell("queue_changed", guild_id, self.counts(guild_id))
