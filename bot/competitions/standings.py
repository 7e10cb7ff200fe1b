"""League standings: played, won, lost, points, chicas and tantos for and against, ranked by
points, then head-to-head, then chica difference, then tantos difference."""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import dataclass, field
from typing import Generic, TypeVar

S = TypeVar("S", bound=Hashable)


@dataclass(frozen=True)
class Points:
    """A league's points: for a mesa won, for one lost, and the bonus for winning it by zapatería."""

    win: int = 2
    loss: int = 0
    zapateria_bonus: int = 0


@dataclass(frozen=True)
class MesaResult(Generic[S]):
    """A league mesa the bot refereed: the two sides, the winner, chicas and tantos per side, and whether
    it was won by zapatería (R35). A walkover has no chicas or tantos; a double loss has no winner."""

    a: S
    b: S
    winner: S | None
    chicas: tuple[int, int] = (0, 0)
    tantos: tuple[int, int] = (0, 0)
    zapateria: bool = False


@dataclass
class Row(Generic[S]):
    """One side's line of the standings."""

    side: S
    played: int = 0
    won: int = 0
    lost: int = 0
    points: int = 0
    chicas_for: int = 0
    chicas_against: int = 0
    tantos_for: int = 0
    tantos_against: int = 0
    rank: int = 0
    results: list[MesaResult[S]] = field(default_factory=list, repr=False)

    @property
    def chica_diff(self) -> int:
        """Chicas won minus chicas lost."""
        return self.chicas_for - self.chicas_against

    @property
    def tantos_diff(self) -> int:
        """Tantos for minus tantos against."""
        return self.tantos_for - self.tantos_against


def _mesa_points(result: MesaResult[S], side: S, points: Points) -> int:
    if result.winner == side:
        return points.win + (points.zapateria_bonus if result.zapateria else 0)
    return points.loss


def table(sides: Sequence[S], results: Sequence[MesaResult[S]], points: Points = Points()) -> list[Row[S]]:
    """The standings.

    Args:
        sides: every side of the league, in sign-up order (the last tiebreaker).
        results: every mesa recorded. points: the league's points.

    Returns:
        Rows, best first, with ``rank`` 1, 2, …: by points; sides level on points are ranked by the points
        of the mesas between them only (head-to-head), then chica difference, then tantos difference, then
        sign-up order.
    """
    rows = {s: Row(s) for s in sides}
    for r in results:
        for side, i in ((r.a, 0), (r.b, 1)):
            row = rows[side]
            row.played += 1
            row.won += int(r.winner == side)
            row.lost += int(r.winner is not None and r.winner != side) + int(r.winner is None)
            row.points += _mesa_points(r, side, points)
            row.chicas_for += r.chicas[i]
            row.chicas_against += r.chicas[1 - i]
            row.tantos_for += r.tantos[i]
            row.tantos_against += r.tantos[1 - i]
            row.results.append(r)
    order = {s: i for i, s in enumerate(sides)}
    h2h = head_to_head(list(rows.values()), points)
    ranked = sorted(rows.values(), key=lambda row: (-row.points, -h2h[row.side], -row.chica_diff, -row.tantos_diff,
                                                    order[row.side]))
    for i, row in enumerate(ranked, start=1):
        row.rank = i
    return ranked


def head_to_head(rows: Sequence[Row[S]], points: Points = Points()) -> dict[S, int]:
    """Each side's head-to-head points, `table`'s first tiebreaker: the points it took in the mesas between
    the sides level with it on points (itself included; 0 for a side level with nobody).

    Args:
        rows: every side's row, with its ``results`` (as `table` fills them). points: the league's points.
    """
    by_points: dict[int, set[S]] = {}
    for row in rows:
        by_points.setdefault(row.points, set()).add(row.side)
    return {row.side: sum(_mesa_points(r, row.side, points) for r in row.results
                          if {r.a, r.b} <= by_points[row.points] and r.a != r.b)
            for row in rows}
