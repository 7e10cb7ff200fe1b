"""Swiss pairings: players with the same score meet, nobody meets the same opponent twice while
that can be avoided, and with an odd count the lowest-ranked player who has not had a bye gets one.
Standings rank by points, then Buchholz (the sum of the opponents' points), then seed."""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass
from typing import Generic, TypeVar

P = TypeVar("P", bound=Hashable)


@dataclass(frozen=True)
class SwissRow(Generic[P]):
    """One line of the Swiss standings: ``points`` (a win 1, a bye 1, a loss 0) and ``buchholz``."""

    player: P
    points: float
    buchholz: float
    seed: int


def standings(seeds: Sequence[P], games: Sequence[tuple[P, P, P | None]], byes: Sequence[P] = ()) -> list[SwissRow[P]]:
    """The Swiss standings.

    Args:
        seeds: every player, best seed first. games: ``(a, b, winner)`` of every match played (winner
            None: no result, no points). byes: players who had a bye (one point each, no opponent).

    Returns:
        Rows sorted by points, Buchholz (both descending), then seed.
    """
    points = dict.fromkeys(seeds, 0.0)
    met: dict[P, list[P]] = {p: [] for p in seeds}
    for a, b, winner in games:
        met[a].append(b)
        met[b].append(a)
        if winner is not None:
            points[winner] += 1.0
    for p in byes:
        points[p] += 1.0
    seed_of = {p: i for i, p in enumerate(seeds)}
    rows = [SwissRow(p, points[p], sum(points[o] for o in met[p]), seed_of[p]) for p in seeds]
    return sorted(rows, key=lambda r: (-r.points, -r.buchholz, r.seed))


def pair_round(ranked: Sequence[P], met: Mapping[P, set[P]], had_bye: set[P]) -> tuple[list[tuple[P, P]], P | None]:
    """Pair one Swiss round.

    Args:
        ranked: the players in standings order (best first). met: player → opponents already met.
        had_bye: players who already had a bye.

    Returns:
        ``(pairs, bye)``. Each player is paired, top-down, with the nearest player below it that it has
        not met; the search backtracks, so a pairing with no rematch is found whenever one exists. Only
        when none exists are rematches allowed (still nearest first). With an odd count, ``bye`` is the
        lowest-ranked player without a previous bye for whom the others can be paired (None when even).
    """
    players = list(ranked)
    candidates: list[P | None] = [None]
    if len(players) % 2:
        candidates = [p for p in reversed(players) if p not in had_bye] or list(reversed(players))
    for allow_rematch in (False, True):
        for bye in candidates:
            rest = [p for p in players if p != bye]
            pairs = _pair(rest, met, allow_rematch)
            if pairs is not None:
                return pairs, bye
    raise AssertionError("a pairing with rematches allowed always exists")


def _pair(players: list[P], met: Mapping[P, set[P]], allow_rematch: bool) -> list[tuple[P, P]] | None:
    if not players:
        return []
    first, rest = players[0], players[1:]
    for i, other in enumerate(rest):
        if not allow_rematch and other in met.get(first, set()):
            continue
        tail = _pair(rest[:i] + rest[i + 1:], met, allow_rematch)
        if tail is not None:
            return [(first, other), *tail]
    return None
