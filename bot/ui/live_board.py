"""The Discord side of the live leaderboards (`bot.ratings.live`): post, edit and retire the one
leaderboard message per server and mode that is kept current.

Every write waits for its slot in the channel's write budget (`bot.ui.budget.WriteBudget`) and is rendered
only once the slot is granted, so it carries the latest standings. The messages are the bot's own, edited
with the bot token (no time limit); an edit of a message older than an hour may be refused for a while
(30046), which `Outcome.LATER` tries again later. The live message has no page buttons: it always shows
the first page, and a note that it is kept current.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

import discord

from bot.i18n import t
from bot.ratings.live import Outcome
from bot.ratings.live_repo import LiveBoard
from bot.ui import boards
from bot.ui.budget import WriteBudget
from bot.ui.render import Payload

if TYPE_CHECKING:
    from bot.tables import TableService

log = logging.getLogger(__name__)

GONE_CODES = frozenset({10003, 10008})
"""Discord's Unknown Channel and Unknown Message: the live board's message is gone for good."""


class DiscordBoardWriter:
    """`bot.ratings.live.BoardWriter` over discord.py.

    Args:
        client: the bot. tables: the table service (its ratings, the servers' languages, seat names).
        budget: the channels' write budget (None: writes go at once).
    """

    def __init__(self, client: discord.Client, tables: TableService, *, budget: WriteBudget | None = None) -> None:
        self.client = client
        self.tables = tables
        self.budget = budget

    async def _slot(self, channel_id: int) -> None:
        if self.budget is not None:
            await self.budget.acquire(channel_id)

    async def _names(self, guild_id: int, users: list[int]) -> dict[int, str]:
        """Display names from the guild's member cache, then the names of the players' last seats."""
        guild = self.client.get_guild(guild_id)
        out: dict[int, str] = {}
        for user in users:
            member = guild.get_member(user) if guild is not None else None
            if member is not None:
                out[user] = member.display_name
        missing = [u for u in users if u not in out]
        if missing:
            out.update(await self.tables.seat_names(guild_id, missing))
        return out

    async def payload(self, guild_id: int, mode: str) -> Payload:
        """The live message: the current season's first page of ``mode``, in the server's language, with
        the note that it is kept current and no buttons."""
        lang = await self.tables.public_language(guild_id)
        board = await self.tables.ratings.leaderboard(guild_id, mode)
        names = await self._names(guild_id, [r.user_id for r in board.rows])
        shown = boards.leaderboard_payload(board, guild_id, names, lang)
        return Payload(content=t("board.live_note", lang), embed=shown.embed)

    async def post(self, guild_id: int, mode: str, channel_id: int) -> int | None:
        """Send the live message in the channel; its id, or None when Discord refused (logged)."""
        await self._slot(channel_id)
        payload = await self.payload(guild_id, mode)
        try:
            message = await self.client.get_partial_messageable(channel_id, guild_id=guild_id).send(
                **payload.send_kwargs())
        except discord.HTTPException as exc:
            log.warning("live leaderboard %d %s: post refused (%s %s)", guild_id, mode, exc.status, exc.code)
            return None
        return message.id

    def _message(self, board: LiveBoard) -> discord.PartialMessage:
        return (self.client.get_partial_messageable(board.channel_id, guild_id=board.guild_id)
                .get_partial_message(board.message_id))

    async def edit(self, board: LiveBoard) -> Outcome:
        """Edit the live message with the current leaderboard."""
        await self._slot(board.channel_id)
        payload = await self.payload(board.guild_id, board.mode)
        try:
            await self._message(board).edit(**payload.edit_kwargs())
        except discord.HTTPException as exc:
            log.info("live leaderboard %d %s: not edited (%s %s)", board.guild_id, board.mode, exc.status, exc.code)
            if exc.code in GONE_CODES:
                return Outcome.GONE
            if exc.status == 429 or exc.status >= 500:
                return Outcome.LATER
        return Outcome.EDITED

    async def retire(self, board: LiveBoard) -> None:
        """Edit the message's note to say it is no longer kept current (its standings stay as they were)."""
        await self._slot(board.channel_id)
        lang = await self.tables.public_language(board.guild_id)
        try:
            await self._message(board).edit(content=t("board.live_ended", lang),
                                             allowed_mentions=discord.AllowedMentions.none())
        except discord.HTTPException as exc:
            log.info("live leaderboard %d %s: not retired (%s %s)", board.guild_id, board.mode, exc.status, exc.code)
