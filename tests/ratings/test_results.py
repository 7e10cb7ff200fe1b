"""`ChicaResult` validation and `chica_results` over engine event logs."""

from __future__ import annotations

import random
from datetime import UTC, datetime

import pytest

from bot.engine import Event, EventKind, Game, Rules
from bot.ratings import ChicaResult, SeatStats, chica_results

K = EventKind
WHEN = datetime(2026, 3, 1, tzinfo=UTC)


def test_hand_built_log_counts_per_seat_and_chica():
    events = [
        Event(K.CHICA_START, number=1),
        Event(K.RONDA, seat=0, team=0, points=4),
        Event(K.DOBLE_RONDA, seat=3, team=1, points=8),
        Event(K.CAIDA, seat=1, team=1, points=2),
        Event(K.CAIDA, seat=2, team=0, points=4, limpia=True),
        Event(K.LIMPIA, seat=2, team=0, points=2),
        Event(K.CHICA_WON, team=0, scores=(40, 6), number=1, zapatero=True, reason="target"),
        Event(K.CHICA_START, number=2),
        Event(K.CAIDA, seat=3, team=1, points=2),
    ]
    out = chica_results(events, [10, 11, 12, 13], guild_id=1, table_id=7, finished_at=WHEN)
    assert len(out) == 1  # the second chica is not finished
    r = out[0]
    assert (r.guild_id, r.table_id, r.chica_number, r.mode) == (1, 7, 1, "2v2")
    assert r.teams == ((10, 12), (11, 13))
    assert (r.winner, r.scores, r.zapatero, r.finished_at) == (0, (40, 6), True, WHEN)
    by_seat = {seat: (user, st) for seat, _team, user, st in r.seats()}
    assert by_seat[0] == (10, SeatStats(rondas=1))
    assert by_seat[1] == (11, SeatStats(caidas=1))
    assert by_seat[2] == (12, SeatStats(caidas=1, limpias=2))
    assert by_seat[3] == (13, SeatStats(doble_rondas=1))


def _random_mesa(players: int, seed: int) -> Game:
    rng = random.Random(seed)
    game = Game.new(Rules.preset("quito"), players, seed)
    while game.winner is None:
        game.play(rng.choice(game.legal_plays()))
    return game


@pytest.mark.parametrize(("players", "seed"), [(2, 1), (2, 2), (4, 3), (4, 4)])
def test_real_mesa_results_agree_with_the_log(players, seed):
    game = _random_mesa(players, seed)
    seats = [100 + i for i in range(players)]
    seats[-1] = None  # a computer player
    out = chica_results(game.events, seats, guild_id=5, table_id=9, finished_at=WHEN)
    won = [e for e in game.events if e.kind == K.CHICA_WON]
    assert [r.chica_number for r in out] == [e.number for e in won]
    assert [r.winner for r in out] == [e.team for e in won]
    assert [r.scores for r in out] == [e.scores for e in won]
    assert all(r.has_computer for r in out)
    caidas = sum(1 for e in game.events if e.kind == K.CAIDA)
    limpias = sum(1 for e in game.events if e.kind == K.LIMPIA or (e.kind == K.CAIDA and e.limpia))
    rondas = sum(1 for e in game.events if e.kind == K.RONDA)
    assert sum(st.caidas for r in out for *_, st in r.seats()) == caidas
    assert sum(st.limpias for r in out for *_, st in r.seats()) == limpias
    assert sum(st.rondas for r in out for *_, st in r.seats()) == rondas
    # the JSON form of the log gives the same results
    as_dicts = [e.to_dict() for e in game.events]
    assert chica_results(as_dicts, seats, guild_id=5, table_id=9, finished_at=WHEN) == out


def test_result_validation():
    with pytest.raises(ValueError):
        ChicaResult(1, 1, 1, ((1,), (2, 3)), 0)
    with pytest.raises(ValueError):
        ChicaResult(1, 1, 1, ((1,), (2,)), 2)
    with pytest.raises(ValueError):
        ChicaResult(1, 1, 1, ((1,), (1,)), 0)
    with pytest.raises(ValueError):
        ChicaResult(1, 1, 1, ((1,), (2,)), 0, finished_at=datetime(2026, 1, 1))
    with pytest.raises(ValueError):
        ChicaResult(1, 1, 1, ((1,), (2,)), 0, stats=((SeatStats(),), ()))
    with pytest.raises(ValueError):
        chica_results([], [1, 2, 3], guild_id=1, table_id=1)
    r = ChicaResult(1, 1, 1, ((None,), (None,)), 1)  # two computers are allowed (never rated)
    assert r.mode == "1v1" and r.has_computer
