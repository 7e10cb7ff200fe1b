"""Shared helpers for the computer-player tests: random positions and the true simulator state of a game."""

from __future__ import annotations

import random

from bot.ai.sim import NRANKS, State, sim_rules
from bot.engine import Game, Rules


def true_state(game: Game) -> State:
    """The simulator `State` of a whole game, hidden cards included (for tests only: players never see it)."""
    n = game.players
    hands = []
    for h in game.hands:
        c = [0] * NRANKS
        for card in h:
            c[card.rank] += 1
        hands.append(c)
    table = [0] * NRANKS
    for card in game.table:
        table[card.rank] += 1
    lt = -1
    if game.last_trail is not None and game.to_play is not None \
            and game.last_trail_seat == (game.to_play - 1) % n:
        lt = game.last_trail.rank
    rondas = [-1] * n
    for seat, (rank, _i) in game.rondas.items():
        rondas[seat] = rank
    return State(sim_rules(game.rules), n, hands, table, [c.rank for c in game.stock], last_trail=lt,
                 rondas=rondas, piles=(len(game.piles[0]), len(game.piles[1])), scores=game.scores,
                 streaks=game.streaks, last_cap=-1 if game.last_capturer is None else game.last_capturer,
                 dealer=game.dealer, to_play=game.to_play)


VARIANT_RULES: dict[str, dict[str, bool]] = {
    "plain": {},
    "comodines": {"comodines": True},
    "periquito": {"periquito": True},
    "both": {"comodines": True, "periquito": True},
}
"""The seed-002 variants (RULES.md Part 1 §9) that the AI tests run with, as `Rules.replace` fields."""


def variant_rules(preset: str, variant: str = "plain") -> Rules:
    """``preset`` with a variant of `VARIANT_RULES` on."""
    return Rules.preset(preset).replace(**VARIANT_RULES[variant])


def random_position(preset: str, players: int, seed: int, max_plays: int | None = None,
                    variant: str = "plain") -> Game:
    """A game of ``preset`` (with ``variant`` on) advanced by a random number of uniformly random legal
    plays (never over)."""
    tag = preset if variant == "plain" else f"{preset}+{variant}"
    rng = random.Random(f"pos/{tag}/{players}/{seed}")
    game = Game.new(variant_rules(preset, variant), players=players, seed=f"{tag}/{seed}")
    if game.is_over:
        return random_position(preset, players, seed + 100_000, max_plays, variant)
    steps = rng.randrange(0, 120 if max_plays is None else max_plays + 1)
    for _ in range(steps):
        plays = game.legal_plays()
        game.play(rng.choice(plays))
        if game.is_over:
            return random_position(preset, players, seed + 100_000, max_plays, variant)
    return game
