"""The engine's public API: cards, rules, illegal plays, views, persistence."""

from __future__ import annotations

import copy
import json
import pickle

import pytest

from bot.engine import (
    CHICA,
    DECK,
    PRESET_NAMES,
    Card,
    CardError,
    CardNotInHandError,
    EventKind,
    Game,
    GameOverError,
    IllegalCaptureError,
    OutOfTurnError,
    Play,
    PositionError,
    Rules,
    RulesError,
    carton_points,
)

K = EventKind


# ------------------------------------------------------------------ cards (R1–R3)

def test_R1_deck_has_forty_cards_without_8_9_10():
    assert len(DECK) == 40 and len(set(DECK)) == 40
    assert {c.rank_symbol for c in DECK} == {"A", "2", "3", "4", "5", "6", "7", "J", "Q", "K"}
    for bad in ("8D", "9S", "10H", "XX", "", "7X"):
        with pytest.raises(CardError):
            Card.parse(bad)


def test_R2_values_faces_have_no_numeric_value():
    assert [Card.parse(f"{r}S").value for r in "A234567"] == [1, 2, 3, 4, 5, 6, 7]
    assert [Card.parse(f"{r}S").value for r in "JQK"] == [0, 0, 0]
    assert not Card.parse("JD").is_numeric and Card.parse("AD").is_numeric


def test_R3_sequence_order_and_sorting():
    assert [c.rank for c in map(Card.parse, ["AS", "7S", "JS", "QS", "KS"])] == [0, 6, 7, 8, 9]
    assert sorted(map(Card.parse, ["KS", "AS", "JH", "7D"])) == list(map(Card.parse, ["AS", "7D", "JH", "KS"]))


def test_card_codes_display_and_identity():
    card = Card.parse("7D")
    assert str(card) == "7♦" and card.code == "7D" and repr(card) == "Card(7D)"
    assert Card.parse("7♦") is card and Card.parse(" 7d ") is card and Card.parse(card) is card
    assert pickle.loads(pickle.dumps(card)) is card and copy.deepcopy(card) is card
    assert bool(Card.parse("AS"))  # the first card (index 0) is still truthy
    with pytest.raises(AttributeError):
        card.rank = 3  # type: ignore[misc]


# ------------------------------------------------------------------ rules (Part 1 §1, §8)

def test_presets_match_part1():
    quito, cuenca, torneo, barrio, rapido = (Rules.preset(n) for n in PRESET_NAMES)
    assert quito == Rules() and quito.caida_limpia == 2 and quito.doble_ronda == 4 and quito.caida_en_ronda == 4
    assert quito.four_caidas is None and quito.rule38 and quito.zapateria and quito.chicas_to_win == 2
    assert cuenca.caida_limpia == 4 and cuenca.doble_ronda == CHICA and cuenca.caida_en_ronda == CHICA
    assert cuenca.four_caidas == CHICA
    assert torneo.caida_limpia == 2 and torneo.doble_ronda == CHICA and torneo.caida_en_ronda == CHICA
    assert torneo.four_caidas is None
    assert barrio.sum_mode == "pair" and barrio.leftovers == "last_capturer" and barrio.carton_cutoff == 30
    assert barrio.ronda_cutoff == 30 and barrio.falla == 2 and barrio.doble_ronda == CHICA
    assert barrio.four_caidas == CHICA
    assert rapido.target == 20 and rapido.score38 == 18 and not rapido.zapateria
    assert quito.score38 == 38
    assert [Rules.preset(n).preset_name() for n in PRESET_NAMES] == list(PRESET_NAMES)


def test_rules_replace_single_fields_and_round_trip():
    custom = Rules.preset("quito").replace(falla=2, sum_mode="pair")
    assert custom.falla == 2 and custom.sum_mode == "pair" and custom.preset_name() is None
    assert Rules.from_dict(json.loads(json.dumps(custom.to_dict()))) == custom


@pytest.mark.parametrize(
    "changes",
    [
        {"sum_mode": "triple"},
        {"caida": 3},
        {"caida": -2},
        {"doble_ronda": "win"},
        {"four_caidas": 4},
        {"target": 0},
        {"carton_min_cards": 18},
        {"forced_capture": "yes"},
        {"chicas_to_win": 0},
        {"ronda_cutoff": 31},
        {"no_such_rule": 1},
    ],
)
def test_bad_rules_values_raise_clear_errors(changes):
    with pytest.raises(RulesError) as info:
        Rules().replace(**changes)
    assert next(iter(changes)) in str(info.value)


def test_unknown_preset_lists_the_presets():
    with pytest.raises(RulesError, match="quito"):
        Rules.preset("guayaquil")


def test_R28_carton_points_table():
    expected = {20: 6, 21: 8, 22: 8, 23: 10, 24: 10, 25: 12, 26: 12, 27: 14, 28: 14, 29: 16, 30: 16,
                31: 18, 32: 18, 33: 20, 34: 20, 35: 22, 36: 22, 37: 24, 38: 24, 39: 26, 40: 26}
    assert {n: carton_points(n) for n in expected} == expected
    with pytest.raises(ValueError):
        carton_points(18)


# ------------------------------------------------------------------ a new mesa (R6–R9, R12)

@pytest.mark.parametrize("players", [2, 4])
def test_new_game_deals_five_each_from_the_mano(players):
    game = Game.new(Rules(), players, seed=7)
    assert all(len(h) == 5 for h in game.hands)
    assert len(game.stock) == 40 - 5 * players and game.table == []
    assert game.to_play == game.mano == (game.dealer + 1) % players
    kinds = [e.kind for e in game.events[:3]]
    assert kinds == [K.CHICA_START, K.HAND_START, K.DEAL]


def test_seed_decides_the_deal():
    assert Game.new(Rules(), 2, 1).hands == Game.new(Rules(), 2, 1).hands
    assert Game.new(Rules(), 2, 1).hands != Game.new(Rules(), 2, 2).hands


def test_bad_player_count():
    with pytest.raises(PositionError):
        Game.new(Rules(), 3, 0)


# ------------------------------------------------------------------ illegal plays (R40)

def _position():
    # seat 0 is the dealer with one card; table 3C 4H; seat 1 (mano) has already played its card.
    return Game.from_position(Rules(), hands=[["7D"], []], table="3C 4H", dealer=0, to_play=0)


def test_out_of_turn_play_raises_and_changes_nothing():
    game = _position()
    before = game.to_dict()
    with pytest.raises(OutOfTurnError):
        game.play(Play.trail("7D"), seat=1)
    assert game.to_dict() == before


def test_card_not_in_hand_raises_and_changes_nothing():
    game = _position()
    before = game.to_dict()
    with pytest.raises(CardNotInHandError):
        game.play(Play.trail("5D"))
    with pytest.raises(CardNotInHandError):
        game.plays_for("5D")
    assert game.to_dict() == before


def test_illegal_capture_set_raises_and_changes_nothing():
    game = _position()
    before = game.to_dict()
    for captures in ("3C", "4H", "3C 4H 5S"):
        with pytest.raises(IllegalCaptureError):
            game.play(Play.parse("7D", captures))
    assert game.to_dict() == before


def test_forced_capture_refuses_trailing_a_card_that_can_capture():
    game = Game.from_position(Rules().replace(forced_capture=True), hands=[["7D"], []], table="3C 4H",
                              dealer=0, to_play=0)
    with pytest.raises(IllegalCaptureError):
        game.play(Play.trail("7D"))
    assert game.legal_plays() == [Play.parse("7D", "3C 4H")]


def test_legal_plays_list_captures_then_trail():
    game = _position()
    assert game.legal_plays() == [Play.parse("7D", "3C 4H"), Play.trail("7D")]
    assert str(game.legal_plays()[0]) == "7♦ → 3♣ + 4♥"


def test_play_after_the_mesa_is_over_raises():
    game = Game.from_position(Rules(), hands=[["JD"], []], table="JS", last_trail="JS", trailed_by=1,
                              scores=(38, 0), chicas=(1, 0), dealer=0, to_play=0)
    events = game.play(Play.parse("JD", "JS"))
    assert [e.kind for e in events][-2:] == [K.CHICA_WON, K.MESA_WON]
    assert game.is_over and game.winner == 0 and game.legal_plays() == []
    assert game.outcome() == (0, (2, 0), False)
    with pytest.raises(GameOverError):
        game.play(Play.trail("JD"))


# ------------------------------------------------------------------ positions

def test_from_position_refuses_impossible_positions():
    with pytest.raises(PositionError, match="twice"):
        Game.from_position(Rules(), hands=[["7D"], []], table="7D", dealer=0, to_play=0)
    with pytest.raises(PositionError, match="even"):
        Game.from_position(Rules(), hands=[["7D"], []], scores=(3, 0), dealer=0, to_play=0)
    with pytest.raises(PositionError, match="should hold"):
        Game.from_position(Rules(), hands=[["7D"], ["2C", "3C"]], dealer=0, to_play=0)
    with pytest.raises(PositionError, match="not on the table"):
        Game.from_position(Rules(), hands=[["7D"], []], table="3C", last_trail="4C", dealer=0, to_play=0)


def test_from_position_refuses_a_last_trail_on_the_first_play_of_a_deal():
    """R22: a caída falls on the card the previous player just trailed; before the first play of a deal
    nobody has played in it, so a position that names a last trail there is impossible."""
    five = ["AS 2S 3S 4S 5S", "AH 2H 3H 4H 5H"]
    with pytest.raises(PositionError, match="first play of a deal"):
        Game.from_position(Rules(), hands=five, table="6C", last_trail="6C", trailed_by=0, dealer=0, to_play=1)
    with pytest.raises(PositionError, match="first play of a deal"):
        Game.from_position(Rules(), hands=[["AS"], ["AH"]], table="6C", last_trail="6C", trailed_by=0,
                           dealer=0, to_play=1, first_play=True)
    game = Game.from_position(Rules(), hands=["AS 2S 3S 4S 5S", "6H 2H 3H 4H 5H"], table="6C", dealer=0,
                              to_play=1)
    events = game.play(Play.parse("6H", "6C"), seat=1)
    assert not [e for e in events if e.kind == K.CAIDA], "taking a 6 on the first play is no caída"


def test_from_position_makes_the_first_play_of_a_deal_explicit():
    five = ["AS 2S 3S 4S 5S", "AH 2H 3H 4H 5H"]
    with pytest.raises(PositionError, match="that is the first play of a deal"):
        Game.from_position(Rules(), hands=five, dealer=0, to_play=1, first_play=False)
    with pytest.raises(PositionError, match="the mano's"):
        Game.from_position(Rules(), hands=[["AS"], []], dealer=0, to_play=0, first_play=True)
    later = Game.from_position(Rules(), hands=[["AS", "2S"], ["AH", "2H"]], table="6C", last_trail="6C",
                               trailed_by=0, dealer=0, to_play=1)
    assert later.last_trail == Card.parse("6C"), "a later round of the deal: the dealer's trail stands"


@pytest.mark.parametrize("scores", [(40, 0), (44, 0), (0, 42)])
def test_from_position_refuses_scores_at_or_over_the_target(scores):
    """R33: a side at the target has already won the chica (44–0 cannot be a position in quito)."""
    with pytest.raises(PositionError, match="already won the chica"):
        Game.from_position(Rules.preset("quito"), hands=[["7D"], []], scores=scores, dealer=0, to_play=0)
    rapido = Rules.preset("rapido")
    if max(scores) < 40:
        return
    with pytest.raises(PositionError):
        Game.from_position(rapido, hands=[["7D"], []], scores=(20, 0), dealer=0, to_play=0)
    Game.from_position(Rules.preset("quito"), hands=[["7D"], []], scores=(38, 36), dealer=0, to_play=0)


# ------------------------------------------------------------------ views (hidden information)

def test_view_shows_own_hand_only_and_hides_opponent_ronda_rank():
    game = Game.from_position(Rules(), hands=[["6H", "2D"], ["KC", "4S"]], table="QH", dealer=1, to_play=0,
                              rondas={1: "6"})
    mine = game.view(0)
    assert mine.hand == tuple(map(Card.parse, ["6H", "2D"])) and mine.hand_sizes == (2, 2)
    assert mine.rondas == ((1, None),)
    assert all(e.rank is None for e in mine.events if e.kind == K.RONDA)
    assert game.view(1).rondas == ((1, 5),)
    assert mine.legal_plays and not game.view(1).legal_plays
    with pytest.raises(PositionError):
        game.view(2)


def test_ronda_rank_revealed_by_caida_en_ronda():
    # seat 0 (the mano) trailed 6C, one of its ronda sixes; seat 1 falls on it (R25).
    game = Game.from_position(Rules(), hands=[["2D"], ["6H", "KC"]], table="QH 6C", last_trail="6C",
                              dealer=1, to_play=1, rondas={0: "6"})
    assert game.view(1).rondas == ((0, None),)
    events = game.play(Play.parse("6H", "6C"))
    caida = next(e for e in events if e.kind == K.CAIDA)
    assert caida.en_ronda and caida.points == 4
    assert game.view(1).rondas == ((0, 5),)


# ------------------------------------------------------------------ persistence

def test_to_dict_is_json_and_round_trips():
    game = Game.new(Rules.preset("barrio"), 4, seed="abc")
    for _ in range(30):
        game.play(game.legal_plays()[-1])
    data = json.loads(json.dumps(game.to_dict()))
    assert Game.from_dict(data) == game
    with pytest.raises(PositionError):
        Game.from_dict({"version": 99})


# ------------------------------------------------------------------ describing plays, spectators

def test_T01_explain_names_base_escalera_and_limpia():
    game = Game.from_position(Rules(), hands=[["7D"], []], table="3C 4D JS QH KC", last_trail="KC",
                              dealer=0, to_play=0)
    info = game.explain(Play.parse("7D", "3C 4D JS QH KC"))
    assert info.base == tuple(map(Card.parse, ["3C", "4D"]))
    assert info.escalera == tuple(map(Card.parse, ["JS", "QH", "KC"]))
    assert info.limpia and not info.caida and not info.en_ronda
    assert game.explain(Play.trail("7D")) == ((), (), False, False, False, None, ())
    with pytest.raises(IllegalCaptureError):
        game.explain(Play.parse("7D", "3C"))


def test_T07_explain_names_the_caida():
    game = Game.from_position(Rules(), hands=[["7H"], []], table="KD 7S", last_trail="7S", dealer=0, to_play=0)
    info = game.explain(Play.parse("7H", "7S"))
    assert info.caida and not info.limpia and info.base == (Card.parse("7S"),)


def test_spectator_view_has_no_hand_no_plays_and_hidden_rondas():
    game = Game.from_position(Rules(), hands=[["6H", "2D"], ["KC", "4S"]], table="QH", dealer=1, to_play=0,
                              rondas={1: "6"})
    spectator = game.view(None)
    assert spectator.seat is None and spectator.team is None and spectator.hand == ()
    assert spectator.legal_plays == () and not spectator.my_turn
    assert spectator.rondas == ((1, None),) and spectator.hand_sizes == (2, 2)


def test_instant_chica_events_say_so():
    game = Game.from_position(Rules.preset("cuenca"), hands=[["2D"], ["6H", "KC"]], table="QH 6C",
                              last_trail="6C", dealer=1, to_play=1, rondas={0: "6"})
    events = game.play(Play.parse("6H", "6C"))
    caida = next(e for e in events if e.kind == K.CAIDA)
    assert caida.reason == CHICA and caida.points == 0
    won = next(e for e in events if e.kind == K.CHICA_WON)
    assert won.reason == "caida_en_ronda" and won.team == 1
