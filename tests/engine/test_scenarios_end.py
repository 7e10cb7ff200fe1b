"""RULES.md §6: the end-of-hand and match scenarios E01–E20 (Part 1 overrides Part 2).

Side A is team 0 (seat 0), side B team 1 (seat 1), 2 players. `last_play` builds the last turn of a hand
through the real path: the dealer plays its last card with the stock empty, which ends the hand and makes
the engine count it (R27–R29, R37). Every position holds all 40 cards: piles + table + the last card.
"""

from __future__ import annotations

import random

import pytest

from bot.engine import DECK, Event, EventKind, Game, Play, Rules, carton_points, parse_cards

K = EventKind
ALL = ("quito", "cuenca", "torneo", "barrio")
UNCOUNTED = ("quito", "cuenca", "torneo")  # leftovers count for nobody (barrio gives them away, E08)
QUITO = Rules.preset("quito")
BARRIO = Rules.preset("barrio")
COUNT_KINDS = (K.CARTON, K.DOS_POR_DARLAS, K.MAS_CARTAS, K.FALLA)


# ---------------------------------------------------------------- helpers


def last_play(rules: Rules, *, counts: tuple[int, int], left: int, dealer: int, scores=(0, 0),
              chicas=(0, 0), last_capturer: int | None = None) -> tuple[Game, list[Event]]:
    """Play the last card of a hand so that team t then holds ``counts[t]`` captured cards and ``left``
    cards lie on the table; return the game and the events of that play.

    With ``left >= 1`` the dealer trails K♥ onto ``left - 1`` table cards. With ``left == 0`` (all 40
    cards captured) the last play must take the last table card: the dealer's K♥ takes K♣, a limpia.
    """
    assert sum(counts) + left == 40
    last, pool = parse_cards("KH")[0], [c for c in DECK if c.code != "KH"]
    if left:
        table, pool = pool[:left - 1], pool[left - 1:]
    else:
        table, pool = parse_cards("KC"), [c for c in pool if c.code != "KC"]
    pre = list(counts)
    if not left:
        pre[dealer] -= 2  # the dealer's K♥ and K♣ are added by the last play
    piles = (pool[:pre[0]], pool[pre[0]:pre[0] + pre[1]])
    hands: list[list] = [[], []]
    hands[dealer] = [last]
    game = Game.from_position(rules, players=2, hands=hands, table=table, dealer=dealer, to_play=dealer,
                              stock=[], piles=piles, scores=scores, chicas=chicas, last_capturer=last_capturer)
    events = game.play(Play(last, frozenset(table) if not left else frozenset()))
    return game, events


def tally(events: list[Event]) -> list[tuple[EventKind, int, int]]:
    """(kind, team, points) of every award of the count, in order."""
    return [(e.kind, e.team, e.points) for e in events if e.kind in COUNT_KINDS]


def blocked(events: list[Event]) -> list[str | None]:
    return [e.blocked for e in events if e.kind in COUNT_KINDS]


def hand_end(events: list[Event]) -> Event:
    [end] = [e for e in events if e.kind is K.HAND_END]
    return end


def only(events: list[Event], kind: EventKind) -> Event:
    [event] = [e for e in events if e.kind is kind]
    return event


def limpias(events: list[Event]) -> list[tuple[int, int]]:
    """(team, points) of limpias scored during the play."""
    return [(e.team, e.points) for e in events if e.kind is K.LIMPIA]


# ---------------------------------------------------------------- E01–E05: the cartón


@pytest.mark.parametrize("dealer", [0, 1])
@pytest.mark.parametrize("preset", ALL)
def test_E01_twenty_twenty_dos_por_darlas(preset, dealer):
    game, events = last_play(Rules.preset(preset), counts=(20, 20), left=0, dealer=dealer)
    non_dealer = 1 - dealer
    assert limpias(events) == [(dealer, 2)]  # the hand's last play took the last table card
    assert tally(events) == [(K.DOS_POR_DARLAS, non_dealer, 2)]  # nobody scores 6
    assert hand_end(events).counts == (20, 20)
    assert hand_end(events).scores == (2, 2)


def test_E01_pagat_variant_tie_gives_non_dealer_6():
    _, events = last_play(QUITO.replace(carton_tie=6), counts=(20, 20), left=0, dealer=1)
    assert tally(events) == [(K.DOS_POR_DARLAS, 0, 6)]


def assert_carton_for_a(preset: str, cards: int, points: int) -> None:
    """A ends the hand with ``cards`` (> 20) and B with the rest; B dealt and took the last card."""
    _, events = last_play(Rules.preset(preset), counts=(cards, 40 - cards), left=0, dealer=1)
    assert tally(events) == [(K.CARTON, 0, points)]
    assert only(events, K.CARTON).number == cards
    assert hand_end(events).scores == (points, 2)  # B: its limpia only


@pytest.mark.parametrize("preset", ALL)
def test_E02_twenty_one_cards_round_up_to_8(preset):
    assert_carton_for_a(preset, 21, 8)


@pytest.mark.parametrize("preset", ALL)
def test_E03_twenty_two_cards_score_8(preset):
    assert_carton_for_a(preset, 22, 8)


@pytest.mark.parametrize("cards", [23, 24])
@pytest.mark.parametrize("preset", ALL)
def test_E04_twenty_three_or_four_cards_score_10(preset, cards):
    assert_carton_for_a(preset, cards, 10)


CARTON_TABLE = [(25, 12), (26, 12), (27, 14), (28, 14), (30, 16), (32, 18), (34, 20), (36, 22), (38, 24),
                (40, 26)]


@pytest.mark.parametrize(("cards", "points"), CARTON_TABLE)
def test_E05_carton_table(cards, points):
    assert carton_points(cards) == points
    left = 1 if cards < 40 else 0  # all 40 cards: A (the dealer) took the last one
    _, events = last_play(QUITO, counts=(cards, 40 - cards - left), left=left, dealer=0)
    assert tally(events) == [(K.CARTON, 0, points)]


# ---------------------------------------------------------------- E06–E09: ties, leftovers, variants


@pytest.mark.parametrize("dealer", [0, 1])
@pytest.mark.parametrize("preset", UNCOUNTED)
def test_E06_neither_reaches_20_more_cards_scores_2(preset, dealer):
    _, events = last_play(Rules.preset(preset), counts=(19, 17), left=4, dealer=dealer)
    leftovers = only(events, K.LEFTOVERS)
    assert leftovers.team is None and len(leftovers.cards) == 4  # uncounted
    assert tally(events) == [(K.MAS_CARTAS, 0, 2)]
    assert hand_end(events).counts == (19, 17)
    assert hand_end(events).scores == (2, 0)


@pytest.mark.parametrize("preset", UNCOUNTED)
def test_E07_eighteen_eighteen_non_dealer_scores_2(preset):
    _, events = last_play(Rules.preset(preset), counts=(18, 18), left=4, dealer=1)
    assert tally(events) == [(K.DOS_POR_DARLAS, 0, 2)]
    assert hand_end(events).scores == (2, 0)


def test_E08_barrio_leftovers_go_to_last_capturer_without_limpia():
    _, events = last_play(BARRIO, counts=(18, 18), left=4, dealer=1, last_capturer=1)
    leftovers = only(events, K.LEFTOVERS)
    assert leftovers.team == 1 and len(leftovers.cards) == 4
    assert limpias(events) == []
    assert tally(events) == [(K.CARTON, 1, 8)]
    assert only(events, K.CARTON).number == 22
    assert hand_end(events).counts == (18, 22)
    assert hand_end(events).scores == (0, 8)


def test_E09_carton_min_cards_19_variant_both_sides_score():
    _, events = last_play(QUITO.replace(carton_min_cards=19), counts=(19, 21), left=0, dealer=1)
    assert tally(events) == [(K.CARTON, 0, 6), (K.CARTON, 1, 8)]
    assert hand_end(events).scores == (6, 2 + 8)  # B: its last-play limpia and its cartón


# ---------------------------------------------------------------- E10–E16: cut-offs, 38, 36, falla


def test_E10_barrio_no_carton_from_30():
    _, events = last_play(BARRIO, counts=(24, 15), left=1, dealer=1, scores=(30, 0), last_capturer=1)
    assert tally(events) == [(K.CARTON, 0, 0)]
    assert blocked(events) == ["cutoff"]
    assert hand_end(events).scores == (30, 0)


def test_E11_barrio_carton_from_28_wins_the_chica():
    _, events = last_play(BARRIO, counts=(26, 13), left=1, dealer=1, scores=(28, 10), last_capturer=1)
    assert tally(events) == [(K.CARTON, 0, 12)]
    won = only(events, K.CHICA_WON)
    assert (won.team, won.reason, won.scores) == (0, "target", (40, 10))


def test_E12_carton_blocked_on_38():
    _, events = last_play(QUITO, counts=(24, 15), left=1, dealer=1, scores=(38, 0))
    assert tally(events) == [(K.CARTON, 0, 0)]
    assert blocked(events) == ["38"]
    assert hand_end(events).scores == (38, 0)
    assert not [e for e in events if e.kind is K.CHICA_WON]


def test_E13_dos_por_darlas_blocked_on_38_and_nobody_else_scores_it():
    _, events = last_play(QUITO, counts=(20, 20), left=0, dealer=1, scores=(38, 0))
    assert tally(events) == [(K.DOS_POR_DARLAS, 0, 0)]
    assert blocked(events) == ["38"]
    assert limpias(events) == [(1, 2)]  # B's last play took the last table card
    assert hand_end(events).scores == (38, 2)  # B gets nothing from the count


def test_E14_carton_from_36_passes_40_and_keeps_the_real_total():
    _, events = last_play(QUITO, counts=(24, 15), left=1, dealer=1, scores=(36, 10))
    assert tally(events) == [(K.CARTON, 0, 10)]
    won = only(events, K.CHICA_WON)
    assert (won.team, won.reason, won.scores) == (0, "target", (46, 10))


def test_E15_twenty_cards_from_36_wins():
    _, events = last_play(QUITO, counts=(20, 19), left=1, dealer=1, scores=(36, 10))
    assert tally(events) == [(K.CARTON, 0, 6)]
    won = only(events, K.CHICA_WON)
    assert (won.team, won.reason, won.scores) == (0, "target", (42, 10))


def test_E16_barrio_falla_after_carton():
    _, events = last_play(BARRIO, counts=(38, 0), left=2, dealer=1, last_capturer=0)
    leftovers = only(events, K.LEFTOVERS)
    assert leftovers.team == 0 and len(leftovers.cards) == 2
    assert tally(events) == [(K.CARTON, 0, 26), (K.FALLA, 0, 2)]
    assert hand_end(events).counts == (40, 0)
    assert hand_end(events).scores == (28, 0)


# ---------------------------------------------------------------- E17–E19: chicas and the mesa


def end_chica(preset: str, *, final: tuple[int, int], chicas: tuple[int, int]) -> tuple[Game, list[Event]]:
    """A closes the chica at ``final`` with its cartón at the end of a hand: from 6 points under it with
    20 cards, or in barrio (no cartón from 30) from 28 with more cards."""
    start = 28 if preset == "barrio" else final[0] - 6
    cards = next(n for n in range(20, 41) if carton_points(n) == final[0] - start)
    return last_play(Rules.preset(preset), counts=(cards, 39 - cards), left=1, dealer=1, last_capturer=1,
                     scores=(start, final[1]), chicas=chicas)


@pytest.mark.parametrize("preset", ALL)
def test_E17_zapateria_first_chica_40_8_wins_the_mesa(preset):
    game, events = end_chica(preset, final=(40, 8), chicas=(0, 0))
    won = only(events, K.CHICA_WON)
    assert (won.team, won.scores, won.zapatero, won.counts) == (0, (40, 8), True, (1, 0))
    mesa = only(events, K.MESA_WON)
    assert (mesa.team, mesa.zapatero, mesa.counts) == (0, True, (1, 0))
    assert game.winner == 0 and game.is_over
    assert K.CHICA_START not in [e.kind for e in events]


@pytest.mark.parametrize("preset", ALL)
def test_E18_first_chica_40_10_is_not_zapateria(preset):
    game, events = end_chica(preset, final=(40, 10), chicas=(0, 0))
    won = only(events, K.CHICA_WON)
    assert (won.team, won.scores, won.zapatero, won.counts) == (0, (40, 10), False, (1, 0))
    assert K.MESA_WON not in [e.kind for e in events]
    assert game.winner is None and game.chicas == [1, 0]
    assert only(events, K.CHICA_START).number == 2


@pytest.mark.parametrize("preset", ALL)
def test_E19_zapatero_in_chica_2_is_only_recorded(preset):
    game, events = end_chica(preset, final=(42, 6), chicas=(0, 1))
    won = only(events, K.CHICA_WON)
    assert (won.team, won.scores, won.zapatero, won.counts, won.number) == (0, (42, 6), True, (1, 1), 2)
    assert K.MESA_WON not in [e.kind for e in events]
    assert game.winner is None and game.chicas == [1, 1]
    assert only(events, K.CHICA_START).number == 3


# ---------------------------------------------------------------- E20: no misdeal in a digital deal


def assert_full_deal(game: Game) -> None:
    """Every player holds exactly 5 cards, all distinct and found nowhere else (R8, R11)."""
    held = [c for h in game.hands for c in h]
    assert [len(h) for h in game.hands] == [5] * game.players
    assert len(set(held)) == len(held)
    elsewhere = [*game.table, *game.piles[0], *game.piles[1], *game.stock, *game.dead]
    assert not set(held) & set(elsewhere)
    assert sorted(held + elsewhere) == list(DECK)


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("players", [2, 4])
def test_E20_every_digital_deal_gives_five_distinct_cards(players, seed):
    rng = random.Random(seed)
    game = Game.new(QUITO, players=players, seed=seed)
    assert_full_deal(game)
    checked = 1
    while not game.is_over:
        events = game.play(rng.choice(game.legal_plays()))
        if K.DEAL in [e.kind for e in events] and not game.is_over:
            assert_full_deal(game)
            checked += 1
    assert checked >= 4
    # every completed hand was dealt in 4 deals (2 players) or 2 deals (4 players), numbered 1, 2, …
    deals: list[int] = []
    for e in game.events:
        if e.kind is K.HAND_START:
            deals = []
        elif e.kind is K.DEAL:
            deals.append(e.number)
        elif e.kind is K.HAND_END:
            assert deals == list(range(1, (4 if players == 2 else 2) + 1))


def test_E20_rules_have_no_misdeal_field():
    fields = Rules().to_dict()
    assert "target" in fields  # the field list is real
    assert not [name for name in fields if "misdeal" in name.lower() or "shunsho" in name.lower()]
