"""The rank tiers' rule (`bot.ratings.ranks`): promotion at a threshold, demotion only below it minus the
margin, no tier for a player who is not past the leaderboard's eligibility threshold."""

from __future__ import annotations

import pytest

from bot.ratings.ranks import (
    DEFAULT_MARGIN,
    DEFAULT_THRESHOLDS,
    eligible_rating,
    next_tier,
    parse_tiers,
    plain_tier,
)

T = (0, 1550, 1650, 1750)


def _walk(ratings, start=None, margin=25):
    tiers, tier = [], start
    for rating in ratings:
        tier = next_tier(rating, tier, T, margin)
        tiers.append(tier)
    return tiers


def test_the_defaults_are_four_increasing_tiers_with_a_margin_of_25():
    assert DEFAULT_THRESHOLDS == T and DEFAULT_MARGIN == 25


def test_a_player_is_promoted_at_the_threshold_itself():
    assert next_tier(1549, 0, T) == 0
    assert next_tier(1550, 0, T) == 1
    assert next_tier(1760, 0, T) == 3, "a big jump skips tiers"


def test_a_player_near_a_threshold_keeps_the_tier_within_the_margin_and_does_not_flip():
    ratings = [1552, 1540, 1556, 1526, 1549, 1525, 1524, 1540, 1551]
    assert _walk(ratings, start=0) == [1, 1, 1, 1, 1, 1, 0, 0, 1]


def test_a_fall_of_several_tiers_lands_on_the_highest_tier_still_within_its_margin():
    assert next_tier(1630, 3, T) == 2
    assert next_tier(1600, 3, T) == 1
    assert next_tier(1520, 3, T) == 0


def test_without_a_margin_the_tier_follows_the_rating_exactly():
    ratings = [1552, 1549, 1650, 1649]
    assert _walk(ratings, start=None, margin=0) == [plain_tier(r, T) for r in ratings] == [1, 0, 2, 1]


def test_an_ineligible_player_holds_no_tier_whatever_they_held():
    assert next_tier(None, 3, T) is None
    assert next_tier(None, None, T) is None


def test_below_the_lowest_threshold_there_is_no_tier():
    assert next_tier(1400, None, (1500, 1600)) is None
    assert next_tier(1480, 0, (1500, 1600)) == 0, "within the margin of the lowest tier"
    assert next_tier(1470, 0, (1500, 1600)) is None


def test_the_eligible_rating_is_the_best_mode_past_min_games_and_none_before():
    assert eligible_rating([(1600, 9), (1580, 10)], 10) == 1580
    assert eligible_rating([(1600, 12), (1580, 10)], 10) == 1600
    assert eligible_rating([(1600, 9)], 10) is None
    assert eligible_rating([], 10) is None
    assert eligible_rating([(1500, 0)], 0) is None, "min_games 0 still needs one rated chica"


def test_bad_arguments_are_refused():
    with pytest.raises(ValueError):
        next_tier(1500, None, (1500, 1500))
    with pytest.raises(ValueError):
        next_tier(1500, None, T, -1)
    with pytest.raises(ValueError):
        next_tier(1500, 4, T)


def test_an_admins_tiers_are_read_lowest_first_with_names_of_several_words():
    assert parse_tiers("Bronce 0, Plata  alta 1550,Oro 1650") == [("Bronce", 0), ("Plata alta", 1550), ("Oro", 1650)]


@pytest.mark.parametrize("text", ["Oro", "1500", "A 10, B 5", "A 10, B 10", "A x", ",", "A 5000",
                                  "A 1,B 2,C 3,D 4,E 5,F 6,G 7,H 8,I 9", "x" * 33 + " 10"])
def test_tiers_without_a_name_or_threshold_out_of_order_or_too_many_are_refused(text):
    with pytest.raises(ValueError):
        parse_tiers(text)
