"""Rank tiers by rating, with a margin: the pure rule behind a server's rank roles (no Discord, no database).

A server's tiers are thresholds of the shown rating, lowest first (tier 0's threshold is the floor, usually 0).
A player reaches a tier when their rating is at or above its threshold, and loses it only when their rating
falls below that threshold minus the margin (`DEFAULT_MARGIN` points), so a player near a threshold does not
flip between two tiers after every chica. Only players past the leaderboard's eligibility threshold (not
provisional: the server's ``min_games`` rated chicas this season) hold a tier.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

DEFAULT_THRESHOLDS: tuple[int, ...] = (0, 1550, 1650, 1750)
"""The default tiers' thresholds of shown rating, lowest first (a new player shows 1500)."""

DEFAULT_MARGIN = 25
"""Rating points below a tier's threshold a player may fall to and still keep that tier."""

TIER_NAME_KEYS: tuple[str, ...] = ("rank.tier.0", "rank.tier.1", "rank.tier.2", "rank.tier.3")
"""Catalog keys of the default tiers' names, lowest first (one per `DEFAULT_THRESHOLDS`)."""


def check_thresholds(thresholds: Sequence[int]) -> None:
    """Raise ValueError unless ``thresholds`` is non-empty and strictly increasing."""
    if not thresholds or any(b <= a for a, b in zip(thresholds, thresholds[1:], strict=False)):
        raise ValueError("tier thresholds must be a non-empty, strictly increasing sequence")


MAX_TIERS = 8
"""The most tiers a server may have (each is a Discord role the bot creates)."""

MAX_TIER_NAME = 32
"""The longest tier name, in characters (a role name may be 100; a member list stays readable)."""


def parse_tiers(text: str) -> list[tuple[str, int]]:
    """An admin's tiers, lowest first, from ``"Bronce 0, Plata 1550, Oro 1650"``: comma-separated items, each a
    name (1–`MAX_TIER_NAME` characters, spaces allowed) and, last, its threshold of shown rating (0–4000).

    Returns:
        ``[(name, threshold), ...]``: 1–`MAX_TIERS` tiers, thresholds strictly increasing.

    Raises:
        ValueError: an item without a name or a whole-number threshold, too many tiers, or thresholds
            that do not increase.
    """
    tiers: list[tuple[str, int]] = []
    for item in text.split(","):
        name, _, number = item.strip().rpartition(" ")
        name = " ".join(name.split())
        if not name or len(name) > MAX_TIER_NAME or not number.isdigit() or not 0 <= int(number) <= 4000:
            raise ValueError(f"not a tier: {item.strip()!r}")
        tiers.append((name, int(number)))
    if len(tiers) > MAX_TIERS:
        raise ValueError("too many tiers")
    check_thresholds([floor for _, floor in tiers])
    return tiers


def plain_tier(rating: int, thresholds: Sequence[int]) -> int | None:
    """The highest tier whose threshold ``rating`` reaches, None below the lowest (no margin)."""
    check_thresholds(thresholds)
    reached = [tier for tier, floor in enumerate(thresholds) if rating >= floor]
    return reached[-1] if reached else None


def next_tier(rating: int | None, current: int | None, thresholds: Sequence[int] = DEFAULT_THRESHOLDS,
              margin: int = DEFAULT_MARGIN) -> int | None:
    """A player's tier after a rating change.

    Args:
        rating: the player's shown rating; None when they are not eligible (provisional or unrated): no tier.
        current: the tier they hold now (an index into ``thresholds``), None for none.
        thresholds: shown-rating thresholds, lowest first, strictly increasing.
        margin: points (≥ 0) below the held tier's threshold the rating may fall and keep it.

    Returns:
        A promotion as soon as the rating reaches a higher tier's threshold; otherwise the held tier while
        the rating stays at or above its threshold minus ``margin`` (a demotion goes to the highest tier
        whose threshold minus the margin the rating still reaches, never above the held one); None when
        ineligible or below every tier.

    Raises:
        ValueError: bad thresholds, a negative margin, or ``current`` outside the tiers.
    """
    check_thresholds(thresholds)
    if margin < 0:
        raise ValueError("the margin cannot be negative")
    if current is not None and not 0 <= current < len(thresholds):
        raise ValueError("the current tier is not one of the tiers")
    if rating is None:
        return None
    plain = plain_tier(rating, thresholds)
    if current is None or (plain is not None and plain >= current):
        return plain
    kept = [tier for tier in range(current + 1) if rating >= thresholds[tier] - margin]
    return kept[-1] if kept else None


def eligible_rating(ratings: Iterable[tuple[int, int]], min_games: int) -> int | None:
    """The rating that places a player in a tier: the best shown rating among their modes' current-season
    ``(rating, rated chicas)`` with at least ``min_games`` rated chicas (at least 1, as the leaderboard
    counts a rank); None when no mode is past that threshold (not eligible: no tier)."""
    needed = max(min_games, 1)
    counted = [rating for rating, games in ratings if games >= needed]
    return max(counted) if counted else None
