"""The public table message of a hand: built, posted and edited (a part of `bot.ui.notifier.DiscordNotifier`).

- One message per hand, posted at the bottom of the channel when the hand starts (or when the message
  was lost, grew old, or `/cuarenta table` asked for it) and edited as the hand goes, at most about once
  per ``edit_interval`` (coalesced by the presenter's pump: an edit shows the latest state).
- A new message is a Components V2 layout (`bot.ui.render.table_layout`): the picture in a media gallery
  with the table in words as its alt text, the last play, the turn and the deadline as text, the
  container in the colour of the side to play; at most 450 px at 390 px width.
- A message keeps its kind (``Table.messages.public_layout``): one posted as an embed (before the layout)
  is edited as an embed until its hand ends, and the notes that replace a table message (moved, closed)
  are sent in the kind of the message they replace (`keep_kind`).
- Every write goes with the bot's token, never an interaction's: Discord refuses an edit that puts a media
  gallery of an uploaded file in a message through an interaction token (discord-api-docs#7529). The
  click that starts a table answers with an ephemeral line; the table message is this module's.
- Every write waits for the channel's `bot.ui.budget.WriteBudget`; an edit of the table message, optional
  (the next one shows the same and more), also waits while the bot's request rate is at its limit.
"""

from __future__ import annotations

import asyncio
import dataclasses
import logging
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import discord

from bot.tables import PLAYING, Table
from bot.tables.workers import OffloadClosedError

from . import delivery, render
from .budget import MAX_SHED
from .picture import render_table
from .table_scene import table_scene

if TYPE_CHECKING:
    from .notifier import DiscordNotifier

log = logging.getLogger(__name__)

REPOST_AGE = 50 * 60.0
"""Seconds after which the table message is posted anew below rather than edited: Discord limits edits
of messages older than an hour (30046, and a much slower rate limit close to it), so a long hand moves
down before it gets there, and the "moved" note still fits in the hour."""
RECORD_EDIT_AGE = 58 * 60.0
"""A hand's record is edited into its table message only while that message is younger than this;
older, the record is posted (no edit is attempted that could be refused or slowed down)."""

OLD_MESSAGE_EDIT_LIMIT = 30046
UNKNOWN_MESSAGE = 10008
UNKNOWN_CHANNEL = 10003


def message_age(message_id: int) -> float:
    """Seconds since a message was posted, from its snowflake (Discord's clock, as `discord.utils.utcnow`)."""
    return (discord.utils.utcnow() - discord.utils.snowflake_time(message_id)).total_seconds()


@dataclass
class PublicState:
    """What a table's public pump still has to write."""

    dirty: bool = False
    repost: bool = False
    records: list[int] = field(default_factory=list)
    hand: int | None = None
    """The hand in play as last told (its record is due when the next hand starts or the mesa ends)."""
    recorded: set[int] = field(default_factory=set)
    ping: tuple[int, int, int] | None = None
    """The channel alert for a person with closed DMs: (message id, seat, nonce)."""
    pinged: tuple[int, int] | None = None
    """The (seat, nonce) last alerted in the channel: one alert per turn at most."""
    task: asyncio.Task[Any] | None = None
    last_write: float = float("-inf")
    blocked: float | None = None
    """When (clock seconds) a channel write was last refused for a missing permission; None: not blocked."""
    told: bool = False
    """The host was told of the missing permission (once per blocked spell)."""
    notice: str | None = None
    """That telling, kept for the host's next click when their DM failed."""
    retry: asyncio.Task[Any] | None = None
    writing: bool = False
    """An edit of the table message is on its way (past its last wait)."""
    again: tuple[int | None, int | None] | None = None
    """(hand, table message) of an edit another process's save overtook on its way: shown again at
    `DiscordNotifier.caught_up` if the table is still in that hand and message."""


def keep_kind(table: Table, payload: render.Payload) -> render.Payload:
    """``payload`` (a text note: moved, closed) fitted to the table message it replaces: as a layout
    (`render.as_layout`) when that message was sent as one (Discord refuses content or embeds on it)."""
    return render.as_layout(payload) if table.messages.public_layout and not payload.layout else payload


class TableMessage:
    """Writes one presenter's public table messages.

    Args:
        owner: the presenter; its settings are read at each write (``client``, ``service``, ``budget``,
            ``hands``, ``edit_interval``, ``pictures``, ``picture_workers``, ``rate``, ``faces``), and so
            are its table states and its bookkeeping of permission refusals (``_state``, ``_unblocked``).
    """

    def __init__(self, owner: DiscordNotifier) -> None:
        self.owner = owner

    async def payload(self, table: Table, lang: str, *, layout: bool = True) -> render.Payload:
        """The table message as the table is now: a layout (``layout``), else the embed of a message sent
        as one. The picture is drawn in a worker process when the presenter has `PictureWorkers`; the
        words and the scene are both taken before that wait, so they show the same moment. A picture that
        fails leaves the words alone (the layout then shows the table in words in its place)."""
        owner = self.owner
        if layout:
            if not owner.pictures:
                return render.table_layout(table, lang, None, faces=owner.faces)
            words = render.table_layout(table, lang, b"", faces=owner.faces)  # the picture comes below
            picture = await self._picture(table, lang)
            if picture is None:
                return render.table_layout(table, lang, None, faces=owner.faces)
            return dataclasses.replace(words, files=[(render.PICTURE_NAME, picture)])
        payload = render.table_payload(table, lang, faces=owner.faces)
        picture = await self._picture(table, lang) if owner.pictures else None
        return payload if picture is None else render.with_picture(payload, picture)

    async def _picture(self, table: Table, lang: str) -> bytes | None:
        """The table picture (PNG bytes), or None when it fails or the bot is closing."""
        workers = self.owner.picture_workers
        try:
            scene = table_scene(table, lang)
            return await workers.render(table.id, scene) if workers is not None else render_table(scene)
        except OffloadClosedError:  # the bot is closing
            return None
        except Exception:
            log.exception("table %d: the table picture failed; the text stands alone", table.id)
            return None

    async def update(self, table: Table, state: PublicState) -> bool:
        """Edit the table message to show the table now (or post it: a new hand, a lost or old message).
        Returns whether an edit was sent (not when another process changed the table during the waits:
        that process shows it).

        Raises:
            discord.HTTPException: Discord refused the edit (10003 Unknown Channel among them); a lost
                (10008) or too old (30046) message is posted again instead.
        """
        owner = self.owner
        game = table.game
        if game is None or table.status != PLAYING:
            return False
        if table.messages.public is None or table.messages.public_hand != game.hand_number:
            await self.post(table)
            return False
        if message_age(table.messages.public) >= REPOST_AGE:
            log.info("table %d: the table message is %d min old; posting it below", table.id, REPOST_AGE // 60)
            await self.post(table, moved=True)
            return False
        wait = state.last_write + owner.edit_interval - owner._now()
        if wait > 0:
            await owner._sleep(wait)
            if state.records or state.repost:  # a hand ended meanwhile: its record comes first
                state.dirty = True
                return False
        if table.status != PLAYING or table.game is None:
            return False
        await self.shed()
        if table.status != PLAYING or table.game is None:
            return False
        await owner.budget.acquire(table.channel_id)
        if owner.hands.elsewhere(table):  # changed by another process during the waits
            return False
        state.writing = True
        lang = await owner.service.public_language(table.guild_id)
        payload = await self.payload(table, lang, layout=table.messages.public_layout)
        try:
            await delivery.edit_channel_message(owner.client, table.channel_id, table.messages.public, payload)
        except discord.HTTPException as exc:
            if exc.code == UNKNOWN_CHANNEL:
                raise
            if exc.code in (OLD_MESSAGE_EDIT_LIMIT, UNKNOWN_MESSAGE) or exc.status == 404:
                await self.post(table)
                return False
            raise
        state.last_write = owner._now()
        owner._unblocked(table)
        return True

    async def shed(self) -> None:
        """While the bot's request rate is at its limit, wait (up to `MAX_SHED` s): an edit is optional,
        and the one made afterwards shows every play made meanwhile."""
        rate = self.owner.rate
        if rate is None or not rate.busy():
            return
        rate.shed += 1
        await self.owner._sleep(min(MAX_SHED, max(0.05, rate.wait_time())))

    async def post(self, table: Table, *, moved: bool = False) -> None:
        """Post the table message, as a layout, at the bottom of the channel (a new hand, a lost message,
        or a re-post; with ``moved`` the old message says where the table went, in its own kind).

        Raises:
            discord.HTTPException: Discord refused the message.
        """
        owner = self.owner
        game = table.game
        if game is None or table.status != PLAYING:
            return
        lang = await owner.service.public_language(table.guild_id)
        channel = owner.client.get_partial_messageable(table.channel_id, guild_id=table.guild_id)
        old = table.messages.public if moved else None
        moved_note = keep_kind(table, render.moved_payload(table, lang))
        await owner.budget.acquire(table.channel_id)
        if owner.hands.elsewhere(table):  # changed by another process during the wait: it posts it
            return
        payload = await self.payload(table, lang)
        message = await channel.send(**payload.send_kwargs())
        owner._unblocked(table)
        table.messages.public = message.id
        table.messages.public_hand = game.hand_number
        table.messages.public_layout = payload.layout
        owner._state(table).last_write = owner._now()
        await owner.hands.save_messages(table)
        owner.hands.refresh(table)  # the DM hands link to the new message
        if old is not None and old != message.id:
            await self.edit_quietly(table.channel_id, old, moved_note)

    async def close(self, table: Table, lang: str, ping: int | None) -> None:
        """Say in the channel that the table ended: the lobby (no game yet) says it was closed; the table
        message in play becomes the closing note, in its own kind. When there is no table message to turn
        into it (a hand's record was just written and the next hand's table is not posted yet, or the first
        table is not posted yet) or that edit is refused, the closing note is posted below (as text).
        ``ping``: a channel turn alert to delete first. Refusals are logged, never raised."""
        channel_id, messages = table.channel_id, table.messages
        if ping is not None:
            await self.delete_quietly(channel_id, ping)
        said = False
        if messages.lobby is not None and table.game is None:
            said = await self.edit_quietly(channel_id, messages.lobby, render.lobby_payload(table, lang))
        if messages.public is not None and table.game is not None:
            said = await self.edit_quietly(channel_id, messages.public,
                                           keep_kind(table, render.closed_payload(table, lang)))
        if not said:
            await self.send_quietly(channel_id, render.closed_payload(table, lang))

    async def edit_quietly(self, channel_id: int, message_id: int, payload: render.Payload) -> bool:
        """Edit a message; a refusal is logged in one line. Returns whether the edit was made."""
        await self.owner.budget.acquire(channel_id)
        try:
            await self.owner.client.get_partial_messageable(channel_id).get_partial_message(message_id).edit(
                **payload.edit_kwargs())
        except discord.HTTPException as exc:
            log.info("edit of message %d skipped (%s %s)", message_id, exc.status, exc.code)
            return False
        return True

    async def send_quietly(self, channel_id: int, payload: render.Payload) -> None:
        """Post a message; a refusal is logged in one line."""
        await self.owner.budget.acquire(channel_id)
        try:
            await self.owner.client.get_partial_messageable(channel_id).send(**payload.send_kwargs())
        except discord.HTTPException as exc:
            log.info("a message to channel %d skipped (%s %s)", channel_id, exc.status, exc.code)

    async def delete_quietly(self, channel_id: int, message_id: int) -> None:
        """Delete a message; a refusal is logged in one line."""
        await self.owner.budget.acquire(channel_id)
        try:
            await self.owner.client.get_partial_messageable(channel_id).get_partial_message(message_id).delete()
        except discord.HTTPException as exc:
            log.info("delete of message %d skipped (%s %s)", message_id, exc.status, exc.code)


__all__ = ["RECORD_EDIT_AGE", "REPOST_AGE", "PublicState", "TableMessage", "keep_kind", "message_age"]
