"""Pure rating math: openskill's Plackett-Luce model, the displayed rating, provisional marks,
idle-time uncertainty, season resets and leaderboard eligibility. No I/O.

Units: ``mu`` and ``sigma`` are openskill units (a new player is μ = 25, σ = 25/3); the displayed
rating is ``1500 + 24·(μ − 3σ)``, an Elo-like integer where a new player shows 1500.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from datetime import datetime, timedelta
from enum import StrEnum

from openskill.models import PlackettLuce

MU0 = 25.0
"""μ of a new player."""
SIGMA0 = 25.0 / 3.0
"""σ of a new player (also the ceiling for idle-time inflation)."""
PROVISIONAL_SIGMA = 6.0
"""A rating is provisional while σ is above this."""
SIGMA_DRIFT_PER_DAY = 0.03
"""σ² added per idle day before the next rated chica (lazy inflation, about +16 shown points' worth of
doubt after 30 idle days for a settled player)."""
SOFT_RESET_SIGMA = 6.0
"""Soft reset: σ is raised to at least this."""
SOFT_RESET_KEEP = 0.5
"""Soft reset: the part of (μ − 25) that is kept."""

AI_RATING: tuple[float, float] = (MU0, SIGMA0)
"""The fixed ``(mu, sigma)`` a computer player plays as when a server rates games against computers. It
is never updated, so it anchors the pool instead of drifting with it."""

RESET_POLICIES: tuple[str, ...] = ("none", "soft", "hard")
"""Season reset policies: keep the rating, pull it halfway back (soft), or start fresh (hard)."""

MODES: tuple[str, ...] = ("1v1", "2v2")
"""Rating pools: two players, or two partnerships of two."""

_MODEL = PlackettLuce()

Rating = tuple[float, float]
"""``(mu, sigma)``."""


def display_rating(mu: float, sigma: float) -> int:
    """The shown rating ``1500 + 24·(μ − 3σ)``, rounded half up to an int (1500 for a new player)."""
    return math.floor(1500.0 + 24.0 * (mu - 3.0 * sigma) + 0.5)


def is_provisional(sigma: float) -> bool:
    """True while σ > 6: the rating is marked provisional ("?")."""
    return sigma > PROVISIONAL_SIGMA


def inflate_sigma(sigma: float, idle_days: float) -> float:
    """σ after ``idle_days`` days without a rated chica: ``min(25/3, sqrt(σ² + 0.03·days))``.

    Never lowers σ; negative idle time counts as zero.
    """
    if idle_days <= 0 or sigma >= SIGMA0:
        return sigma
    return min(SIGMA0, math.sqrt(sigma * sigma + SIGMA_DRIFT_PER_DAY * idle_days))


def rate(teams: Sequence[Sequence[Rating]], winner: int) -> list[list[Rating]]:
    """Update the ratings of a finished chica (win/loss only; the loser's points are ignored).

    Args:
        teams: two teams of equal size (1 or 2), each a sequence of ``(mu, sigma)``.
        winner: 0 or 1, the index of the winning team.

    Returns:
        The new ``(mu, sigma)`` in the same shape.

    Raises:
        ValueError: not two teams, or winner not 0/1.
    """
    if len(teams) != 2 or winner not in (0, 1):
        raise ValueError("rate needs two teams and a winner 0 or 1")
    model_teams = [[_MODEL.rating(mu=mu, sigma=sigma) for mu, sigma in team] for team in teams]
    ranks: list[float] = [1, 2] if winner == 0 else [2, 1]
    out = _MODEL.rate(model_teams, ranks=ranks)
    return [[(r.mu, r.sigma) for r in team] for team in out]


def win_probability(teams: Sequence[Sequence[Rating]]) -> tuple[float, float]:
    """Pre-game odds ``(p_team0, p_team1)`` from openskill's ``predict_win``."""
    model_teams = [[_MODEL.rating(mu=mu, sigma=sigma) for mu, sigma in team] for team in teams]
    p0, p1 = _MODEL.predict_win(model_teams)
    return p0, p1


def season_reset(mu: float, sigma: float, policy: str) -> Rating | None:
    """A player's starting rating in the next season.

    ``none`` keeps ``(mu, sigma)``; ``soft`` gives ``(25 + 0.5·(μ − 25), max(σ, 6))``; ``hard`` gives
    None (the player starts fresh at 25, 25/3 when they next play).

    Raises:
        ValueError: unknown policy.
    """
    if policy == "none":
        return mu, sigma
    if policy == "soft":
        return MU0 + SOFT_RESET_KEEP * (mu - MU0), max(sigma, SOFT_RESET_SIGMA)
    if policy == "hard":
        return None
    raise ValueError(f"unknown reset policy {policy!r}; choose one of {', '.join(RESET_POLICIES)}")


class Standing(StrEnum):
    """Where a player stands against the leaderboard rules."""

    RANKED = "ranked"
    FEW_GAMES = "few_games"  # fewer rated chicas than the server's minimum
    INACTIVE = "inactive"  # enough chicas, but none within the activity window


def standing(games: int, last_active: datetime | None, now: datetime, min_games: int,
             active_days: int) -> Standing:
    """Whether a player is on the leaderboard.

    Args:
        games: rated chicas this season in this mode.
        last_active: time of the last rated chica (aware UTC), None if never.
        now: the reference time (aware UTC).
        min_games: the server's minimum; 0 and 1 both mean one rated chica.
        active_days: the activity window in days (0 = no activity rule).
    """
    if games < max(min_games, 1):
        return Standing.FEW_GAMES
    if active_days > 0 and (last_active is None or last_active < now - timedelta(days=active_days)):
        return Standing.INACTIVE
    return Standing.RANKED


__all__ = [
    "AI_RATING",
    "MODES",
    "MU0",
    "PROVISIONAL_SIGMA",
    "RESET_POLICIES",
    "SIGMA0",
    "SIGMA_DRIFT_PER_DAY",
    "SOFT_RESET_KEEP",
    "SOFT_RESET_SIGMA",
    "Rating",
    "Standing",
    "display_rating",
    "inflate_sigma",
    "is_provisional",
    "rate",
    "season_reset",
    "standing",
    "win_probability",
]
