"""The Cuarenta rules engine: pure Python, no I/O, no Discord (RULES.md).

Public API::

    from bot.engine import Game, Rules, Card, Play
    game = Game.new(Rules.preset("quito"), players=2, seed=42)
    play = game.legal_plays()[0]
    events = game.play(play)
    view = game.view(seat=0)

Seed variants (RULES.md Part 1 §9), off in every preset: ``Rules(comodines=True)`` plays with 42 cards
(`deck_for`, `JOKERS`; ``card.is_joker``; a joker's chosen rank is ``Play.joker_rank``), and
``Rules(periquito=True)`` scores `EventKind.PERIQUITO`.
"""

from .cards import (
    ALL_CARDS,
    DECK,
    JOKER_RANK,
    JOKERS,
    RANKS,
    SET_ASIDE,
    SUITS,
    Card,
    CardError,
    deck_for,
    parse_cards,
    stock_reserve,
)
from .events import Event, EventKind
from .game import (
    CardNotInHandError,
    CuarentaError,
    Game,
    GameOverError,
    GameView,
    IllegalCaptureError,
    Outcome,
    OutOfTurnError,
    Play,
    PlayInfo,
    PositionError,
    RefusedPlayError,
    carton_points,
)
from .plays import periquito_ranks
from .rules import CHICA, PRESET_NAMES, Rules, RulesError

__all__ = [
    "ALL_CARDS",
    "CHICA",
    "DECK",
    "JOKERS",
    "JOKER_RANK",
    "PRESET_NAMES",
    "RANKS",
    "SET_ASIDE",
    "SUITS",
    "Card",
    "CardError",
    "CardNotInHandError",
    "CuarentaError",
    "Event",
    "EventKind",
    "Game",
    "GameOverError",
    "GameView",
    "IllegalCaptureError",
    "OutOfTurnError",
    "Outcome",
    "Play",
    "PlayInfo",
    "PositionError",
    "RefusedPlayError",
    "Rules",
    "RulesError",
    "carton_points",
    "deck_for",
    "parse_cards",
    "periquito_ranks",
    "stock_reserve",
]
