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
