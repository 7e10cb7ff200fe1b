"""The 40 cards and the two jokers (comodines, RULES.md Part 1 §9) as the application's own emojis
(`bot.ui.cardart.emoji_png`), for buttons and text.

Application emojis (discord.py 2.5+: `discord.Client.fetch_application_emojis`,
`discord.Client.create_application_emoji`) belong to the bot, not to a server, so they work in every
server and in DMs. They are named ``c4_<code>`` (``c4_7D``, ``c4_AS``; Discord allows 2–32 characters of
``[A-Za-z0-9_]``; the jokers are ``c4_W1`` and ``c4_W2``). `CardEmojis.sync` creates the missing ones
once; when Discord refuses (no access, unknown application, a limit reached) the cards are simply written
as text, ``7♦`` and ``🃏1``.

Log lines give counts and HTTP status codes only, never a card.
"""

from __future__ import annotations

import asyncio
import logging

import discord

from bot.engine.cards import ALL_CARDS, Card

from .cardart import emoji_png
from .delivery import NETWORK_ERRORS
from .faces import CardFaces

log = logging.getLogger(__name__)

_FAILURES = (discord.DiscordException, *NETWORK_ERRORS)
"""What a sync survives: Discord's refusals (HTTPException, Forbidden, NotFound …), a missing
application id, and network errors."""


def _why(error: BaseException) -> str:
    if isinstance(error, discord.HTTPException):
        return f"status {error.status}, code {error.code}"
    return type(error).__name__


class CardEmojis:
    """The mapping card code → application emoji, filled by `sync`.

    Usage::

        emojis = CardEmojis()
        await emojis.sync(bot)            # once the bot is logged in (it needs the application id)
        button.emoji = emojis.get("7D")   # None when not available: use a text label
        line = emojis.inline("7D")        # "<:c4_7D:123…>" or "7♦"

    Until a sync succeeds (or after it failed part-way) the mapping is partial or empty, and every lookup
    falls back to text. Syncs are serialized, so two concurrent syncs never create an emoji twice.
    """

    PREFIX = "c4_"
    """Emoji names are ``PREFIX + card code``."""

    def __init__(self) -> None:
        self._emojis: dict[str, discord.PartialEmoji] = {}
        self._inline: dict[str, str] = {}  # card code → its `inline` text, while `_emojis` is unchanged
        self._lock = asyncio.Lock()

    @classmethod
    def name_of(cls, code: str) -> str:
        """The emoji name of a card: ``"c4_7D"``.

        Raises:
            CardError: ``code`` names no card.
        """
        return cls.PREFIX + Card.parse(code).code

    async def sync(self, client: discord.Client) -> bool:
        """List the application's emojis and create the card emojis that are missing (by name: an emoji
        that exists is never created again, so a second sync creates nothing). Creation stops at the first
        refusal, keeping what exists.

        Args:
            client: a logged-in client (its ``application_id`` is known).

        Returns:
            True when all 42 (the 40 cards and the two jokers) are available afterwards; False when Discord
            refused a request or the network failed (logged at WARNING with the status codes). Never raises
            for those. A bot that uploaded the 40 before the jokers existed creates just the two.
        """
        async with self._lock:
            try:
                existing = await client.fetch_application_emojis()
            except _FAILURES as error:
                log.warning("card emojis: listing the application emojis failed (%s); cards are shown as text",
                            _why(error))
                return False
            found: dict[str, discord.PartialEmoji] = {}
            wanted = {self.PREFIX + card.code: card.code for card in ALL_CARDS}
            for emoji in existing:
                code = wanted.get(emoji.name)
                if code is not None and code not in found:
                    found[code] = discord.PartialEmoji(name=emoji.name, id=emoji.id, animated=emoji.animated)
            self._emojis = found
            self._inline = {}
            missing = [card.code for card in ALL_CARDS if card.code not in found]
            created = 0
            for code in missing:
                try:
                    emoji = await client.create_application_emoji(name=self.PREFIX + code, image=emoji_png(code))
                except _FAILURES as error:
                    log.warning("card emojis: creating one failed (%s) after %d of %d created; %d of %d available",
                                _why(error), created, len(missing), len(self._emojis), len(ALL_CARDS))
                    return False
                self._emojis[code] = discord.PartialEmoji(name=emoji.name, id=emoji.id, animated=emoji.animated)
                self._inline.pop(code, None)
                created += 1
            log.info("card emojis: %d of %d available (%d created)", len(self._emojis), len(ALL_CARDS), created)
            return self.available

    def get(self, code: str) -> discord.PartialEmoji | None:
        """The emoji of a card, for ``Button(emoji=…)``; None when it is not available.

        Raises:
            CardError: ``code`` names no card.
        """
        return self._emojis.get(Card.parse(code).code)

    def inline(self, code: str) -> str:
        """The card for message text: the emoji markup (``"<:c4_7D:123>"``) when available, else its text
        form (``"7♦"``).

        Raises:
            CardError: ``code`` names no card.
        """
        text = self._inline.get(code)
        if text is None:  # about 17 cards a play are written this way: each text is made once
            card = Card.parse(code)
            emoji = self._emojis.get(card.code)
            text = self._inline[code] = str(emoji) if emoji is not None else str(card)
        return text

    def faces(self) -> CardFaces:
        """The cards' faces for every message: the emojis when all 42 are available (`available`), else
        `CardFaces.TEXT` (text labels, no button emojis)."""
        return CardFaces.of(self._emojis) if self.available else CardFaces.TEXT

    @property
    def available(self) -> bool:
        """True when all 42 card emojis (the jokers too) are known."""
        return len(self._emojis) == len(ALL_CARDS)

    def __len__(self) -> int:
        """How many card emojis are known (0–42)."""
        return len(self._emojis)
