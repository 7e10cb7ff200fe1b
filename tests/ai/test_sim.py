"""The lean simulator (bot/ai/sim.py) against the engine: same legal moves, captures, points, deals, rondas,
count and chica wins, on random positions of every preset and of variant rules (so it cannot drift)."""

from __future__ import annotations

import random

import pytest

from bot.ai.sim import NRANKS, State, move_of_play
from bot.ai.worlds import WorldSampler
from bot.engine import PRESET_NAMES, Game, Rules

from .helpers import random_position, true_state

BOTH = {"comodines": True, "periquito": True}
VARIANTS = {
    "optional_seq_forced": Rules.preset("quito").replace(sequence_mode="optional", forced_capture=True),
    "takes_all_by_sum": Rules.preset("quito").replace(match_takes_all=True, caida_by_sum=True, falla=2),
    "rigor_19": Rules.preset("cuenca").replace(carton_min_cards=19, four_caidas_across_deals=False,
                                               ronda_cutoff=30, carton_cutoff=30),
    # the seed-002 variants (Part 1 §9), alone, together, and with the other capture flags
    "comodines": Rules.preset("quito").replace(comodines=True),
    "periquito": Rules.preset("quito").replace(periquito=True),
    "both": Rules.preset("quito").replace(**BOTH),
    "both_optional_forced": Rules.preset("quito").replace(sequence_mode="optional", forced_capture=True, **BOTH),
    "both_takes_all_by_sum_pairs": Rules.preset("quito").replace(match_takes_all=True, caida_by_sum=True,
                                                                 sum_mode="pair", periquito_points=4, **BOTH),
    "both_rigor_barrio": Rules.preset("cuenca").replace(leftovers="last_capturer", falla=2, carton_cutoff=30,
                                                        **BOTH),
}


def _table_counts(game: Game) -> list[int]:
    t = [0] * NRANKS
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
            counts = [0] * NRANKS
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


def _each_move_agrees(game: Game) -> int:
    """Every distinct move of the seat in turn, applied to the engine and to the simulator apart: the same
    scores, piles and table after it. Returns the number of moves checked."""
    view = game.view(game.to_play)
    s = true_state(game)
    plays = game.legal_plays()
    moves = _dominant({move_of_play(view, p) for p in plays})
    assert set(s.legal_moves()) == moves
    team = game.to_play % 2
    for move in sorted(moves):
        g = Game.from_dict(game.to_dict())
        events = g.play(next(p for p in plays if move_of_play(view, p) == move))
        instant = any(e.kind in ("caida", "four_caidas") and e.reason == "chica" for e in events)
        points = sum(e.points for e in events if e.kind in ("caida", "limpia", "periquito") and e.team == team)
        t = s.copy()
        assert t.move_points(move) == (99 if instant else points), move
        t.apply(move)
        if g.chicas == game.chicas:
            assert list(g.scores) == t.scores
            assert [len(p) for p in g.piles] == t.piles
            assert _table_counts(g) == t.table
    return len(moves)


PERIQUITO_POSITIONS = [
    # (rules fields, hands, table, last trail, scores)
    ({"periquito": True}, ["4H KD", "QH 2C"], "KC 4S 5S 5H 5D 6S 5C", "5C", (0, 0)),
    ({"periquito": True}, ["4H KD", "QH 2C"], "4S 5S 5H 5D 5C", "5C", (36, 0)),
    ({"periquito": True}, ["4H KD", "QH 2C"], "4S 5S 5H 5D 5C", "5C", (38, 0)),
    ({"periquito": True, "caida_by_sum": True}, ["5H 3H", "QH KC"], "KD 2S 2H 2D 3S AS 2C", "2C", (0, 0)),
    ({"periquito": True, "sum_mode": "pair"}, ["7H 6D", "QH KC"], "KD 2S 2H 2D 5S 4S 2C", None, (0, 0)),
    ({"periquito": True, "comodines": True}, ["W1 3H", "QH KC"], "AS AH AD AC 2S 2H 2D 2C KD W2", None, (0, 0)),
    ({"comodines": True}, ["W2 7H", "QD KC"], "5S 6H 7S W1", "7S", (0, 0)),
    ({"comodines": True, "sequence_mode": "optional", "match_takes_all": True}, ["W1 5H", "QD KC"],
     "5S 5D 6H 7C", None, (0, 0)),
]


@pytest.mark.parametrize("case", range(len(PERIQUITO_POSITIONS)))
def test_sim_matches_engine_on_joker_and_periquito_positions(case: int) -> None:
    fields, hands, table, trailed, scores = PERIQUITO_POSITIONS[case]
    game = Game.from_position(Rules.preset("quito").replace(**fields), hands=hands, table=table,
                              last_trail=trailed, scores=scores, to_play=0, dealer=1, seed=case)
    assert _each_move_agrees(game) >= 2
    checked = _play_out(game, random.Random(case))
    assert checked >= 1


@pytest.mark.parametrize("variant", ["plain", "comodines"])
@pytest.mark.parametrize("players", [2, 4])
def test_sampler_deals_only_unseen_cards(players: int, variant: str) -> None:
    for seed in range(60):
        game = random_position("quito", players, seed, variant=variant)
        view = game.view(game.to_play)
        sampler = WorldSampler(view)
        rng = random.Random(seed)
        unseen = [0] * NRANKS
        for c in view.unseen_cards():
            unseen[c.rank] += 1
        for _ in range(5):
            w = sampler.sample(rng)
            got = [0] * NRANKS
            for seat in range(players):
                if seat != view.seat:
                    assert sum(w.hands[seat]) == view.hand_sizes[seat]
                    for r in range(NRANKS):
                        got[r] += w.hands[seat][r]
            assert len(w.stock) == view.stock_size
            for r in w.stock:
                got[r] += 1
            assert got == unseen
            mine = [0] * NRANKS
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
    from bot.ai.worlds import skipped_caidas

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


def test_skipped_caidas_infer_nothing_from_a_trailed_joker() -> None:
    """Nobody can fall on a trailed joker (§9): letting it lie says nothing of the hand."""
    from bot.ai.worlds import skipped_caidas
    from bot.engine import JOKER_RANK, Play

    game = Game.from_position(Rules.preset("quito").replace(comodines=True), hands=["W2 4S 5S", "W1 KD QH"],
                              table="QC", to_play=0, dealer=1, seed=9)
    game.play(Play.parse("4S"))  # seat 0 trails 4♠
    game.play(Play.parse("W1"))  # seat 1 lets 4♠ lie (it holds no 4) and trails its joker
    game.play(Play.parse("5S"))  # seat 0 holds W2 and lets the joker lie
    excluded = skipped_caidas(game.view(1))
    assert 3 in excluded[1]  # the inference works: seat 1 showed it holds no 4
    assert JOKER_RANK not in excluded[0]
