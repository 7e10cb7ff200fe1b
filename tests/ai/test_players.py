"""The computer players: legal plays everywhere, no leak of hidden cards, whole mesas, replay
from the seed, and the behaviour each level promises."""

from __future__ import annotations

import random

import pytest

from bot.ai import (
    LEVELS,
    GreedyPlayer,
    NoisyGreedyPlayer,
    PimcPlayer,
    Player,
    SafeGreedyPlayer,
    player_for,
    rng_for,
)
from bot.ai.worlds import lowest_trail_rate
from bot.engine import PRESET_NAMES, Game, Play, Rules, parse_cards

from .helpers import VARIANT_RULES, random_position, variant_rules

SEED_VARIANTS = [v for v in VARIANT_RULES if v != "plain"]
"""comodines, periquito and both (RULES.md Part 1 §9)."""


def small_dificil() -> PimcPlayer:
    """dificil with few worlds and no clock, so tests are fast and fully deterministic."""
    return PimcPlayer(ply_budget=400, min_worlds=2, max_worlds=3, time_cap=None)


def players() -> dict[str, Player]:
    return {"facil": NoisyGreedyPlayer(), "medio": SafeGreedyPlayer(), "dificil": small_dificil(),
            "greedy": GreedyPlayer()}


def test_player_for_levels() -> None:
    kinds = {"facil": NoisyGreedyPlayer, "medio": SafeGreedyPlayer, "dificil": PimcPlayer, "greedy": GreedyPlayer}
    for level in LEVELS:
        p = player_for(level)
        assert isinstance(p, kinds[level])
        assert p.name == level
    assert isinstance(player_for(" Dificil "), PimcPlayer)
    with pytest.raises(ValueError):
        player_for("experto")


@pytest.mark.parametrize("preset", PRESET_NAMES)
def test_every_level_plays_legally(preset: str) -> None:
    """1,000 random positions per preset (half 1 v 1, half 2 v 2); every level answers a legal play."""
    levels = players()
    for i in range(500):
        for n in (2, 4):
            game = random_position(preset, n, i)
            view = game.view(game.to_play)
            legal = set(view.legal_plays)
            for name, p in levels.items():
                play = p.choose(view, rng_for(i, view))
                assert play in legal, (name, preset, n, i, play)


@pytest.mark.parametrize("variant", SEED_VARIANTS)
def test_every_level_plays_legally_with_the_seed_variants(variant: str) -> None:
    """1,000 random positions with comodines, periquito or both on (presets in turn; half 1 v 1, half 2 v 2):
    every level answers a legal play."""
    levels = players()
    for i in range(500):
        preset = PRESET_NAMES[i % len(PRESET_NAMES)]
        for n in (2, 4):
            game = random_position(preset, n, i, variant=variant)
            view = game.view(game.to_play)
            legal = set(view.legal_plays)
            for name, p in levels.items():
                play = p.choose(view, rng_for(i, view))
                assert play in legal, (name, variant, preset, n, i, play)


def test_no_legal_plays_raises() -> None:
    game = random_position("quito", 2, 1)
    view = game.view((game.to_play + 1) % 2)
    for p in players().values():
        with pytest.raises(ValueError):
            p.choose(view, random.Random(0))


def _permuted(game: Game, rng: random.Random) -> Game:
    """The same game with the cards the seat in turn cannot see (other hands and the stock) shuffled
    among those places, sizes kept; the event log, table and piles are unchanged."""
    data = game.to_dict()
    me = game.to_play
    seats = [s for s in range(game.players) if s != me]
    pool = [c for s in seats for c in data["hands"][s]] + data["stock"]
    rng.shuffle(pool)
    pos = 0
    for s in seats:
        k = len(data["hands"][s])
        data["hands"][s] = pool[pos:pos + k]
        pos += k
    data["stock"] = pool[pos:]
    return Game.from_dict(data)


@pytest.mark.parametrize(("n", "variant", "positions"), [(2, "plain", 120), (4, "plain", 120), (2, "both", 120),
                                                         (4, "both", 120)])
def test_leak_permuting_hidden_cards_never_changes_a_decision(n: int, variant: str, positions: int) -> None:
    """The leak test: with a fixed seed, each level decides the same when the hidden cards are permuted
    (with comodines: jokers and the 2 cards set aside in the stock among them, §9)."""
    levels = players()
    levels["dificil"] = PimcPlayer(ply_budget=2000, min_worlds=4, max_worlds=6, time_cap=None)
    changed_world = 0
    for i in range(positions):
        preset = PRESET_NAMES[i % len(PRESET_NAMES)]
        game = random_position(preset, n, i, variant=variant)
        other = _permuted(game, random.Random(i))
        me = game.to_play
        changed_world += other.hands != game.hands or other.stock != game.stock
        v1, v2 = game.view(me), other.view(me)
        assert v1 == v2
        for name, p in levels.items():
            a = p.choose(v1, random.Random(f"leak/{i}"))
            b = p.choose(v2, random.Random(f"leak/{i}"))
            assert a == b, (name, preset, i)
    assert changed_world > positions * 5 // 6


def play_mesa(seats: list[Player], seed: int | str, preset: str = "quito", variant: str = "plain") -> Game:
    game = Game.new(variant_rules(preset, variant), players=len(seats), seed=seed)
    guard = 0
    while not game.is_over:
        view = game.view(game.to_play)
        play = seats[game.to_play].choose(view, rng_for(seed, view))
        game.play(play)
        guard += 1
        assert guard < 5000
    return game


@pytest.mark.parametrize("level", ["facil", "medio", "dificil", "greedy"])
@pytest.mark.parametrize("n", [2, 4])
def test_each_level_finishes_whole_mesas(level: str, n: int) -> None:
    p = players()[level]
    game = play_mesa([p] * n, seed=f"mesa/{level}/{n}")
    assert game.winner in (0, 1)


@pytest.mark.parametrize("level", ["facil", "medio", "dificil", "greedy"])
@pytest.mark.parametrize("n", [2, 4])
def test_each_level_finishes_whole_mesas_with_comodines_and_periquito(level: str, n: int) -> None:
    p = players()[level]
    game = play_mesa([p] * n, seed=f"mesa-both/{level}/{n}", variant="both")
    assert game.winner in (0, 1)
    assert any(e.kind == "played" and e.card.is_joker for e in game.events)


def test_mixed_table_2v2_finishes() -> None:
    lv = players()
    game = play_mesa([lv["dificil"], lv["facil"], lv["medio"], lv["greedy"]], seed="mixed")
    assert game.winner in (0, 1)


@pytest.mark.parametrize("level", ["facil", "medio", "dificil"])
def test_moves_replay_from_the_seed(level: str) -> None:
    a = play_mesa([players()[level], GreedyPlayer()], seed=f"replay/{level}")
    b = play_mesa([players()[level], GreedyPlayer()], seed=f"replay/{level}")
    assert a.plays == b.plays


def _medio_trail_position() -> Game:
    # Seat 0 holds 4♦ and K♠; the other three kings were captured already, the three other 4s are unseen
    # (in seat 1's hand or the stock): trailing the 4 (what greedy does: lowest card) leaves a caída
    # open, trailing the K cannot.
    return Game.from_position(Rules.preset("quito"), hands=["4D KS", "QH 2C"], table="7H", to_play=0,
                              piles=["KH KD KC 6S 6H", ""], seed=2)


def test_medio_avoids_leaving_a_caida_open() -> None:
    view = _medio_trail_position().view(0)
    assert GreedyPlayer().choose(view, random.Random(0)).card == parse_cards("4D")[0]
    for seed in range(5):
        play = SafeGreedyPlayer().choose(view, random.Random(seed))
        assert play.card == parse_cards("KS")[0] and play.is_trail


def test_medio_avoids_leaving_a_limpia_open() -> None:
    # Table 4♣; seat 0 holds A♠ and K♦, and every other ace and king is already captured, so neither
    # trail risks a caída. Trailing the ace (greedy's lowest card) lets any unseen 5 take 4♣ + A♠: a
    # limpia. Trailing the king leaves nothing a single card can clean.
    game = Game.from_position(Rules.preset("quito"), hands=["AS KD", "QH 2C"], table="4C", to_play=0,
                              piles=["AH AD AC KH KS KC", ""], seed=3)
    view = game.view(0)
    assert GreedyPlayer().choose(view, random.Random(0)).card == parse_cards("AS")[0]
    for seed in range(5):
        play = SafeGreedyPlayer().choose(view, random.Random(seed))
        assert play.card == parse_cards("KD")[0] and play.is_trail


def test_dificil_closes_the_chica_with_a_caida_at_38() -> None:
    """At 38 only a caída scores (R30); dificil takes the caída that wins the chica."""
    game = Game.from_position(Rules.preset("quito"), hands=["JC 3H 4S", "5D 6C"], table="JD 2S",
                              last_trail="JD", scores=(38, 20), to_play=0, dealer=0, seed=4)
    play = small_dificil().choose(game.view(0), random.Random(0))
    assert play.card == parse_cards("JC")[0] and parse_cards("JD")[0] in play.captures


def test_dificil_avoids_leaving_a_caida_open() -> None:
    view = _medio_trail_position().view(0)
    play = PimcPlayer(time_cap=None).choose(view, random.Random(0))
    assert play.card == parse_cards("KS")[0]


def test_lowest_trail_rate_tells_greedy_from_careful_opponents() -> None:
    """Opponent modelling reads only finished deals: a greedy opponent always trails its lowest card."""
    for opponent, expect_all in ((GreedyPlayer(), True), (SafeGreedyPlayer(), False)):
        game = Game.new(Rules.preset("quito"), players=2, seed=11)
        for _ in range(120):
            if game.is_over:
                break
            view = game.view(game.to_play)
            game.play(opponent.choose(view, rng_for(1, view)))
        low, seen = lowest_trail_rate(game.view(0))
        assert seen >= 10
        assert (low == seen) is expect_all


def _periquito_position() -> Game:
    # All four 5s lie on the table (seat 1 trailed the last one). Seat 0's 4♦ takes 4♣ and the escalera
    # reaches the 5s: all four, 6♠ and the periquito bonus (6); its K♠ can take K♥ only.
    return Game.from_position(Rules.preset("quito").replace(periquito=True), hands=["4D KS", "QH 2C"],
                              table="KH 4C 5S 5H 5D 6S 5C", last_trail="5C", to_play=0, dealer=1, seed=6)


@pytest.mark.parametrize("level", ["greedy", "medio", "dificil"])
def test_every_level_takes_a_periquito(level: str) -> None:
    view = _periquito_position().view(0)
    play = players()[level].choose(view, random.Random(0))
    assert play == Play.parse("4D", "4C 5S 5H 5D 5C 6S")


def test_a_joker_plays_for_the_limpia() -> None:
    """Seat 0's joker standing for the 5 takes 5♠ 6♥ 7♣, a limpia; its 2♦ can only be trailed."""
    game = Game.from_position(Rules.preset("quito").replace(comodines=True), hands=["W1 2D", "QH KC"],
                              table="5S 6H 7C", to_play=0, dealer=1, seed=7)
    view = game.view(0)
    for level in ("greedy", "medio", "dificil"):
        play = players()[level].choose(view, random.Random(0))
        assert play == Play.parse("W1", "5S 6H 7C"), level


def test_dificil_single_distinct_play_answers_at_once() -> None:
    game = Game.from_position(Rules.preset("quito"), hands=["KS", "KH"], table="", to_play=0, seed=5)
    p = PimcPlayer()
    assert p.choose(game.view(0), random.Random(0)).card == parse_cards("KS")[0]
    assert p.last_worlds == 0
