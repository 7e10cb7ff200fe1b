"""What callers read of a game: a seat's view (`GameView`) and how a mesa ended (`Outcome`)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

from .cards import Card, deck_for, stock_reserve
from .events import Event
from .plays import Play
from .rules import Rules

__all__ = ["GameView", "Outcome"]


class Outcome(NamedTuple):
    """How a finished mesa ended (`Game.outcome`).

    Attributes:
        winner: the winning team, 0 or 1.
        chicas: chicas won per team.
        zapateria: True when the mesa ended by zapatería after the first chica (R35).
    """

    winner: int
    chicas: tuple[int, int]
    zapateria: bool

@dataclass(frozen=True)
class GameView:
    """What one seat may see (`Game.view`): never another hand, the stock, or an opponent's ronda rank
    before it is revealed.

    Attributes:
        seat, team: the viewer (team = seat % 2); both None for a spectator.
        players: 2 or 4.
        rules: the table's `Rules`.
        hand: the viewer's own cards, in the order dealt.
        hand_sizes: cards held by each seat.
        table: table cards, oldest first.
        last_trail, last_trail_seat: the card trailed by the seat that played just before ``to_play``,
            when a caída on it is possible (R22); else None.
        pile_sizes: cards captured by each team this hand. captured: those cards (they were shown when
            taken). dead: cards out of play this hand (uncounted leftovers).
        stock_size: cards in the stock. With comodines its last 2 are never dealt (§9): see `to_deal`.
        scores, chicas: points in the current chica and chicas won, per team.
        streaks: consecutive caídas per team (R26).
        dealer, mano, to_play: seats (``to_play`` is None once the mesa is over).
        hand_number, deal_number, chica_number: counters, 1-based.
        rondas: ``(seat, rank)`` for each ronda of this deal; rank is None when hidden from the viewer.
        events: the whole event log, with hidden ronda ranks removed.
        legal_plays: the viewer's legal plays when it is the viewer's turn, else ().
        winner: the team that won the mesa, or None.
    """

    seat: int | None
    team: int | None
    players: int
    rules: Rules
    hand: tuple[Card, ...]
    hand_sizes: tuple[int, ...]
    table: tuple[Card, ...]
    last_trail: Card | None
    last_trail_seat: int | None
    pile_sizes: tuple[int, int]
    captured: tuple[tuple[Card, ...], tuple[Card, ...]]
    dead: tuple[Card, ...]
    stock_size: int
    scores: tuple[int, int]
    chicas: tuple[int, int]
    streaks: tuple[int, int]
    dealer: int
    mano: int
    to_play: int | None
    hand_number: int
    deal_number: int
    chica_number: int
    rondas: tuple[tuple[int, int | None], ...]
    events: tuple[Event, ...]
    legal_plays: tuple[Play, ...]
    winner: int | None

    @property
    def my_turn(self) -> bool:
        """True when this seat is to play."""
        return self.seat is not None and self.to_play == self.seat

    @property
    def to_deal(self) -> int:
        """Cards of the stock still to be dealt this hand: ``stock_size`` less the 2 set aside with
        comodines (§9)."""
        return max(0, self.stock_size - stock_reserve(self.rules))

    def unseen_cards(self) -> list[Card]:
        """Cards this seat cannot locate: in other hands or in the stock (sorted; with comodines the jokers
        are among them until seen, and so are the 2 cards set aside in the stock, §9)."""
        seen = {*self.hand, *self.table, *self.captured[0], *self.captured[1], *self.dead}
        return [c for c in deck_for(self.rules) if c not in seen]

