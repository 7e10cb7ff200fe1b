"""How cards look in messages: `CardFaces`, a value the bot builds once at start (from its application
emojis, `bot.ui.emojis.CardEmojis.faces`) and hands to everything that writes cards (the presenter, the
cogs, the renderers), or `CardFaces.TEXT`, the text labels (``7♦``, ``🃏1``) and no button emojis.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import ClassVar

import discord

from bot.engine.cards import Card


@dataclass(frozen=True)
class CardFaces:
    """The faces of the cards: how each is written in a line and the emoji on its button.

    ``labels``: card code (``"7D"``, ``"W1"``) → its text in lines (an emoji mention ``"<:c4_7D:123>"``);
    ``emojis``: card code → its button emoji. A code missing from either is written as its text label
    (``str(card)``: ``"7♦"``) and its button has no emoji. The mappings are never changed (`of` makes
    them read-only).
    """

    labels: Mapping[str, str] = field(default_factory=lambda: MappingProxyType({}))
    emojis: Mapping[str, discord.PartialEmoji] = field(default_factory=lambda: MappingProxyType({}))

    TEXT: ClassVar[CardFaces]
    """Text labels only (``7♦``), no button emojis: the default of every renderer."""

    @classmethod
    def of(cls, emojis: Mapping[str, discord.PartialEmoji]) -> CardFaces:
        """The faces of a set of card emojis (card code → emoji): each is written as its mention
        (``str(emoji)``, ``"<:c4_7D:123>"``) and shown on its button."""
        return cls(labels=MappingProxyType({code: str(emoji) for code, emoji in emojis.items()}),
                   emojis=MappingProxyType(dict(emojis)))

    def card(self, card: Card) -> str:
        """One card as lines write it: its emoji mention, or ``"7♦"``."""
        label = self.labels.get(card.code)
        return str(card) if label is None else label

    def cards(self, cards: Iterable[Card]) -> str:
        """Cards as lines write them, space-separated: ``"3♣ 4♥ J♠"`` (or their emojis)."""
        return " ".join(self.card(c) for c in cards)

    def emoji(self, card: Card) -> discord.PartialEmoji | None:
        """The emoji on a card's button; None for a text-only button."""
        return self.emojis.get(card.code)


CardFaces.TEXT = CardFaces()

__all__ = ["CardFaces"]
