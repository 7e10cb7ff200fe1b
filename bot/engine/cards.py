"""Cards of the 40-card Cuarenta deck (R1–R3) and the two jokers of the comodines variant (Part 1 §9).

A card is an interned, immutable value: there are exactly 42 `Card` objects, the 40 of `DECK` and the two
jokers of `JOKERS`; they hash cheaply and can be used in sets. Build them with `Card.parse("7D")` or from
`DECK` / `JOKERS` / `deck_for`.

Codes are rank + suit: ranks ``A 2 3 4 5 6 7 J Q K``, suits ``S`` (♠), ``H`` (♥), ``D`` (♦), ``C`` (♣).
``str(card)`` is the display form, ``"7♦"``. The jokers (comodín) are ``"W1"`` and ``"W2"``, shown as
``"🃏1"`` and ``"🃏2"``; their rank is `JOKER_RANK` (10), which no real card has, and their value is 0, so
they never sum. They are in play only when ``Rules.comodines`` is on (`deck_for`).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # pragma: no cover
    from .rules import Rules

RANKS: tuple[str, ...] = ("A", "2", "3", "4", "5", "6", "7", "J", "Q", "K")
"""Rank symbols in sequence order (R3): index 0 is the Ace, index 9 the King."""

SUITS: tuple[str, ...] = ("S", "H", "D", "C")
"""Suit codes; suits never matter to the rules (R1)."""

SUIT_SYMBOLS: dict[str, str] = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}

JOKER_RANK: int = 10
"""The rank index of both jokers (§9): one past the King, so it equals no real rank (0–9). Nothing follows
the King in an escalera (R3), so a joker is never reached by one; the engine also never lets a real card
match or sum it."""

JOKER_SYMBOL: str = "W"
"""The rank symbol of a joker (`Card.rank_symbol`), as in its code ``"W1"``."""


class CardError(ValueError):
    """A card code that does not name one of the 40 cards or the two jokers."""


class Card(int):
    """One of the 40 cards, or one of the two jokers (comodines, §9).

    Attributes:
        rank: sequence index 0–9 (A=0, 2=1, …, 7=6, J=7, Q=8, K=9). ``next(7) = J`` and the King has no
            successor (R3). A joker's rank is `JOKER_RANK` (10).
        suit: one of ``SUITS``; ``""`` for a joker.
        value: numeric value for sums, 1–7 for A–7, and 0 for J, Q, K, which never sum (R2). 0 for a joker,
            which never sums either (§9).
        code: short code such as ``"7D"``; ``"W1"`` / ``"W2"`` for the jokers.
        index: 0–39, unique per card (rank-major); 40 and 41 for the jokers.
        is_joker: True for the two jokers only.

    There are only 42 instances: use `Card.parse`, `DECK` or `JOKERS`. A card is an ``int`` (its index)
    so that hashing and equality run at C speed in the engine's hot loops; it sorts A…K, then by suit,
    then the jokers, and is always truthy. Serialize it with ``card.code``, never as a number.
    """

    rank: int
    suit: str
    value: int
    code: str
    index: int
    is_joker: bool
    _label: str

    def __new__(cls, *args: object, **kwargs: object) -> Card:  # pragma: no cover - guard
        raise TypeError("Card objects are interned: use Card.parse('7D') or DECK")

    @classmethod
    def _make(cls, rank: int, suit: str) -> Card:
        index = rank * 4 + SUITS.index(suit)
        card = int.__new__(cls, index)
        attrs = {
            "rank": rank,
            "suit": suit,
            "value": rank + 1 if rank <= 6 else 0,
            "code": RANKS[rank] + suit,
            "index": index,
            "is_joker": False,
            "_label": RANKS[rank] + SUIT_SYMBOLS[suit],
        }
        for name, value in attrs.items():
            object.__setattr__(card, name, value)
        return card

    @classmethod
    def _make_joker(cls, number: int) -> Card:
        index = 39 + number
        card = int.__new__(cls, index)
        attrs = {"rank": JOKER_RANK, "suit": "", "value": 0, "code": f"{JOKER_SYMBOL}{number}", "index": index,
                 "is_joker": True, "_label": f"🃏{number}"}
        for name, value in attrs.items():
            object.__setattr__(card, name, value)
        return card

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("Card is immutable")

    def __delattr__(self, name: str) -> None:
        raise AttributeError("Card is immutable")

    @classmethod
    def parse(cls, text: str | Card) -> Card:
        """Return the card named by a code (``"7D"``, ``"kh"``, ``"W1"``) or a display form (``"7♦"``,
        ``"🃏1"``). A `Card` is returned unchanged. The jokers parse whatever the rules; a game refuses them
        where ``Rules.comodines`` is off.

        Raises:
            CardError: the text names no card of the 40-card deck nor a joker (8, 9 and 10 are not in it).
        """
        if isinstance(text, Card):
            return text
        card = _BY_TEXT.get(text.strip().upper()) if isinstance(text, str) else None
        if card is None:
            raise CardError(f"not a Cuarenta card: {text!r} (ranks A 2-7 J Q K, suits S H D C; jokers W1 W2)")
        return card

    @property
    def is_numeric(self) -> bool:
        """True for A–7, which can take part in sums (R2)."""
        return self.value > 0

    @property
    def rank_symbol(self) -> str:
        """The rank as printed: ``"A"``, ``"2"`` … ``"7"``, ``"J"``, ``"Q"``, ``"K"``; ``"W"`` for a joker."""
        return rank_symbol(self.rank)

    def __bool__(self) -> bool:
        return True

    def __str__(self) -> str:
        return self._label

    def __repr__(self) -> str:
        return f"Card({self.code})"

    __hash__ = int.__hash__

    def __reduce__(self) -> tuple[object, tuple[str]]:
        return (Card.parse, (self.code,))

    def __copy__(self) -> Card:
        return self

    def __deepcopy__(self, memo: dict) -> Card:
        return self


DECK: tuple[Card, ...] = tuple(Card._make(r, s) for r in range(10) for s in SUITS)
"""All 40 cards, sorted A…K; ``DECK[card.index] is card``. The deck of every game without comodines (R1)."""

JOKERS: tuple[Card, ...] = (Card._make_joker(1), Card._make_joker(2))
"""The two jokers of the comodines variant, ``W1`` and ``W2`` (Part 1 §9)."""

ALL_CARDS: tuple[Card, ...] = DECK + JOKERS
"""The 42 card objects; ``ALL_CARDS[card.index] is card`` for jokers too."""


def deck_for(rules: Rules) -> tuple[Card, ...]:
    """The cards a game under ``rules`` is played with: `DECK` (40), or `DECK` + `JOKERS` (42) when
    ``rules.comodines`` is on (§9)."""
    return ALL_CARDS if rules.comodines else DECK


SET_ASIDE: int = 2
"""With comodines, the cards of each hand's stock that are never dealt (§9: deals are unchanged, so 42 − 40
cards stay in the stock, unseen and counted for nobody)."""


def stock_reserve(rules: Rules) -> int:
    """How many cards at the end of the stock are never dealt: `SET_ASIDE` (2) with comodines, else 0 (§9)."""
    return SET_ASIDE if rules.comodines else 0


_BY_TEXT: dict[str, Card] = {}
for _c in ALL_CARDS:
    _BY_TEXT[_c.code] = _c
    _BY_TEXT[str(_c).upper()] = _c


def parse_cards(text: str | Iterable[str | Card]) -> list[Card]:
    """Parse several cards: ``"3C 4D JS"`` or an iterable of codes or cards, keeping their order.

    Raises:
        CardError: one of them names no card.
    """
    items = text.split() if isinstance(text, str) else list(text)
    return [Card.parse(item) for item in items]


def rank_symbol(rank: int) -> str:
    """The printed symbol of a rank index 0–9 (``rank_symbol(7) == "J"``); ``"W"`` for `JOKER_RANK`.

    Raises:
        IndexError: any other number.
    """
    return JOKER_SYMBOL if rank == JOKER_RANK else RANKS[rank]
