"""The engine's errors (R40: an illegal action is refused and changes nothing).

Their names are the engine's own (`RefusedPlayError`, `OutOfTurnError`, ...), distinct from the table
service's refusals in `bot.tables.errors` (`IllegalPlayError`, `NotYourTurnError`, ...): the service
catches `RefusedPlayError` where it calls the engine and raises its own `TableError` in its place, so
callers of the service see one hierarchy of refusals."""

from __future__ import annotations

__all__ = [
    "CardNotInHandError",
    "CuarentaError",
    "GameOverError",
    "IllegalCaptureError",
    "OutOfTurnError",
    "PositionError",
    "RefusedPlayError",
]


class CuarentaError(Exception):
    """Base class of the engine's errors."""


class RefusedPlayError(CuarentaError):
    """A play was refused; the game is unchanged (R40). Base of every refusal of `Game.play`."""


class OutOfTurnError(RefusedPlayError):
    """The seat that tried to play is not the seat in turn."""


class CardNotInHandError(RefusedPlayError):
    """The card is not in the hand of the seat in turn."""


class IllegalCaptureError(RefusedPlayError):
    """The set of captured cards is not one the rules allow for that card (R17, R18, R21)."""


class GameOverError(RefusedPlayError):
    """The mesa is over: no more plays."""


class PositionError(CuarentaError, ValueError):
    """`Game.from_position` or `Game.from_dict` was given an impossible position."""

