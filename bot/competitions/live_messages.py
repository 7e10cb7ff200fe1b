"""The messages a league or a tournament keeps current: each round's message and the one standings or
bracket message, their ids stored (`message_repo`) so that a restarted bot edits them too.

The rule: every change (a result however decided, a «Jugar», the end) *touches* the messages it shows
in; touched messages are edited by one task per competition, after `LiveMessages.delay` seconds (several
results at one deadline make one edit per message), each edit waiting for its slot in the channel's
write budget (`bot.ui.budget.WriteBudget`) and rendered only once the slot is granted, so it carries the
latest state. Messages the bot sent are edited through the bot token, which has no time limit (an
interaction token's edits end after 15 minutes): they are never re-posted, so links and pins stay. Edits
of messages older than an hour have a stricter rate limit of their own (error 30046); these messages are
edited once per result at most, coalesced, and an edit Discord refuses for a while is tried again later.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Iterable
from typing import Any

import discord

from bot.ui.budget import WriteBudget
from bot.ui.render import Payload

from .message_repo import CompetitionMessageRepo, Shown

log = logging.getLogger(__name__)

RETRY_AFTER = 30.0
"""Seconds before an edit Discord refused for a while (a 5xx, a 429) is tried again."""
RETRIES = 5
"""How many times such an edit is tried again before it waits for the competition's next change."""

Render = Callable[[int], Awaitable[Payload | None]]
"""Renders the message with a key (a round; 0 the standings or bracket) from the competition's current
state, or None to leave it as it is."""


PageUrl = Callable[[int, str], Awaitable[str | None]]
"""``page_url(guild_id, path)``: the absolute URL of a server's web page (``"leagues/5"``), or None when
the server has no pages (`bot.web.links.WebLinks.page`)."""


def with_page_link(payload: Payload, url: str | None, label: str) -> Payload:
    """``payload`` with a link button to its web page under its own buttons (none: unchanged). Only for a
    payload whose view is None or a plain `discord.ui.View` with room."""
    if url is None:
        return payload
    view = payload.view if payload.view is not None else discord.ui.View(timeout=None)
    if isinstance(view, discord.ui.View) and len(view.children) < 25:
        view.add_item(discord.ui.Button(style=discord.ButtonStyle.link, url=url, label=label[:80]))
        payload.view = view
    return payload


async def page_of(page_url: PageUrl | None, guild_id: int, path: str) -> str | None:
    """The URL of a competition's web page, or None (no pages, or the lookup failed: logged)."""
    if page_url is None:
        return None
    try:
        return await page_url(guild_id, path)
    except Exception:
        log.exception("the web page link of %s failed", path)
        return None


def message_link(guild_id: int, shown: Shown) -> str:
    """The message's jump link (``https://discord.com/channels/…``)."""
    return f"https://discord.com/channels/{guild_id}/{shown.channel_id}/{shown.message_id}"


class LiveMessages:
    """The kept-current messages of one kind of competition.

    Args:
        client: the bot. repo: where the ids live. kind: ``"league"`` or ``"tournament"``.
        budget: the channels' write budget (None: writes go at once). sleep: how to wait (tests: virtual
        time). delay: seconds a touched message waits for more changes before its edit.
    """

    def __init__(self, client: discord.Client, repo: CompetitionMessageRepo, kind: str, *,
                 budget: WriteBudget | None = None, sleep: Callable[[float], Awaitable[Any]] | None = None,
                 delay: float = 0.0) -> None:
        self.client = client
        self.repo = repo
        self.kind = kind
        self.budget = budget
        self.sleep = sleep or asyncio.sleep
        self.delay = delay
        self._shown: dict[int, dict[int, Shown]] = {}
        self._dirty: dict[int, set[int]] = {}
        self._render: dict[int, Render] = {}
        self._flushing: dict[int, asyncio.Task[None]] = {}
        self._locks: dict[int, asyncio.Lock] = {}

    def lock(self, competition_id: int) -> asyncio.Lock:
        """The competition's lock for posting its messages (one standings message, even when a result
        and a new round ask for it at once)."""
        return self._locks.setdefault(competition_id, asyncio.Lock())

    async def shown(self, competition_id: int) -> dict[int, Shown]:
        """The competition's messages by key, read from the store once per process."""
        if competition_id not in self._shown:
            self._shown[competition_id] = await self.repo.of(self.kind, competition_id)
        return self._shown[competition_id]

    def known(self, competition_id: int, key: int) -> Shown | None:
        """A message already read or posted by this process (no store read)."""
        return self._shown.get(competition_id, {}).get(key)

    async def _slot(self, channel_id: int) -> None:
        if self.budget is not None:
            await self.budget.acquire(channel_id)

    async def post(self, competition_id: int, guild_id: int, channel_id: int, key: int,
                   render: Callable[[], Awaitable[Payload]], *, pings: bool = False) -> discord.Message | None:
        """Send a new message for ``key`` (rendered once its write slot is granted) and store its id
        (replacing any earlier one for that key). None when Discord refused (logged)."""
        shown = await self.shown(competition_id)
        await self._slot(channel_id)
        payload = await render()
        kwargs = payload.send_kwargs()
        if pings:
            kwargs["allowed_mentions"] = discord.AllowedMentions(users=True)
        try:
            message = await self.client.get_partial_messageable(channel_id, guild_id=guild_id).send(**kwargs)
        except discord.HTTPException as exc:
            log.warning("%s %d: message %d failed (%s %s)", self.kind, competition_id, key, exc.status, exc.code)
            return None
        shown[key] = Shown(key, channel_id, message.id, payload.content)
        await self.repo.save(self.kind, competition_id, guild_id, shown[key])
        return message

    def touch(self, competition_id: int, keys: Iterable[int], render: Render) -> None:
        """Mark messages to edit (those never posted are skipped); the competition's edit task renders
        them with ``render`` (the latest one given)."""
        self._render[competition_id] = render
        self._dirty.setdefault(competition_id, set()).update(keys)
        task = self._flushing.get(competition_id)
        if task is None or task.done():
            self._flushing[competition_id] = asyncio.ensure_future(self._flush(competition_id))

    async def close(self) -> None:
        """Stop the pending edits (the bot is closing; the next start edits at the next change)."""
        tasks = [t for t in self._flushing.values() if not t.done()]
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        self._flushing.clear()

    async def _flush(self, competition_id: int) -> None:
        await (self.sleep(self.delay) if self.delay > 0 else asyncio.sleep(0))
        try:
            for attempt in range(1 + RETRIES):
                failed = await self._edit_dirty(competition_id)
                if not failed or attempt == RETRIES:
                    break
                await self.sleep(RETRY_AFTER)
                self._dirty.setdefault(competition_id, set()).update(failed)
        except Exception:
            log.exception("%s %d: keeping its messages current failed", self.kind, competition_id)

    async def _edit_dirty(self, competition_id: int) -> set[int]:
        """Edit every touched message of the competition, each rendered once its slot is granted.
        Returns the keys whose edit Discord refused for a while (a 5xx, or a 429 such as 30046, the limit
        on edits of messages older than an hour), to try again."""
        failed: set[int] = set()
        while keys := self._dirty.pop(competition_id, set()):
            shown = await self.shown(competition_id)
            for key in sorted(keys):
                message = shown.get(key)
                if message is None:
                    continue
                await self._slot(message.channel_id)
                self._dirty.get(competition_id, set()).discard(key)  # rendered now: the latest state
                failed.discard(key)
                payload = await self._render[competition_id](key)
                if payload is None:
                    continue
                payload.content = message.mentions
                try:
                    await (self.client.get_partial_messageable(message.channel_id)
                           .get_partial_message(message.message_id).edit(**payload.edit_kwargs()))
                except discord.HTTPException as exc:
                    log.info("%s %d: message %d not edited (%s %s)", self.kind, competition_id, key,
                             exc.status, exc.code)
                    if exc.status >= 500 or exc.status == 429:
                        failed.add(key)
        return failed

    async def pin(self, message: discord.Message, channel_id: int) -> bool:
        """Pin ``message`` when the bot may (Pin Messages or Manage Messages in the channel); it never asks
        for the permission. Returns whether it was pinned."""
        channel = self.client.get_channel(channel_id)
        guild = getattr(channel, "guild", None)
        if channel is None or guild is None or not isinstance(channel, discord.abc.GuildChannel):
            return False
        perms = channel.permissions_for(guild.me)
        if not (perms.manage_messages or getattr(perms, "pin_messages", False)):
            return False
        try:
            await message.pin()
        except discord.HTTPException as exc:
            log.info("%s: pin refused (%s %s)", self.kind, exc.status, exc.code)
            return False
        return True
