"""The engine's errors (R40: an illegal action is refused and changes nothing)."""

from __future__ import annotations

__all__ = [
    "CardNotInHandError",
    "CuarentaError",
    "GameOverError",
    "IllegalCaptureError",
    "IllegalPlayError",
    "NotYourTurnError",
    "PositionError",
]


class CuarentaError(Exception):
    """Base class of the engine's errors."""


class IllegalPlayError(CuarentaError):
    """A play was refused; the game is unchanged (R40)."""


class NotYourTurnError(IllegalPlayError):
    """The seat that tried to play is not the seat in turn."""


class CardNotInHandError(IllegalPlayError):
    """The card is not in the hand of the seat in turn."""


class IllegalCaptureError(IllegalPlayError):
    """The set of captured cards is not one the rules allow for that card (R17, R18, R21)."""


class GameOverError(IllegalPlayError):
    """The mesa is over: no more plays."""


class PositionError(CuarentaError, ValueError):
    """`Game.from_position` or `Game.from_dict` was given an impossible position."""

