"""The bot's DM writes that are not the hand itself: a one-line DM (reminders), the welcome, the one
handling of closed DMs (403, 50007), and the quiet edit and the deletion of a DM message. `DmWriter` is
the base of `bot.ui.hands.HandPresenter`, which adds the hand and its pump.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from typing import Any, Protocol

import discord

from bot.i18n import t
from bot.store.messages import TableMessages
from bot.tables import Table, TableService

from . import render
from .budget import WriteBudget

log = logging.getLogger("bot.ui.hands")  # one logger for the DM hands and their other writes

DM_CLOSED = 50007
"""Discord's error code for a DM the recipient does not accept."""


async def open_dm(client: discord.Client, user_id: int) -> discord.DMChannel:
    """The DM channel with a user, opened if needed.

    Like ``User.create_dm`` but sends the recipient id as a string: Discord's API schema types every
    snowflake as a string, and discord.py would send an integer.
    """
    user = client.get_user(user_id)
    if user is not None and user.dm_channel is not None:
        return user.dm_channel
    state = client._connection  # noqa: SLF001 - discord.py's own way to cache a DM channel
    data = await client.http.start_private_message(str(user_id))
    return state.add_dm_channel(data)


class DmObserver(Protocol):
    """Who counts the DMs Discord refused (`bot.ops.metrics.BotMetrics`)."""

    def dm_failed(self, what: str, closed: bool) -> None:
        """A DM (``what``: ``"hand"``, ``"line"``, ``"welcome"``) was refused or failed; ``closed``: because
        the person's DMs are closed (403, 50007)."""


class NullDmObserver:
    """Counts nothing (the default)."""

    def dm_failed(self, what: str, closed: bool) -> None:
        """Ignore."""


class DmWriter:
    """DM writes within the shared per-channel `WriteBudget`.

    Args:
        client: the bot. service: the table service (clock, languages). budget: the `WriteBudget`.
        messages: where ``Table.messages`` is kept (the presenter's store); None: in memory only.
    """

    def __init__(self, client: discord.Client, service: TableService, budget: WriteBudget,
                 messages: TableMessages | None) -> None:
        self.client = client
        self.service = service
        self.budget = budget
        self.messages = messages
        self.on_dm_closed: Callable[[Table, int], Awaitable[Any]] | None = None
        """Called when a hand finds a seat's DMs closed (the presenter updates the table message)."""
        self.observer: DmObserver = NullDmObserver()
        """Told of every DM refused or failed (the bot sets its metrics)."""

    async def save_messages(self, table: Table) -> None:
        """Keep ``table.messages`` in the presenter's store (`bot.store.messages`), when it has one."""
        if self.messages is not None:
            await self.messages.save(table.id, table.messages.to_dict())

    async def dm_refused(self, table: Table, seat: int, what: str, exc: discord.HTTPException) -> bool:
        """The one handling of a DM to ``seat`` that Discord refused, whatever it carried (``what``, for the
        log: ``"hand"``, ``"line"``, ``"welcome"``). A 403 with code 50007 (the person's DMs are closed)
        marks the seat, once, through `on_dm_closed` (the presenter: the table message then tells them to
        use «Ver mi mano»; `mark_dm_closed` without one). Returns True for closed DMs, False for any other
        failure (left to the caller). Either way the `observer` is told."""
        closed = isinstance(exc, discord.Forbidden) and exc.code == DM_CLOSED
        self.observer.dm_failed(what, closed)
        if not closed:
            return False
        log.info("table %d: DMs closed for seat %d (%s)", table.id, seat, what)
        if table.dm_closed(seat):
            return True  # already said
        if self.on_dm_closed is not None:
            await self.on_dm_closed(table, seat)
        else:
            await self.mark_dm_closed(table, seat)
        return True

    async def send_line(self, table: Table, seat: int, text: str) -> bool:
        """A one-line DM to the person of ``seat`` (reminders), within the budget. Returns False when it
        failed; closed DMs (403, 50007) are handled as for the hand (`dm_refused`)."""
        person = table.seats[seat] if 0 <= seat < len(table.seats) else None
        if person is None or person.user_id is None:
            return False
        try:
            dm = await open_dm(self.client, person.user_id)
            await self.budget.acquire(dm.id)
            await dm.send(text, allowed_mentions=discord.AllowedMentions.none())
            return True
        except discord.HTTPException as exc:
            if not await self.dm_refused(table, seat, "line", exc):
                log.info("table %d: DM line to seat %d failed (%s %s)", table.id, seat, exc.status, exc.code)
            return False

    async def mark_dm_closed(self, table: Table, seat: int) -> None:
        """Record that a seat's DMs are closed (persisted); the public message tells them to use "My
        hand"."""
        if seat not in table.messages.dm_closed:
            table.messages.dm_closed.append(seat)
            await self.save_messages(table)

    async def welcome(self, table: Table, user: discord.abc.User, lang: str) -> bool:
        """DM a player who just sat down. Returns False only when their DMs are closed (403, 50007)."""
        seat = table.seat_of(user.id)
        text = t("dm.welcome", lang, table=table.id, guild=table.options.guild_name or "?",
                 channel=table.options.channel_name or "?")
        try:
            dm = await open_dm(self.client, user.id)
            await self.budget.acquire(dm.id)
            await dm.send(text)
            if seat is not None and seat in table.messages.dm_closed:
                table.messages.dm_closed.remove(seat)
                await self.save_messages(table)
            return True
        except discord.Forbidden as exc:
            if exc.code != DM_CLOSED:
                return True
            if seat is not None:
                await self.dm_refused(table, seat, "welcome", exc)
            return False
        except discord.HTTPException:
            return True  # a transient failure says nothing about the user's DMs

    async def _edit_quietly(self, channel_id: int, message_id: int, payload: render.Payload, *,
                            layout: bool = False) -> None:
        """Edit a DM message with the bot's token, within the budget; a refusal is logged. ``layout``: the
        message is a Components V2 one, so a text payload goes as a layout (`render.as_layout`)."""
        await self.budget.acquire(channel_id)
        channel = self.client.get_partial_messageable(channel_id, type=discord.ChannelType.private)
        if layout and not payload.layout:
            payload = render.as_layout(payload)
        try:
            await channel.get_partial_message(message_id).edit(**payload.edit_kwargs())
        except discord.HTTPException as exc:
            log.info("edit of DM %d skipped (%s %s)", message_id, exc.status, exc.code)

    async def _delete(self, channel_id: int, message_id: int) -> None:
        await self.budget.acquire(channel_id)
        channel = self.client.get_partial_messageable(channel_id, type=discord.ChannelType.private)
        try:
            await channel.get_partial_message(message_id).delete()
        except discord.HTTPException as exc:
            log.info("old DM hand %d not deleted (%s %s)", message_id, exc.status, exc.code)


__all__ = ["DM_CLOSED", "DmWriter", "open_dm"]
