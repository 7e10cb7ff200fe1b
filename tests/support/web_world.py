"""A database filled by real play, for the web pages' tests: whole mesas played through the table service
(every play legal, chosen at random from a seed; chicas recorded and rated by the service itself), two
seasons, a 1 v 1 league played to its champion (one fixture decided at the deadline), a single elimination
with a bye and best-of-3 matches, and a Swiss; and a second server, which never opted in to the web pages,
with mesas, a league and a tournament of its own.

No Discord: the services run on a `ManualClock`, with a presenter that opens a place for each table and
records what it was told. `build(path)` writes the SQLite database at ``path`` and returns a `WebWorld`
naming what is in it.
"""

from __future__ import annotations

import itertools
import random
from dataclasses import dataclass, field
from typing import Any

from bot.competitions.leagues import LeagueService
from bot.competitions.referee import Place
from bot.competitions.tournaments import TournamentService
from bot.store import Store
from bot.tables import Played, TableService
from bot.tables.timers import ManualClock

GUILD = 1_400_000_000_000_000_001
"""The server that turned the web pages on."""
OTHER = 1_400_000_000_000_000_002
"""A server that never did: every page of it answers 404."""
CHANNEL, OTHER_CHANNEL = 1_400_000_000_000_000_011, 1_400_000_000_000_000_012
NAMES = ("ana", "beto", "caro", "dani", "eva", "fede", "gabi", "hugo")
PLAYERS = {name: 1_100_000_000_000_001_000 + i for i, name in enumerate(NAMES)}
"""The members of `GUILD`: display name → user id."""
OTHERS = {name: 1_100_000_000_000_002_000 + i for i, name in enumerate(("iris", "juan", "kike", "lola"))}
"""The members of `OTHER`."""
DAY = 86400.0


@dataclass
class WebWorld:
    """What `build` put in the database.

    Attributes:
        path: the SQLite file. mesas: the finished tables of `GUILD` (table ids, in the order played), and
        other_mesas those of `OTHER`. seasons: the numbers of `GUILD`'s seasons (the last is current).
        league, other_league: the finished 1 v 1 league of each server. elimination, swiss: `GUILD`'s
        finished tournaments; other_tournament: `OTHER`'s. in_play: a table of `GUILD` still in play
        (no page may show it). names: user id → display name, both servers.
    """

    path: str
    mesas: list[int] = field(default_factory=list)
    other_mesas: list[int] = field(default_factory=list)
    seasons: list[int] = field(default_factory=list)
    league: int = 0
    other_league: int = 0
    elimination: int = 0
    swiss: int = 0
    other_tournament: int = 0
    in_play: int = 0
    names: dict[int, str] = field(default_factory=dict)


class _Presenter:
    """The Discord side of the competitions, reduced to a place for each table; the rest is recorded."""

    def __init__(self) -> None:
        self.told: list[str] = []
        self._places = itertools.count(1)

    def __getattr__(self, name: str) -> Any:
        async def record(*_args: Any, **_kwargs: Any) -> None:
            self.told.append(name)
        return record

    async def make_channel(self, competition: Any, _item: Any) -> Place:
        return Place(competition.channel_id * 0 + 1_400_000_000_000_100_000 + next(self._places), "Quito Club",
                     "partida")


async def _inline(func: Any, *args: Any) -> Any:
    return func(*args)


class Builder:
    """The services that play for real, over ``store``, without Discord: a `TableService`, a
    `LeagueService` and a `TournamentService` on one `ManualClock` (``clock``; advance it to reach a
    deadline), plays chosen by a `random.Random` of ``seed``. `close` stops the services (not the store)."""

    def __init__(self, store: Store, seed: int) -> None:
        self.rng = random.Random(seed)
        self.clock = ManualClock()
        seeds = itertools.count(1)
        self.tables = TableService(store, ai_delay=0, seed_factory=lambda: f"web-{next(seeds)}", offload=_inline,
                                   clock=self.clock)
        self.clock.watch(self.tables._tasks)
        self.presenter = _Presenter()
        self.leagues = LeagueService(store, self.tables, self.clock, presenter=self.presenter)  # type: ignore[arg-type]
        self.tours = TournamentService(store, self.tables, self.clock, presenter=self.presenter)  # type: ignore[arg-type]
        for service in (self.leagues, self.tours):
            self.clock.watch(service._tasks)

    async def close(self) -> None:
        """Stop the services (the store stays open)."""
        await self.tours.close()
        await self.leagues.close()
        await self.tables.close()

    async def play_out(self, table_id: int, *, until: int | None = None) -> None:
        """Every play of the table's mesa, chosen at random among the legal ones (``until`` plays at most)."""
        table = self.tables.get(table_id)
        made = 0
        while table.status != "finished" and (until is None or made < until):
            game = table.game
            assert game is not None
            seat = game.to_play
            assert seat is not None
            play = self.rng.choice(game.legal_plays())
            captures = " ".join(c.code for c in play.sorted_captures()) if play.captures else None
            result = await self.tables.play(table.id, user_id=table.seats[seat].user_id, nonce=table.nonce,
                                            card=play.card.code, trail=play.is_trail, captures=captures)
            assert isinstance(result, Played), result
            made += 1
        await self.clock.settle()

    async def mesa(self, guild: int, channel: int, users: list[tuple[str, int]], *, preset: str = "rapido",
                   finish: bool = True) -> int:
        """A table of ``users`` (2 or 4, seated in order: teams alternate) started and played out."""
        host_name, host = users[0]
        table = await self.tables.create(guild_id=guild, channel_id=channel, user_id=host, name=host_name,
                                         locale="es", players=len(users), preset=preset,
                                         guild_name="Quito Club", channel_name="cuarenta")
        for i, (name, user) in enumerate(users[1:], start=1):
            await self.tables.join(table.id, user_id=user, name=name, locale="es", team=i % 2)
        if self.tables.get(table.id).status == "lobby":  # a full table may have started by itself
            await self.tables.start(table.id, user_id=host)
        await self.play_out(table.id, until=None if finish else 6)
        return table.id

    async def mesas(self, guild: int, channel: int, people: dict[str, int], count: int) -> list[int]:
        """``count`` mesas among ``people``: two 1 v 1 for each 2 v 2, players drawn at random."""
        made = []
        pool = list(people.items())
        for i in range(count):
            seats = self.rng.sample(pool, 4 if i % 3 == 2 else 2)
            made.append(await self.mesa(guild, channel, seats))
        return made

    async def competition_tables(self, service: Any, competition: Any, items: list[Any]) -> None:
        """Both sides press «Jugar» on each item of the round (fixtures or matches) and play it out."""
        for item in items:
            if item.resolved:
                continue
            a, b = (item.side_a, item.side_b) if hasattr(item, "side_a") else (item.a_user, item.b_user)
            if b is None:
                continue
            users = ((competition.side(a).user1, competition.side(b).user1) if hasattr(item, "side_a")
                     else (a, b))
            while not item.resolved:
                for user in users:
                    await service.play(competition, user_id=user)
                assert item.table_id is not None
                await self.play_out(item.table_id)


async def build(path: str, *, seed: int = 35) -> WebWorld:
    """Fill a new SQLite database at ``path`` (see the module's docstring); what is in it."""
    store = await Store.open(path)
    b = Builder(store, seed)
    world = WebWorld(path=path, names={**{v: k for k, v in PLAYERS.items()}, **{v: k for k, v in OTHERS.items()}})
    try:
        await b.tables.ratings.set_settings(GUILD, min_games=4)  # some players ranked, some provisional
        world.mesas += await b.mesas(GUILD, CHANNEL, PLAYERS, 6)
        await b.tables.ratings.start_season(GUILD, "Temporada 2")
        world.mesas += await b.mesas(GUILD, CHANNEL, PLAYERS, 6)
        world.seasons = [s.number for s in await b.tables.ratings.seasons(GUILD)]
        world.other_mesas += await b.mesas(OTHER, OTHER_CHANNEL, OTHERS, 2)
        world.league = await _league(b, GUILD, CHANNEL, PLAYERS, ["ana", "beto", "caro", "dani"], deadline=True)
        world.other_league = await _league(b, OTHER, OTHER_CHANNEL, OTHERS, list(OTHERS)[:2], deadline=False)
        world.elimination = await _tournament(b, GUILD, CHANNEL, PLAYERS, list(NAMES)[:6], "elimination", 3)
        world.swiss = await _tournament(b, GUILD, CHANNEL, PLAYERS, list(NAMES)[:5], "swiss", 1)
        world.other_tournament = await _tournament(b, OTHER, OTHER_CHANNEL, OTHERS, list(OTHERS)[:2],
                                                   "elimination", 1)
        world.in_play = await b.mesa(GUILD, CHANNEL, [("eva", PLAYERS["eva"]), ("fede", PLAYERS["fede"])],
                                     finish=False)
    finally:
        await b.close()
        await store.close()
    return world


async def _league(b: Builder, guild: int, channel: int, people: dict[str, int], names: list[str], *,
                  deadline: bool) -> int:
    """A 1 v 1 league of ``names`` played to its champion; with ``deadline``, the last round's first fixture
    is decided at the deadline (one side pressed «Jugar», the other never did: a walkover)."""
    organizer = people[names[0]]
    league = await b.leagues.create(guild_id=guild, channel_id=channel, organizer_id=organizer,
                                    name="Liga de Quito", mode="1v1", preset="rapido")
    for name in names:
        await b.leagues.sign_up(league, user_id=people[name], name=name, locale="es")
    await b.leagues.close_signup(league, user_id=organizer, can_manage=True)
    while league.status == "running":
        rnd = league.current_round
        fixtures = [f for f in league.fixtures if f.round == rnd and f.status == "pending"]
        last = all(f.round <= rnd for f in league.fixtures)
        if deadline and last and fixtures:
            walkover, fixtures = fixtures[0], fixtures[1:]
            await b.leagues.play(league, user_id=league.side(walkover.side_a).user1)
        await b.competition_tables(b.leagues, league, fixtures)
        if league.status == "running" and league.current_round == rnd:
            await b.clock.advance(league.round_days * DAY + 60)  # the deadline decides what is left
    assert league.status == "finished", league.status
    return league.id


async def _tournament(b: Builder, guild: int, channel: int, people: dict[str, int], names: list[str],
                      fmt: str, best_of: int) -> int:
    """A tournament of ``names`` played out to its champion (Swiss: 3 rounds)."""
    organizer = people[names[0]]
    t = await b.tours.create(guild_id=guild, channel_id=channel, organizer_id=organizer,
                             name="Copa Pichincha" if fmt == "elimination" else "Suizo de Quito", format=fmt,
                             swiss_rounds=3 if fmt == "swiss" else 0, best_of=best_of, preset="rapido")
    for name in names:
        await b.tours.sign_up(t, user_id=people[name], name=name, locale="es")
    await b.tours.close_signup(t, user_id=organizer, can_manage=True)
    for _ in range(20):
        if t.status != "running":
            break
        rnd = t.current_round
        await b.competition_tables(b.tours, t, [m for m in t.matches if m.round == rnd])
    assert t.status == "finished", t.status
    return t.id
