"""dificil (hard): determinized sampling search (PIMC) that plays to win the chica."""

from __future__ import annotations

import random
import time

from bot.engine import GameView, Play

from .medio import SafeGreedyPlayer, unique_moves
from .sim import State
from .worlds import WorldSampler, lowest_trail_rate

CHICA_VALUE = 30.0
"""Extra value, in points, of winning the chica within the simulated hand (R33); losing it costs as much."""

def evaluate(state: State, team: int, card_weight: float = 0.0) -> float:
    """Value of a finished rollout for ``team``: points it gained minus points the other side gained
    since the root (caída, limpia, rondas, cartón, …, each with the 38 rule, R30), ``card_weight`` per
    card of difference between the piles while the hand is not over (cartón to come, R28), plus or minus
    `CHICA_VALUE` when a side reached the target (R33), worth 1% less per ply it took (a sooner win is
    surer). Shape: a float, higher is better."""
    g = state.gained
    v = float(g[team] - g[1 - team])
    if not state.over and card_weight:
        v += card_weight * (state.piles[team] - state.piles[1 - team])
    if state.winner >= 0:
        w = CHICA_VALUE * (1.0 - 0.01 * min(state.plies, 40))
        v += w if state.winner == team else -w
    return v


class PimcPlayer:
    """Perfect-information Monte Carlo search, PIMC (level ``dificil``).

    Each move:

    1. The legal plays are grouped by their rank-level effect (`unique_moves`); with one, it answers at
       once.
    2. Worlds are sampled with `WorldSampler` from what the seat has seen: the unseen cards dealt into
       the other hands and the stock, honouring announced rondas and the ranks an opponent has shown it
       lacks (it let a caída pass this deal).
    3. In each world every play is applied and the game is played on by the simulator (`State.rollout`)
       to the end of the current deal (``horizon="deal"``; ``"hand"``: to the end of the hand), the same
       world for every play (common random numbers). Rollout policy: take the capture worth most now
       (points, then cards), else trail. The searching side trails a card the next seat does not hold
       in that world (``my_trail=1``); the opponents trail their lowest card (``0``, the habit of
       beginners and of `GreedyPlayer`) or the card with the fewest copies they cannot see (``2``,
       careful players). Which: `lowest_trail_rate` measures, from the cards of finished deals, whether
       the opponents trail their lowest card; with ``adapt_min`` trails seen it picks ``0`` above
       ``adapt_rate`` and ``2`` below, and before that alternates both by world (``their_trails``).
    4. A rollout is scored by `evaluate`: the points each side gained (rondas, caídas, limpias, the real
       cartón when the hand ends, each with the 38 rule), ``card_weight`` per captured card when the
       hand has not ended, and ± `CHICA_VALUE` for a chica won or lost: it plays to win the chica.
    5. medio's one-ply score of each play (`SafeGreedyPlayer.scores`: immediate value minus the
       opponent's expected best reply, plus the captures it keeps) is added with ``prior_weight``; it
       steadies the choice where the sampled worlds barely separate the plays. The play with the best
       total is chosen (first in `unique_moves` order on a tie).

    Budget and reproducibility: the number of worlds depends on the position only, so that the
    rollouts of one move total about ``ply_budget`` simulated plies (``worlds = ply_budget // (plays ×
    plies to the horizon)``, clamped to ``[min_worlds, max_worlds]``). On the reference machine (2 cores,
    about 4–5 µs a simulated ply) that is about 30 ms a move on average and 80 ms at p95
    (bench/ai.py). ``time_cap`` seconds is only a safety limit, checked after every rollout: when it is
    hit, the world in progress is dropped and the decision uses the worlds finished (the medio choice if
    none), and only then can a move depend on the machine's speed. ``time_cap=None`` is fully
    reproducible. All randomness comes from ``rng``; only ``view`` is read.

    Args:
        ply_budget: simulated plies per move (sets the number of worlds).
        min_worlds, max_worlds: bounds on the number of worlds.
        time_cap: seconds, the safety limit; None for none.
        eps: chance of a uniformly random move at each rollout ply (0: none).
        my_trail, their_trails: rollout trail policies (0 lowest, 1 safe in the world, 2 fewest unseen).
        horizon: ``"deal"`` or ``"hand"``. min_plies: with ``"deal"``, per player, the plies to simulate
            at least (a rollout from the last plies of a deal then runs through the next deal).
        card_weight: points per captured card at a rollout's end before the hand's end (cartón, R28).
        prior_weight: weight of medio's score added to the mean (0: off).
        adapt, adapt_min, adapt_rate: the opponent-trail model choice above.
    """

    name = "dificil"

    def __init__(self, ply_budget: int = 14_000, min_worlds: int = 8, max_worlds: int = 400,
                 time_cap: float | None = 0.12, eps: float = 0.0, my_trail: int = 1,
                 their_trails: tuple[int, ...] = (0, 2), horizon: str = "deal", card_weight: float = 0.7,
                 prior_weight: float = 2.0, min_plies: int = 0, adapt: bool = True, adapt_min: int = 4,
                 adapt_rate: float = 0.85) -> None:
        if horizon not in ("deal", "hand"):
            raise ValueError(f"horizon must be 'deal' or 'hand', not {horizon!r}")
        self.ply_budget = ply_budget
        self.min_worlds = min_worlds
        self.max_worlds = max_worlds
        self.time_cap = time_cap
        self.eps = eps
        self.my_trail = my_trail
        self.their_trails = their_trails
        self.horizon = horizon
        self.min_plies = min_plies
        self.card_weight = card_weight
        self.prior_weight = prior_weight
        self.adapt = adapt
        self.adapt_min = adapt_min
        self.adapt_rate = adapt_rate
        self.last_worlds = 0

    def worlds_for(self, view: GameView, plays: int) -> int:
        """How many worlds to sample for a move with ``plays`` distinct plays (deterministic)."""
        deal_left = sum(view.hand_sizes)
        if self.horizon == "hand":
            left = deal_left + view.to_deal
        else:
            left = deal_left if deal_left >= self.min_plies * view.players else \
                deal_left + min(view.to_deal, 5 * view.players)
        w = self.ply_budget // max(1, plays * left)
        return max(self.min_worlds, min(self.max_worlds, w))

    def values(self, view: GameView, rng: random.Random) -> list[tuple[float, Play]]:
        """``(mean value, play)`` for each distinct legal play. Sets ``last_worlds``."""
        start = time.perf_counter()
        moves = unique_moves(view)
        if len(moves) == 1:
            self.last_worlds = 0
            return [(0.0, moves[0][1])]
        prior = {p: v for v, p in SafeGreedyPlayer().scores(view)} if self.prior_weight else {}
        sampler = WorldSampler(view)
        worlds = self.worlds_for(view, len(moves))
        team = view.team
        assert team is not None, "a computer plays from a seat"
        totals = [0.0] * len(moves)
        done = 0
        cap = None if self.time_cap is None else start + self.time_cap
        eps = self.eps
        deal_only = self.horizon == "deal"
        min_plies = self.min_plies * view.players
        cw = self.card_weight if deal_only else 0.0
        their = self.their_trails
        if self.adapt:
            low, seen = lowest_trail_rate(view)
            if seen >= self.adapt_min:
                their = (0,) if low >= self.adapt_rate * seen else (2,)
        for wi in range(worlds):
            world = sampler.sample(rng)
            modes = [0, 0]
            modes[team] = self.my_trail
            modes[1 - team] = their[wi % len(their)]
            world.trail_mode = modes
            seed = rng.getrandbits(32)
            vals = []
            for move, _play in moves:
                s = world.copy()
                s.apply(move)
                if not s.over:
                    s.rollout(random.Random(seed) if eps else None, eps, until_deal_end=deal_only,
                              min_plies=min_plies)
                vals.append(evaluate(s, team, cw))
                if cap is not None and time.perf_counter() > cap:
                    break
            else:
                for i, v in enumerate(vals):
                    totals[i] += v
                done += 1
                continue
            break
        self.last_worlds = done
        if not done:  # out of time before one world was finished: the medio choice
            return [(v, p) for p, v in prior.items()] or SafeGreedyPlayer().scores(view)
        out = [(t / max(1, done), p) for t, (_m, p) in zip(totals, moves, strict=True)]
        if prior:
            out = [(v + self.prior_weight * prior.get(p, 0.0), p) for v, p in out]
        return out

    def choose(self, view: GameView, rng: random.Random) -> Play:
        """Return a legal play for ``view.seat``.

        Raises:
            ValueError: it is not this seat's turn (no legal plays in the view).
        """
        vals = self.values(view, rng)
        best = max(v for v, _ in vals)
        return next(p for v, p in vals if v >= best - 1e-9)
