"""Web pages benchmark: one server with 1,000 players and 10,000 finished mesas, a 40-player league, a
64-player best-of-3 single elimination and a 128-player Swiss; then the time to serve each kind of page.
A benchmark, not a test.

Usage::

    python bench/web.py [--players 1000] [--mesas 10000] [--requests 200] [--db PATH]

Setup: a database opened exactly as the bot opens it (`Store.open`: a SQLite file, WAL; or, with
``--db postgresql://…``, a PostgreSQL database) and the bot's own migrations.

- 40 template mesas are played for real through the table service (`tests/support/web_world.Builder`:
  every play legal, chicas recorded and rated by the service itself).
- The other mesas are those templates' rows copied under new table ids and new players (the ``tables`` row
  with its seats and names, the ``mesas`` row, every ``plays`` row), so any of them replays; their chicas are
  rated through `Ratings.record_chicas`, 100 mesas a transaction, in the order they finished (spread over
  120 days; a second season starts half way). 1 v 1 and 2 v 2 alternate; players are drawn with a skewed
  activity (some play a lot).
- The league, the elimination and the Swiss are created, signed up and closed through their services;
  every result is entered through the organizer's correction tool (`bot.organizer`), as an organizer would.

Figures: for each kind of page, the wall time of a GET over loopback, from the request to the last byte of
the answer (the web server in this process, on its own port; the client is aiohttp), median and p95 in ms,
over ``--requests`` requests spread over the pages of that kind (random players, mesas, pages, modes and
seasons). Goal: each under 50 ms. Every kind is timed twice: with the names in the bot's cache of members,
and with none cached (the bot without the members intent, its default: names read from the stored seats).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import shutil
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.ratings import Ratings, chica_results  # noqa: E402
from bot.store import Store  # noqa: E402
from tests.support.web_world import Builder  # noqa: E402

GUILD = 515151
CHANNEL = 515152
START = datetime(2026, 6, 1, tzinfo=UTC)
FIRST_USER = 10_000
TEMPLATES = 40


def summary(name: str, samples: list[float]) -> str:
    """One line: median and p95 of samples in ms, and whether both are within the 50 ms goal."""
    s = sorted(samples)
    p95 = s[min(len(s) - 1, int(0.95 * len(s)))]
    verdict = "ok" if p95 < 50 else "OVER 50 ms"
    return f"{name:<34} n={len(s):>5}  median {statistics.median(s):7.2f} ms  p95 {p95:7.2f} ms  {verdict}"


def name_of(user: int) -> str:
    """The display name of synthetic user ``user``."""
    return f"jugador{user - FIRST_USER:04d}"


async def templates(store: Store, rng: random.Random) -> list[dict[str, Any]]:
    """Play `TEMPLATES` mesas for real (alternately 1 v 1 and 2 v 2, the first 8 users); each one's
    ``tables`` row, ``mesas`` row and event log."""
    b = Builder(store, seed=rng.randrange(1 << 30))
    people = [(name_of(FIRST_USER + i), FIRST_USER + i) for i in range(8)]
    out = []
    try:
        for i in range(TEMPLATES):
            seats = rng.sample(people, 4 if i % 2 else 2)
            table_id = await b.mesa(GUILD, CHANNEL, seats)
            table = b.tables.get(table_id)
            assert table.game is not None
            out.append({"id": table_id, "players": len(seats), "events": list(table.game.events),
                        "row": dict(await store.db.fetchrow("SELECT * FROM tables WHERE id = ?", table_id)),
                        "mesa": await store.mesa(table_id)})
    finally:
        await b.close()
    return out


async def fill_mesas(store: Store, ratings: Ratings, now: list[datetime], count: int, players: int,
                     rng: random.Random) -> list[int]:
    """``count`` mesas copied from real templates under new ids and players; their table ids."""
    db = store.db
    made_from = await templates(store, rng)
    weights = [rng.paretovariate(1.5) for _ in range(players)]
    users = [FIRST_USER + i for i in range(players)]
    next_id = int(await db.fetchval("SELECT MAX(id) FROM tables")) + 1
    ids: list[int] = []
    step = timedelta(days=120) / count
    season_two = False
    for start in range(0, count, 100):
        if not season_two and start >= count // 2:
            await ratings.start_season(GUILD, "Temporada 2")  # half way: season 2, soft reset
            season_two = True
        async with db.transaction():
            for i in range(start, min(count, start + 100)):
                t = made_from[i % len(made_from)]
                seats: list[int] = []
                while len(seats) < t["players"]:
                    u = rng.choices(users, weights)[0]
                    if u not in seats:
                        seats.append(u)
                when = START + step * i
                now[0] = when
                table_id = next_id + i
                row, mesa = t["row"], t["mesa"]
                seat_json = json.dumps([{"user_id": u, "name": name_of(u), "ai": None, "ai_number": 0,
                                         "locale": "es"} for u in seats], separators=(",", ":"))
                stamp = when.strftime("%Y-%m-%dT%H:%M:%SZ")
                await db.execute(
                    "INSERT INTO tables (id, guild_id, channel_id, host_id, players, preset, status, seed, seats,"
                    " game, meta, created_at, updated_at, timers, casual, version)"
                    " VALUES (?, ?, ?, ?, ?, ?, 'finished', ?, ?, ?, ?, ?, ?, ?, 0, ?)",
                    table_id, GUILD, CHANNEL, seats[0], t["players"], row["preset"], row["seed"], seat_json,
                    row["game"], row["meta"], stamp, stamp, row["timers"], row["version"])
                await db.execute(
                    "INSERT INTO mesas (table_id, guild_id, channel_id, preset, players, seed, winner, chicas_a,"
                    " chicas_b, zapateria, seats, finished_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    table_id, GUILD, CHANNEL, mesa["preset"], t["players"], mesa["seed"], mesa["winner"],
                    mesa["chicas_a"], mesa["chicas_b"], mesa["zapateria"], json.dumps(seats), stamp)
                await db.execute(
                    "INSERT INTO plays (table_id, seq, seat, card, captures, played_at)"
                    " SELECT ?, seq, seat, card, captures, ? FROM plays WHERE table_id = ?",
                    table_id, stamp, t["id"])
                await ratings.record_chicas(chica_results(t["events"], seats, guild_id=GUILD, table_id=table_id,
                                                          finished_at=when))
                ids.append(table_id)
    if db.dialect == "postgresql":  # the ids were given: the sequence goes on after them
        await db.execute("SELECT setval(pg_get_serial_sequence('tables', 'id'), (SELECT MAX(id) FROM tables))")
    return [t["id"] for t in made_from] + ids


async def fill_competitions(store: Store, rng: random.Random) -> dict[str, int]:
    """A 40-player league (single round robin), a 64-player best-of-3 single elimination and a 128-player
    Swiss of 7 rounds, every result entered by the organizer's correction tool; their ids."""
    from bot.organizer import OrganizerService

    b = Builder(store, seed=rng.randrange(1 << 30))
    organizer = OrganizerService(store, b.leagues, b.tours, presenter=b.presenter)  # type: ignore[arg-type]
    boss = FIRST_USER
    try:
        league = await b.leagues.create(guild_id=GUILD, channel_id=CHANNEL, organizer_id=boss,
                                        name="Liga grande", mode="1v1", preset="rapido")
        for u in range(FIRST_USER, FIRST_USER + 40):
            await b.leagues.sign_up(league, user_id=u, name=name_of(u), locale="es")
        await b.leagues.close_signup(league, user_id=boss, can_manage=True)
        while league.status == "running":
            rnd = league.current_round
            for f in [f for f in league.fixtures if f.round == rnd and not f.resolved]:
                won = rng.random() < 0.5
                await organizer.corrections.correct(
                    league, user_id=boss, can_manage=True, round_no=rnd, player_id=league.side(f.side_a).user1,
                    outcome="win" if won else "loss", reason="acta del árbitro",
                    score=(2, rng.randint(0, 1)) if won else (rng.randint(0, 1), 2))
        ids = {"league": league.id}
        for key, fmt, size, best_of, rounds in (("elimination", "elimination", 64, 3, 0),
                                                ("swiss", "swiss", 128, 1, 7)):
            t = await b.tours.create(guild_id=GUILD, channel_id=CHANNEL, organizer_id=boss, name=f"Copa {size}",
                                     format=fmt, swiss_rounds=rounds, best_of=best_of, preset="rapido")
            for u in range(FIRST_USER, FIRST_USER + size):
                await b.tours.sign_up(t, user_id=u, name=name_of(u), locale="es")
            await b.tours.close_signup(t, user_id=boss, can_manage=True)
            while t.status == "running":
                rnd = t.current_round
                for m in [m for m in t.matches if m.round == rnd and not m.resolved and m.b_user is not None]:
                    won = rng.random() < 0.5
                    other = rng.randint(0, best_of // 2)
                    need = best_of // 2 + 1
                    await organizer.tournament_corrections.correct(
                        t, user_id=boss, can_manage=True, round_no=rnd, player_id=m.a_user or 0,
                        outcome="win" if won else "loss", reason="acta del árbitro",
                        score=(need, other) if won else (other, need))
            ids[key] = t.id
        return ids
    finally:
        await organizer.close()
        await b.close()


class Members:
    """The bot's cache of the server's members, as `bot.web.names.BotDirectory` reads it: every synthetic
    player is a member (``cached=False``: none is, so every name comes from the stored seats)."""

    def __init__(self, cached: bool) -> None:
        self.cached = cached

    def guild_name(self, guild_id: int) -> str | None:
        """The server's name."""
        return "Bench Club" if guild_id == GUILD else None

    async def member_names(self, guild_id: int, user_ids: list[int]) -> dict[int, str]:
        """Display names of the cached members among ``user_ids``."""
        return {u: name_of(u) for u in user_ids} if self.cached and guild_id == GUILD else {}


async def timed_pages(base: str, kinds: dict[str, Callable[[], str]], requests: int) -> None:
    """GET ``requests`` URLs of each kind (``kinds``: name → a function giving the next path) and print
    each kind's figures (a kind whose first answer is 404 has no page yet: said, not timed)."""
    import aiohttp

    async with aiohttp.ClientSession() as http:
        for name, next_url in kinds.items():
            samples = []
            for i in range(requests + 5):
                url = base + next_url()
                t0 = time.perf_counter()
                async with http.get(url) as resp:
                    await resp.read()
                elapsed = (time.perf_counter() - t0) * 1000
                if resp.status == 404 and i == 0:
                    print(f"{name:<34} (no such page in this build: {url} answers 404)")
                    break
                if resp.status != 200:
                    raise SystemExit(f"{url}: HTTP {resp.status}")
                if i >= 5:  # the first few warm the caches (templates compiled, statements prepared)
                    samples.append(elapsed)
            if samples:
                print(summary(name, samples))


async def serve_and_time(store: Store, ratings: Ratings, mesas: list[int], competitions: dict[str, int],
                         players: int, requests: int, rng: random.Random) -> None:
    """Serve the pages as the bot does (its HTTP port, `bot.web.web_routes`) and time each kind."""
    from bot.ops.http import OpsServer
    from bot.ops.metrics import BotMetrics
    from bot.web import WebContext, web_routes
    from bot.web.data import player_numbers, set_web_pages

    async def healthy() -> str | None:
        return None

    await set_web_pages(store.db, GUILD, True)
    numbers = list((await player_numbers(store.db, GUILD, range(FIRST_USER, FIRST_USER + players))).values())
    seasons = [s.number for s in await ratings.seasons(GUILD)]

    def board() -> str:
        return (f"/s/{GUILD}/leaderboard?mode={rng.choice(('1v1', '2v2'))}&season={rng.choice(seasons)}"
                f"&page={rng.randint(1, 20)}")

    kinds: dict[str, Callable[[], str]] = {
        "leaderboard (mode, season, page)": board,
        "player profile": lambda: f"/s/{GUILD}/players/{rng.choice(numbers)}",
        "mesa replay": lambda: f"/s/{GUILD}/mesas/{rng.choice(mesas)}",
        "league (40 players)": lambda: f"/s/{GUILD}/leagues/{competitions['league']}",
        "bracket (64, best of 3)": lambda: f"/s/{GUILD}/tournaments/{competitions['elimination']}",
        "swiss (128, 7 rounds)": lambda: f"/s/{GUILD}/tournaments/{competitions['swiss']}",
    }
    for cached in (True, False):
        server = OpsServer(BotMetrics(), healthy, web_routes(WebContext(store, ratings, Members(cached))))
        port = await server.start("127.0.0.1", 0)
        try:
            print("names from the bot's cache of members:" if cached else
                  "no member cached (every name read from the stored seats):")
            await timed_pages(f"http://127.0.0.1:{port}", kinds, requests)
        finally:
            await server.close()


async def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--players", type=int, default=1_000)
    ap.add_argument("--mesas", type=int, default=10_000)
    ap.add_argument("--requests", type=int, default=200, help="timed requests per kind of page")
    ap.add_argument("--db", help="a SQLite file or a postgresql:// URL (default: a temporary SQLite file)")
    args = ap.parse_args()
    tmp = Path(tempfile.mkdtemp(prefix="cuarenta-bench-web-"))
    path = args.db or str(tmp / "bench.db")
    store = await Store.open(path)
    now = [START]
    ratings = Ratings(store.db, clock=lambda: now[0])
    await ratings.set_settings(GUILD, min_games=10, active_days=3650)
    rng = random.Random(2026)
    t0 = time.perf_counter()
    mesas = await fill_mesas(store, ratings, now, args.mesas, args.players, rng)
    print(f"{len(mesas)} mesas among {args.players} players in {time.perf_counter() - t0:.1f} s; db {path}")
    t0 = time.perf_counter()
    competitions = await fill_competitions(store, rng)
    print(f"a 40-player league, a 64-player best-of-3 elimination, a 128-player Swiss ({competitions}) in"
          f" {time.perf_counter() - t0:.1f} s")
    await serve_and_time(store, ratings, mesas, competitions, args.players, args.requests, rng)
    await store.close()
    if not args.db:
        shutil.rmtree(tmp, ignore_errors=True)

if __name__ == "__main__":
    asyncio.run(main())
