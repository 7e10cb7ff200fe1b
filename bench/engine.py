"""Engine benchmark: random legal mesas in pure Python, one core.

Prints, for 2 and for 4 players under `quito`:
- hands per second: whole hands played by random legal plays (each turn calls `legal_plays()` once and
  plays a random one), counting the time of `Game.new`, `legal_plays` and `play`;
- `legal_plays` calls per second, measured alone on positions collected from those games.

Times are CPU time of this process (`time.process_time`), i.e. seconds on one core, so other work on the
machine does not inflate them. Goal: at least 3,000 two-player hands a second.

It also prints the cost of one save with its serialized size, early and late in a long mesa (the
two must be equal within noise): the compact snapshot the bot saves (`Game.snapshot` + `json.dumps`),
one real `Store.save_table` of a play (snapshot row updated, play row appended, commit), and for
comparison the whole game as it was once saved (`Game.to_dict`, every event and play).

Last, the memory a finished mesa's game holds (``tracemalloc``, the mean of 20 random mesas): what the
bot would keep for each mesa it ever dealt if ended tables stayed in memory (`bot.tables.memory` drops
them).

With ``--variants`` it also prints the same figures with the seed-002 variants of RULES.md Part 1 §9 on
(comodines, periquito, both), which take the engine's slower variant path for capture enumeration.

    python bench/engine.py [--seconds 5] [--variants]
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.engine import Game, Rules  # noqa: E402

VARIANTS: dict[str, dict[str, bool]] = {
    "comodines": {"comodines": True},
    "periquito": {"periquito": True},
    "both": {"comodines": True, "periquito": True},
}


def hands_per_second(players: int, seconds: float, rules: Rules | None = None) -> tuple[float, int]:
    """Play random mesas for about ``seconds``; return (hands per second, hands played)."""
    rng = random.Random(1)
    rules = rules or Rules.preset("quito")
    hands = 0
    seed = 0
    start = time.process_time()
    elapsed = 0.0
    while elapsed < seconds:
        game = Game.new(rules, players, seed)
        seed += 1
        choice = rng.choice
        while game.winner is None:
            game.play(choice(game.legal_plays()))
        hands += game.hand_number
        elapsed = time.process_time() - start
    return hands / elapsed, hands


def legal_plays_per_second(players: int, seconds: float, rules: Rules | None = None) -> float:
    """Time `legal_plays` alone on positions (JSON snapshots) taken from random games."""
    rng = random.Random(2)
    rules = rules or Rules.preset("quito")
    snapshots = []
    game = Game.new(rules, players, "positions")
    while len(snapshots) < 400:
        if game.winner is not None:
            game = Game.new(rules, players, len(snapshots))
        snapshots.append(game.to_dict())
        game.play(rng.choice(game.legal_plays()))
    games = [Game.from_dict(s) for s in snapshots]
    calls = 0
    start = time.process_time()
    elapsed = 0.0
    while elapsed < seconds:
        for g in games:
            g._cache_key = -1  # measure the computation, not the per-turn cache
            g.legal_plays()
        calls += len(games)
        elapsed = time.process_time() - start
    return calls / elapsed


def _long_mesa(players: int, at_play: int) -> Game | None:
    """One long mesa (target raised so it lasts) after ``at_play`` random plays, or None if it ended."""
    import dataclasses

    rng = random.Random(7)
    game = Game.new(dataclasses.replace(Rules.preset("quito"), target=400, chicas_to_win=3), players, "save")
    for _ in range(at_play):
        if game.is_over:
            return None
        game.play(rng.choice(game.legal_plays()))
    return game


def save_cost(players: int, at_play: int, repeats: int = 200) -> tuple[float, int, float, int] | None:
    """CPU milliseconds and bytes of one save after ``at_play`` plays of a long mesa, two ways:
    the compact save the bot makes (``json.dumps(game.snapshot())``, done twice a play: the rollback
    point and the saved row) and the whole game (``json.dumps(game.to_dict())``, the old save).
    Shape: (snapshot ms, snapshot bytes, whole-game ms, whole-game bytes); None when the mesa ends first."""
    import json

    game = _long_mesa(players, at_play)
    if game is None:
        return None
    start = time.process_time()
    for _ in range(repeats):
        small = json.dumps(game.snapshot())
    compact = (time.process_time() - start) * 1000 / repeats
    start = time.process_time()
    for _ in range(repeats):
        whole = json.dumps(game.to_dict())
    return compact, len(small.encode()), (time.process_time() - start) * 1000 / repeats, len(whole.encode())


def store_save_cost(players: int, at_play: int, repeats: int = 200) -> float | None:
    """CPU milliseconds (this process, aiosqlite's thread included) of one real `Store.save_table` of a
    play, as `TableService` makes it, after ``at_play`` plays, on a temporary SQLite file."""
    import asyncio
    import tempfile
    from pathlib import Path

    from bot.store import Store

    game = _long_mesa(players, at_play)
    if game is None:
        return None

    async def run() -> float:
        with tempfile.TemporaryDirectory() as tmp:
            store = await Store.open(str(Path(tmp) / "save.db"))
            tid = await store.create_table(guild_id=1, channel_id=1, host_id=1, players=players, preset="quito",
                                           seats=[None] * players, meta={})
            start = time.process_time()
            for seq in range(repeats):
                await store.save_table(table_id=tid, host_id=1, status="playing", seed="save",
                                       seats=[None] * players, game=game.snapshot(),
                                       play=(at_play + seq, 0, "7D", ""), timers={})
            spent = time.process_time() - start
            await store.close()
        return spent * 1000 / repeats

    return asyncio.run(run())


def finished_mesa_memory(players: int, mesas: int = 20) -> tuple[float, float]:
    """(KB held, plays) per finished mesa of random legal plays under `quito`: the mean over ``mesas``."""
    import tracemalloc

    tracemalloc.start()
    try:
        games = []
        for seed in range(mesas):
            rng = random.Random(seed)
            game = Game.new(Rules.preset("quito"), players, str(seed))
            while game.winner is None:
                game.play(rng.choice(game.legal_plays()))
            games.append(game)
        held = tracemalloc.get_traced_memory()[0]
    finally:
        tracemalloc.stop()
    return held / mesas / 1024, sum(len(g.plays) for g in games) / mesas


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seconds", type=float, default=5.0, help="seconds per measurement (default 5)")
    parser.add_argument("--variants", action="store_true", help="also measure with comodines / periquito on")
    args = parser.parse_args()
    print(f"Python {sys.version.split()[0]}, one core (CPU time), preset quito, {args.seconds:g} s per figure")
    print(f"{'players':>7} {'hands/s':>10} {'hands':>8} {'legal_plays/s':>14}")
    for players in (2, 4):
        hps, hands = hands_per_second(players, args.seconds)
        lps = legal_plays_per_second(players, args.seconds)
        print(f"{players:>7} {hps:>10,.0f} {hands:>8,} {lps:>14,.0f}")
    if args.variants:
        for name, fields in VARIANTS.items():
            rules = Rules.preset("quito").replace(**fields)
            for players in (2, 4):
                hps, hands = hands_per_second(players, args.seconds, rules)
                lps = legal_plays_per_second(players, args.seconds, rules)
                print(f"{players:>7} {hps:>10,.0f} {hands:>8,} {lps:>14,.0f}  quito + {name}")
    print("goal: >= 3,000 two-player hands/s")
    print(f"{'players':>7} {'after play':>10} {'snapshot ms':>11} {'size KB':>8} {'store save ms':>13}"
          f" {'whole-game ms':>13} {'size KB':>8}   (one save; the whole game is the old save)")
    for players in (2, 4):
        for at_play in (10, 400, 1000):
            cost = save_cost(players, at_play)
            stored = store_save_cost(players, at_play)
            if cost is not None and stored is not None:
                print(f"{players:>7} {at_play:>10,} {cost[0]:>11.3f} {cost[1] / 1024:>8.2f} {stored:>13.3f}"
                      f" {cost[2]:>13.2f} {cost[3] / 1024:>8.1f}")
    for players in (2, 4):
        kb, plays = finished_mesa_memory(players)
        print(f"a finished mesa's game in memory, {players} players: {kb:,.0f} KB ({plays:,.0f} plays)")


if __name__ == "__main__":
    main()
