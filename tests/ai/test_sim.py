"""The lean simulator (bot/ai/sim.py) against the engine: same legal moves, captures, points, deals, rondas,
count and chica wins, on random positions of every preset and of variant rules (so it cannot drift)."""

from __future__ import annotations

import random

import pytest

from bot.ai.sim import State, WorldSampler, move_of_play
from bot.engine import PRESET_NAMES, Game, Rules

from .helpers import random_position, true_state

VARIANTS = {
    "optional_seq_forced": Rules.preset("quito").replace(sequence_mode="optional", forced_capture=True),
    "takes_all_by_sum": Rules.preset("quito").replace(match_takes_all=True, caida_by_sum=True, falla=2),
    "rigor_19": Rules.preset("cuenca").replace(carton_min_cards=19, four_caidas_across_deals=False,
                                               ronda_cutoff=30, carton_cutoff=30),
}


def _table_counts(game: Game) -> list[int]:
    t = [0] * 10
    for c in game.table:
        t[c.rank] += 1
    return t


def _dominant(moves: set) -> set:
    """Drop a non-caída match that has a caída twin (the simulator never lists it, it is dominated)."""
    return {m for m in moves if m[2] or (m[0], m[1], True) not in moves}


def _play_out(game: Game, rng: random.Random) -> int:
    """Play ``game`` and the simulator side by side with random moves to the end of the hand or chica;
    assert they agree after every play. Returns the number of plays checked."""
    s = true_state(game)
    steps = 0
    while True:
        view = game.view(game.to_play)
        plays = game.legal_plays()
        engine_moves = _dominant({move_of_play(view, p) for p in plays})
        assert set(s.legal_moves()) == engine_moves
        move = rng.choice(sorted(engine_moves))
        play = next(p for p in plays if move_of_play(view, p) == move)
        events = game.play(play)
        s.apply(move)
        steps += 1
        kinds = [e.kind for e in events]
        if "chica_won" in kinds and ("hand_end" not in kinds or kinds.index("chica_won") < kinds.index("hand_end")):
            won = next(e for e in events if e.kind == "chica_won")
            assert s.over and s.winner == won.team
            return steps
        if "hand_end" in kinds:
            i = kinds.index("hand_end")
            end = events[i]
            assert s.over
            assert list(end.scores) == s.scores
            assert list(end.counts) == s.piles
            won = [e for e in events[i:i + 2] if e.kind == "chica_won"]
            assert s.winner == (won[0].team if won else -1)
            return steps
        assert not s.over
        assert list(game.scores) == s.scores
        assert [len(p) for p in game.piles] == s.piles
        assert _table_counts(game) == s.table
        assert game.to_play == s.to_play
        for seat, hand in enumerate(game.hands):
            counts = [0] * 10
            for c in hand:
                counts[c.rank] += 1
            assert counts == s.hands[seat]


@pytest.mark.parametrize("players", [2, 4])
@pytest.mark.parametrize("preset", PRESET_NAMES)
def test_sim_matches_engine(preset: str, players: int) -> None:
    checked = 0
    for seed in range(40):
        game = random_position(preset, players, seed)
        checked += _play_out(game, random.Random(seed))
    assert checked > 400


@pytest.mark.parametrize("name", sorted(VARIANTS))
def test_sim_matches_engine_variants(name: str) -> None:
    rules = VARIANTS[name]
    checked = 0
    for seed in range(40):
        for players in (2, 4):
            rng = random.Random(seed)
            game = Game.new(rules, players=players, seed=f"{name}/{seed}")
            for _ in range(rng.randrange(0, 60)):
                if game.is_over:
                    break
                game.play(rng.choice(game.legal_plays()))
            if not game.is_over:
                checked += _play_out(game, rng)
    assert checked > 400


def test_greedy_rollout_finishes_hand() -> None:
    game = random_position("quito", 2, 7)
    s: State = true_state(game)
    s.rollout()
    assert s.over


@pytest.mark.parametrize("players", [2, 4])
def test_sampler_deals_only_unseen_cards(players: int) -> None:
    for seed in range(60):
        game = random_position("quito", players, seed)
        view = game.view(game.to_play)
        sampler = WorldSampler(view)
        rng = random.Random(seed)
        unseen = [0] * 10
        for c in view.unseen_cards():
            unseen[c.rank] += 1
        for _ in range(5):
            w = sampler.sample(rng)
            got = [0] * 10
            for seat in range(players):
                if seat != view.seat:
                    assert sum(w.hands[seat]) == view.hand_sizes[seat]
                    for r in range(10):
                        got[r] += w.hands[seat][r]
            assert len(w.stock) == view.stock_size
            for r in w.stock:
                got[r] += 1
            assert got == unseen
            mine = [0] * 10
            for c in view.hand:
                mine[c.rank] += 1
            assert w.hands[view.seat] == mine


def test_sampler_honours_announced_ronda() -> None:
    """An opponent who announced a ronda this deal is dealt three of a rank in every sampled world."""
    game = Game.from_position(Rules.preset("quito"), hands=["AS 2S 3S 4S 5S", "6H 6D 6C QS KS"],
                              to_play=0, rondas={1: "6"}, seed=1)
    view = game.view(0)
    sampler = WorldSampler(view)
    rng = random.Random(3)
    for _ in range(50):
        w = sampler.sample(rng)
        assert max(w.hands[1]) == 3
        assert w.rondas[1] == w.hands[1].index(3)


@pytest.mark.parametrize("players", [2, 4])
def test_skipped_caidas_never_exclude_a_held_rank(players: int) -> None:
    """When every seat takes each caída it is offered (what the inference assumes), a rank inferred
    missing is never in that seat's hand; and the inference does fire."""
    from bot.ai.greedy import is_caida
    from bot.ai.sim import skipped_caidas

    fired = 0
    for seed in range(30):
        rng = random.Random(seed)
        game = Game.new(Rules.preset("quito"), players=players, seed=f"skip/{seed}")
        for _ in range(80):
            if game.is_over:
                break
            view = game.view(game.to_play)
            excluded = skipped_caidas(view)
            for seat, ranks in enumerate(excluded):
                held = {c.rank for c in game.hands[seat]}
                assert not (ranks & held)
                fired += len(ranks)
            caidas = [p for p in view.legal_plays if is_caida(view, p)]
            game.play(caidas[0] if caidas else rng.choice(view.legal_plays))
    assert fired > 50
