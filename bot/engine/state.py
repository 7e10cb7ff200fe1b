"""`GameState`: the attributes of a `bot.engine.game.Game`, declared once for the mixins that make up
the game (`bot.engine.positions`, `bot.engine.flow`); `Game.__init__` sets every one of them.
"""

from __future__ import annotations

from .cards import Card
from .events import Event
from .plays import Play
from .rules import Rules

__all__ = ["GameState"]


class GameState:
    """The typed attributes of `Game` (see its docstring for their meaning); no behaviour of its own."""

    rules: Rules
    players: int
    seed: int | str
    dealer: int
    to_play: int | None
    hands: list[list[Card]]
    stock: list[Card]
    table: list[Card]
    piles: list[list[Card]]
    dead: list[Card]
    scores: list[int]
    chicas: list[int]
    streaks: list[int]
    hand_number: int
    deal_number: int
    chica_number: int
    last_trail: Card | None
    last_trail_seat: int | None
    last_capturer: int | None
    rondas: dict[int, tuple[int, int]]
    hidden: set[int]
    events: list[Event]
    plays: list[Play]
    winner: int | None
    _cache_key: int
    _seen: dict[int | None, tuple[int, frozenset[int], tuple[Event, ...]]]
