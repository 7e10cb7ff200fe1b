"""RULES.md §5: the worked play scenarios T01–T43, one or more tests each (Part 1 overrides Part 2).

Conventions used throughout:
- Side A is team 0 and plays from seat 0; side B is team 1 (seat 1, or seats 1 and 3 with 4 players).
- Preset columns of RULES.md: TD = quito, RG = cuenca, TC = torneo, BA = barrio. A scenario that gives a
  single result (no per-preset breakdown) is run under all four; a variant flag is set on `quito`.
- `position` builds the scenario's table with A to play and B the seat that played just before. B holds
  as many filler cards as A, so the play under test ends no deal and nothing else happens after it.
- `next_deal` reaches a deal through the real path: the dealer (seat 0) trails the last card of deal 1,
  which makes the engine deal the given cards and announce rondas (R8, R12–R14).
"""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from bot.engine import DECK, Card, Event, EventKind, Game, IllegalCaptureError, Play, Rules, parse_cards

K = EventKind
ALL = ("quito", "cuenca", "torneo", "barrio")
QUITO = Rules.preset("quito")
CUENCA = Rules.preset("cuenca")
EN_RONDA_POINTS = [("quito", 4), ("barrio", 4)]  # T22–T24, T33: caída en ronda = 4, no stacking
EN_RONDA_CHICA = ["cuenca", "torneo"]  # caída en ronda wins the chica


# ---------------------------------------------------------------- helpers


def cs(text: str) -> frozenset[Card]:
    """A set of cards from codes: ``cs("3C 4D")``."""
    return frozenset(parse_cards(text))


def spare(n: int, *used: str) -> list[Card]:
    """``n`` cards named in none of the ``used`` code strings (filler cards)."""
    taken = {c for text in used for c in parse_cards(text)}
    return [c for c in DECK if c not in taken][:n]


def position(rules: Rules, table: str, hand: str, *, trailed: str | None = None, scores=(0, 0),
             rondas: dict[int, str] | None = None, deal_number: int = 1) -> Game:
    """A (seat 0) to play from ``hand`` with ``table`` (oldest first); B (seat 1) trailed ``trailed``
    on its last turn (None: B did not trail)."""
    held = parse_cards(hand)
    return Game.from_position(
        rules, players=2, hands=[held, spare(len(held), table, hand)], table=table, last_trail=trailed,
        scores=scores, dealer=1, to_play=0, rondas=rondas, deal_number=deal_number,
    )


def next_deal(rules: Rules, hands: Sequence[str], *, last_card: str = "QH", table: str = "",
              scores=(0, 0)) -> tuple[Game, list[Event]]:
    """The dealer (seat 0) trails ``last_card``, the last card of deal 1; the engine then deals
    ``hands[seat]`` (5 cards each; seat 1 is the mano) and announces rondas. Returns the game and
    the events of that trail."""
    game = Game.from_position(
        rules, players=2, hands=[[last_card], []], table=table, dealer=0, to_play=0,
        stock=parse_cards(hands[1]) + parse_cards(hands[0]), scores=scores,
    )
    events = game.play(Play.trail(last_card))
    assert [e.number for e in events if e.kind is K.DEAL][0] == 2
    if chica_won(events) is None:
        assert [sorted(h) for h in game.hands] == [sorted(parse_cards(h)) for h in hands]
    return game, events


def play(game: Game, card: str, captures: str = "") -> list[Event]:
    """Play ``card`` capturing exactly ``captures`` (a trail when empty) for the seat in turn."""
    return game.play(Play.parse(card, captures))


def options(game: Game, card: str) -> set[frozenset[Card]]:
    """The capture sets the seat in turn may make with ``card``; the empty set is the trail."""
    return {p.captures for p in game.plays_for(card)}


def captured(events: list[Event]) -> frozenset[Card]:
    """The table cards a play took (empty for a trail)."""
    caps = [e for e in events if e.kind is K.CAPTURED]
    assert len(caps) <= 1
    return frozenset(caps[0].cards) if caps else frozenset()


def awards(events: list[Event]) -> list[tuple]:
    """The scoring events of a play (R31): caída with its flags, or limpia."""
    out: list[tuple] = []
    for e in events:
        if e.kind is K.CAIDA:
            out.append(caida(e.points, limpia=e.limpia, en_ronda=e.en_ronda))
        elif e.kind is K.LIMPIA:
            out.append(limpia(e.points))
    return out


def caida(points: int, *, limpia: bool = False, en_ronda: bool = False) -> tuple:
    return (K.CAIDA, points, limpia, en_ronda)


def limpia(points: int) -> tuple:
    return (K.LIMPIA, points)


def chica_won(events: list[Event]) -> tuple[int, str, tuple[int, int]] | None:
    """(team, reason, scores) of the first CHICA_WON event among ``events``, if any."""
    won = next((e for e in events if e.kind is K.CHICA_WON), None)
    return (won.team, won.reason, won.scores) if won else None


def codes(cards: Sequence[Card]) -> list[str]:
    return [c.code for c in cards]


def announcements(events: list[Event]) -> list[tuple]:
    """(kind, seat, points, blocked) of each ronda / doble ronda announced."""
    return [(e.kind, e.seat, e.points, e.blocked) for e in events if e.kind in (K.RONDA, K.DOBLE_RONDA)]


def assert_ronda_blocked_at_38(events: list[Event], preset: str) -> None:
    """Seat 0's ronda scored nothing because its side is on 38 (R30). In barrio the 30 cut-off (R15)
    blocks it as well, so either reason is right there."""
    [(kind, seat, points, blocked)] = announcements(events)
    assert (kind, seat, points) == (K.RONDA, 0, 0)
    assert blocked in ({"38", "cutoff"} if preset == "barrio" else {"38"})


# ---------------------------------------------------------------- T01–T06: captures from the sources


@pytest.mark.parametrize("preset", ALL)
def test_T01_sum_then_sequence_to_king_is_limpia_not_caida(preset):
    game = position(Rules.preset(preset), "3C 4D JS QH KC", "7D", trailed="KC")
    assert options(game, "7D") == {cs("3C 4D JS QH KC"), frozenset()}
    events = play(game, "7D", "3C 4D JS QH KC")
    assert captured(events) == cs("3C 4D JS QH KC")
    assert len(game.piles[0]) == 6
    assert awards(events) == [limpia(2)]
    assert game.table == []
    assert game.scores == [2, 0]


@pytest.mark.parametrize(("preset", "points"), [("quito", 2), ("cuenca", 4), ("torneo", 2), ("barrio", 2)])
def test_T02_caida_by_match_then_sequence_is_caida_limpia(preset, points):
    game = position(Rules.preset(preset), "4S 5H 3D", "3C", trailed="3D")
    assert options(game, "3C") == {cs("3D 4S 5H"), frozenset()}
    events = play(game, "3C", "3D 4S 5H")
    assert captured(events) == cs("3D 4S 5H")
    assert len(game.piles[0]) == 4
    assert awards(events) == [caida(points, limpia=True)]
    assert game.scores == [points, 0]


@pytest.mark.parametrize("preset", ALL)
def test_T03_sum_without_sequence_scores_nothing(preset):
    game = position(Rules.preset(preset), "2S 3H KD", "5C", trailed="KD")
    assert options(game, "5C") == {cs("2S 3H"), frozenset()}
    events = play(game, "5C", "2S 3H")
    assert captured(events) == cs("2S 3H")
    assert awards(events) == []
    assert codes(game.table) == ["KD"]
    assert game.scores == [0, 0]


@pytest.mark.parametrize("preset", ALL)
def test_T04_two_sum_choices_never_both(preset):
    game = position(Rules.preset(preset), "2S 3H AD 4C", "5D", trailed="4C")
    assert options(game, "5D") == {cs("2S 3H"), cs("AD 4C"), frozenset()}
    with pytest.raises(IllegalCaptureError):
        play(game, "5D", "2S 3H AD 4C")


@pytest.mark.parametrize("preset", ALL)
@pytest.mark.parametrize(("choice", "left"), [("2S 3H", ["AD", "4C"]), ("AD 4C", ["2S", "3H"])])
def test_T04_either_sum_scores_nothing_by_default(preset, choice, left):
    game = position(Rules.preset(preset), "2S 3H AD 4C", "5D", trailed="4C")
    events = play(game, "5D", choice)
    assert awards(events) == []
    assert codes(game.table) == left
    assert game.scores == [0, 0]


@pytest.mark.parametrize(("choice", "expected"), [("AD 4C", [caida(2)]), ("2S 3H", [])])
def test_T04_caida_by_sum_variant(choice, expected):
    game = position(QUITO.replace(caida_by_sum=True), "2S 3H AD 4C", "5D", trailed="4C")
    events = play(game, "5D", choice)
    assert awards(events) == expected
    assert game.scores == [2 if expected else 0, 0]


@pytest.mark.parametrize("preset", ["quito", "cuenca", "torneo"])
def test_T05_sum_of_three_cards_is_limpia_not_caida(preset):
    game = position(Rules.preset(preset), "AS 2H 4D", "7C", trailed="4D")
    assert options(game, "7C") == {cs("AS 2H 4D"), frozenset()}
    events = play(game, "7C", "AS 2H 4D")
    assert awards(events) == [limpia(2)]
    assert game.table == []
    assert game.scores == [2, 0]


def test_T05_barrio_pairs_only_seven_is_trailed():
    game = position(Rules.preset("barrio"), "AS 2H 4D", "7C", trailed="4D")
    assert options(game, "7C") == {frozenset()}
    with pytest.raises(IllegalCaptureError):
        play(game, "7C", "AS 2H 4D")
    events = play(game, "7C")
    assert awards(events) == []
    assert codes(game.table) == ["AS", "2H", "4D", "7C"]
    assert game.scores == [0, 0]


@pytest.mark.parametrize("preset", ALL)
@pytest.mark.parametrize(("choice", "left"), [("5S", ["2D", "3C"]), ("2D 3C", ["5S"])])
def test_T06_match_or_sum_never_both(preset, choice, left):
    game = position(Rules.preset(preset), "5S 2D 3C", "5H", trailed="3C")
    assert options(game, "5H") == {cs("5S"), cs("2D 3C"), frozenset()}
    events = play(game, "5H", choice)
    assert awards(events) == []
    assert codes(game.table) == left
    assert game.scores == [0, 0]


@pytest.mark.parametrize(("choice", "expected"), [("2D 3C", [caida(2)]), ("5S", [])])
def test_T06_caida_by_sum_variant(choice, expected):
    game = position(QUITO.replace(caida_by_sum=True), "5S 2D 3C", "5H", trailed="3C")
    assert awards(play(game, "5H", choice)) == expected


# ---------------------------------------------------------------- T07–T15: caída, sequence, sums


@pytest.mark.parametrize("preset", ALL)
def test_T07_caida_by_match(preset):
    game = position(Rules.preset(preset), "KD 7S", "7H", trailed="7S")
    assert options(game, "7H") == {cs("7S"), frozenset()}
    events = play(game, "7H", "7S")
    assert awards(events) == [caida(2)]
    assert codes(game.table) == ["KD"]
    assert game.scores == [2, 0]


@pytest.mark.parametrize(("preset", "points"), [("quito", 2), ("cuenca", 4), ("torneo", 2), ("barrio", 2)])
def test_T08_caida_then_sequence_seven_to_queen_is_caida_limpia(preset, points):
    game = position(Rules.preset(preset), "JC QD 7S", "7H", trailed="7S")
    assert options(game, "7H") == {cs("7S JC QD"), frozenset()}
    events = play(game, "7H", "7S JC QD")
    assert awards(events) == [caida(points, limpia=True)]
    assert game.table == []
    assert game.scores == [points, 0]


@pytest.mark.parametrize("preset", ALL)
def test_T09_sequence_stops_at_missing_rank(preset):
    game = position(Rules.preset(preset), "5C 6D JH", "5S", trailed="JH")
    assert options(game, "5S") == {cs("5C 6D"), frozenset()}
    events = play(game, "5S", "5C 6D")
    assert awards(events) == []
    assert codes(game.table) == ["JH"]


@pytest.mark.parametrize("preset", ALL)
def test_T10_king_never_wraps_to_ace(preset):
    game = position(Rules.preset(preset), "2D KH AC", "KS", trailed="AC")
    assert options(game, "KS") == {cs("KH"), frozenset()}
    events = play(game, "KS", "KH")
    assert awards(events) == []
    assert codes(game.table) == ["2D", "AC"]
    assert game.scores == [0, 0]


@pytest.mark.parametrize("preset", ALL)
def test_T11_sequence_runs_from_the_sum_and_is_not_caida(preset):
    game = position(Rules.preset(preset), "2C 3D 4H 6S", "5H", trailed="6S")
    assert options(game, "5H") == {cs("2C 3D 6S"), frozenset()}
    events = play(game, "5H", "2C 3D 6S")
    assert awards(events) == []
    assert codes(game.table) == ["4H"]
    assert game.scores == [0, 0]


@pytest.mark.parametrize("preset", ALL)
def test_T12a_king_cannot_sum_and_is_trailed(preset):
    game = position(Rules.preset(preset), "QS AD 2C", "KH", trailed="2C")
    assert options(game, "KH") == {frozenset()}
    events = play(game, "KH")
    assert awards(events) == []
    assert codes(game.table) == ["QS", "AD", "2C", "KH"]


@pytest.mark.parametrize("preset", ALL)
def test_T12b_sum_takes_trailed_card_without_caida(preset):
    game = position(Rules.preset(preset), "QS AD 2C", "3D", trailed="2C")
    assert options(game, "3D") == {cs("AD 2C"), frozenset()}
    events = play(game, "3D", "AD 2C")
    assert awards(events) == []
    assert codes(game.table) == ["QS"]
    assert game.scores == [0, 0]


@pytest.mark.parametrize("preset", ALL)
def test_T13_a_sum_never_fills_a_sequence_step(preset):
    game = position(Rules.preset(preset), "AC 3S 2H 3D 6D", "4H", trailed="6D")
    assert options(game, "4H") == {cs("AC 3S"), cs("AC 3D"), frozenset()}
    events = play(game, "4H", "AC 3S")
    assert captured(events) == cs("AC 3S")
    assert awards(events) == []
    assert codes(game.table) == ["2H", "3D", "6D"]


@pytest.mark.parametrize("preset", ALL)
def test_T14_match_takes_one_card_and_player_chooses(preset):
    game = position(Rules.preset(preset), "5S 6S 6H", "6D", trailed="6H")
    assert options(game, "6D") == {cs("6H"), cs("6S"), frozenset()}
    events = play(game, "6D", "6H")
    assert awards(events) == [caida(2)]
    assert codes(game.table) == ["5S", "6S"]
    assert game.scores == [2, 0]


@pytest.mark.parametrize("preset", ALL)
def test_T14_matching_the_older_six_is_not_caida(preset):
    game = position(Rules.preset(preset), "5S 6S 6H", "6D", trailed="6H")
    events = play(game, "6D", "6S")
    assert awards(events) == []
    assert codes(game.table) == ["5S", "6H"]
    assert game.scores == [0, 0]


def test_T14_match_takes_all_of_rank_variant():
    game = position(QUITO.replace(match_takes_all=True), "5S 6S 6H", "6D", trailed="6H")
    assert options(game, "6D") == {cs("6S 6H"), frozenset()}
    events = play(game, "6D", "6S 6H")
    assert awards(events) == [caida(2)]
    assert codes(game.table) == ["5S"]


@pytest.mark.parametrize("preset", ALL)
def test_T15_sequence_takes_the_earlier_six_and_is_not_caida(preset):
    game = position(Rules.preset(preset), "5S 6S 6H", "5D", trailed="6H")
    assert options(game, "5D") == {cs("5S 6S"), frozenset()}
    events = play(game, "5D", "5S 6S")
    assert awards(events) == []
    assert codes(game.table) == ["6H"]
    assert game.scores == [0, 0]


# ---------------------------------------------------------------- T16–T21: who can be fallen on


@pytest.mark.parametrize("preset", ALL)
def test_T16_no_caida_on_first_play_of_a_new_deal(preset):
    # The dealer (seat 0) trails 4♠ as the last card of deal 1; the mano (seat 1) leads deal 2 with 4♥.
    game, _ = next_deal(Rules.preset(preset), ["2C 3C 5C JC KC", "4H 2D 3D 5D JD"], last_card="4S", table="QD")
    assert codes(game.table) == ["QD", "4S"]
    assert game.to_play == 1
    events = play(game, "4H", "4S")
    assert captured(events) == cs("4S")
    assert awards(events) == []
    assert codes(game.table) == ["QD"]
    assert game.scores == [0, 0]


def four_players(rules: Rules, hands: Sequence[str]) -> Game:
    """4 players, seat 0 (A1) is the mano and leads; seat 3 (B2) deals."""
    return Game.from_position(rules, players=4, hands=list(hands), dealer=3, to_play=0)


@pytest.mark.parametrize("preset", ALL)
def test_T17_partners_card_is_never_caida_4p(preset):
    game = four_players(Rules.preset(preset), ["6C KS", "2D KH", "6H KD", "QS QH"])
    play(game, "6C")  # A1
    play(game, "2D")  # B1
    assert options(game, "6H") == {cs("6C"), frozenset()}
    events = play(game, "6H", "6C")  # A2 takes its partner's card
    assert awards(events) == []
    assert codes(game.table) == ["2D"]
    assert game.scores == [0, 0]


@pytest.mark.parametrize("preset", ALL)
def test_T18_no_caida_after_opponent_captured_but_limpia(preset):
    game = Game.from_position(Rules.preset(preset), players=2, hands=["3S 5D KD", "5C 3H KC"],
                              dealer=0, to_play=1)
    play(game, "5C")  # B trails 5♣
    play(game, "3S")  # A trails 3♠
    assert awards(play(game, "3H", "3S")) == [caida(2)]  # B captures on its last turn
    events = play(game, "5D", "5C")  # A takes the 5♣ B trailed some turns ago
    assert awards(events) == [limpia(2)]
    assert game.table == []
    assert game.scores == [2, 2]


@pytest.mark.parametrize("preset", ALL)
def test_T19_sum_of_trailed_card_is_limpia_only(preset):
    game = position(Rules.preset(preset), "3H 4S", "7C", trailed="4S")
    events = play(game, "7C", "3H 4S")
    assert awards(events) == [limpia(2)]
    assert game.scores == [2, 0]


@pytest.mark.parametrize(("preset", "points"), [("quito", 2), ("cuenca", 4)])
def test_T19_caida_by_sum_variant_is_caida_limpia(preset, points):
    game = position(Rules.preset(preset).replace(caida_by_sum=True), "3H 4S", "7C", trailed="4S")
    events = play(game, "7C", "3H 4S")
    assert awards(events) == [caida(points, limpia=True)]
    assert game.scores == [points, 0]


@pytest.mark.parametrize("preset", ALL)
def test_T20a_trailed_card_taken_by_sequence_is_limpia_only(preset):
    game = position(Rules.preset(preset), "4C 5D", "4H 5S", trailed="5D")
    assert options(game, "4H") == {cs("4C 5D"), frozenset()}
    events = play(game, "4H", "4C 5D")
    assert awards(events) == [limpia(2)]
    assert game.table == []
    assert game.scores == [2, 0]


@pytest.mark.parametrize("preset", ALL)
def test_T20b_matching_the_trailed_card_is_caida(preset):
    game = position(Rules.preset(preset), "4C 5D", "4H 5S", trailed="5D")
    assert options(game, "5S") == {cs("5D"), frozenset()}
    events = play(game, "5S", "5D")
    assert awards(events) == [caida(2)]
    assert codes(game.table) == ["4C"]
    assert game.scores == [2, 0]


@pytest.mark.parametrize(("preset", "points"), [("quito", 2), ("cuenca", 4), ("torneo", 2)])
def test_T21_jack_caida_then_queen_king_is_caida_limpia(preset, points):
    game = position(Rules.preset(preset), "QC KD JS", "JH", trailed="JS")
    assert options(game, "JH") == {cs("JS QC KD"), frozenset()}
    events = play(game, "JH", "JS QC KD")
    assert awards(events) == [caida(points, limpia=True)]
    assert game.scores == [points, 0]


# ---------------------------------------------------------------- T22–T24: caída en ronda

RONDA_OF_SIXES = ["6H 2D AS 7S JD", "6C 6D 6S 2C 3C"]  # seat 0 = A (dealer), seat 1 = B (mano)


def ronda_of_sixes(rules: Rules, last_card: str = "QH") -> Game:
    """Deal 2: B (mano) is dealt the ronda 6♣6♦6♠ (announced, +2 to B) and trails 6♣."""
    game, events = next_deal(rules, RONDA_OF_SIXES, last_card=last_card)
    assert announcements(events) == [(K.RONDA, 1, 2, None)]
    play(game, "6C")
    return game


@pytest.mark.parametrize(("preset", "points"), EN_RONDA_POINTS)
def test_T22_caida_en_ronda_scores_4_not_2_plus_4(preset, points):
    game = ronda_of_sixes(Rules.preset(preset))
    assert codes(game.table) == ["QH", "6C"]
    events = play(game, "6H", "6C")
    assert awards(events) == [caida(points, en_ronda=True)]
    assert codes(game.table) == ["QH"]
    assert game.scores == [points, 2]


@pytest.mark.parametrize("preset", EN_RONDA_CHICA)
def test_T22_caida_en_ronda_wins_the_chica(preset):
    game = ronda_of_sixes(Rules.preset(preset))
    events = play(game, "6H", "6C")
    assert chica_won(events)[:2] == (0, "caida_en_ronda")
    assert [e.en_ronda for e in events if e.kind is K.CAIDA] == [True]


@pytest.mark.parametrize(("preset", "points"), EN_RONDA_POINTS)
def test_T23_caida_en_ronda_with_limpia_does_not_stack(preset, points):
    game = position(Rules.preset(preset), "6C", "6H", trailed="6C", rondas={1: "6"}, scores=(0, 2))
    events = play(game, "6H", "6C")
    assert awards(events) == [caida(points, limpia=True, en_ronda=True)]
    assert game.scores == [points, 2]


@pytest.mark.parametrize("preset", EN_RONDA_CHICA)
def test_T23_caida_en_ronda_with_limpia_wins_the_chica(preset):
    game = position(Rules.preset(preset), "6C", "6H", trailed="6C", rondas={1: "6"}, scores=(0, 2))
    assert chica_won(play(game, "6H", "6C"))[:2] == (0, "caida_en_ronda")


def ronda_sixes_then_six_diamonds(rules: Rules) -> Game:
    """T24: A holds 6♥ but plays 2♦ on B's 6♣ (nothing to take); then B trails 6♦."""
    game = ronda_of_sixes(rules, last_card="4S")
    assert codes(game.table) == ["4S", "6C"]
    assert options(game, "2D") == {frozenset()}
    assert awards(play(game, "2D")) == []
    assert codes(game.table) == ["4S", "6C", "2D"]
    play(game, "6D")
    assert options(game, "6H") == {cs("6C"), cs("6D"), cs("4S 2D"), frozenset()}
    return game


@pytest.mark.parametrize(("preset", "points"), EN_RONDA_POINTS)
def test_T24_later_caida_on_another_ronda_card_is_caida_en_ronda(preset, points):
    game = ronda_sixes_then_six_diamonds(Rules.preset(preset))
    events = play(game, "6H", "6D")
    assert awards(events) == [caida(points, en_ronda=True)]
    assert codes(game.table) == ["4S", "6C", "2D"]
    assert game.scores == [points, 2]


@pytest.mark.parametrize("preset", EN_RONDA_CHICA)
def test_T24_later_caida_on_another_ronda_card_wins_the_chica(preset):
    game = ronda_sixes_then_six_diamonds(Rules.preset(preset))
    assert chica_won(play(game, "6H", "6D"))[:2] == (0, "caida_en_ronda")


@pytest.mark.parametrize("preset", ALL)
def test_T24_matching_the_older_ronda_card_is_not_caida(preset):
    game = ronda_sixes_then_six_diamonds(Rules.preset(preset))
    events = play(game, "6H", "6C")
    assert awards(events) == []
    assert chica_won(events) is None
    assert game.scores == [0, 2]


# ---------------------------------------------------------------- T25–T27: announcements

RONDA_OF_FIVES = ["5S 5H 5D KC 2D", "AS 3C 4C 6C JC"]  # seat 0 = A, seat 1 = B (mano)


@pytest.mark.parametrize("preset", ALL)
def test_T25_ronda_declared_scores_2(preset):
    game, events = next_deal(Rules.preset(preset), RONDA_OF_FIVES)
    assert announcements(events) == [(K.RONDA, 0, 2, None)]
    assert game.scores == [2, 0]
    assert game.to_play == 1  # announced before the first card of the deal


def test_T25_ronda_rank_hidden_from_the_opponent():
    game, _ = next_deal(QUITO, RONDA_OF_FIVES)
    ronda = [e for e in game.events if e.kind is K.RONDA]
    assert [e.rank for e in ronda] == [4]
    assert [e.rank for e in game.view(1).events if e.kind is K.RONDA] == [None]
    assert [e.rank for e in game.view(0).events if e.kind is K.RONDA] == [4]


@pytest.mark.parametrize(("preset", "points", "blocked"),
                         [("barrio", 0, "cutoff"), ("quito", 2, None), ("cuenca", 2, None), ("torneo", 2, None)])
def test_T25_ronda_cutoff_at_30_only_in_barrio(preset, points, blocked):
    game, events = next_deal(Rules.preset(preset), RONDA_OF_FIVES, scores=(30, 0))
    assert announcements(events) == [(K.RONDA, 0, points, blocked)]
    assert game.scores == [30 + points, 0]


@pytest.mark.parametrize("preset", ALL)
def test_T25_ronda_scores_nothing_on_38(preset):
    game, events = next_deal(Rules.preset(preset), RONDA_OF_FIVES, scores=(38, 0))
    assert_ronda_blocked_at_38(events, preset)
    assert game.scores == [38, 0]


DOBLE_RONDA_OF_SEVENS = ["7S 7H 7D 7C 3D", "AS 2C 4C 6C JC"]


def test_T26_doble_ronda_scores_4_in_quito():
    game, events = next_deal(QUITO, DOBLE_RONDA_OF_SEVENS)
    assert announcements(events) == [(K.DOBLE_RONDA, 0, 4, None)]
    assert chica_won(events) is None
    assert game.scores == [4, 0]
    assert game.to_play == 1


@pytest.mark.parametrize("preset", ["cuenca", "torneo", "barrio"])
def test_T26_doble_ronda_wins_the_chica_at_once(preset):
    _, events = next_deal(Rules.preset(preset), DOBLE_RONDA_OF_SEVENS)
    deal = next(i for i, e in enumerate(events) if e.kind is K.DEAL)
    won = next(i for i, e in enumerate(events) if e.kind is K.CHICA_WON)
    kinds = [e.kind for e in events[deal + 1:won]]
    assert K.DOBLE_RONDA in kinds and K.PLAYED not in kinds  # no card played
    assert chica_won(events) == (0, "doble_ronda", (0, 0))  # an instant win, not points


def test_T27_both_rondas_score_in_play_order_from_the_mano():
    # Seat 1 (A, the mano) holds Q Q Q, seat 0 (B, the dealer) holds 2 2 2.
    game, events = next_deal(QUITO, ["2S 2H 2D AC 5C", "QS QH QD 3C 4C"], last_card="KH")
    assert announcements(events) == [(K.RONDA, 1, 2, None), (K.RONDA, 0, 2, None)]
    assert game.scores == [2, 2]


# ---------------------------------------------------------------- T28–T29: four caídas

# (B trails, A falls on it with, A captures). The table keeps K♦, so no caída is a limpia.
FOUR_CAIDAS = [("AC", "AH", "AC"), ("2C", "2H", "2C"), ("5C", "5H", "5C"), ("JC", "JH", "JC")]


def duel(rules: Rules, turns, *, table: str, hands: Sequence[str], stock: str | None = None):
    """B (seat 1, the mano) and A (seat 0, the dealer) alternate: B trails, A plays. Yields A's events."""
    game = Game.from_position(rules, players=2, hands=list(hands), table=table, dealer=0, to_play=1,
                              stock=None if stock is None else parse_cards(stock))
    for b_card, a_card, a_captures in turns:
        play(game, b_card)
        yield game, play(game, a_card, a_captures)


def four_caidas(rules: Rules):
    return duel(rules, FOUR_CAIDAS, table="KD", hands=["AH 2H 5H JH 7S", "AC 2C 5C JC 7C"])


@pytest.mark.parametrize("preset", ["cuenca", "barrio"])
def test_T28_fourth_consecutive_caida_wins_the_chica(preset):
    results = list(four_caidas(Rules.preset(preset)))
    for _, events in results[:3]:
        assert awards(events) == [caida(2)]
        assert chica_won(events) is None
    assert chica_won(results[3][1])[:2] == (0, "four_caidas")


@pytest.mark.parametrize("preset", ["quito", "torneo"])
def test_T28_four_caidas_score_2_each_and_play_continues(preset):
    results = list(four_caidas(Rules.preset(preset)))
    for _, events in results:
        assert awards(events) == [caida(2)]
        assert chica_won(events) is None
    game = results[-1][0]
    assert game.scores == [8, 0]
    assert game.to_play == 1
    assert codes(game.table) == ["KD"]


def test_T28_fourth_caida_wins_without_its_points_r31():
    # R31: "(3) If the preset gives an instant chica for an event, the capturing side wins the chica now.
    # (4) Otherwise award exactly one of these" — so the winning caída itself adds no points.
    *_, (_, events) = four_caidas(CUENCA)
    assert chica_won(events) == (0, "four_caidas", (6, 0))


def test_T29_streak_broken_by_a_plain_capture_needs_four_more():
    turns = [
        ("AC", "AH", "AC"), ("2C", "2H", "2C"),  # caídas 1, 2
        ("7C", "4H", "4S"),  # a plain capture: B trailed 7♣, A takes the 4♠ → the count restarts
        ("5C", "5H", "5C"), ("JC", "JH", "JC"),  # caídas 1, 2 (4 caídas in 5 turns, not consecutive)
        ("3C", "3H", "3C"), ("AS", "AD", "AS"),  # deal 2: caídas 3, 4 → chica
    ]
    results = list(duel(CUENCA, turns, table="KD 4S", hands=["AH 2H 4H 5H JH", "AC 2C 7C 5C JC"],
                        stock="3C AS QC QS 6C 3H AD 6H 6D KH"))
    assert [awards(ev) for _, ev in results[:6]] == [[caida(2)]] * 2 + [[]] + [[caida(2)]] * 3
    assert [chica_won(ev) for _, ev in results[:6]] == [None] * 6
    assert chica_won(results[6][1])[:2] == (0, "four_caidas")


# ---------------------------------------------------------------- T30–T36: 38 que no juega, 36


@pytest.mark.parametrize("preset", ALL)
def test_T30_limpia_not_scored_on_38(preset):
    game = position(Rules.preset(preset), "3H 4S", "7C", trailed="4S", scores=(38, 0))
    events = play(game, "7C", "3H 4S")
    assert captured(events) == cs("3H 4S")
    assert cs("7C 3H 4S") <= set(game.piles[0])
    assert awards(events) == [limpia(0)]
    assert [e.blocked for e in events if e.kind is K.LIMPIA] == ["38"]
    assert game.scores == [38, 0]


@pytest.mark.parametrize(("preset", "total"), [("quito", 40), ("cuenca", 42), ("torneo", 40), ("barrio", 40)])
def test_T31_caida_closes_the_chica_from_38(preset, total):
    game = position(Rules.preset(preset), "JD", "JC", trailed="JD", scores=(38, 20))
    events = play(game, "JC", "JD")
    assert awards(events) == [caida(total - 38, limpia=True)]
    assert chica_won(events) == (0, "target", (total, 20))


@pytest.mark.parametrize("preset", ALL)
def test_T32_ronda_blocked_on_38(preset):
    game, events = next_deal(Rules.preset(preset), ["KH KD KC 4D 5D", "AS 3C 4C 6C JC"], last_card="KS",
                             scores=(38, 0))
    assert_ronda_blocked_at_38(events, preset)
    assert game.scores == [38, 0]


@pytest.mark.parametrize(("preset", "points"), EN_RONDA_POINTS)
def test_T33_caida_en_ronda_from_38_scores_4_and_wins(preset, points):
    game = position(Rules.preset(preset), "QH 6C", "6H", trailed="6C", rondas={1: "6"}, scores=(38, 20))
    events = play(game, "6H", "6C")
    assert awards(events) == [caida(points, en_ronda=True)]
    assert chica_won(events) == (0, "target", (42, 20))


@pytest.mark.parametrize("preset", EN_RONDA_CHICA)
def test_T33_caida_en_ronda_from_38_wins_the_chica(preset):
    game = position(Rules.preset(preset), "QH 6C", "6H", trailed="6C", rondas={1: "6"}, scores=(38, 20))
    assert chica_won(play(game, "6H", "6C"))[:2] == (0, "caida_en_ronda")


@pytest.mark.parametrize("preset", ALL)
def test_T34_limpia_from_36_reaches_38(preset):
    game = position(Rules.preset(preset), "3H 4S", "7C", trailed="4S", scores=(36, 0))
    events = play(game, "7C", "3H 4S")
    assert awards(events) == [limpia(2)]
    assert game.scores == [38, 0]


def test_T35_caida_limpia_from_36_reaches_38_in_quito():
    game = position(QUITO, "JS", "JH", trailed="JS", scores=(36, 20))
    events = play(game, "JH", "JS")
    assert awards(events) == [caida(2, limpia=True)]
    assert chica_won(events) is None
    assert game.scores == [38, 20]


def test_T35_caida_limpia_from_36_wins_in_cuenca():
    game = position(CUENCA, "JS", "JH", trailed="JS", scores=(36, 20))
    events = play(game, "JH", "JS")
    assert awards(events) == [caida(4, limpia=True)]
    assert chica_won(events) == (0, "target", (40, 20))


def test_T36_chica_won_mid_hand_abandons_the_hand():
    game = position(CUENCA, "JS", "JH 2C 3C", trailed="JS", scores=(36, 20), deal_number=2)
    events = play(game, "JH", "JS")
    kinds = [e.kind for e in events]
    won = kinds.index(K.CHICA_WON)
    assert chica_won(events) == (0, "target", (40, 20))
    assert not {K.CARTON, K.DOS_POR_DARLAS, K.MAS_CARTAS, K.LEFTOVERS, K.HAND_END} & set(kinds)
    assert kinds[won + 1:won + 4] == [K.CHICA_START, K.HAND_START, K.DEAL]
    assert events[won + 2].number == 2 and events[won + 3].number == 1  # hand 2, deal 1: fresh cards
    assert game.deal_number == 1 and all(len(h) == 5 for h in game.hands)


# ---------------------------------------------------------------- T37–T43


@pytest.mark.parametrize("preset", ALL)
def test_T37_caida_only_on_the_immediate_predecessors_trail(preset):
    game = position(Rules.preset(preset), "5D 2S", "5C", trailed="2S")
    assert options(game, "5C") == {cs("5D"), frozenset()}
    events = play(game, "5C", "5D")
    assert awards(events) == []
    assert codes(game.table) == ["2S"]
    assert game.scores == [0, 0]


@pytest.mark.parametrize("preset", ALL)
def test_T38_marido_tiene_partners_card_after_opponent_trailed_4p(preset):
    game = four_players(Rules.preset(preset), ["4S QS", "KD QH", "4H QD", "QC JS"])
    play(game, "4S")  # A1
    play(game, "KD")  # B1
    events = play(game, "4H", "4S")  # A2
    assert awards(events) == []
    assert codes(game.table) == ["KD"]
    assert game.scores == [0, 0]


@pytest.mark.parametrize("preset", ALL)
def test_T39_jack_by_sequence_never_by_sum(preset):
    game = position(Rules.preset(preset), "JD 3C 4H", "7S", trailed="4H")
    assert options(game, "7S") == {cs("3C 4H JD"), frozenset()}
    events = play(game, "7S", "3C 4H JD")
    assert awards(events) == [limpia(2)]
    assert game.scores == [2, 0]


def test_T40_simultaneous_40_at_announcements_mano_first():
    # Seat 1 (A, the mano) holds four 7s, seat 0 (B, the dealer) four Ks; both on 36.
    _, events = next_deal(QUITO, ["KS KH KD KC 3D", "7S 7H 7D 7C 3C"], scores=(36, 36))
    won = next(i for i, e in enumerate(events) if e.kind is K.CHICA_WON)
    assert announcements(events[:won]) == [(K.DOBLE_RONDA, 1, 4, None)]
    assert chica_won(events[:won + 1]) == (1, "target", (36, 40))


@pytest.mark.parametrize("preset", ALL)
def test_T41_sum_to_seven_runs_into_jack_only(preset):
    game = position(Rules.preset(preset), "5C 2D JH KS", "7H", trailed="KS")
    assert options(game, "7H") == {cs("5C 2D JH"), frozenset()}
    events = play(game, "7H", "5C 2D JH")
    assert awards(events) == []
    assert codes(game.table) == ["KS"]


@pytest.mark.parametrize("preset", ALL)
def test_T42_default_any_card_may_be_trailed(preset):
    game = position(Rules.preset(preset), "5S", "5D 3C", trailed="5S")
    assert options(game, "5D") == {cs("5S"), frozenset()}
    assert options(game, "3C") == {frozenset()}
    events = play(game, "5D")
    assert awards(events) == []
    assert codes(game.table) == ["5S", "5D"]


def test_T42_forced_capture_applies_to_the_card_played():
    rules = QUITO.replace(forced_capture=True)
    game = position(rules, "5S", "5D 3C", trailed="5S")
    assert options(game, "5D") == {cs("5S")}
    assert options(game, "3C") == {frozenset()}
    with pytest.raises(IllegalCaptureError):
        play(game, "5D")
    assert codes(game.table) == ["5S"]
    play(game, "3C")
    assert codes(game.table) == ["5S", "3C"]


@pytest.mark.parametrize("forced", [False, True])
@pytest.mark.parametrize(("preset", "points"), [("quito", 2), ("cuenca", 4)])
def test_T42_taking_the_five_is_caida_limpia(preset, points, forced):
    game = position(Rules.preset(preset).replace(forced_capture=forced), "5S", "5D 3C", trailed="5S")
    events = play(game, "5D", "5S")
    assert awards(events) == [caida(points, limpia=True)]
    assert game.scores == [points, 0]


@pytest.mark.parametrize("preset", ALL)
def test_T43_sequence_taken_whole_by_default(preset):
    game = position(Rules.preset(preset), "5S 6H 7C", "5D", trailed="7C")
    assert options(game, "5D") == {cs("5S 6H 7C"), frozenset()}
    events = play(game, "5D", "5S 6H 7C")
    assert awards(events) == [limpia(2)]
    assert game.scores == [2, 0]


def test_T43_optional_sequence_may_stop_after_the_match():
    game = position(QUITO.replace(sequence_mode="optional"), "5S 6H 7C", "5D", trailed="7C")
    assert options(game, "5D") == {cs("5S"), cs("5S 6H"), cs("5S 6H 7C"), frozenset()}
    events = play(game, "5D", "5S")
    assert awards(events) == []
    assert codes(game.table) == ["6H", "7C"]
    assert game.scores == [0, 0]
