"""Computer players. Each takes only what its seat may see (`Game.view(seat)`) and returns a legal play."""

from .base import Player, rng_for
from .greedy import GreedyPlayer

__all__ = ["GreedyPlayer", "Player", "rng_for"]
