"""The Discord presenter: implements `bot.tables.Notifier` with the bot token (never an interaction token).

- The lobby message is posted once and edited.
- The public table message, one per hand, is built, posted and edited by `bot.ui.table_message`; the
  pump here coalesces its edits (a waiting edit shows the latest state). When the hand ends, that message
  becomes the hand's record (`bot.ui.records`) and the next hand's table is posted below it.
- Every channel write (public and DM) goes through one `WriteBudget`: at most 5 writes per 5 s per
  channel, whatever the pace of play.
- Hands by DM and turn alerts: `bot.ui.hands`. A person whose DMs are closed is alerted by a short mention
  in the channel, deleted once they have played.
- Notifications return at once: the writes happen in one background pump per table, in order.
- Table events said in words (reminders, timeouts, seats taken over, the rematch check): `bot.ui.notes`.

When Discord says a table's place is gone (the written rule):
- 10003 Unknown Channel on any write, CHANNEL_DELETE / THREAD_DELETE, a channel missing when a server
  becomes available, or the bot removed from the server: the table ends (`TableService.channel_gone`)
  and nothing more is written to that channel; its players' DM hands say it ended.
- 10008 Unknown Message (someone deleted the message) or 30046 (too old to edit): the lobby or the table
  message is posted again below; a hand's record that cannot be edited in is posted instead.
- 50013 Missing Permissions or 50001 Missing Access (a permission taken away mid-game, `bot.ui.permissions`):
  the host is told once, by DM (or at their next click when their DMs are closed), naming what is missing
  as far as the bot's cache can tell; play goes on through the DM hands. Nothing due is dropped: the table
  message and the hand records wait, and are written when a try succeeds, tried again every
  `PERMISSION_RETRY` seconds (table events meanwhile are coalesced, not tried: every refusal counts
  against Discord's invalid-request limit).
- 50083 (the table's thread closed and locked by a moderator): as a missing permission, until it reopens.
- Any other refused write is logged in one line (status and code, no traceback) and the table plays on.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable, Sequence
from typing import Any

import discord

from bot.engine import Event, EventKind
from bot.i18n import t
from bot.store.messages import TableMessages
from bot.tables import LOBBY, PLAYING, Table, TableService

from . import permissions, records, render
from .budget import RequestRate, WriteBudget
from .faces import CardFaces
from .hands import ACTIVE_WINDOW, HandPresenter, open_dm
from .notes import TableNotesMixin
from .picture_workers import PictureWorkers
from .table_message import (
    RECORD_EDIT_AGE,
    UNKNOWN_CHANNEL,
    UNKNOWN_MESSAGE,
    PublicState,
    TableMessage,
    message_age,
)

K = EventKind
log = logging.getLogger(__name__)

MISSING_ACCESS = 50001
MISSING_PERMISSIONS = 50013
ARCHIVED_THREAD = 50083
PERMISSION_RETRY = 30.0
"""Seconds between two tries of a table's channel writes while Discord refuses them for a missing
permission."""

__all__ = ["DiscordNotifier", "open_dm"]


def lacks_permission(exc: discord.HTTPException) -> bool:
    """Whether Discord refused a write because the bot may not write there for now: a permission taken
    away (403, 50013 or 50001), or the table's thread closed and locked by a moderator (400, 50083: only
    someone with Manage Threads can reopen it). Either way the writes wait and are tried again."""
    if exc.code == ARCHIVED_THREAD:
        return True
    return exc.status == 403 and exc.code in (MISSING_PERMISSIONS, MISSING_ACCESS)


class DiscordNotifier(TableNotesMixin):
    """Presents tables on Discord.

    Args:
        client: the bot.
        service: the table service (languages, the clock); whether another process changed a table since
            is told (`overtaken`), never asked.
        edit_interval: seconds between two edits of one table's public message (and of one DM hand).
        clock: monotonic clock (default `time.monotonic`; SimCord drives it in tests).
        sleep: how to wait for the next edit slot (default `asyncio.sleep`).
        budget: the per-channel `WriteBudget` (default: Discord's 5 writes per 5 s).
        pictures: draw the table picture (`bot.ui.table_scene`) on the table message.
        picture_workers: draw it in these worker processes (`bot.ui.picture_workers`); None: in this process.
        rate: the bot's `RequestRate`; while it is busy, table message edits (optional: each shows the
            latest state, so a later one replaces it) wait up to `MAX_SHED` seconds (default: never busy).
        faces: how the table message and the hands write their cards (`bot.ui.faces.CardFaces`; default
            text labels).
        messages: the presenter's store of message ids (`bot.store.messages.TableMessages`): every change
            of ``Table.messages`` (the presenter's in-memory copy) is written there; None: kept in memory
            only (unit tests).
    """

    def __init__(self, client: discord.Client, service: TableService, *, edit_interval: float = 1.0,
                 clock: Callable[[], float] | None = None,
                 sleep: Callable[[float], Awaitable[Any]] | None = None, budget: WriteBudget | None = None,
                 pictures: bool = True, rate: RequestRate | None = None,
                 picture_workers: PictureWorkers | None = None, faces: CardFaces = CardFaces.TEXT,
                 messages: TableMessages | None = None) -> None:
        self.client = client
        self.service = service
        self.edit_interval = edit_interval
        self._clock = clock
        self._sleep = sleep or asyncio.sleep
        self.budget = budget or WriteBudget(clock=clock, sleep=sleep)
        self.pictures = pictures
        self.picture_workers = picture_workers
        self.rate = rate
        self.hands = HandPresenter(client, service, self.budget, edit_interval=edit_interval, clock=clock,
                                   sleep=sleep, faces=faces, messages=messages, pictures=pictures)
        self.hands.on_dm_closed = self.mark_dm_closed
        self.faces = faces
        self._public: dict[int, PublicState] = {}
        self.table_message = TableMessage(self)
        self._background: set[asyncio.Task[Any]] = set()

    def _now(self) -> float:
        return self._clock() if self._clock else time.monotonic()

    def _channel(self, table: Table) -> discord.PartialMessageable:
        return self.client.get_partial_messageable(table.channel_id, guild_id=table.guild_id)

    def _state(self, table: Table) -> PublicState:
        return self._public.setdefault(table.id, PublicState())

    def _kick(self, table: Table) -> None:
        state = self._state(table)
        if state.task is None or state.task.done():
            state.task = asyncio.ensure_future(self._pump(table))

    async def settled(self) -> None:
        """Wait until every pending public and DM write is done (tests and shutdown)."""
        while True:
            tasks = [s.task for s in self._public.values() if s.task is not None and not s.task.done()]
            if not tasks:
                break
            await asyncio.gather(*tasks, return_exceptions=True)
        await self.hands.settled()

    # ------------------------------------------------------------------ lobby

    async def lobby_changed(self, table: Table) -> None:
        """Post the lobby message, or edit it (posted again when it was deleted)."""
        if table.channel_gone:
            return
        lang = await self.service.public_language(table.guild_id)
        await self.budget.acquire(table.channel_id)
        payload = render.lobby_payload(table, lang)
        channel = self._channel(table)
        try:
            if table.messages.lobby is not None:
                try:
                    await channel.get_partial_message(table.messages.lobby).edit(**payload.edit_kwargs())
                    self._unblocked(table)
                    return
                except discord.HTTPException as exc:
                    if exc.code != UNKNOWN_MESSAGE:
                        raise
                    log.info("table %d: the lobby message was deleted; posting it again", table.id)
            message = await channel.send(**payload.send_kwargs())
            self._unblocked(table)
            table.messages.lobby = message.id
            await self.hands.save_messages(table)
        except discord.HTTPException as exc:
            self._refused(table, "lobby", exc)

    def _refused(self, table: Table, what: str, exc: discord.HTTPException) -> None:
        """A write Discord refused: one log line; 10003 (the channel is gone) ends the table."""
        log.warning("table %d: %s refused (%s %s)", table.id, what, exc.status, exc.code)
        if lacks_permission(exc) and not table.channel_gone:
            self._blocked(table)
        if exc.code == UNKNOWN_CHANNEL and not table.channel_gone:
            table.channel_gone = True
            task = asyncio.ensure_future(self.service.channel_gone(table.channel_id))
            self._background.add(task)
            task.add_done_callback(self._background.discard)

    async def channel_exists(self, guild: discord.Guild, channel_id: int) -> bool:
        """Whether a channel or thread of ``guild`` is still there: the cache first (GUILD_CREATE lists
        every channel and active thread), then Discord (an archived thread). Not found or no access: False;
        any other failure: True (keep the table; the next write decides)."""
        if guild.get_channel_or_thread(channel_id) is not None:
            return True
        try:
            await guild.fetch_channel(channel_id)
        except (discord.NotFound, discord.Forbidden):
            return False
        except discord.HTTPException:
            return True
        return True

    # ------------------------------------------------------------------ a permission taken away

    def _blocked(self, table: Table) -> None:
        """A write to the table's channel was refused for a missing permission: what is due waits (the table
        message is shown again when a try succeeds), a try is scheduled `PERMISSION_RETRY` seconds from now,
        and the host is told once."""
        state = self._state(table)
        state.blocked = self._now()
        if table.status == PLAYING:
            state.dirty = True
        if state.retry is None or state.retry.done():
            state.retry = self._spawn(self._retry_later(table, state))
        if not state.told:
            state.told = True
            self._spawn(self._tell_host(table, state))

    def _unblocked(self, table: Table) -> None:
        """A write to the table's channel went through: a blocked spell is over (its host may be told
        again next time)."""
        state = self._public.get(table.id)
        if state is None or state.blocked is None:
            return
        log.info("table %d: its channel takes writes again", table.id)
        state.blocked, state.told, state.notice = None, False, None
        if state.retry is not None and state.retry is not asyncio.current_task():
            state.retry.cancel()
        state.retry = None

    def _waiting(self, state: PublicState) -> bool:
        """Whether the table's channel writes wait for their next try (refused less than
        `PERMISSION_RETRY` seconds ago)."""
        return state.blocked is not None and self._now() < state.blocked + PERMISSION_RETRY

    def _spawn(self, work: Awaitable[Any]) -> asyncio.Task[Any]:
        task = asyncio.ensure_future(work)
        self._background.add(task)
        task.add_done_callback(self._background.discard)
        return task

    async def _retry_later(self, table: Table, state: PublicState) -> None:
        """Try the table's channel again once `PERMISSION_RETRY` seconds have passed since the last refusal:
        the table message and the due records (a game), or the lobby message."""
        while state.blocked is not None and self._public.get(table.id) is state:
            wait = state.blocked + PERMISSION_RETRY - self._now()
            if wait > 0:
                await self._sleep(wait)
                continue
            state.retry = None  # a refusal now schedules the next try
            if table.channel_gone or table.status not in (LOBBY, PLAYING):
                return
            log.info("table %d: trying its channel again", table.id)
            if table.status == PLAYING:
                state.dirty = True
                self._kick(table)
            else:
                await self.lobby_changed(table)
            return

    async def _tell_host(self, table: Table, state: PublicState) -> None:
        """DM the host which permissions the table's channel lacks; when that DM fails, keep the text for
        their next click (`host_notice`)."""
        host = table.host_id
        seat = table.seat_of(host) if host is not None else None
        person = table.seats[seat] if seat is not None else None
        if host is None or seat is None or person is None:
            return
        lang = person.locale or await self.service.public_language(table.guild_id)
        lacking = permissions.channel_lacks(self.client, table.guild_id, table.channel_id)
        if lacking:
            missing = permissions.words(lacking, lang)
        else:  # the cache cannot tell which one
            thread = isinstance(self.client.get_channel(table.channel_id), discord.Thread)
            missing = t("perm.one_of", lang, names=permissions.words(permissions.table_needs(thread), lang))
        text = t("dm.table_blocked", lang, table=table.id, channel=f"<#{table.channel_id}>", missing=missing)
        if not await self.hands.send_line(table, seat, text) and state.blocked is not None:
            state.notice = text

    def host_notice(self, user_id: int) -> str | None:
        """The missing-permission notice of a table ``user_id`` hosts, when its DM failed (then forgotten:
        it is shown once)."""
        for table_id, state in self._public.items():
            if state.notice is not None:
                table = self.service.tables.get(table_id)
                if table is not None and table.host_id == user_id:
                    text, state.notice = state.notice, None
                    return text
        return None

    # ------------------------------------------------------------------ game

    async def game_changed(self, table: Table, events: Sequence[Event]) -> None:
        """Queue what the change needs: the record of every hand that ended, the table message (new for a
        new hand, else a coalesced edit), the players' DM hands and turn alerts."""
        if table.game is None:
            return
        state = self._state(table)
        for event in events:
            if event.kind == K.HAND_START:
                self._due(state, state.hand)
                state.hand = event.number
            elif event.kind == K.MESA_WON:
                self._due(state, state.hand if state.hand is not None else table.game.hand_number)
        if state.hand is None:
            state.hand = table.game.hand_number
        state.dirty = True
        self._kick(table)
        self.hands.refresh(table)

    @staticmethod
    def _due(state: PublicState, hand: int | None) -> None:
        """Hand ``hand`` is over (by its count, or cut short by a chica): its record is due, once."""
        if hand is not None and hand not in state.recorded:
            state.recorded.add(hand)
            state.records.append(hand)

    async def repost(self, table: Table) -> None:
        """Post the table message again at the bottom of the channel; the previous one says it moved."""
        if table.game is None:
            return
        self._state(table).repost = True
        self._kick(table)

    async def resumed(self, table: Table) -> None:
        """After a restart: refresh the table message and every DM hand (old buttons keep working)."""
        if table.game is None:
            return
        state = self._state(table)
        state.hand = state.hand or table.game.hand_number
        self._stored_due(table, state, table.game.hand_number)
        state.dirty = True
        self._kick(table)
        self.hands.refresh(table)

    async def reloaded(self, table: Table, hand: int | None) -> None:
        """Another bot process changed ``table``; this one reloaded it, with hand ``hand`` in play, and
        saved a change (`bot.tables.shared`): this process writes the table's public messages from now on.
        The record of a hand the other process ended is due here when the stored ids say it is not written
        yet. ``hand`` is the hand at the reload, not the table's now: the change's own notice, which comes
        next, tells of the hands it ended. (The DM hands are refreshed after that change: `bot.ui.hands`.)"""
        if table.game is None or hand is None:
            return
        state = self._state(table)
        self._stored_due(table, state, hand)
        state.hand = hand
        state.dirty = True
        self._kick(table)

    async def overtaken(self, table: Table, version: int) -> bool:
        """Another process saved ``table`` at ``version`` (the service says so, `bot.tables.shared`): it
        writes the table's messages, so the pending ones here are dropped while this copy is below that
        version. Returns whether an edit of the table message or a DM hand was on its way (the service then
        catches up and tells `caught_up`)."""
        on_way = self.hands.overtaken(table, version)
        state = self._public.get(table.id)
        if state is None:
            return on_way
        state.again = None
        if state.writing:
            state.again = (table.game.hand_number if table.game is not None else None, table.messages.public)
            on_way = True
        return on_way

    async def caught_up(self, table: Table) -> None:
        """The service reloaded ``table`` after an overtaken write: Discord may have applied that write after
        the other process's, so the table message is edited again, in the same hand and message (a new
        hand is that process's to post), and so are the overtaken DM hands."""
        state = self._public.get(table.id)
        if state is not None and state.again is not None:
            (hand, public), state.again = state.again, None
            game = table.game
            if game is not None and game.hand_number == hand and table.messages.public == public:
                log.info("table %d: an edit was overtaken by another process; showing it again", table.id)
                state.dirty = True
                self._kick(table)
        self.hands.caught_up(table)

    def _stored_due(self, table: Table, state: PublicState, hand: int) -> None:
        """The record of the hand the stored table message shows is due when hand ``hand``, a later one, is
        in play (a hand ended while its record was still to write: before a restart, or in another
        process)."""
        posted_for = table.messages.public_hand
        if table.messages.public is not None and posted_for and posted_for < hand:
            self._due(state, posted_for)

    @staticmethod
    def _drop_public(state: PublicState) -> None:
        """Another process changed the table since this one did: it writes the table message and the due
        records (`reloaded`), so this process's pending ones are dropped (a dropped record may be taken
        over again here, by a later reload). A re-post asked of this process is kept: the service caught
        the table up before it asked (`TableMessage.post` drops it if the table is still changed elsewhere)."""
        state.recorded.difference_update(state.records)
        state.records.clear()
        state.dirty = False

    async def close(self) -> None:
        """Cancel pending writes (the next start refreshes every table)."""
        tasks = [s.task for s in self._public.values() if s.task is not None] + list(self._background)
        self._public.clear()
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        await self.hands.close()

    # ------------------------------------------------------------------ the public pump

    async def _pump(self, table: Table) -> None:
        state = self._state(table)
        try:
            while not table.channel_gone:
                if self._waiting(state):  # a permission is missing: `_retry_later` comes back
                    return
                if (state.records or state.dirty) and self.hands.elsewhere(table):
                    log.info("table %d: changed by another process, which shows it", table.id)
                    self._drop_public(state)
                elif state.records:
                    await self._write_record(table, state.records.pop(0))
                elif state.repost:
                    state.repost = False
                    state.dirty = False
                    await self.table_message.post(table, moved=True)
                elif state.dirty:
                    state.dirty = False
                    try:
                        # another process's save told while this edit is on its way: the service catches
                        # up and the edit is made again (`caught_up`)
                        await self.table_message.update(table, state)
                    finally:
                        state.writing = False
                elif self._ping_stale(table, state):
                    await self._delete_ping(table, state)
                elif self._ping_wanted(table, state):
                    await self._post_ping(table, state)
                else:
                    return
        except asyncio.CancelledError:
            raise
        except discord.HTTPException as exc:
            self._refused(table, "public update", exc)
        except Exception:
            log.exception("table %d: public update failed", table.id)

    async def _write_record(self, table: Table, number: int) -> None:
        """Hand ``number`` ended: its table message becomes the hand's record (or the record is posted when
        that message is gone or too old). The mesa's last record keeps the message as the table's. The
        record is of the table message's kind (`Messages.public_layout`: Components V2, or an embed)."""
        game = table.game
        if game is None:
            return
        lang = await self.service.public_language(table.guild_id)
        channel = self._channel(table)
        payload = records.hand_record_payload(table, number, lang, layout=table.messages.public_layout)
        over = game.is_over
        written: int | None = None
        await self.budget.acquire(table.channel_id)
        if self.hands.elsewhere(table):  # another process changed it meanwhile: it writes the record
            self._state(table).recorded.discard(number)
            return
        public = table.messages.public
        tried_edit = (public is not None and table.messages.public_hand == number
                      and message_age(public) < RECORD_EDIT_AGE)
        if tried_edit and public is not None:
            try:
                await channel.get_partial_message(public).edit(**payload.edit_kwargs())
                written = public
            except discord.HTTPException as exc:
                log.info("table %d: hand %d record edit failed (%s %s); posting it", table.id, number,
                         exc.status, exc.code)
        if written is None:
            if tried_edit:
                await self.budget.acquire(table.channel_id)  # the edit above took the first write
            try:
                written = (await channel.send(**payload.send_kwargs())).id
            except discord.HTTPException as exc:
                if lacks_permission(exc):  # kept: written when the permission is back
                    self._state(table).records.insert(0, number)
                    raise
                self._refused(table, f"hand {number} record", exc)
        if written is not None:
            self._unblocked(table)
        self._state(table).last_write = self._now()
        if over and written is not None:
            table.messages.public, table.messages.public_hand = written, number
        elif table.messages.public_hand == number:
            table.messages.public = None
        await self.hands.save_messages(table)

    # ------------------------------------------------------------------ channel alerts for closed DMs

    def _ping_wanted(self, table: Table, state: PublicState) -> bool:
        game = table.game
        if game is None or table.status != PLAYING or game.to_play is None or state.ping is not None:
            return False
        seat = game.to_play
        person = table.seats[seat]
        if person is None or person.is_ai or person.away or not table.dm_closed(seat):
            return False
        if state.pinged == (seat, table.nonce):
            return False
        seen = table.seen.get(seat)
        return seen is None or self.service.clock.now() - seen >= ACTIVE_WINDOW

    def _ping_stale(self, table: Table, state: PublicState) -> bool:
        if state.ping is None:
            return False
        _, seat, nonce = state.ping
        game = table.game
        return game is None or table.status != PLAYING or table.nonce != nonce or game.to_play != seat

    async def _post_ping(self, table: Table, state: PublicState) -> None:
        game = table.game
        assert game is not None and game.to_play is not None
        seat, nonce = game.to_play, table.nonce
        lang = await self.service.public_language(table.guild_id)
        await self.budget.acquire(table.channel_id)
        if table.nonce != nonce or game.to_play != seat:
            return
        payload = render.turn_ping_payload(table, seat, lang)
        kwargs: dict[str, Any] = {"content": payload.content, "allowed_mentions": discord.AllowedMentions(users=True)}
        try:
            message = await self._channel(table).send(**kwargs)
        except discord.HTTPException as exc:
            self._refused(table, "turn alert", exc)
            state.pinged = (seat, nonce)
            return
        state.pinged = (seat, nonce)
        state.ping = (message.id, seat, nonce)

    async def _delete_ping(self, table: Table, state: PublicState) -> None:
        assert state.ping is not None
        message_id = state.ping[0]
        state.ping = None
        await self.budget.acquire(table.channel_id)
        try:
            await self._channel(table).get_partial_message(message_id).delete()
        except discord.HTTPException as exc:
            log.info("table %d: turn alert not deleted (%s %s)", table.id, exc.status, exc.code)

    # ------------------------------------------------------------------ DMs (bot.ui.hands)

    async def mark_dm_closed(self, table: Table, seat: int) -> None:
        """Record that a seat's DMs are closed; the public message tells them to use "My hand"."""
        await self.hands.mark_dm_closed(table, seat)
        if table.status == PLAYING and table.messages.public is not None:
            self._state(table).dirty = True
            self._kick(table)

    async def welcome(self, table: Table, user: discord.abc.User, lang: str) -> bool:
        """DM a player who just sat down. Returns False only when their DMs are closed (403, 50007)."""
        ok = await self.hands.welcome(table, user, lang)
        if not ok and table.status == PLAYING:
            self._state(table).dirty = True
            self._kick(table)
        return ok

    def hand_shown(self, table: Table, seat: int, interaction: discord.Interaction | None = None, *,
                   menu: bool = False) -> None:
        """A click on the seat's DM hand was answered with the current hand, or with its capture menu
        (``menu``; see `HandPresenter.shown`; the click's token then carries the hand's next writes)."""
        self.hands.shown(table, seat, interaction, menu=menu)

    # ------------------------------------------------------------------ closing

    async def table_closed(self, table: Table) -> None:
        """Say in the channel that the table ended, whatever the moment (`TableMessage.close`: the lobby
        or the table message becomes the closing note, or it is posted below), and retire the DM hands."""
        lang = await self.service.public_language(table.guild_id)
        state = self._public.pop(table.id, None)
        if state is not None and state.task is not None and state.task is not asyncio.current_task():
            state.task.cancel()
        if table.channel_gone:  # deleted channel, or the bot left the server: write nothing there
            await self.hands.close_table(table)
            return
        await self.table_message.close(table, lang, state.ping[0] if state is not None and state.ping else None)
        await self.hands.close_table(table)

    def forget(self, table: Table) -> None:
        """The table left the service's memory (`bot.tables.memory`: it ended a while ago): drop what is
        kept for it here, its public pump's state and its DM hands' state. Nothing is written."""
        self._public.pop(table.id, None)
        self.hands.forget(table.id)
