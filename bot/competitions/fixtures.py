"""Round-robin fixtures by the circle method: everyone meets everyone once per round robin,
nobody plays twice in a round, and with an odd count each side sits out (a bye) exactly once per round
robin."""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import TypeVar

S = TypeVar("S", bound=Hashable)

Pairing = tuple[S, S]


def round_robin(sides: Sequence[S], *, double: bool = False) -> list[tuple[list[tuple[S, S]], S | None]]:
    """The rounds of a round robin.

    Args:
        sides: the players (1 v 1) or fixed pairs (2 v 2), each hashable and distinct; at least 2.
        double: a double round robin: the second half repeats the first with the sides swapped.

    Returns:
        One entry per round: ``(fixtures, bye)``: the ``(first, second)`` fixtures of the round, and the
        side that sits out (None with an even count). ``n - 1`` rounds for an even count ``n``, ``n`` for
        an odd one (twice as many when ``double``). The first side alternates between rounds, so each
        side is first about half the time.

    Raises:
        ValueError: fewer than two sides, or a side listed twice.
    """
    order: list[S | None] = list(sides)
    if len(order) < 2 or len(set(order)) != len(order):
        raise ValueError("a round robin needs at least two distinct sides")
    if len(order) % 2:
        order.append(None)
    n = len(order)
    rounds: list[tuple[list[tuple[S, S]], S | None]] = []
    ring = order[1:]
    for r in range(n - 1):
        current = [order[0], *ring]
        fixtures: list[tuple[S, S]] = []
        bye: S | None = None
        for i in range(n // 2):
            a, b = current[i], current[n - 1 - i]
            if a is None or b is None:
                bye = b if a is None else a
                continue
            if (i == 0 and r % 2) or (i > 0 and i % 2):
                a, b = b, a
            fixtures.append((a, b))
        rounds.append((fixtures, bye))
        ring = [ring[-1], *ring[:-1]]
    if double:
        rounds += [([(b, a) for a, b in fixtures], bye) for fixtures, bye in list(rounds)]
    return rounds
