"""Computer players. Each takes only what its seat may see (`Game.view(seat)`) and returns a legal play.

Levels (`player_for`): ``facil`` (greedy with noise, `NoisyGreedyPlayer`), ``medio`` (greedy that weighs
the opponent's best reply, `SafeGreedyPlayer`), ``dificil`` (determinized sampling search, `PimcPlayer`),
and ``greedy`` (the plain baseline, `GreedyPlayer`). Every level plays 1 v 1 and 2 v 2 (for its team),
reads only its seat's `GameView`, and draws all randomness from the ``rng`` it is given (`rng_for`), so
its moves replay from the game's seed. ``dificil`` takes about 30 ms a move (p95 80 ms, capped at
120 ms + one rollout): call it off the event loop.

Measured strength (bench/ai.py, quito, 1 v 1, hands won, ties as one half): dificil 77% of hands against
greedy and 56% against medio; medio 70% against greedy; facil 42% against greedy.

Modules: base (interface, `rng_for`, `player_for`), greedy, facil, medio, dificil, sim (the lean
rank-level simulator the search uses, tested against the engine), worlds (what a seat infers of the hidden
cards, and the worlds the search samples).

Every level also plays the seed-002 variants (RULES.md Part 1 §9): comodines (a joker is rank 10 in the
simulator; the unseen cards include the jokers and the 2 cards each hand leaves in the stock) and
periquito (its bonus is counted in every level's values).
"""

from .base import LEVELS, Player, player_for, rng_for
from .dificil import PimcPlayer
from .facil import NoisyGreedyPlayer
from .greedy import GreedyPlayer
from .medio import SafeGreedyPlayer

__all__ = ["LEVELS", "GreedyPlayer", "NoisyGreedyPlayer", "PimcPlayer", "Player", "SafeGreedyPlayer",
           "player_for", "rng_for"]
