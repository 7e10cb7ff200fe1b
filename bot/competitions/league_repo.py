"""SQL of the leagues (migration 0005) over the store's database (SQLite or PostgreSQL). Each write
is its own transaction (the draw is one), except `record_result`, which runs inside the transaction of a
mesa's last play: called by the table service's mesa hook in the same task, it joins that transaction and
commits or rolls back with the play."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from bot.store import Store, storable_id
from bot.store.db import Database, rows_of
from bot.tables import TableError

from .standings import MesaResult, Points, Row
from .standings import table as standings_table


class LeagueError(TableError):
    """A refused league action (an i18n key and its parameters)."""


@dataclass
class Side:
    """A league's player (1 v 1) or fixed pair (2 v 2), numbered in sign-up order.

    ``accepted`` is False for a pair whose second player has not accepted yet; ``removed`` once the
    organizer took the side out (its remaining fixtures became walkovers)."""

    side_no: int
    user1: int
    name1: str
    user2: int | None = None
    name2: str | None = None
    accepted: bool = True
    removed: bool = False
    locale1: str = "es"
    locale2: str = "es"

    @property
    def users(self) -> tuple[int, ...]:
        """The side's people."""
        return (self.user1,) if self.user2 is None else (self.user1, self.user2)

    @property
    def name(self) -> str:
        """``ana`` or ``ana y beto`` style (joined by " & ")."""
        return self.name1 if self.name2 is None else f"{self.name1} & {self.name2}"


@dataclass
class Fixture:
    """One mesa of the draw: ``side_a`` sits on team A. Status ``pending``, ``playing``, ``done``,
    ``walkover`` or ``double_loss``; ``winner`` a side number."""

    id: int
    round: int
    side_a: int
    side_b: int
    status: str = "pending"
    table_id: int | None = None
    winner: int | None = None
    chicas: tuple[int, int] = (0, 0)
    tantos: tuple[int, int] = (0, 0)
    zapateria: bool = False
    ready_a: float | None = None
    ready_b: float | None = None

    @property
    def resolved(self) -> bool:
        """It has a result (played, walkover or double loss)."""
        return self.status in ("done", "walkover", "double_loss")


@dataclass
class League:
    """A league and everything it holds (loaded whole: leagues are small)."""

    id: int
    guild_id: int
    channel_id: int
    name: str
    mode: str
    preset: str
    double: bool
    round_days: int
    win_points: int
    loss_points: int
    zapateria_bonus: int
    policy: str
    status: str
    organizer_id: int
    signup_message_id: int | None = None
    current_round: int = 0
    round_deadline: float | None = None
    reminded: bool = False
    sides: list[Side] = field(default_factory=list)
    fixtures: list[Fixture] = field(default_factory=list)
    byes: dict[int, int] = field(default_factory=dict)
    """round → side number sitting out."""

    @property
    def rounds(self) -> int:
        """How many rounds the draw has (0 before it)."""
        return max((f.round for f in self.fixtures), default=0)

    def side(self, side_no: int) -> Side:
        """The side with this number."""
        return next(s for s in self.sides if s.side_no == side_no)

    def side_of(self, user_id: int) -> Side | None:
        """The side a user belongs to (accepted or pending), if any."""
        return next((s for s in self.sides if user_id in s.users and not s.removed), None)


def league_table(league: League) -> list[Row[int]]:
    """A league's standings by side number, from its own resolved fixtures and points (`standings.table`):
    the service's, the messages' and the web page's one table."""
    results = [MesaResult(f.side_a, f.side_b, f.winner, f.chicas, f.tantos, f.zapateria)
               for f in league.fixtures if f.resolved]
    sides = [s.side_no for s in league.sides if s.accepted]
    return standings_table(sides, results, Points(league.win_points, league.loss_points, league.zapateria_bonus))


_LEAGUE_COLS = ("id, guild_id, channel_id, name, mode, preset, double, round_days, win_points, loss_points,"
                " zapateria_bonus, policy, status, organizer_id, signup_message_id, current_round,"
                " round_deadline, reminded")


class LeagueRepo:
    """Leagues, their sides and fixtures in the store."""

    def __init__(self, store: Store) -> None:
        self.store = store

    @property
    def _db(self) -> Database:
        return self.store.db

    async def _write(self, statements: Sequence[tuple[str, Sequence[object]]]) -> None:
        async with self._db.transaction():
            for sql, params in statements:
                await self._db.execute(sql, *params)

    async def create(self, league: League) -> int:
        """Insert a league; returns its id."""
        return await self._db.insert(
            "INSERT INTO leagues (guild_id, channel_id, name, mode, preset, double, round_days, win_points,"
            " loss_points, zapateria_bonus, policy, organizer_id) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            league.guild_id, league.channel_id, league.name, league.mode, league.preset, int(league.double),
            league.round_days, league.win_points, league.loss_points, league.zapateria_bonus, league.policy,
            league.organizer_id)

    async def save_league(self, league: League) -> None:
        """Store the league's own fields (status, round, deadline, message)."""
        await self._write([(
            "UPDATE leagues SET status = ?, signup_message_id = ?, current_round = ?, round_deadline = ?,"
            " reminded = ? WHERE id = ?",
            (league.status, league.signup_message_id, league.current_round, league.round_deadline,
             int(league.reminded), league.id))])

    async def save_side(self, league_id: int, side: Side) -> None:
        """Insert or update a side."""
        await self._write([(
            "INSERT INTO league_sides (league_id, side_no, user1, user2, name1, name2, accepted, removed, locale1,"
            " locale2) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (league_id, side_no) DO UPDATE SET"
            " user2 = excluded.user2, name2 = excluded.name2, accepted = excluded.accepted,"
            " removed = excluded.removed, locale2 = excluded.locale2",
            (league_id, side.side_no, side.user1, side.user2, side.name1, side.name2, int(side.accepted),
             int(side.removed), side.locale1, side.locale2))])

    async def replace_user(self, league_id: int, side: Side) -> None:
        """Store a side whose player was replaced (both players' columns)."""
        await self._write([(
            "UPDATE league_sides SET user1 = ?, name1 = ?, locale1 = ?, user2 = ?, name2 = ?, locale2 = ?"
            " WHERE league_id = ? AND side_no = ?",
            (side.user1, side.name1, side.locale1, side.user2, side.name2, side.locale2, league_id, side.side_no))])

    async def delete_side(self, league_id: int, side_no: int) -> None:
        """Drop a side that never became one (a declined or replaced invitation)."""
        await self._write([("DELETE FROM league_sides WHERE league_id = ? AND side_no = ?", (league_id, side_no))])

    async def draw(self, league: League) -> None:
        """Store the draw (fixtures and byes) and the league's new state, in one transaction; the
        fixtures get their ids."""
        async with self._db.transaction():
            for f in league.fixtures:
                f.id = await self._db.insert(
                    "INSERT INTO league_fixtures (league_id, round, side_a, side_b) VALUES (?, ?, ?, ?)",
                    league.id, f.round, f.side_a, f.side_b)
            for rnd, side_no in league.byes.items():
                await self._db.execute("INSERT INTO league_byes (league_id, round, side_no) VALUES (?, ?, ?)",
                                       league.id, rnd, side_no)
            await self._db.execute(
                "UPDATE leagues SET status = ?, current_round = ?, round_deadline = ?, reminded = 0 WHERE id = ?",
                league.status, league.current_round, league.round_deadline, league.id)

    async def save_fixture(self, fixture: Fixture) -> None:
        """Store a fixture's state."""
        await self._write([(_FIXTURE_UPDATE, _fixture_params(fixture))])

    async def record_result(self, fixture: Fixture) -> None:
        """Store a played fixture's result inside the caller's open transaction (it commits with it)."""
        await self._db.execute(_FIXTURE_UPDATE, *_fixture_params(fixture))

    async def open_leagues(self) -> list[League]:
        """Every league in sign-up or running, whole."""
        async with rows_of(self._db, f"SELECT {_LEAGUE_COLS} FROM leagues WHERE status IN ('signup', 'running')"
                                    " ORDER BY id") as cursor:
            rows = await cursor.fetchall()
        return [await self._whole(row) for row in rows]

    async def status_of(self, league_id: int) -> tuple[int, str, str] | None:
        """``(guild_id, status, name)`` of a league of any status, or None when there is no such league."""
        if not storable_id(league_id):
            return None
        async with rows_of(self._db, "SELECT guild_id, status, name FROM leagues WHERE id = ?", (league_id,)) as cursor:
            row = await cursor.fetchone()
        return (int(row[0]), str(row[1]), str(row[2])) if row else None

    async def leagues_of(self, guild_id: int) -> list[League]:
        """Every league of a server (any status), whole, newest first."""
        async with rows_of(self._db, f"SELECT {_LEAGUE_COLS} FROM leagues WHERE guild_id = ? ORDER BY id DESC",
                                    (guild_id,)) as cursor:
            rows = await cursor.fetchall()
        return [await self._whole(row) for row in rows]

    async def league_of(self, guild_id: int, league_id: int) -> League | None:
        """League ``league_id`` of server ``guild_id`` (any status), whole; None when it is another server's
        or there is none."""
        if not storable_id(league_id):
            return None
        async with rows_of(self._db, f"SELECT {_LEAGUE_COLS} FROM leagues WHERE id = ? AND guild_id = ?",
                                    (league_id, guild_id)) as cursor:
            row = await cursor.fetchone()
        return await self._whole(row) if row is not None else None

    async def _whole(self, row: Sequence[Any]) -> League:  # a database row: the columns of _LEAGUE_COLS
        league = League(int(row[0]), int(row[1]), int(row[2]), str(row[3]), str(row[4]), str(row[5]),
                        bool(row[6]), int(row[7]), int(row[8]), int(row[9]), int(row[10]), str(row[11]),
                        str(row[12]), int(row[13]), int(row[14]) if row[14] is not None else None,
                        int(row[15]), float(row[16]) if row[16] is not None else None, bool(row[17]))
        async with rows_of(self._db, "SELECT side_no, user1, name1, user2, name2, accepted, removed, locale1, locale2"
                                    " FROM league_sides WHERE league_id = ? ORDER BY side_no", (league.id,)) as cursor:
            league.sides = [Side(int(r[0]), int(r[1]), str(r[2]), int(r[3]) if r[3] is not None else None,
                                 str(r[4]) if r[4] is not None else None, bool(r[5]), bool(r[6]), str(r[7]),
                                 str(r[8]))
                            for r in await cursor.fetchall()]
        async with rows_of(self._db,
                "SELECT id, round, side_a, side_b, status, table_id, winner, chicas_a, chicas_b, tantos_a, tantos_b,"
                " zapateria, ready_a, ready_b FROM league_fixtures WHERE league_id = ? ORDER BY round, id",
                (league.id,)) as cursor:
            league.fixtures = [Fixture(int(r[0]), int(r[1]), int(r[2]), int(r[3]), str(r[4]),
                                       int(r[5]) if r[5] is not None else None, int(r[6]) if r[6] is not None else None,
                                       (int(r[7]), int(r[8])), (int(r[9]), int(r[10])), bool(r[11]),
                                       float(r[12]) if r[12] is not None else None,
                                       float(r[13]) if r[13] is not None else None)
                               for r in await cursor.fetchall()]
        async with rows_of(self._db, "SELECT round, side_no FROM league_byes WHERE league_id = ? ORDER BY round",
                                    (league.id,)) as cursor:
            league.byes = {int(r[0]): int(r[1]) for r in await cursor.fetchall()}
        return league


_FIXTURE_UPDATE = ("UPDATE league_fixtures SET status = ?, table_id = ?, winner = ?, chicas_a = ?, chicas_b = ?,"
                   " tantos_a = ?, tantos_b = ?, zapateria = ?, ready_a = ?, ready_b = ? WHERE id = ?")


def _fixture_params(f: Fixture) -> tuple[object, ...]:
    return (f.status, f.table_id, f.winner, f.chicas[0], f.chicas[1], f.tantos[0], f.tantos[1], int(f.zapateria),
            f.ready_a, f.ready_b, f.id)
