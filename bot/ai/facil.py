"""facil (easy): the greedy player with noise, so that beginners can beat it."""

from __future__ import annotations

import random

from bot.engine import GameView, Play

from .greedy import GreedyPlayer, capture_value, is_caida


class NoisyGreedyPlayer:
    """Greedy with noise (level ``facil``).

    With probability ``p_random`` it plays a uniformly random legal play; otherwise it plays like
    `GreedyPlayer`, except that when its best play is a caída (R22) it sees it only with probability
    ``p_caida`` and otherwise plays its best non-caída play. Every random draw comes from ``rng``, so play
    is reproducible from the game's seed. Defaults are tuned so that it wins 35–50% of hands against a
    plain greedy player (bench/ai.py).
    """

    name = "facil"

    def __init__(self, p_random: float = 0.1, p_caida: float = 0.9) -> None:
        self.p_random = p_random
        self.p_caida = p_caida
        self._greedy = GreedyPlayer()

    def choose(self, view: GameView, rng: random.Random) -> Play:
        """Return a legal play for ``view.seat``.

        Raises:
            ValueError: it is not this seat's turn (no legal plays in the view).
        """
        plays = list(view.legal_plays)
        if not plays:
            raise ValueError("not this seat's turn")
        plays.sort(key=lambda p: (p.card, sorted(p.captures)))
        if rng.random() < self.p_random:
            return rng.choice(plays)
        best = self._greedy.choose(view, rng)
        if is_caida(view, best) and rng.random() >= self.p_caida:
            others = [p for p in plays if not is_caida(view, p)]
            top = max(capture_value(view, p) for p in others)
            if top > 0:
                return rng.choice([p for p in others if capture_value(view, p) == top])
            low = min(p.card.rank for p in others)
            trails = [p for p in others if p.card.rank == low and not p.captures] or others
            return rng.choice(trails)
        return best
