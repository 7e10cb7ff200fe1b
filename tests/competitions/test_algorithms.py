"""Fixtures, Swiss pairings and league standings: property tests and worked examples."""

from __future__ import annotations

from collections import Counter
from itertools import combinations

from hypothesis import given, settings
from hypothesis import strategies as st

from bot.competitions.fixtures import round_robin
from bot.competitions.standings import MesaResult, Points, table
from bot.competitions.swiss import pair_round, standings


@given(st.integers(2, 16), st.booleans())
def test_property_round_robin_everyone_meets_everyone_once_and_byes_spread_evenly(n, double):
    sides = [f"p{i}" for i in range(n)]
    rounds = round_robin(sides, double=double)
    assert len(rounds) == (n - 1 if n % 2 == 0 else n) * (2 if double else 1)
    meetings = Counter(frozenset(f) for fixtures, _ in rounds for f in fixtures)
    assert set(meetings) == {frozenset(p) for p in combinations(sides, 2)}, "everyone meets everyone"
    assert set(meetings.values()) == {2 if double else 1}
    for fixtures, bye in rounds:
        playing = [s for f in fixtures for s in f]
        assert len(playing) == len(set(playing)), "nobody plays twice in a round"
        assert set(playing) | ({bye} if bye else set()) == set(sides)
    byes = Counter(bye for _, bye in rounds if bye is not None)
    if n % 2:
        assert byes == Counter({s: 2 if double else 1 for s in sides}), "byes spread evenly"
    else:
        assert not byes
    if double:
        firsts = Counter(f for fixtures, _ in rounds for f in fixtures)
        assert all(firsts[(a, b)] == 1 and firsts[(b, a)] == 1 for a, b in combinations(sides, 2))


def _rematch_free_exists(players, met):
    if not players:
        return True
    first, rest = players[0], players[1:]
    return any(o not in met[first] and _rematch_free_exists([p for p in rest if p != o], met) for o in rest)


@settings(max_examples=150)
@given(st.integers(2, 9), st.integers(0, 4), st.randoms(use_true_random=False))
def test_property_swiss_pairs_everyone_and_never_rematches_while_avoidable(n, played_rounds, rnd):
    players = list(range(n))
    met = {p: set() for p in players}
    had_bye: set[int] = set()
    games, byes = [], []
    for _ in range(played_rounds + 1):
        ranked = [r.player for r in standings(players, games, byes)]
        pairs, bye = pair_round(ranked, met, had_bye)
        paired = [p for pair in pairs for p in pair]
        assert sorted(paired + ([bye] if bye is not None else [])) == players, "everyone exactly once"
        assert (bye is None) == (n % 2 == 0)
        rest = [p for p in ranked if p != bye]
        if _rematch_free_exists(rest, met):
            assert all(b not in met[a] for a, b in pairs), "no rematch while one is avoidable"
        if bye is not None and any(p not in had_bye for p in players):
            assert bye not in had_bye or all(p in had_bye for p in players if p != bye and
                                             _rematch_free_exists([q for q in ranked if q != p], met))
        for a, b in pairs:
            met[a].add(b)
            met[b].add(a)
            games.append((a, b, rnd.choice((a, b))))
        if bye is not None:
            had_bye.add(bye)
            byes.append(bye)


def test_swiss_example_five_players_three_rounds_with_byes():
    """Worked by hand: seeds 1…5 (odd: a bye each round to the lowest-ranked player without one), the
    higher seed wins every game.
    Round 1: all on 0, seed order; bye 5; 1–2, 3–4.
    Round 2: 1, 3, 5 on 1 point (Buchholz 0), then 2 and 4 (0 points, Buchholz 1): [1, 3, 5, 2, 4];
    bye 4; 1–3, 5–2.
    Round 3: 1 (2), then 2 and 3 (1 point, Buchholz 3), 4 and 5 (1 point, Buchholz 1); bye 3; 1 has met
    2 and 3, 1–4 would leave 2–5, a rematch, so the search backtracks to 1–5, 2–4."""
    players = [1, 2, 3, 4, 5]
    met = {p: set() for p in players}
    games, byes, had_bye = [], [], set()
    expected = [([(1, 2), (3, 4)], 5), ([(1, 3), (5, 2)], 4), ([(1, 5), (2, 4)], 3)]
    for want_pairs, want_bye in expected:
        ranked = [r.player for r in standings(players, games, byes)]
        pairs, bye = pair_round(ranked, met, had_bye)
        assert (pairs, bye) == (want_pairs, want_bye), ranked
        for a, b in pairs:
            met[a].add(b)
            met[b].add(a)
            games.append((a, b, min(a, b)))
        had_bye.add(bye)
        byes.append(bye)
    final = standings(players, games, byes)
    assert [(r.player, r.points) for r in final][:2] == [(1, 3.0), (2, 2.0)]


def test_league_standings_worked_by_hand_with_a_head_to_head_tiebreak():
    """ana, beto, caro, dani; 2 points a win, +1 for a zapatería. ana and beto end level on 4 points;
    beto beat ana, so beto ranks above despite ana's better chica difference."""
    r = [
        MesaResult("ana", "caro", "ana", chicas=(2, 0), tantos=(80, 30), zapateria=False),
        MesaResult("beto", "ana", "beto", chicas=(2, 1), tantos=(90, 70)),
        MesaResult("ana", "dani", "ana", chicas=(2, 0), tantos=(80, 10)),
        MesaResult("beto", "caro", "caro", chicas=(1, 2), tantos=(60, 75)),
        MesaResult("dani", "caro", "dani", chicas=(2, 0), tantos=(80, 20), zapateria=True),
        MesaResult("beto", "dani", "beto", chicas=(2, 1), tantos=(85, 60)),
    ]
    rows = table(["ana", "beto", "caro", "dani"], r, Points(win=2, loss=0, zapateria_bonus=1))
    got = [(x.side, x.played, x.won, x.lost, x.points, x.chicas_for, x.chicas_against, x.tantos_for,
            x.tantos_against) for x in rows]
    assert got == [
        ("beto", 3, 2, 1, 4, 5, 4, 235, 205),
        ("ana", 3, 2, 1, 4, 5, 2, 230, 130),
        ("dani", 3, 1, 2, 3, 3, 4, 150, 185),
        ("caro", 3, 1, 2, 2, 2, 5, 125, 220),
    ]
    assert [x.rank for x in rows] == [1, 2, 3, 4]


def test_league_standings_fall_back_to_chica_then_tantos_difference():
    r = [MesaResult("a", "b", "a", (2, 1), (80, 70)), MesaResult("b", "c", "b", (2, 0), (80, 40)),
         MesaResult("c", "a", "c", (2, 1), (85, 80))]
    rows = table(["a", "b", "c"], r)
    # all on 2 points and 1-1 among themselves: b +1 chica (+30 tantos), a 0 (+5), c -1 (-35)
    assert [x.side for x in rows] == ["b", "a", "c"]
    walkover = table(["a", "b"], [MesaResult("a", "b", "a")])
    assert [(x.side, x.points, x.won, x.lost) for x in walkover] == [("a", 2, 1, 0), ("b", 0, 0, 1)]
    double_loss = table(["a", "b"], [MesaResult("a", "b", None)])
    assert [(x.points, x.lost) for x in double_loss] == [(0, 1), (0, 1)]
