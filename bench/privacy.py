"""Benchmark of a member's data (`bot.privacy.repo`): how long the summary's rows and the deletion's checks
take over a large SQLite database. A benchmark, not a test.

Usage::

    python bench/privacy.py [--tables 100000] [--people 2000]

It fills a fresh SQLite file with ``--tables`` finished 1 v 1 tables and their mesas between ``--people``
people, then times `PrivacyRepo.rows` (what ``/cuarenta privacidad`` and «Exportar» read) and
`PrivacyRepo.blockers` (what «Borrar mis datos» checks first) for one person. Both read the JSON seats of
every table (a text match, then the decoded JSON), so they grow with the database, not with the person; on
SQLite they hold its one connection meanwhile, so every other table's save waits that long.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import tempfile
import time

from bot.privacy.repo import PrivacyRepo
from bot.store import Store


async def main(tables: int, people: int) -> None:
    path = os.path.join(tempfile.mkdtemp(), "privacy-bench.db")
    store = await Store.open(path)
    db = store.db
    users = [300000000000000000 + i for i in range(people)]
    rows = []
    for i in range(tables):
        a, b = random.Random(i).sample(users, 2)
        seats = [{"user_id": u, "name": f"n{u % 1000}", "ai": None, "ai_number": 0, "locale": "es"} for u in (a, b)]
        rows.append((10 + i, a, json.dumps(seats)))
    await db.executemany("INSERT INTO tables (guild_id, channel_id, host_id, players, preset, status, seats, meta)"
                         " VALUES (1, ?, ?, 2, 'quito', 'finished', ?, '{}')", rows)
    await db.executemany(
        "INSERT INTO mesas (table_id, guild_id, channel_id, preset, players, seed, winner, chicas_a, chicas_b,"
        " zapateria, seats) VALUES (?, 1, 1, 'quito', 2, 's', 0, 2, 1, 0, ?)",
        [(i + 1, json.dumps([json.loads(r[2])[0]["user_id"], json.loads(r[2])[1]["user_id"]]))
         for i, r in enumerate(rows)])
    repo = PrivacyRepo(db)
    for what in ("rows", "blockers"):
        start = time.perf_counter()
        await getattr(repo, what)(users[5])
        print(f"{what}: {(time.perf_counter() - start) * 1000:.0f} ms over {tables:,} tables and mesas")
    await store.close()


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=100_000)
    parser.add_argument("--people", type=int, default=2000)
    args = parser.parse_args()
    asyncio.run(main(args.tables, args.people))
