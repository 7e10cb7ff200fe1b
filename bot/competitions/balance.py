"""Rating-balanced teams for a 2 v 2 match."""

from __future__ import annotations

from collections.abc import Mapping, Sequence


def balanced_teams(players: Sequence[int], rating: Mapping[int, float]) -> tuple[tuple[int, int], tuple[int, int]]:
    """Split four players into two pairs whose rating sums differ the least.

    Args:
        players: four user ids, in queue order (the earliest first).
        rating: user id → rating (a missing user counts as 1500, a new player's shown rating).

    Returns:
        ``(team_a, team_b)``: team A holds the earliest player in the queue. Of the three possible splits,
        the one with the smallest difference; ties go to the split listed first (the earliest player with
        the second, then the third, then the fourth), so the result is deterministic.

    Raises:
        ValueError: not four distinct players.
    """
    if len(players) != 4 or len(set(players)) != 4:
        raise ValueError("a 2 v 2 match needs four distinct players")
    first, *rest = players
    best: tuple[float, tuple[int, int], tuple[int, int]] | None = None
    for partner in rest:
        others = tuple(p for p in rest if p != partner)
        a, b = (first, partner), (others[0], others[1])
        gap = abs(sum(rating.get(p, 1500.0) for p in a) - sum(rating.get(p, 1500.0) for p in b))
        if best is None or gap < best[0]:
            best = (gap, a, b)
    assert best is not None
    return best[1], best[2]
