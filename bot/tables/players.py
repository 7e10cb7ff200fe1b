"""Computer players behind one small function, so other levels can be plugged in by name.

``choose_play(level, seed, view) -> Play`` is pure and may be slow: the service runs it off the event loop.
"""

from __future__ import annotations

from collections.abc import Callable

from bot.ai import GreedyPlayer, Player, player_for, rng_for
from bot.engine import GameView, Play

DEFAULT_LEVEL = "medio"
"""The level of a computer player seated without a choice (the start fills empty seats with it)."""
SEAT_LEVELS: tuple[str, ...] = ("facil", "medio", "dificil")
"""The levels that can sit at a table; ``greedy`` is an internal baseline (tests, benchmarks), never a seat."""

_PLAYERS: dict[str, Callable[[], Player]] = {"greedy": GreedyPlayer}


def available_levels() -> tuple[str, ...]:
    """The computer-player levels that can fill a seat."""
    return tuple(_PLAYERS)


def register_level(name: str, factory: Callable[[], Player]) -> None:
    """Make a computer-player level available (e.g. facil/medio/dificil from `bot.ai`). ``factory()``
    returns an object with ``choose(view, rng) -> Play``."""
    _PLAYERS[name] = factory


def _player(level: str) -> Player:
    factory = _PLAYERS.get(level)
    if factory is not None:
        return factory()
    try:  # the levels bot.ai offers by name (facil, medio, dificil …)
        return player_for(level)
    except (ImportError, ValueError):
        return GreedyPlayer()


def choose_play(level: str, seed: int | str, view: GameView) -> Play:
    """The play of a computer player of ``level`` for the seat of ``view``, reproducible from the game
    seed (`bot.ai.rng_for`). ``greedy`` is the seat filler; other names are looked up with
    ``bot.ai.player_for``; unknown levels fall back to greedy (the baseline; never a seat, see `SEAT_LEVELS`).

    Raises:
        ValueError: it is not the view's seat's turn.
    """
    return _player(level).choose(view, rng_for(seed, view))
