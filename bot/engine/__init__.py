"""The Cuarenta rules engine: pure Python, no I/O, no Discord (RULES.md).

Public API::

    from bot.engine import Game, Rules, Card, Play
    game = Game.new(Rules.preset("quito"), players=2, seed=42)
    play = game.legal_plays()[0]
    events = game.play(play)
    view = game.view(seat=0)
"""

from .cards import DECK, RANKS, SUITS, Card, CardError, parse_cards
from .events import Event, EventKind
from .game import (
    CardNotInHandError,
    CuarentaError,
    Game,
    GameOverError,
    GameView,
    IllegalCaptureError,
    IllegalPlayError,
    NotYourTurnError,
    Outcome,
    Play,
    PlayInfo,
    PositionError,
    carton_points,
)
from .rules import CHICA, PRESET_NAMES, Rules, RulesError

__all__ = [
    "CHICA",
    "DECK",
    "PRESET_NAMES",
    "RANKS",
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
    "IllegalPlayError",
    "NotYourTurnError",
    "Outcome",
    "Play",
    "PlayInfo",
    "PositionError",
    "Rules",
    "RulesError",
    "carton_points",
    "parse_cards",
]
