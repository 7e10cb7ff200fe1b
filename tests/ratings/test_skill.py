"""Pure rating math: shown rating, provisional mark, openskill updates, idle inflation, resets,
eligibility."""

from __future__ import annotations

import math
from datetime import UTC, datetime, timedelta

import pytest
from openskill.models import PlackettLuce

from bot.ratings import Standing, display_rating, inflate_sigma, is_provisional, rate, season_reset, standing
from bot.ratings.skill import MU0, SIGMA0, SIGMA_DRIFT_PER_DAY, win_probability


def test_new_player_shows_1500():
    assert display_rating(MU0, SIGMA0) == 1500


def test_display_formula_and_rounding():
    assert display_rating(30.0, 5.0) == 1500 + 24 * 15
    assert display_rating(25.0, 8.0) == 1500 + 24 * (25 - 24)
    # 1500 + 24 * (25 - 3 * 8.3125) = 1500 + 1.5 -> rounds half up to 1502
    assert display_rating(25.0, 8.3125) == 1502
    # deep negatives still round half up
    assert display_rating(0.0, 10.0) == 1500 - 720


def test_provisional_above_six():
    assert is_provisional(SIGMA0)
    assert is_provisional(6.0001)
    assert not is_provisional(6.0)
    assert not is_provisional(2.5)


def test_rate_matches_openskill_1v1():
    model = PlackettLuce()
    [[w], [l_]] = model.rate([[model.rating()], [model.rating()]], ranks=[1, 2])
    [[a], [b]] = rate([[(MU0, SIGMA0)], [(MU0, SIGMA0)]], winner=0)
    assert a == pytest.approx((w.mu, w.sigma))
    assert b == pytest.approx((l_.mu, l_.sigma))
    assert a[0] > MU0 > b[0]
    assert a[1] < SIGMA0 and b[1] < SIGMA0


def test_rate_2v2_winner_is_index_and_shape():
    teams = [[(30.0, 4.0), (20.0, 6.0)], [(25.0, 5.0), (25.0, 5.0)]]
    won_by_1 = rate(teams, winner=1)
    assert [len(t) for t in won_by_1] == [2, 2]
    assert all(new[0] < old[0] for new, old in zip(won_by_1[0], teams[0], strict=True))
    assert all(new[0] > old[0] for new, old in zip(won_by_1[1], teams[1], strict=True))
    model = PlackettLuce()
    expected = model.rate([[model.rating(mu=m, sigma=s) for m, s in t] for t in teams], ranks=[2, 1])
    assert won_by_1[1][0] == pytest.approx((expected[1][0].mu, expected[1][0].sigma))


def test_rate_refuses_bad_input():
    with pytest.raises(ValueError):
        rate([[(25.0, 8.0)], [(25.0, 8.0)]], winner=2)
    with pytest.raises(ValueError):
        rate([[(25.0, 8.0)]], winner=0)


def test_win_probability_favours_stronger_side():
    p0, p1 = win_probability([[(30.0, 2.0)], [(20.0, 2.0)]])
    assert p0 > 0.5 > p1
    assert p0 + p1 == pytest.approx(1.0)


def test_inflate_sigma():
    assert inflate_sigma(2.0, 0) == 2.0
    assert inflate_sigma(2.0, -3) == 2.0
    assert inflate_sigma(2.0, 30) == pytest.approx(math.sqrt(4 + 30 * SIGMA_DRIFT_PER_DAY))
    assert inflate_sigma(2.0, 100_000) == SIGMA0
    assert inflate_sigma(SIGMA0, 10) == SIGMA0
    assert inflate_sigma(2.0, 1) > 2.0


def test_season_resets():
    assert season_reset(35.0, 3.0, "none") == (35.0, 3.0)
    assert season_reset(35.0, 3.0, "soft") == (30.0, 6.0)
    assert season_reset(15.0, 7.0, "soft") == (20.0, 7.0)
    assert season_reset(35.0, 3.0, "hard") is None
    with pytest.raises(ValueError):
        season_reset(25.0, 8.0, "medium")


NOW = datetime(2026, 3, 1, tzinfo=UTC)


@pytest.mark.parametrize(
    ("games", "days_ago", "min_games", "active_days", "expected"),
    [
        (3, 1, 10, 30, Standing.FEW_GAMES),
        (10, 1, 10, 30, Standing.RANKED),
        (10, 30, 10, 30, Standing.RANKED),  # exactly at the window edge still counts
        (10, 31, 10, 30, Standing.INACTIVE),
        (10, 400, 10, 0, Standing.RANKED),  # 0 = no activity rule
        (0, 1, 0, 30, Standing.FEW_GAMES),  # one rated chica is always needed
        (1, 1, 0, 30, Standing.RANKED),
    ],
)
def test_standing(games, days_ago, min_games, active_days, expected):
    last = NOW - timedelta(days=days_ago)
    assert standing(games, last, NOW, min_games, active_days) is expected
