"""Cards of the 40-card Cuarenta deck (R1–R3).

A card is an interned, immutable value: there are exactly 40 `Card` objects; they hash cheaply and can
be used in sets. Build them with `Card.parse("7D")` or from `DECK`.

Codes are rank + suit: ranks ``A 2 3 4 5 6 7 J Q K``, suits ``S`` (♠), ``H`` (♥), ``D`` (♦), ``C`` (♣).
``str(card)`` is the display form, ``"7♦"``.
"""

from __future__ import annotations

from collections.abc import Iterable

RANKS: tuple[str, ...] = ("A", "2", "3", "4", "5", "6", "7", "J", "Q", "K")
"""Rank symbols in sequence order (R3): index 0 is the Ace, index 9 the King."""

SUITS: tuple[str, ...] = ("S", "H", "D", "C")
"""Suit codes; suits never matter to the rules (R1)."""

SUIT_SYMBOLS: dict[str, str] = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}


class CardError(ValueError):
    """A card code that does not name one of the 40 cards."""


class Card(int):
    """One of the 40 cards.

    Attributes:
        rank: sequence index 0–9 (A=0, 2=1, …, 7=6, J=7, Q=8, K=9). ``next(7) = J`` and the King has no
            successor (R3).
        suit: one of ``SUITS``.
        value: numeric value for sums, 1–7 for A–7, and 0 for J, Q, K, which never sum (R2).
        code: short code such as ``"7D"``.
        index: 0–39, unique per card (rank-major).

    There are only 40 instances: use `Card.parse` or `DECK`. A card is an ``int`` (its index) so that
    hashing and equality run at C speed in the engine's hot loops; it sorts A…K, then by suit, and is
    always truthy. Serialize it with ``card.code``, never as a number.
    """

    rank: int
    suit: str
    value: int
    code: str
    index: int
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
            "_label": RANKS[rank] + SUIT_SYMBOLS[suit],
        }
        for name, value in attrs.items():
            object.__setattr__(card, name, value)
        return card

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("Card is immutable")

    def __delattr__(self, name: str) -> None:
        raise AttributeError("Card is immutable")

    @classmethod
    def parse(cls, text: str | Card) -> Card:
        """Return the card named by a code (``"7D"``, ``"kh"``) or a display form (``"7♦"``).
        A `Card` is returned unchanged.

        Raises:
            CardError: the text names no card of the 40-card deck (8, 9, 10 and jokers are not in it).
        """
        if isinstance(text, Card):
            return text
        card = _BY_TEXT.get(text.strip().upper()) if isinstance(text, str) else None
        if card is None:
            raise CardError(f"not a Cuarenta card: {text!r} (ranks A 2-7 J Q K, suits S H D C)")
        return card

    @property
    def is_numeric(self) -> bool:
        """True for A–7, which can take part in sums (R2)."""
        return self.value > 0

    @property
    def rank_symbol(self) -> str:
        """The rank as printed: ``"A"``, ``"2"`` … ``"7"``, ``"J"``, ``"Q"``, ``"K"``."""
        return RANKS[self.rank]

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
"""All 40 cards, sorted A…K; ``DECK[card.index] is card``."""

_BY_TEXT: dict[str, Card] = {}
for _c in DECK:
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
    """The printed symbol of a rank index 0–9 (``rank_symbol(7) == "J"``)."""
    return RANKS[rank]
