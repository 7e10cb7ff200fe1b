"""The computer-player interface: a seat's `GameView` in, a legal `Play` out.

A computer player never sees the `Game` itself, only what its seat may see (`Game.view(seat)`).
"""

from __future__ import annotations

import random
from typing import Protocol

from bot.engine import GameView, Play


class Player(Protocol):
    """A computer player: ``choose(view, rng) -> Play``, a legal play for ``view.seat``.

    ``view.legal_plays`` is non-empty when it is the seat's turn. ``rng`` makes choices reproducible
    from the game's seed (see `rng_for`).
    """

    name: str

    def choose(self, view: GameView, rng: random.Random) -> Play: ...


def rng_for(seed: int | str, view: GameView) -> random.Random:
    """A deterministic RNG for one decision, derived from the game seed and the position in the mesa
    (hand, deal, cards played so far), so a computer player's moves replay from the seed."""
    played = sum(1 for e in view.events if e.kind == "played")
    return random.Random(f"cuarenta-ai/{seed}/{view.seat}/{view.hand_number}/{played}")


LEVELS: tuple[str, ...] = ("facil", "medio", "dificil", "greedy")
"""The levels `player_for` knows, easiest first (``greedy`` is the plain baseline)."""


def player_for(level: str) -> Player:
    """A new computer player for a level name: ``"facil"``, ``"medio"``, ``"dificil"`` or ``"greedy"``
    (case and surrounding spaces ignored).

    ``dificil`` searches for up to ~150 ms a move: call it off the event loop (``run_in_executor``).

    Raises:
        ValueError: an unknown level.
    """
    from .dificil import PimcPlayer
    from .facil import NoisyGreedyPlayer
    from .greedy import GreedyPlayer
    from .medio import SafeGreedyPlayer

    key = level.strip().lower() if isinstance(level, str) else level
    factories = {"facil": NoisyGreedyPlayer, "medio": SafeGreedyPlayer, "dificil": PimcPlayer,
                 "greedy": GreedyPlayer}
    if key not in factories:
        raise ValueError(f"unknown computer level {level!r}; choose one of {', '.join(LEVELS)}")
    return factories[key]()
