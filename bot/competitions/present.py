"""The queue on Discord: the queue message with its buttons, the ping of a proposed match,
the thread a match is played in, and the queue's DMs. Every text comes from `bot.i18n`; public text in
the server's language, DMs in the person's."""

from __future__ import annotations

import asyncio
import logging
from typing import Any

import discord

from bot.i18n import t
from bot.tables import TableService
from bot.ui.budget import WriteBudget
from bot.ui.hands import open_dm
from bot.ui.render import Payload, make_view, when_text
from bot.ui.words import clean

from .items import MatchButton, QueueButton
from .queue import MATCH_SIZE, Entry, Proposal, QueueService
from .referee import Place

log = logging.getLogger(__name__)

COLOR = discord.Colour(0x1F8B4C)


def queue_payload(guild_id: int, counts: dict[str, int], lang: str) -> Payload:
    """The queue message: how many wait per mode, and the join and leave buttons."""
    embed = discord.Embed(title=t("queue.title", lang), colour=COLOR,
                          description="\n".join([t("queue.help", lang),
                                                 t("queue.counts", lang, one=counts.get("1v1", 0),
                                                   two=counts.get("2v2", 0))]))
    view = make_view([QueueButton(guild_id, "a", label=t("queue.join_1v1", lang), style=discord.ButtonStyle.primary),
                      QueueButton(guild_id, "b", label=t("queue.join_2v2", lang), style=discord.ButtonStyle.primary),
                      QueueButton(guild_id, "x", label=t("queue.leave", lang))])
    return Payload(embed=embed, view=view)


def match_payload(proposal: Proposal, lang: str, link: str | None = None) -> Payload:
    """The ping of a proposed match: who, who accepted, until when; then how it ended."""
    marks = " · ".join(("❌ " if u in proposal.missing else "✅ " if u in proposal.accepted else "⏳ ")
                       + clean(proposal.names.get(u, "?")) for u in proposal.users)
    mode = t(f"queue.mode.{proposal.mode}", lang)
    if proposal.status == "open":
        mentions = " ".join(f"<@{u}>" for u in proposal.users)
        text = t("match.found", lang, mentions=mentions, mode=mode, when=when_text(proposal.deadline))
        view = make_view([MatchButton(proposal.id, True, label=t("match.accept", lang)),
                          MatchButton(proposal.id, False, label=t("match.decline", lang))])
        return Payload(content=f"{text}\n{marks}", view=view)
    if proposal.status == "started":
        text = t("match.started", lang, mode=mode, table=proposal.table_id, link=link or "?")
    elif not proposal.missing:  # everyone accepted, but the table could not be opened
        text = t("match.failed", lang, mode=mode)
    else:
        text = cancelled_text(proposal, lang)
    return Payload(content=f"{text}\n{marks}")


def cancelled_text(proposal: Proposal, lang: str) -> str:
    """Why a cancelled match ended, naming who did not accept (or sat down at another table)."""
    names = ", ".join(clean(proposal.names.get(u, "?")) for u in proposal.missing)
    return t("match.cancelled_seated" if proposal.seated else "match.cancelled", lang,
             mode=t(f"queue.mode.{proposal.mode}", lang), names=names)


class QueueDiscord:
    """Implements `bot.competitions.queue.QueuePresenter` with the bot token.

    Every write waits for its slot in the channel's write budget (`bot.ui.budget.WriteBudget`) and is
    rendered once the slot is granted; a change that comes while a write of the same message waits for
    its slot is carried by that write (no write of its own).

    Args:
        client: the bot. tables: the table service (public language, budget-free reads). queue: the queue.
        budget: the channels' write budget (None: writes go at once).
    """

    def __init__(self, client: discord.Client, tables: TableService, queue: QueueService, *,
                 budget: WriteBudget | None = None) -> None:
        self.client = client
        self.tables = tables
        self.queue = queue
        self.budget = budget
        self._locks: dict[int, asyncio.Lock] = {}
        self._counts: dict[int, dict[str, int]] = {}
        self._waiting: set[tuple[str, int]] = set()
        """(``"queue"``, guild id) or (``"match"``, proposal id) of the writes waiting for their slot."""

    async def _slot(self, channel_id: int) -> None:
        if self.budget is not None:
            await self.budget.acquire(channel_id)

    async def queue_changed(self, guild_id: int, counts: dict[str, int]) -> None:
        """Edit the queue message with the new counts (the latest, when several changes wait)."""
        self._counts[guild_id] = counts
        if ("queue", guild_id) in self._waiting:
            return  # the waiting edit shows these counts
        self._waiting.add(("queue", guild_id))
        try:
            where = await self.queue.queue_channel(guild_id)
            if where is None or where[1] is None:
                return
            await self._slot(where[0])
        finally:
            self._waiting.discard(("queue", guild_id))
        counts = self._counts.pop(guild_id, counts)
        lang = await self.tables.public_language(guild_id)
        message = self.client.get_partial_messageable(where[0], guild_id=guild_id).get_partial_message(where[1])
        try:
            await message.edit(**queue_payload(guild_id, counts, lang).edit_kwargs())
        except discord.HTTPException as exc:
            log.info("queue message of guild %d not edited (%s %s)", guild_id, exc.status, exc.code)

    async def match_changed(self, proposal: Proposal) -> None:
        """Post the ping of a new proposal (with mentions), then edit it as it is answered and ends."""
        if ("match", proposal.id) in self._waiting:
            return  # the waiting write shows this change
        self._waiting.add(("match", proposal.id))
        lock = self._locks.setdefault(proposal.id, asyncio.Lock())
        async with lock:
            try:
                await self._write_match(proposal)
            finally:
                if proposal.status != "open":
                    self._locks.pop(proposal.id, None)

    async def _write_match(self, proposal: Proposal) -> None:
        """`match_changed` under the proposal's lock."""
        try:
            where = await self.queue.queue_channel(proposal.guild_id)
            if where is None:
                return
            await self._slot(where[0])
        finally:
            self._waiting.discard(("match", proposal.id))
        lang = await self.tables.public_language(proposal.guild_id)
        link = f"<#{proposal.channel_id}>" if proposal.channel_id else None
        payload = match_payload(proposal, lang, link)
        channel = self.client.get_partial_messageable(where[0], guild_id=proposal.guild_id)
        try:
            if proposal.message_id is None:
                kwargs: dict[str, Any] = payload.send_kwargs()
                kwargs["allowed_mentions"] = discord.AllowedMentions(users=True)
                proposal.message_id = (await channel.send(**kwargs)).id
                if proposal.status == "open":
                    await self.queue.ping_posted(proposal, where[0])
                    return
            else:
                await channel.get_partial_message(proposal.message_id).edit(**payload.edit_kwargs())
        except discord.HTTPException as exc:
            log.warning("queue: match %d message failed (%s %s)", proposal.id, exc.status, exc.code)
            if proposal.status != "open" and proposal.message_id is not None and payload.content:
                await self.queue.ping_unshown(proposal.message_id, payload.content)  # shown at the next start
            return
        if proposal.status != "open":
            await self.queue.ping_done(proposal.message_id)

    async def pings_dropped(self, pings: list[tuple[int, int, int, str | None]]) -> None:
        """After a restart: the pings left with buttons (``(message_id, channel_id, guild_id, final)``) lose
        them and show ``final``, how their match ended when that edit had failed, else that the restart
        dropped their proposal; the people still waiting get a new ping."""
        for message_id, channel_id, guild_id, final in pings:
            content = final if final is not None else t("match.dropped", await self.tables.public_language(guild_id))
            message = self.client.get_partial_messageable(channel_id, guild_id=guild_id).get_partial_message(message_id)
            await self._slot(channel_id)
            try:
                await message.edit(content=content, view=None)
            except discord.HTTPException as exc:
                log.info("queue: dropped ping %d not edited (%s %s)", message_id, exc.status, exc.code)
                if exc.status >= 500:
                    continue  # kept: tried again at the next start
            await self.queue.ping_done(message_id)

    async def make_channel(self, proposal: Proposal, channel_id: int) -> Place:
        """A public thread of the queue channel for the match (the table's channel).

        Raises:
            discord.HTTPException: Discord refused (the queue then cancels the match).
        """
        channel = self.client.get_channel(channel_id) or await self.client.fetch_channel(channel_id)
        if not isinstance(channel, discord.TextChannel):
            raise discord.ClientException("the queue channel is not a text channel")
        lang = await self.tables.public_language(proposal.guild_id)
        names = " · ".join(proposal.names.get(u, "?") for u in proposal.users)[:60]
        thread = await channel.create_thread(name=t("match.thread", lang, mode=t(f"queue.mode.{proposal.mode}", lang),
                                                    names=names)[:100],
                                             type=discord.ChannelType.public_thread, auto_archive_duration=1440)
        return Place(thread.id, channel.guild.name, thread.name)

    async def tell(self, entry: Entry, kind: str, **params: Any) -> None:
        """A queue DM: ``still_there`` (with "still here" and "leave"), ``expired``, ``no_show``."""
        lang = entry.locale
        mode = t(f"queue.mode.{entry.mode}", lang)
        if kind == "still_there":
            text = t("dm.queue_still_there", lang, mode=mode, when=when_text(params["deadline"]))
            view = make_view([QueueButton(entry.guild_id, "s", label=t("queue.still", lang),
                                          style=discord.ButtonStyle.success),
                              QueueButton(entry.guild_id, "x", label=t("queue.leave", lang))])
            payload = Payload(content=text, view=view)
        else:
            payload = Payload(content=t(f"dm.queue_{kind}", lang, mode=mode))
        try:
            dm = await open_dm(self.client, entry.user_id)
            await dm.send(**payload.send_kwargs())
        except discord.HTTPException as exc:
            log.info("queue DM to user %d failed (%s %s)", entry.user_id, exc.status, exc.code)


__all__ = ["MATCH_SIZE", "QueueDiscord", "cancelled_text", "match_payload", "queue_payload"]
