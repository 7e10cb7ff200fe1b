"""A long run of many live tables over the loopback fake Discord: whether a play's cost and the bot's memory
stay flat over time, as mesas end and new ones are dealt.

The other benchmarks run 30 to 60 seconds, less than a mesa; over hours a bot meets what they cannot show:
thousands of ended mesas, DM channels by the hundred, timers, click tokens. This runs `bench/loopback.py`'s
bench (the unmodified bot, its fake Discord, N tables of people at a pace; a table is dealt again in the
same channel when its mesa ends) for ``--minutes``, and prints one line per ``--every`` seconds:

- plays and plays/s in the interval; acknowledgement p50 / p99 ms and answers after 3 s;
- bot-token REST calls per play; CPU ms per play, the bot's process (less the driver) + its workers;
- what the bot holds at the interval's end: RSS (MB), tables in the service (of them ended), mesas ended
  since the start, the DM-hand presenter's entries, the public presenter's tables, the write budget's
  channels and the timers pending;
- the bot process's garbage collections: those of the oldest generation (a pause that grows with every
  object the process holds) and the longest of them, the longest collection of any generation, and the
  time in all collections per play;
- the same collection figures of the fake Discord's process, and the messages it holds: the fake stamps
  each callback's arrival, so its own pauses would read as the bot's latency.

Then the first and the last third of the run side by side. ``--keep`` sets how long an ended table stays in
memory (`bot.tables.memory.KEEP_ENDED`, 15 minutes by default): a short keep shows tables leaving within a
short run, and a keep longer than the run shows a bot that never lets them go.

    python bench/soak.py [--tables 50] [--pace fast] [--minutes 30] [--every 60] [--keep SECONDS]
                         [--gc settled|default] [--postgres postgresql://…/postgres]
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import statistics
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import loopback  # noqa: E402

COLUMNS = ("  min  plays plays/s  p50 ms  p99 ms  >3s REST/play  CPU ms/play bot+workers  RSS MB  tables (ended)"
           "  mesas ended  hand entries  public  channels  timers  gen-2 GCs (longest ms)  longest GC ms  GC ms/play"
           "  fake: gen-2 GCs (longest ms)  GC ms/play  messages")


def row(s: dict[str, Any]) -> str:
    """One interval of the run, under `COLUMNS`."""
    return (f"{s['t'] / 60:5.1f}  {s['plays']:5} {s['plays_s']:7.1f}  {s['p50']:6.1f}  {s['p99']:6.1f}  {s['late']:3}"
            f"  {s['rest']:9.2f}  {s['cpu']:11.2f} + {s['workers']:4.2f} = {s['cpu'] + s['workers']:5.2f}"
            f"  {s['rss']:6.0f}  {s['held']:6} ({s['ended']:4})  {s['mesas_ended']:11}  {s['hands']:12}  "
            f"{s['public']:6}  {s['channels']:8}  {s['alarms']:6}  {s['gc2']:9} ({s['gc2_ms']:6.1f})  {s['gc_max_ms']:13.1f}  {s['gc_ms']:10.3f}"
            f"        {s['fake_gc2']:9} ({s['fake_gc_max_ms']:6.1f})  {s['fake_gc_ms']:10.3f}  {s['fake_messages']:8}")


def report(sample: dict[str, Any]) -> None:
    """Print an interval as soon as it is taken (in the bench's process)."""
    print(row(sample), flush=True)


def thirds(samples: list[dict[str, Any]]) -> list[str]:
    """The first and the last third of the run: mean CPU ms per play (weighted by plays), p99 (the median
    of the intervals'), RSS and tables held at its end."""
    k = max(1, len(samples) // 3)
    out = []
    for name, part in (("first third", samples[:k]), ("last third", samples[-k:])):
        plays = sum(s["plays"] for s in part) or 1
        cpu = sum((s["cpu"] + s["workers"]) * s["plays"] for s in part) / plays
        out.append(f"{name:>12}: {plays} plays, CPU {cpu:.2f} ms/play, p99 {statistics.median(s['p99'] for s in part):.1f} ms "
                   f"(median of its intervals), RSS {part[-1]['rss']:.0f} MB, tables held {part[-1]['held']} "
                   f"({part[-1]['ended']} ended), hand entries {part[-1]['hands']}, channels {part[-1]['channels']}")
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=50, help="live tables (default 50)")
    parser.add_argument("--pace", choices=tuple(loopback.PACES), default="fast")
    parser.add_argument("--minutes", type=float, default=30.0, help="length of the run (default 30)")
    parser.add_argument("--every", type=float, default=60.0, help="seconds per printed interval (default 60)")
    parser.add_argument("--keep", type=float, default=None, metavar="SECONDS",
                        help="KEEP_ENDED: seconds an ended table stays in memory (default: the bot's, 15 minutes)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--gc", choices=("settled", "default"), default="settled",
                        help="the bot's garbage collector: settled as `python -m bot` does (bot/heap.py), or "
                             "CPython's defaults (default: settled)")
    parser.add_argument("--postgres", metavar="URL", help="run the bot on PostgreSQL (see bench/loopback.py)")
    args = parser.parse_args()
    print(loopback.under_test() + (" — PostgreSQL (asyncpg)" if args.postgres else " — SQLite (aiosqlite)"))
    from bot.tables import memory

    keep = memory.KEEP_ENDED if args.keep is None else args.keep
    print(f"{args.tables} tables, {args.pace} pace, {args.minutes:g} minutes, an ended table kept {keep:g} s, "
          f"garbage collector {args.gc}", flush=True)
    ctx = multiprocessing.get_context("spawn")
    here, there = ctx.Pipe()
    child = ctx.Process(target=loopback._child,
                        args=(args.tables, args.pace, args.minutes * 60, None, args.seed, None, args.postgres, 10.0,
                              None, there),
                        kwargs={"sample_every": args.every, "keep_ended": args.keep, "report": report,
                                "settle": args.gc == "settled"},
                        name=f"soak-{args.tables}")
    child.start()
    print(COLUMNS, flush=True)
    r = here.recv()
    child.join()
    if "failed" in r:
        print(f"the run failed\n{r['failed']}")
        sys.exit(1)
    print("\n".join(thirds(r["samples"])))
    print("the whole run, as bench/loopback.py prints it:")
    print(loopback.HEADER)
    print(loopback.line(r))
    print("\n".join(loopback.details(r)))


if __name__ == "__main__":
    os.environ.setdefault("PYTHONHASHSEED", "0")
    main()
