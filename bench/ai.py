"""Benchmark of the computer players: paired, seat-swapped mesas. A benchmark, not a test.

Usage::

    python bench/ai.py [--hands N] [--quick] [--workers 2] [--only dificil-greedy,medio-greedy]
                       [--variant plain|comodines|periquito|both]

What it plays: for each pairing A vs B, deal seeds ``k = 0, 1, …``; each seed is one whole mesa under the
``quito`` preset played twice, A in the even seats (team 0) then, with the same seed (so the same deals),
A in the odd seats (team 1). Pairs of seeds are added until at least N hands are played. 1 v 1 unless
the pairing says 2 v 2 (then A holds both seats of one team). Every decision gets ``rng_for(seed, view)``.
``--variant`` turns on the seed-002 variants of RULES.md Part 1 §9 (comodines, periquito or both) over
``quito``.

Definitions:
- A **hand** is one 40-card hand (2 players: 4 deals; 4 players: 2 deals), from HAND_START to the next,
  or cut short when a side wins the chica during it. Its **points** per side are the points the engine
  actually added in it (event ``points``: rondas, caídas, limpias, periquitos, cartón, dos por darlas,
  more cards, falla; after the 38 rule and cutoffs).
- A side **wins a hand** when it scored more points than the other over the hand. **Ties are reported
  separately** (``ties``) and count **one half** in the hand win share ``win%`` and its Wilson 95% bounds.
- ``diff``: mean of (A's points − B's points) per hand, with a 95% CI (1.96·SD/√n, hands taken as
  independent).
- ``chica%``: share of chicas won by A (each chica ends when a side reaches 40, R33), Wilson 95% bounds.
  ``mesa%``: share of mesas won by A.
- ``ms/move``: wall time of A's ``choose`` per decision (mean, p95, max), measured in the worker
  process. With ``--workers 2`` the two workers run on the machine's two cores, one game each, so each
  decision still runs on one core.
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
import sys
import time
from multiprocessing import Pool
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot.ai import player_for, rng_for  # noqa: E402
from bot.engine import Game, Rules  # noqa: E402

POINT_KINDS = {"ronda", "doble_ronda", "caida", "limpia", "periquito", "carton", "dos_por_darlas", "mas_cartas",
               "falla"}

VARIANTS: dict[str, dict[str, bool]] = {
    "plain": {},
    "comodines": {"comodines": True},
    "periquito": {"periquito": True},
    "both": {"comodines": True, "periquito": True},
}
"""``--variant``: `Rules` fields set over ``quito`` (RULES.md Part 1 §9)."""

PAIRINGS: dict[str, tuple[str, str, int]] = {
    "dificil-greedy": ("dificil", "greedy", 2),
    "dificil-medio": ("dificil", "medio", 2),
    "medio-greedy": ("medio", "greedy", 2),
    "facil-greedy": ("facil", "greedy", 2),
    "dificil-greedy-2v2": ("dificil", "greedy", 4),
}


def play_mesa(a: str, b: str, players: int, seed: str, a_team: int, variant: str = "plain") -> dict:
    """One mesa; A holds the seats of ``a_team``. Returns per-hand points (A, B), chicas, timings."""
    pa, pb = player_for(a), player_for(b)
    game = Game.new(Rules.preset("quito").replace(**VARIANTS[variant]), players=players, seed=seed)
    times: list[float] = []
    moves = 0
    while not game.is_over:
        seat = game.to_play
        view = game.view(seat)
        player = pa if seat % 2 == a_team else pb
        rng = rng_for(seed, view)
        t0 = time.perf_counter()
        play = player.choose(view, rng)
        dt = time.perf_counter() - t0
        if seat % 2 == a_team:
            times.append(dt * 1000)
        if play not in view.legal_plays:
            raise AssertionError(f"illegal play {play} by {player.name}")
        game.play(play)
        moves += 1
    hands: list[list[int]] = []
    chicas = [0, 0]
    for e in game.events:
        if e.kind == "hand_start":
            hands.append([0, 0])
        elif e.kind in POINT_KINDS and e.team is not None and e.points and hands:
            hands[-1][e.team] += e.points
        elif e.kind == "chica_won":
            chicas[0 if e.team == a_team else 1] += 1
    hands_ab = [(h[a_team], h[1 - a_team]) for h in hands]
    return {"hands": hands_ab, "chicas": chicas, "mesa": 1 if game.winner == a_team else 0, "times": times}


def run_seed(args: tuple[str, str, int, int, str]) -> list[dict]:
    """Both seat orders of one deal seed."""
    a, b, players, k, variant = args
    seed = f"bench/{k}"
    return [play_mesa(a, b, players, seed, 0, variant), play_mesa(a, b, players, seed, 1, variant)]


def wilson(p: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """Wilson score 95% interval for a share ``p`` over ``n`` trials."""
    if n == 0:
        return (0.0, 1.0)
    d = 1 + z * z / n
    c = (p + z * z / (2 * n)) / d
    h = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    return (c - h, c + h)


def summarize(name: str, a: str, b: str, players: int, results: list[dict], variant: str = "plain") -> dict:
    """The figures of one pairing (see the module docstring)."""
    diffs, wins, ties = [], 0, 0
    ch = [0, 0]
    mesas = 0
    times: list[float] = []
    for r in results:
        for pa, pb in r["hands"]:
            diffs.append(pa - pb)
            wins += pa > pb
            ties += pa == pb
        ch[0] += r["chicas"][0]
        ch[1] += r["chicas"][1]
        mesas += r["mesa"]
        times.extend(r["times"])
    n = len(diffs)
    share = (wins + 0.5 * ties) / n
    lo, hi = wilson(share, n)
    nch = ch[0] + ch[1]
    cs = ch[0] / nch if nch else 0.0
    clo, chi = wilson(cs, nch)
    times.sort()
    return {
        "pairing": name, "a": a, "b": b, "mode": "1v1" if players == 2 else "2v2",
        "preset": "quito" if variant == "plain" else f"quito+{variant}",
        "mesas": len(results), "hands": n,
        "diff": statistics.fmean(diffs), "diff_ci": 1.96 * statistics.stdev(diffs) / math.sqrt(n),
        "wins": wins, "ties": ties, "losses": n - wins - ties,
        "win_share": share, "win_lo": lo, "win_hi": hi,
        "chicas": nch, "chica_share": cs, "chica_lo": clo, "chica_hi": chi,
        "mesa_share": mesas / len(results),
        "ms_mean": statistics.fmean(times), "ms_p95": times[int(0.95 * (len(times) - 1))], "ms_max": times[-1],
        "moves": len(times),
    }


def fmt(s: dict) -> str:
    """One table row."""
    return (f"{s['pairing']:<20} {s['mode']:<4} {s['hands']:>5} {s['diff']:+6.2f} ±{s['diff_ci']:4.2f}  "
            f"{100 * s['win_share']:5.1f}% [{100 * s['win_lo']:4.1f}–{100 * s['win_hi']:4.1f}] "
            f"{s['wins']:>4}/{s['ties']:>3}/{s['losses']:<4} "
            f"{100 * s['chica_share']:5.1f}% [{100 * s['chica_lo']:4.1f}–{100 * s['chica_hi']:4.1f}] n={s['chicas']:<4} "
            f"{s['ms_mean']:7.2f} {s['ms_p95']:7.2f} {s['ms_max']:7.2f}")


HEADER = (f"{'pairing (A vs B)':<20} {'mode':<4} {'hands':>5} {'A−B pts/hand':>13}  "
          f"{'A hand win% [Wilson95]':<25} {'W/T/L':<13} {'A chica% [Wilson95]':<27} "
          f"{'A ms/move: mean':>7} {'p95':>7} {'max':>7}")


def main() -> None:
    """Parse the arguments, play every pairing, print the table (and one JSON line per pairing)."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--hands", type=int, default=1000, help="hands per pairing (at least)")
    ap.add_argument("--quick", action="store_true", help="100 hands per pairing")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--only", default="", help="comma-separated pairing names: " + ", ".join(PAIRINGS))
    ap.add_argument("--json", default="", help="append one JSON line per pairing to this file")
    ap.add_argument("--variant", default="plain", choices=list(VARIANTS),
                    help="seed-002 variants over quito (RULES.md Part 1 §9)")
    args = ap.parse_args()
    target = 100 if args.quick else args.hands
    names = [x for x in args.only.split(",") if x] or list(PAIRINGS)
    rows = []
    if args.variant != "plain":
        print(f"rules: quito + {args.variant}", flush=True)
    print(HEADER, flush=True)
    for name in names:
        a, b, players = PAIRINGS[name]
        results: list[dict] = []
        hands = 0
        k = 0
        t0 = time.time()
        with Pool(args.workers) as pool:
            while hands < target:
                batch = [(a, b, players, k + i, args.variant) for i in range(args.workers * 2)]
                k += len(batch)
                for pair in pool.map(run_seed, batch):
                    results.extend(pair)
                    hands += sum(len(r["hands"]) for r in pair)
        s = summarize(name, a, b, players, results, args.variant)
        s["seconds"] = round(time.time() - t0, 1)
        rows.append(s)
        print(fmt(s), flush=True)
        if args.json:
            with open(args.json, "a") as f:
                f.write(json.dumps(s) + "\n")
    print("\nwin% counts ties as one half; diff is A's points minus B's per hand; ms/move is A's.")


if __name__ == "__main__":
    main()
