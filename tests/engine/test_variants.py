"""RULES.md Part 1 §9: the seed-002 variants comodines and periquito, one scenario test (V01…) per decision
of §9 and per project decision of the engine (bot/engine/game.py and plays.py docstrings).

Conventions, as in test_scenarios_play.py: side A is team 0 (seat 0), side B team 1 (seat 1); `position`
builds a table with A to play and B the seat that played just before, B holding as many filler cards as
A, so the play under test ends no deal. Tables are listed oldest first.
"""

from __future__ import annotations

import copy
import pickle
from collections.abc import Sequence

import pytest

from bot.engine import (
    DECK,
    JOKER_RANK,
    JOKERS,
    PRESET_NAMES,
    Card,
    Event,
    EventKind,
    Game,
    IllegalCaptureError,
    Play,
    PlayInfo,
    PositionError,
    Rules,
    RulesError,
    deck_for,
    parse_cards,
)

K = EventKind
QUITO = Rules.preset("quito")
COMODINES = QUITO.replace(comodines=True)
PERIQUITO = QUITO.replace(periquito=True)
BOTH = QUITO.replace(comodines=True, periquito=True)
W1, W2 = JOKERS
FIVE = 4  # the rank index of the 5s


# ---------------------------------------------------------------- helpers


def cs(text: str) -> frozenset[Card]:
    return frozenset(parse_cards(text))


def spare(n: int, *used: str) -> list[Card]:
    """``n`` real cards named in none of the ``used`` code strings (filler cards)."""
    taken = {c for text in used for c in parse_cards(text)}
    return [c for c in DECK if c not in taken][:n]


def position(rules: Rules, table: str, hand: str, *, trailed: str | None = None, scores=(0, 0),
             rondas: dict[int, str] | None = None, streaks=(0, 0)) -> Game:
    """A (seat 0) to play from ``hand`` on ``table``; B (seat 1) trailed ``trailed`` on its last turn."""
    held = parse_cards(hand)
    return Game.from_position(rules, players=2, hands=[held, spare(len(held), table, hand)], table=table,
                              last_trail=trailed, scores=scores, dealer=1, to_play=0, rondas=rondas,
                              streaks=streaks)


def options(game: Game, card: str) -> set[frozenset[Card]]:
    """The capture sets the seat in turn may make with ``card``; the empty set is the trail."""
    return {p.captures for p in game.plays_for(card)}


def play(game: Game, card: str, captures: str = "") -> list[Event]:
    return game.play(Play.parse(card, captures))


def after_played(events: list[Event]) -> list[EventKind]:
    """The kinds of the events a play caused after PLAYED, up to the next turn's events."""
    return [e.kind for e in events[1:]]


def awards(events: list[Event]) -> list[tuple]:
    """(kind, points, blocked) of the play's caída, limpia and periquito events, in order."""
    return [(e.kind, e.points, e.blocked) for e in events if e.kind in (K.CAIDA, K.LIMPIA, K.PERIQUITO)]


def codes(cards: Sequence[Card]) -> list[str]:
    return [c.code for c in cards]


def end_of_hand(rules: Rules, *, piles: tuple[str, str], table: str, last: str, captures: str = "",
                dealer: int = 1, last_capturer: int | None = None) -> tuple[Game, list[Event]]:
    """The dealer plays ``last`` (capturing ``captures``) as the last card of a hand. With comodines the
    2 real cards named nowhere else are the stock's set-aside cards (§9); every other card is placed."""
    placed = parse_cards(f"{piles[0]} {piles[1]} {table} {last}")
    pool = [c for c in deck_for(rules) if c not in placed]
    stock = pool if rules.comodines else []
    assert len(placed) + len(stock) == len(deck_for(rules)) and len(stock) == (2 if rules.comodines else 0)
    hands: list[list[Card]] = [[], []]
    hands[dealer] = parse_cards(last)
    game = Game.from_position(rules, players=2, hands=hands, table=table, dealer=dealer, to_play=dealer,
                              stock=stock, piles=piles, last_capturer=last_capturer)
    return game, play(game, last, captures)


def cards_of(prefix_ranks: str, *, exclude: str = "", n: int | None = None) -> str:
    """Codes of the real cards whose rank symbol is in ``prefix_ranks``, minus ``exclude`` (first ``n``)."""
    out = [c.code for c in DECK if c.rank_symbol in prefix_ranks.split() and c not in cs(exclude)]
    return " ".join(out if n is None else out[:n])


# ---------------------------------------------------------------- V01–V03: the deck and the rules object


def test_V01_comodines_deck_has_42_cards_two_jokers_w1_w2():
    assert deck_for(QUITO) is DECK and len(DECK) == 40
    deck = deck_for(COMODINES)
    assert len(deck) == 42 and len(set(deck)) == 42 and deck == DECK + JOKERS
    assert [j.code for j in JOKERS] == ["W1", "W2"] and [str(j) for j in JOKERS] == ["🃏1", "🃏2"]
    for joker in JOKERS:
        assert joker.is_joker and joker.rank == JOKER_RANK and joker.rank not in range(10)
        assert joker.value == 0 and not joker.is_numeric and joker.rank_symbol == "W"
        assert Card.parse(joker.code.lower()) is joker and Card.parse(str(joker)) is joker
        assert Card.parse(joker) is joker
        assert pickle.loads(pickle.dumps(joker)) is joker and copy.deepcopy(joker) is joker
    assert not any(c.is_joker for c in DECK)
    assert sorted([W2, Card.parse("KS"), W1, Card.parse("AS")]) == [Card.parse("AS"), Card.parse("KS"), W1, W2]
    assert [W1.index, W2.index] == [40, 41]


def test_V02_variants_are_off_in_every_preset_and_validated():
    for name in PRESET_NAMES:
        rules = Rules.preset(name)
        assert (rules.comodines, rules.periquito, rules.periquito_points) == (False, False, 6)
    for bad in ({"periquito_points": 5}, {"periquito_points": -2}, {"periquito_points": True},
                {"periquito_points": "6"}, {"comodines": "yes"}, {"periquito": 1}):
        with pytest.raises(RulesError):
            QUITO.replace(**bad)
    custom = QUITO.replace(comodines=True, periquito=True, periquito_points=10)
    assert custom.preset_name() is None
    assert Rules.from_dict(custom.to_dict()) == custom
    old = QUITO.to_dict()
    for key in ("comodines", "periquito", "periquito_points"):
        del old[key]  # rules stored before the variants existed
    assert Rules.from_dict(old) == QUITO


@pytest.mark.parametrize("players", [2, 4])
def test_V03_dealing_unchanged_two_cards_stay_in_the_stock_unseen_and_uncounted(players):
    """§9 Dealing: 4 deals of 5 (2p) or 2 deals of 5 (4p) as without jokers; 2 cards are never dealt."""
    game = Game.new(COMODINES, players, seed="V03")
    deals = 0
    stock_at_last_deal = None
    while True:
        kinds = [e.kind for e in game.events]
        if K.HAND_END in kinds:
            break
        if game.hand_number == 1 and all(len(h) == 5 for h in game.hands) and game.to_play == game.mano:
            deals += 1
            stock_at_last_deal = len(game.stock)
            view = game.view(game.to_play)
            assert view.stock_size == len(game.stock) and view.to_deal == max(0, len(game.stock) - 2)
        cards = [*game.table, *game.stock, *game.piles[0], *game.piles[1], *game.dead,
                 *(c for h in game.hands for c in h)]
        assert sorted(cards) == sorted(deck_for(COMODINES))
        game.play(next(p for p in game.legal_plays() if p.is_trail or p.captures))
    assert deals == (4 if players == 2 else 2)
    assert stock_at_last_deal == 2
    end = next(e for e in game.events if e.kind is K.HAND_END)
    left = sum(len(e.cards) for e in game.events if e.kind is K.LEFTOVERS)
    assert sum(end.counts) + left == 40  # the 2 set aside are counted for nobody
    played = {e.card for e in game.events[:game.events.index(end)] if e.kind is K.PLAYED}
    assert len(played) == 40


def test_V04_a_joker_counts_toward_no_ronda():
    """§9 Dealing: three of a rank and two jokers is a ronda; two of a rank and two jokers is not."""
    def deal(hand0: str, hand1: str) -> list[Event]:
        stock = parse_cards(hand1) + parse_cards(hand0) + spare(2, hand0, hand1, "QH")
        game = Game.from_position(COMODINES, players=2, hands=[["QH"], []], dealer=0, to_play=0, stock=stock)
        return game.play(Play.trail("QH"))

    events = deal("6S 6H 6D W1 W2", "AS 2S 3S 4S 5S")
    assert [(e.kind, e.seat, e.rank) for e in events if e.kind in (K.RONDA, K.DOBLE_RONDA)] == [(K.RONDA, 0, 5)]
    events = deal("6S 6H W1 W2 KD", "AS 2S 3S 4S 5S")
    assert not [e for e in events if e.kind in (K.RONDA, K.DOBLE_RONDA)]


# ---------------------------------------------------------------- V05–V12: a joker played from the hand


def test_V05_joker_stands_for_any_rank_on_the_table_and_takes_its_escalera():
    game = position(COMODINES, "3C 5D 6S KH", "W1 2H")
    assert options(game, "W1") == {cs("3C"), cs("5D 6S"), cs("6S"), cs("KH"), frozenset()}
    events = play(game, "W1", "5D 6S")
    assert [e.cards for e in events if e.kind is K.CAPTURED] == [tuple(parse_cards("5D 6S"))]
    assert awards(events) == []
    assert codes(game.table) == ["3C", "KH"]
    assert set(game.piles[0]) == {W1, *parse_cards("5D 6S")}
    assert Play.parse("W1", "5D 6S").joker_rank == FIVE


def test_V06_each_card_of_the_chosen_rank_is_a_distinct_play():
    """§9: the choice (rank, and which card when two of it lie there) is the player's; the escalera takes
    the card of the next rank played earlier (Part 1 §2)."""
    game = position(COMODINES, "7S QD 7H JC", "W2")
    assert options(game, "W2") == {cs("7S JC QD"), cs("7H JC QD"), cs("JC QD"), cs("QD"), frozenset()}
    game = position(COMODINES, "5S 6H 6D", "W1")
    assert options(game, "W1") == {cs("5S 6H"), cs("6H"), cs("6D"), frozenset()}
    assert [p.joker_rank for p in game.plays_for("W1")] == [FIVE, 5, 5, None]


def test_V07_a_joker_never_joins_a_sum():
    game = position(COMODINES, "2S 4H", "W1 6C")
    assert options(game, "W1") == {cs("2S"), cs("4H"), frozenset()}
    assert cs("2S 4H") in options(game, "6C")
    with pytest.raises(IllegalCaptureError):
        play(game, "W1", "2S 4H")


@pytest.mark.parametrize("rules", [COMODINES, COMODINES.replace(caida_by_sum=True)], ids=["default", "caida_by_sum"])
def test_V08_a_joker_is_never_a_caida(rules):
    game = position(rules, "KD 7S", "W1 7H", trailed="7S", streaks=(2, 0))
    info = game.explain(Play.parse("W1", "7S"))
    assert (info.base, info.caida, info.joker_rank) == ((Card.parse("7S"),), False, 6)
    events = play(game, "W1", "7S")
    assert awards(events) == []
    assert game.scores == [0, 0] and game.streaks == [0, 0]
    control = position(rules, "KD 7S", "W1 7H", trailed="7S")
    assert awards(play(control, "7H", "7S")) == [(K.CAIDA, 2, None)]
    alone = position(rules, "7S", "W1", trailed="7S")
    assert awards(play(alone, "W1", "7S")) == [(K.LIMPIA, 2, None)]  # a limpia only, not caída + limpia


def test_V09_a_joker_on_an_empty_table_or_trailed_lies_on_the_table_as_a_joker():
    game = position(COMODINES, "", "W1 5S")
    assert options(game, "W1") == {frozenset()}
    events = play(game, "W1")
    assert after_played(events)[:1] != [K.CAPTURED]
    assert game.table == [W1] and game.last_trail is W1
    game = position(COMODINES, "5D", "W1 5S")
    assert frozenset() in options(game, "W1")
    play(game, "W1")
    assert codes(game.table) == ["5D", "W1"]


def test_V10_no_match_sum_or_escalera_takes_a_joker_and_it_keeps_the_table_from_being_clear():
    game = position(COMODINES, "JD W1 QS KC", "JH")
    assert options(game, "JH") == {cs("JD QS KC"), frozenset()}
    events = play(game, "JH", "JD QS KC")
    assert awards(events) == []  # W1 still lies there: no limpia
    assert game.table == [W1]
    game = position(COMODINES, "W1 3S", "3H 4D")
    assert options(game, "3H") == {cs("3S"), frozenset()}
    assert options(game, "4D") == {frozenset()}  # W1 + 3S is no sum: a joker's value is nothing
    game = position(COMODINES, "KS W2", "KH")
    assert options(game, "KH") == {cs("KS"), frozenset()}
    assert awards(play(game, "KH", "KS")) == []


def test_V11_a_played_joker_takes_a_joker_alone_with_no_escalera_and_no_caida():
    game = position(COMODINES, "AS 2D W1", "W2", trailed="W1")
    assert options(game, "W2") == {cs("W1"), cs("AS 2D"), cs("2D"), frozenset()}
    info = game.explain(Play.parse("W2", "W1"))
    assert info == PlayInfo((W1,), (), False, False, False, None, ())
    events = play(game, "W2", "W1")
    assert awards(events) == []
    assert codes(game.table) == ["AS", "2D"]
    alone = position(COMODINES, "W1", "W2", trailed="W1")
    assert awards(play(alone, "W2", "W1")) == [(K.LIMPIA, 2, None)]  # the table is clear now (R23)


def test_V12_jokers_count_as_cards_in_the_carton_out_of_40_in_play():
    """§9 Points: A's 21 cards include both jokers → 8 (R28); ties as Part 1 §5 (dos por darlas). The 2
    cards set aside in the stock count for nobody."""
    a = " ".join([*cards_of("A 2 3 4 5", n=19).split(), "W1", "W2"])
    b = cards_of("5 6 7 J Q K", exclude=f"{a} KH KC", n=17)
    _, events = end_of_hand(COMODINES, piles=(a, b), table="KC", last="KH", captures="KC")
    end = next(e for e in events if e.kind is K.HAND_END)
    assert end.counts == (21, 19)
    assert [(e.kind, e.team, e.points) for e in events if e.kind is K.CARTON] == [(K.CARTON, 0, 8)]
    a = " ".join([*cards_of("A 2 3 4 5", n=18).split(), "W1", "W2"])
    b = cards_of("5 6 7 J Q K", exclude=f"{a} KH KC", n=18)
    _, events = end_of_hand(COMODINES, piles=(a, b), table="KC", last="KH", captures="KC")
    assert next(e for e in events if e.kind is K.HAND_END).counts == (20, 20)
    assert [(e.kind, e.team, e.points) for e in events if e.kind in (K.CARTON, K.DOS_POR_DARLAS)] == [
        (K.DOS_POR_DARLAS, 0, 2)]


def test_V13_a_joker_left_on_the_table_is_a_leftover_like_any_card():
    barrio = Rules.preset("barrio").replace(comodines=True)
    a = cards_of("A 2 3 4", n=16)
    b = cards_of("5 6 7 J Q K", exclude=f"{a} KH", n=18)
    rest = [c.code for c in DECK if c not in cs(f"{a} {b} KH")][:3]
    table = " ".join(["W1", *rest, "W2"])
    game, events = end_of_hand(barrio, piles=(a, b), table=table, last="KH", last_capturer=0)
    [left] = [e for e in events if e.kind is K.LEFTOVERS]
    assert left.team == 0 and {W1, W2} <= set(left.cards) and Card.parse("KH") in left.cards
    _, events = end_of_hand(COMODINES, piles=(a, b), table=table, last="KH", last_capturer=0)
    [left] = [e for e in events if e.kind is K.LEFTOVERS]
    assert left.team is None and {W1, W2} <= set(left.cards)


def test_V14_explain_describes_joker_plays():
    game = position(COMODINES, "4C 5D 6S 7H JC", "W1", trailed="5D")
    info = game.explain(Play.parse("W1", "5D 6S 7H JC"))
    assert info.base == (Card.parse("5D"),)
    assert info.escalera == tuple(parse_cards("6S 7H JC"))
    assert (info.caida, info.limpia, info.en_ronda, info.joker_rank, info.periquito) == (False, False, False, FIVE, ())
    info = game.explain(Play.parse("W1", "4C 5D 6S 7H JC"))
    assert (info.base, info.limpia, info.joker_rank) == ((Card.parse("4C"),), True, 3)
    assert game.explain(Play.trail("W1")) == PlayInfo((), (), False, False, False)


def test_V15_forced_capture_applies_to_a_joker_card_by_card():
    rules = COMODINES.replace(forced_capture=True)
    game = position(rules, "5S", "W1 KD")
    assert options(game, "W1") == {cs("5S")}
    assert options(game, "KD") == {frozenset()}
    with pytest.raises(IllegalCaptureError):
        play(game, "W1")
    assert options(position(rules, "", "W1"), "W1") == {frozenset()}


def test_V16_a_joker_takes_as_a_card_of_that_rank_under_the_capture_variants():
    game = position(COMODINES.replace(match_takes_all=True), "7S 7H JC", "W1")
    assert options(game, "W1") == {cs("7S 7H JC"), cs("JC"), frozenset()}
    game = position(COMODINES.replace(sequence_mode="optional"), "5S 6H 7C", "W1")
    assert options(game, "W1") == {cs("5S"), cs("5S 6H"), cs("5S 6H 7C"), cs("6H"), cs("6H 7C"), cs("7C"),
                                   frozenset()}


def test_V17_positions_and_saved_games_with_jokers():
    with pytest.raises(PositionError):
        Game.from_position(QUITO, hands=["W1", "5S"])
    with pytest.raises(PositionError):
        Game.from_position(QUITO, hands=["5S", "5H"], table="W2")
    game = Game.from_position(COMODINES, hands=["W1 5S", "5H 6D"], table="W2 4C", to_play=0, dealer=1)
    assert W1 in game.hands[0] and len(game.stock) == 42 - 6 and W1 not in game.stock and W2 not in game.stock
    assert Game.from_dict(game.to_dict()) == game
    play(game, "W1", "W2")
    restored = Game.from_dict(game.to_dict())
    assert restored == game and restored.legal_plays() == game.legal_plays()
    assert Play.from_dict(Play.parse("W1", "W2").to_dict()) == Play.parse("W1", "W2")
    old = Game.new(QUITO, 2, seed="old").to_dict()
    for key in ("comodines", "periquito", "periquito_points"):
        del old["rules"][key]  # a game stored before the variants existed
    assert Game.from_dict(old) == Game.new(QUITO, 2, seed="old")


def test_V18_comodines_off_plays_exactly_as_before():
    """The 40-card game does not change: the same seed deals the same cards, jokers never appear."""
    plain = Game.new(QUITO, 2, seed=7)
    assert not any(c.is_joker for c in plain.stock + [c for h in plain.hands for c in h])
    assert len(plain.stock) + sum(len(h) for h in plain.hands) == 40
    with_jokers = Game.new(COMODINES, 2, seed=7)
    assert len(with_jokers.stock) + sum(len(h) for h in with_jokers.hands) == 42


# ---------------------------------------------------------------- V20–V34: periquito


def test_V20_four_of_a_rank_are_taken_whole_by_the_escalera_with_the_bonus():
    """§9: all four 5s lie on the table (B trailed the last); A's 4 takes 4♠ and the escalera reaches the
    5s: it takes all four, then goes on from the 5s (6♠)."""
    game = position(PERIQUITO, "KD 4S 5S 5H 5D 6S 5C", "4H", trailed="5C")
    assert options(game, "4H") == {cs("4S 5S 5H 5D 5C 6S"), frozenset()}
    events = play(game, "4H", "4S 5S 5H 5D 5C 6S")
    assert after_played(events)[:2] == [K.CAPTURED, K.PERIQUITO]
    [peri] = [e for e in events if e.kind is K.PERIQUITO]
    assert (peri.seat, peri.team, peri.rank, peri.points, peri.blocked, peri.scores) == (0, 0, FIVE, 6, None, (6, 0))
    assert peri.cards == tuple(parse_cards("5S 5H 5D 5C"))
    assert awards(events) == [(K.PERIQUITO, 6, None)]
    assert codes(game.table) == ["KD"] and game.scores == [6, 0]
    off = position(QUITO, "KD 4S 5S 5H 5D 6S 5C", "4H", trailed="5C")
    assert options(off, "4H") == {cs("4S 5S 6S"), frozenset()}
    assert awards(play(off, "4H", "4S 5S 6S")) == []


def test_V21_project_decision_a_sum_that_includes_one_of_the_four_takes_all_four():
    """The four 2s are taken by a sum that uses one of them; the four choices of that 2 become one play.
    The escalera runs from the played card's rank (R18: 3 → 4), not from the 2s (which would take 3♠)."""
    game = position(PERIQUITO, "2S 2H 2D 2C AD 3S KH", "3H")
    assert options(game, "3H") == {cs("3S"), cs("AD 2S 2H 2D 2C"), frozenset()}
    assert len(game.plays_for("3H")) == 3
    events = play(game, "3H", "AD 2S 2H 2D 2C")
    assert awards(events) == [(K.PERIQUITO, 6, None)]
    assert codes(game.table) == ["3S", "KH"]


def test_V22_a_joker_standing_for_the_rank_takes_all_four_with_the_escalera():
    game = position(BOTH, "KD 5S 5H 5D 5C 6S", "W1", trailed="5C")
    assert options(game, "W1") == {cs("5S 5H 5D 5C 6S"), cs("6S"), cs("KD"), frozenset()}
    info = game.explain(Play.parse("W1", "5S 5H 5D 5C 6S"))
    assert info.base == tuple(parse_cards("5S 5H 5D 5C")) and info.escalera == (Card.parse("6S"),)
    assert (info.caida, info.joker_rank, info.periquito) == (False, FIVE, (FIVE,))
    events = play(game, "W1", "5S 5H 5D 5C 6S")
    assert awards(events) == [(K.PERIQUITO, 6, None)]  # the joker is no caída on the trailed 5♣
    assert game.scores == [6, 0]


def test_V23_project_decision_the_38_rule_blocks_the_bonus_as_it_blocks_a_limpia():
    game = position(PERIQUITO, "KD 4S 5S 5H 5D 6S 5C", "4H", trailed="5C", scores=(38, 0))
    events = play(game, "4H", "4S 5S 5H 5D 5C 6S")
    assert awards(events) == [(K.PERIQUITO, 0, "38")]
    assert game.scores == [38, 0]
    game = position(PERIQUITO, "4S 5S 5H 5D 5C", "4H", trailed="5C", scores=(38, 0))
    events = play(game, "4H", "4S 5S 5H 5D 5C")
    assert awards(events) == [(K.LIMPIA, 0, "38"), (K.PERIQUITO, 0, "38")]
    assert game.scores == [38, 0]


def test_V24_project_decision_from_36_a_limpia_and_the_bonus_score_together():
    """The 38 rule looks at the side's score before the play: 36 + limpia 2 + periquito 6 = 44 wins."""
    game = position(PERIQUITO, "4S 5S 5H 5D 5C", "4H", trailed="5C", scores=(36, 0))
    events = play(game, "4H", "4S 5S 5H 5D 5C")
    assert awards(events) == [(K.LIMPIA, 2, None), (K.PERIQUITO, 6, None)]
    won = next(e for e in events if e.kind is K.CHICA_WON)
    assert (won.team, won.reason, won.scores) == (0, "target", (44, 0))


@pytest.mark.parametrize("preset", ["quito", "cuenca"])
def test_V25_project_decision_the_bonus_stacks_on_a_limpia(preset):
    game = position(Rules.preset(preset).replace(periquito=True), "4S 5S 5H 5D 5C", "4H", trailed="5C")
    events = play(game, "4H", "4S 5S 5H 5D 5C")
    assert after_played(events)[:3] == [K.CAPTURED, K.LIMPIA, K.PERIQUITO]
    assert game.scores == [8, 0]


def test_V26_project_decision_with_caida_by_sum_the_sum_falls_on_the_trailed_fourth_card():
    rules = PERIQUITO.replace(caida_by_sum=True)
    game = position(rules, "KD 2S 2H 2D 3S 2C", "5H", trailed="2C")
    assert options(game, "5H") == {cs("2S 2H 2D 2C 3S"), frozenset()}
    assert game.explain(Play.parse("5H", "2S 2H 2D 2C 3S")).caida
    events = play(game, "5H", "2S 2H 2D 2C 3S")
    assert after_played(events)[:3] == [K.CAPTURED, K.CAIDA, K.PERIQUITO]
    assert awards(events) == [(K.CAIDA, 2, None), (K.PERIQUITO, 6, None)]
    assert game.scores == [8, 0]
    plain = position(PERIQUITO, "KD 2S 2H 2D 3S 2C", "5H", trailed="2C")
    assert awards(play(plain, "5H", "2S 2H 2D 2C 3S")) == [(K.PERIQUITO, 6, None)]


def test_V27_project_decision_an_instant_chica_comes_before_the_bonus():
    """R31 step 3: a caída en ronda worth the chica wins before any points; no PERIQUITO is reported."""
    rules = Rules.preset("cuenca").replace(periquito=True, caida_by_sum=True)
    game = position(rules, "KD 2S 2H 2D 3S 2C", "5H", trailed="2C", rondas={1: "2"})
    events = play(game, "5H", "2S 2H 2D 2C 3S")
    assert [e.kind for e in events if e.kind in (K.CAIDA, K.PERIQUITO, K.CHICA_WON)] == [K.CAIDA, K.CHICA_WON]
    assert next(e for e in events if e.kind is K.CHICA_WON).reason == "caida_en_ronda"


def test_V28_four_left_on_the_table_when_the_hand_ends_are_like_any_other_cards():
    a = cards_of("A 2 3 4", n=16)
    b = cards_of("6 7 J Q K", exclude=f"{a} 5C", n=20)
    rest = " ".join(c.code for c in DECK if c not in cs(f"{a} {b} 5S 5H 5D 5C"))
    for rules, team in ((PERIQUITO, None), (Rules.preset("barrio").replace(periquito=True), 0)):
        game, events = end_of_hand(rules, piles=(f"{a} {rest}", b), table="5S 5H 5D", last="5C", last_capturer=0)
        assert not [e for e in events if e.kind is K.PERIQUITO]
        [left] = [e for e in events if e.kind is K.LEFTOVERS]
        assert left.team == team and left.cards == tuple(parse_cards("5S 5H 5D 5C"))


@pytest.mark.parametrize("bonus", [0, 4, 10])
def test_V29_the_bonus_is_periquito_points(bonus):
    game = position(PERIQUITO.replace(periquito_points=bonus), "KD 4S 5S 5H 5D 6S 5C", "4H", trailed="5C")
    events = play(game, "4H", "4S 5S 5H 5D 5C 6S")
    assert awards(events) == [(K.PERIQUITO, bonus, None)]
    assert game.scores == [bonus, 0]


def test_V30_project_decision_two_periquitos_in_one_play_score_twice():
    game = position(BOTH, "AS AH AD AC 2S 2H 2D 2C KD", "W1")
    assert options(game, "W1") == {cs("AS AH AD AC 2S 2H 2D 2C"), cs("2S 2H 2D 2C"), cs("KD"), frozenset()}
    events = play(game, "W1", "AS AH AD AC 2S 2H 2D 2C")
    assert [(e.rank, e.points) for e in events if e.kind is K.PERIQUITO] == [(0, 6), (1, 6)]
    assert game.scores == [12, 0]
    assert codes(game.table) == ["KD"]


def test_V31_whoever_captures_the_rank_next_takes_the_periquito_even_the_trailers_partner():
    """4 players: seat 0 trailed the fourth 5; its partner, seat 2, takes them (team 0 scores)."""
    game = Game.from_position(PERIQUITO, players=4, hands=["AC", "AH", "4H 2C", "6H 3D"],
                              table="4S 5S 5H 5D 5C", last_trail="5C", trailed_by=0, dealer=3, to_play=2)
    events = play(game, "4H", "4S 5S 5H 5D 5C")
    assert [(e.seat, e.team, e.points) for e in events if e.kind is K.PERIQUITO] == [(2, 0, 6)]
    assert game.scores == [8, 0]  # limpia 2 + periquito 6


def test_V32_the_periquito_event_round_trips_and_every_seat_sees_it():
    game = position(PERIQUITO, "KD 4S 5S 5H 5D 6S 5C", "4H", trailed="5C")
    events = play(game, "4H", "4S 5S 5H 5D 5C 6S")
    [peri] = [e for e in events if e.kind is K.PERIQUITO]
    assert Event.from_dict(peri.to_dict()) == peri
    assert peri.to_dict()["kind"] == "periquito"
    for seat in (0, 1, None):
        assert peri in game.view(seat).events
    assert Game.from_dict(game.to_dict()) == game


def test_V33_explain_names_the_periquito_ranks():
    game = position(PERIQUITO, "KD 4S 5S 5H 5D 6S 5C", "4H", trailed="5C")
    info = game.explain(Play.parse("4H", "4S 5S 5H 5D 5C 6S"))
    assert info.base == (Card.parse("4S"),)
    assert info.escalera == tuple(parse_cards("5S 5H 5D 5C 6S"))
    assert (info.caida, info.limpia, info.joker_rank, info.periquito) == (False, False, None, (FIVE,))
    off = position(QUITO, "KD 4S 5S 5H 5D 6S 5C", "4H", trailed="5C")
    assert off.explain(Play.parse("4H", "4S 5S 6S")).periquito == ()
