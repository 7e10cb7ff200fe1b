"""Competition algorithms at scale: the standings of a 40-player double round robin at the end
of the season (1,560 mesas), and the Swiss pairing of one round for 128 players after 5 rounds. Goal:
each under 50 ms. Prints the median of several runs.

Run: ``python bench/competitions.py``.
"""

from __future__ import annotations

import random
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bot.competitions.fixtures import round_robin  # noqa: E402
from bot.competitions.standings import MesaResult, Points, table  # noqa: E402
from bot.competitions.swiss import pair_round, standings  # noqa: E402


def timed(fn, repeat: int = 7) -> float:
    runs = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        runs.append((time.perf_counter() - t0) * 1000)
    return statistics.median(runs)


def main() -> None:
    rnd = random.Random(2026)
    players = [f"p{i}" for i in range(40)]
    results = []
    for fixtures, _ in round_robin(players, double=True):
        for a, b in fixtures:
            win = rnd.choice((a, b))
            chicas = (2, rnd.randint(0, 1)) if win == a else (rnd.randint(0, 1), 2)
            results.append(MesaResult(a, b, win, chicas, (rnd.randint(40, 100), rnd.randint(40, 100)),
                                      rnd.random() < 0.1))
    ms = timed(lambda: table(players, results, Points(zapateria_bonus=1)))
    print(f"standings, 40-player double round robin ({len(results)} mesas): {ms:.1f} ms (goal < 50 ms)")

    swiss = list(range(128))
    met: dict[int, set[int]] = {p: set() for p in swiss}
    games: list[tuple[int, int, int | None]] = []
    for _ in range(5):
        ranked = [r.player for r in standings(swiss, games)]
        pairs, _ = pair_round(ranked, met, set())
        for a, b in pairs:
            met[a].add(b)
            met[b].add(a)
            games.append((a, b, rnd.choice((a, b))))

    def round6() -> None:
        ranked = [r.player for r in standings(swiss, games)]
        pair_round(ranked, met, set())

    ms = timed(round6)
    print(f"Swiss pairing (standings + pairs), 128 players, round 6: {ms:.1f} ms (goal < 50 ms)")


if __name__ == "__main__":
    main()
