"""The ratings repository: stores finished chicas, rates them exactly once, and answers the leaderboard,
stats, history, season and settings questions. Plain values in, frozen dataclasses out.

It runs its SQL through the store's `bot.store.db.Database` (``store.db``), so the same code serves SQLite
and PostgreSQL:

- `Ratings.record_chica` opens a transaction when this task has none open. When the caller already has
  one (the store writing the play that ended the chica), it runs in a savepoint of it, so the rating
  commits — or rolls back — with the game, and a failure of the rating alone undoes only the rating.
  Either way the UNIQUE key ``chicas(table_id, chica_number)`` makes a retry after a restart a no-op.
- Season changes and settings writes follow the same rule; reads take no transaction.
- On PostgreSQL, where several bot processes may share the database, every rating and season change
  first takes the guild's advisory lock (`_lock_guild`), so two processes never rewrite the same ratings
  at once. On SQLite the one writer already serializes them.

Every query is scoped by guild: nothing from one server is visible from another.
"""

from __future__ import annotations

import json
import math
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any, TypeVar

from bot.engine import PRESET_NAMES
from bot.store import storable_id
from bot.store.db import Database

from .results import ChicaResult
from .skill import (
    AI_RATING,
    MODES,
    MU0,
    RESET_POLICIES,
    SIGMA0,
    Standing,
    display_rating,
    inflate_sigma,
    is_provisional,
    rate,
    season_reset,
    standing,
)

SCHEMA_PATH = Path(__file__).parents[1] / "store" / "migrations" / "0002_ratings.sql"
"""The ratings schema: migration 2 of the bot's store."""

PAGE_SIZE = 10
"""Leaderboard rows per page."""
LANGUAGES: tuple[str, ...] = ("es", "en")
"""Public languages a server may choose."""

_T = TypeVar("_T")


class RatingsError(ValueError):
    """A request the ratings repository refuses (bad setting, unknown season, nothing to close)."""


class UnknownSeasonError(RatingsError):
    """The guild has no season with that number."""


class NoCurrentSeasonError(RatingsError):
    """``end_season`` was asked but the guild has no open season (no chica was ever recorded)."""


# ---------------------------------------------------------------------------------------- values


def _iso(dt: datetime) -> str:
    return dt.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def _dt(text: str | None) -> datetime | None:
    return datetime.fromisoformat(text) if text else None


def _now() -> datetime:
    return datetime.now(UTC).replace(microsecond=0)


@dataclass(frozen=True)
class Settings:
    """A server's settings (the defaults when it never changed them).

    Attributes:
        language: the public language (``"es"``/``"en"``), None when never chosen.
        rate_bots: chicas with a computer player are rated (default False: casual).
        min_games: rated chicas needed this season to appear on the leaderboard (default 10).
        active_days: a rated chica within this many days is needed to appear (default 30; 0 = no rule).
        reset_policy: ``"none"``, ``"soft"`` (default) or ``"hard"``, applied when a season starts.
        default_preset: the rules preset of new tables (default ``"quito"``).
    """

    language: str | None = None
    rate_bots: bool = False
    min_games: int = 10
    active_days: int = 30
    reset_policy: str = "soft"
    default_preset: str = "quito"


SETTING_NAMES: tuple[str, ...] = ("language", "rate_bots", "min_games", "active_days", "reset_policy",
                                  "default_preset")


@dataclass(frozen=True)
class Season:
    """A season of one guild. ``number`` (1, 2, …) is what users name; ``id`` is internal.

    ``name`` is None when the server gave none (show "Season N"). ``ended_at`` is None for the current
    season. ``reset_policy`` is the reset applied when it started.
    """

    id: int
    guild_id: int
    number: int
    name: str | None
    reset_policy: str
    started_at: datetime
    ended_at: datetime | None

    @property
    def current(self) -> bool:
        """True while the season is open."""
        return self.ended_at is None


@dataclass(frozen=True)
class BoardRow:
    """One leaderboard row.

    Attributes:
        rank: 1-based.
        user_id: the Discord user.
        rating: the shown rating ``1500 + 24·(μ − 3σ)``.
        provisional: σ > 6 (show "?").
        wins, losses, games: rated chicas this season in this mode (games = wins + losses).
        win_rate: wins / games, 0.0–1.0.
        last_active: time of the last rated chica.
    """

    rank: int
    user_id: int
    rating: int
    provisional: bool
    wins: int
    losses: int
    games: int
    win_rate: float
    last_active: datetime | None


@dataclass(frozen=True)
class ViewerRank:
    """The caller's place for the footer.

    ``standing`` is RANKED (then ``rank`` is set), FEW_GAMES ("unranked: games/min_games games") or
    INACTIVE (no rated chica within ``active_days``). ``rating`` is None when they never played this
    season and mode.
    """

    user_id: int
    standing: Standing
    rank: int | None
    games: int
    min_games: int
    active_days: int
    rating: int | None
    provisional: bool


@dataclass(frozen=True)
class Leaderboard:
    """One leaderboard page.

    Attributes:
        season: the season shown, None when the guild has none yet (then everything is empty).
        mode: ``"1v1"`` or ``"2v2"``.
        page: the 0-based page actually shown (clamped into range).
        pages: number of pages (at least 1).
        total: ranked players.
        rows: up to `PAGE_SIZE` rows.
        viewer: the caller's rank or progress, None when no viewer was given.
        frozen: True for a closed season (its standings as they were at the close).
        min_games, active_days: the rules used (the current settings; for a closed season, the settings
            at close time are baked into the frozen ranks).
    """

    season: Season | None
    mode: str
    page: int
    pages: int
    total: int
    rows: list[BoardRow]
    viewer: ViewerRank | None
    frozen: bool
    min_games: int
    active_days: int


@dataclass(frozen=True)
class RatingChange:
    """A player's shown rating before (as the leaderboard showed it) and after a rated chica, and the new
    raw μ/σ. ``delta`` includes the effect of idle-time σ growth, so it matches what the board shows."""

    user_id: int
    before: int
    after: int
    mu: float
    sigma: float

    @property
    def delta(self) -> int:
        """``after − before``."""
        return self.after - self.before


@dataclass(frozen=True)
class Recorded:
    """What `Ratings.record_chica` did. ``bool(recorded)`` is ``recorded.rated``.

    Attributes:
        stored: the chica was new and is now stored (False: it was already there; nothing changed).
        rated: it was stored AND rated just now.
        season_number: the season it counted in (None when it was already stored).
        changes: per rated player, in seat order; empty when not rated.
    """

    stored: bool
    rated: bool
    season_number: int | None = None
    changes: tuple[RatingChange, ...] = ()

    def __bool__(self) -> bool:
        return self.rated


@dataclass(frozen=True)
class ModeStats:
    """A user's numbers in one mode of one guild (all seasons, rated and casual unless noted).

    ``rating``/``provisional``/``peak`` are the current season's (None when not rated this season);
    ``best_peak`` is the highest shown rating of any season. ``best_streak`` counts chicas won in a row.
    """

    mode: str
    mesas: int
    mesas_won: int
    chicas: int
    chicas_won: int
    rated_chicas: int
    win_rate: float
    best_streak: int
    rating: int | None
    provisional: bool
    peak: int | None
    best_peak: int | None


@dataclass(frozen=True)
class ChicaLine:
    """One chica in a user's recent results (scores from the user's side: own team first).

    ``partners``/``opponents`` are user ids, None for a computer player. ``change`` is the shown-rating
    change when it was rated.
    """

    table_id: int
    chica_number: int
    mode: str
    won: bool
    scores: tuple[int, int]
    zapatero: bool
    rated: bool
    change: int | None
    partners: tuple[int | None, ...]
    opponents: tuple[int | None, ...]
    finished_at: datetime


@dataclass(frozen=True)
class PlayerStats:
    """`/cuarenta stats`: a user's record in one guild.

    Attributes:
        modes: per mode (``"1v1"``, ``"2v2"``), always both keys.
        mesas, mesas_won, chicas, chicas_won: totals over both modes.
        caidas, limpias, rondas, doble_rondas: counted over all their chicas.
        zapateros_given, zapateros_suffered: chicas won / lost by zapatero.
        best_streak: most chicas won in a row (both modes together).
        last_results: the last 10 chicas, newest first.
        partner: ``(user_id, chicas together)`` of the most frequent human partner, None if none.
    """

    guild_id: int
    user_id: int
    modes: dict[str, ModeStats]
    mesas: int
    mesas_won: int
    chicas: int
    chicas_won: int
    caidas: int
    limpias: int
    rondas: int
    doble_rondas: int
    zapateros_given: int
    zapateros_suffered: int
    best_streak: int
    last_results: list[ChicaLine]
    partner: tuple[int, int] | None


@dataclass(frozen=True)
class MesaLine:
    """One finished mesa in `/cuarenta history` (from the user's side: own team first).

    Attributes:
        table_id: replay it with ``Game.replay(rules, players, seed, Store.plays(table_id))``, where the
            rules are the preset with the table's house rules (``tables.meta["house"]``) on top.
        chicas: chicas won per side; ``chica_scores`` the points of each chica, in order.
        seats: user id per seat (None for a computer), as stored in ``mesas.seats``.
    """

    table_id: int
    mode: str
    preset: str
    seed: str
    won: bool
    chicas: tuple[int, int]
    chica_scores: list[tuple[int, int]]
    zapateria: bool
    partners: tuple[int | None, ...]
    opponents: tuple[int | None, ...]
    seats: list[int | None]
    finished_at: datetime
    house: bool = False
    """The mesa was played under house rules (``tables.meta``)."""


@dataclass(frozen=True)
class SeasonClose:
    """The result of closing a season: the closed season, its top 10 per mode, and the new season."""

    closed: Season
    top: dict[str, list[BoardRow]]
    next: Season


# ---------------------------------------------------------------------------------------- SQL helpers


async def _lock_guild(db: Database, guild_id: int) -> None:
    """Inside a transaction on PostgreSQL: wait for, then hold until the transaction ends, the guild's
    ratings lock (a transaction-scoped advisory lock), so two bot processes never read and rewrite the
    same ratings, or open the same season, at once. On SQLite the one writer already serializes them."""
    if db.dialect == "postgresql":
        await db.execute("SELECT pg_advisory_xact_lock(40, ?)", guild_id % 2**31)


async def _settings(db: Database, guild_id: int) -> Settings:
    row = await db.fetchrow(
        "SELECT language, rate_bots, min_games, active_days, reset_policy, default_preset"
        " FROM guild_settings WHERE guild_id = ?", guild_id,
    )
    if row is None:
        return Settings()
    return Settings(row[0], bool(row[1]), row[2], row[3], row[4], row[5])


_SEASON_COLS = "id, guild_id, number, name, reset_policy, started_at, ended_at"


def _season(row: Sequence[Any]) -> Season:
    return Season(row[0], row[1], row[2], row[3], row[4], _dt(row[5]), _dt(row[6]))  # type: ignore[arg-type]


async def _current_season(db: Database, guild_id: int) -> Season | None:
    row = await db.fetchrow(f"SELECT {_SEASON_COLS} FROM seasons WHERE guild_id = ? AND ended_at IS NULL",
                            guild_id)
    return _season(row) if row else None


async def _find_season(db: Database, guild_id: int, number: int | None) -> Season | None:
    if number is None:
        return await _current_season(db, guild_id)
    if not storable_id(number):
        raise UnknownSeasonError(f"no season {number} in this server")
    row = await db.fetchrow(f"SELECT {_SEASON_COLS} FROM seasons WHERE guild_id = ? AND number = ?",
                            guild_id, number)
    if row is None:
        raise UnknownSeasonError(f"no season {number} in this server")
    return _season(row)


async def _open_season(db: Database, guild_id: int, number: int, name: str | None, policy: str,
                       when: datetime) -> Season:
    season_id = await db.insert(
        "INSERT INTO seasons (guild_id, number, name, reset_policy, started_at) VALUES (?, ?, ?, ?, ?)",
        guild_id, number, name, policy, _iso(when),
    )
    return Season(season_id, guild_id, number, name, policy, _dt(_iso(when)), None)  # type: ignore[arg-type]


def _cutoff(now: datetime, active_days: int) -> str:
    return _iso(now - timedelta(days=active_days)) if active_days > 0 else ""


def _board_row(rank: int, row: Sequence[Any]) -> BoardRow:
    user_id, display, sigma, games, wins, losses, last_active = row
    return BoardRow(rank, user_id, display, is_provisional(sigma), wins, losses, games,
                    wins / games if games else 0.0, _dt(last_active))


_LIVE_ORDER = "ORDER BY display DESC, user_id"
_LIVE_WHERE = "season_id = ? AND mode = ? AND games >= ? AND last_active >= ?"


async def _live_page(db: Database, season_id: int, mode: str, min_games: int, cutoff: str,
                     limit: int, offset: int) -> list[BoardRow]:
    rows = await db.fetch(
        f"SELECT user_id, display, sigma, games, wins, losses, last_active FROM ratings"
        f" WHERE {_LIVE_WHERE} {_LIVE_ORDER} LIMIT ? OFFSET ?",
        season_id, mode, min_games, cutoff, limit, offset,
    )
    return [_board_row(offset + i + 1, r) for i, r in enumerate(rows)]


# ---------------------------------------------------------------------------------------- the repository


class Ratings:
    """Ratings, leaderboards, stats, history, seasons and server settings over the bot's database.

    Args:
        db: the open `bot.store.db.Database` (``store.db``; schema at or past this package's migration).
        clock: returns the current aware UTC time (tests pass a fixed clock).
    """

    def __init__(self, db: Database, clock: Callable[[], datetime] = _now) -> None:
        self._db = db
        self._clock = clock

    async def _write(self, fn: Callable[..., Awaitable[_T]], *args: Any) -> _T:
        """Run the write job ``fn(db, *args)`` atomically: in its own transaction, or, when this task
        already has one open (the store saving the play that ended a chica), in a savepoint of it, which
        the caller's commit makes durable. If ``fn`` raises, its writes are undone and nothing else: the
        caller's transaction goes on (the table service logs the failure and still saves the play)."""
        async with self._db.transaction():
            return await fn(self._db, *args)

    async def _run(self, fn: Callable[..., Awaitable[_T]], *args: Any) -> _T:
        """Run the read job ``fn(db, *args)`` (no transaction)."""
        return await fn(self._db, *args)

    # ------------------------------------------------------------------ recording

    async def record_chica(self, result: ChicaResult) -> Recorded:
        """Store a finished chica and, when it counts, rate it — atomically and exactly once.

        The chica goes into the guild's current season (season 1 is opened on the first chica). It is
        rated when every seat is a person, or when the server turned ``rate_bots`` on and at least one
        seat is a person; computer players then play as a fixed anchor (μ 25, σ 25/3) that never changes.
        Before rating, a player's σ grows with the days since their last rated chica
        (`skill.inflate_sigma`).

        If this task already has a transaction open, this runs in a savepoint of it and the caller's
        commit makes it durable (if this raises, only its own writes are undone); otherwise it commits
        its own.

        Returns:
            `Recorded`; ``bool(result)`` is True only when it rated now. A chica already stored (same
            ``table_id``, ``chica_number``) returns ``stored=False`` and changes nothing.

        Raises:
            RatingsError: that (table_id, chica_number) is already stored for another guild.
        """
        return await self._write(_record, result)

    async def record_chicas(self, results: Sequence[ChicaResult]) -> list[Recorded]:
        """`record_chica` for several chicas in one transaction, in order (for catching up after a
        restart: pass every `chica_results` of a table; the ones already stored are skipped)."""
        async def many(db: Database) -> list[Recorded]:
            return [await _record(db, r) for r in results]
        return await self._write(many)

    # ------------------------------------------------------------------ reads

    async def leaderboard(self, guild_id: int, mode: str, *, season: int | None = None, page: int = 0,
                          viewer: int | None = None) -> Leaderboard:
        """One page of the leaderboard.

        Args:
            guild_id: the server.
            mode: ``"1v1"`` or ``"2v2"``.
            season: season number; None for the current one. A closed season shows its frozen standings.
            page: 0-based page; clamped into ``[0, pages − 1]``.
            viewer: the caller's user id, for the footer (their rank, or progress to being ranked).

        Raises:
            RatingsError: unknown mode. UnknownSeasonError: no such season number in this guild.
        """
        _check_mode(mode)
        return await self._run(_leaderboard, guild_id, mode, season, page, viewer, self._clock())

    async def stats(self, guild_id: int, user_id: int) -> PlayerStats:
        """A user's record in a guild (see `PlayerStats`); zeros for a user who never played there."""
        return await self._run(_stats, guild_id, user_id)

    async def history(self, guild_id: int, user_id: int, *, limit: int = 10,
                      offset: int = 0) -> list[MesaLine]:
        """A user's finished mesas in a guild, newest first (``limit`` per call from ``offset``).

        Only mesas with a row in ``mesas`` (finished) that have at least one recorded chica are listed.
        """
        return await self._run(_history, guild_id, user_id, max(0, limit), max(0, offset))

    # ------------------------------------------------------------------ seasons

    async def current_season(self, guild_id: int) -> Season | None:
        """The open season, or None before the first recorded chica / season start."""
        return await self._run(_current_season, guild_id)

    async def seasons(self, guild_id: int) -> list[Season]:
        """Every season of the guild, oldest first."""
        async def all_seasons(db: Database) -> list[Season]:
            rows = await db.fetch(f"SELECT {_SEASON_COLS} FROM seasons WHERE guild_id = ? ORDER BY number",
                                  guild_id)
            return [_season(r) for r in rows]
        return await self._run(all_seasons)

    async def start_season(self, guild_id: int, name: str | None) -> SeasonClose | Season:
        """Start a new named season (Manage Server).

        If a season is open it is closed first, exactly as `end_season` does, and the new one gets
        ``name``; the result is then a `SeasonClose`. With no season yet, the first season is opened with
        no reset and returned as a `Season`.

        Raises:
            RatingsError: name longer than 64 characters.
        """
        name = _check_name(name)
        when = self._clock()

        async def start(db: Database) -> SeasonClose | Season:
            await _lock_guild(db, guild_id)
            if await _current_season(db, guild_id) is None:
                last = await db.fetchval("SELECT MAX(number) FROM seasons WHERE guild_id = ?", guild_id)
                return await _open_season(db, guild_id, (last or 0) + 1, name, "hard", when)
            return await _close(db, guild_id, name, when)
        return await self._write(start)

    async def end_season(self, guild_id: int, next_name: str | None = None) -> SeasonClose:
        """Close the current season (Manage Server): freeze its standings with the current eligibility
        settings, and open the next season (``next_name``, default unnamed) with the server's reset
        policy applied to every rating of the closed season.

        Returns:
            `SeasonClose` with the top 10 of each mode to post.

        Raises:
            NoCurrentSeasonError: no open season.
        """
        next_name = _check_name(next_name)
        when = self._clock()

        async def end(db: Database) -> SeasonClose:
            await _lock_guild(db, guild_id)
            return await _close(db, guild_id, next_name, when)
        return await self._write(end)

    # ------------------------------------------------------------------ settings

    async def settings(self, guild_id: int) -> Settings:
        """The guild's settings (defaults for a guild that never changed any)."""
        return await self._run(_settings, guild_id)

    async def set_settings(self, guild_id: int, **changes: Any) -> Settings:
        """Change some settings (names as in `Settings`); return them all.

        Raises:
            RatingsError: unknown name, or a value out of range (``min_games`` 0–1000, ``active_days``
                0–3650, ``reset_policy`` none/soft/hard, ``default_preset`` a preset name, ``language``
                es/en, ``rate_bots`` a bool).
        """
        values = _check_settings(changes)

        async def write(db: Database) -> Settings:
            if values:
                cols = ", ".join(values)
                marks = ", ".join("?" for _ in values)
                updates = ", ".join(f"{c} = excluded.{c}" for c in values)
                await db.execute(f"INSERT INTO guild_settings (guild_id, {cols}) VALUES (?, {marks})"
                                 f" ON CONFLICT (guild_id) DO UPDATE SET {updates}", guild_id, *values.values())
            return await _settings(db, guild_id)
        return await self._write(write)


# ---------------------------------------------------------------------------------------- validation


def _check_mode(mode: str) -> None:
    if mode not in MODES:
        raise RatingsError(f"unknown mode {mode!r}; choose 1v1 or 2v2")


def _check_name(name: str | None) -> str | None:
    if name is None:
        return None
    name = name.strip()
    if len(name) > 64:
        raise RatingsError("a season name has at most 64 characters")
    return name or None


def _check_settings(changes: dict[str, Any]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in changes.items():
        if key == "rate_bots":
            if not isinstance(value, bool):
                raise RatingsError("rate_bots must be True or False")
            value = int(value)
        elif key in ("min_games", "active_days"):
            top = 1000 if key == "min_games" else 3650
            if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= top:
                raise RatingsError(f"{key} must be a whole number from 0 to {top}")
        elif key == "reset_policy":
            if value not in RESET_POLICIES:
                raise RatingsError(f"reset_policy must be one of {', '.join(RESET_POLICIES)}")
        elif key == "default_preset":
            if value not in PRESET_NAMES:
                raise RatingsError(f"default_preset must be one of {', '.join(PRESET_NAMES)}")
        elif key == "language":
            if value not in LANGUAGES:
                raise RatingsError(f"language must be one of {', '.join(LANGUAGES)}")
        else:
            raise RatingsError(f"unknown setting {key!r}; choose from {', '.join(SETTING_NAMES)}")
        out[key] = value
    return out


# ---------------------------------------------------------------------------------------- record


_RATING_STATE = ("mu", "sigma", "display", "games", "wins", "losses", "streak", "best_streak", "peak",
                 "last_active")
_PUT_RATING = (
    f"INSERT INTO ratings (season_id, mode, user_id, {', '.join(_RATING_STATE)})"
    f" VALUES (?, ?, ?, {', '.join('?' for _ in _RATING_STATE)})"
    f" ON CONFLICT (season_id, mode, user_id) DO UPDATE SET {', '.join(f'{c} = excluded.{c}' for c in _RATING_STATE)}"
)
"""A player's new rating state, inserted or overwritten (SQLite's ``INSERT OR REPLACE``, spelled so that
PostgreSQL runs it too)."""


async def _record(db: Database, r: ChicaResult) -> Recorded:
    await _lock_guild(db, r.guild_id)
    seen = await db.fetchrow("SELECT guild_id FROM chicas WHERE table_id = ? AND chica_number = ?",
                             r.table_id, r.chica_number)
    if seen is not None:
        if seen[0] != r.guild_id:
            raise RatingsError(f"table {r.table_id} belongs to another server")
        return Recorded(stored=False, rated=False)
    guild = r.guild_id
    settings = await _settings(db, guild)
    season = await _current_season(db, guild)
    if season is None:
        season = await _open_season(db, guild, 1, None, "hard", r.finished_at)
    seats = r.seats()
    humans = [s for s in seats if s[2] is not None]
    rated = bool(humans) and not r.casual and (not r.has_computer or settings.rate_bots)
    when = _iso(r.finished_at)
    mode = r.mode
    chica_id = await db.insert(
        "INSERT INTO chicas (guild_id, table_id, chica_number, season_id, mode, rated, winner, score_a,"
        " score_b, zapatero, reason, finished_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        guild, r.table_id, r.chica_number, season.id, mode, int(rated), r.winner, r.scores[0],
        r.scores[1], int(r.zapatero), r.reason, when,
    )

    before: dict[int, tuple[float, float]] = {}  # (mu, sigma) fed to the update, after idle inflation
    shown_before: dict[int, int] = {}  # the rating the leaderboard showed before this chica
    after: dict[int, tuple[float, float]] = {}
    changes: list[RatingChange] = []
    if rated:
        olds: dict[int, Any] = {}
        team_ratings: list[list[tuple[float, float]]] = [[], []]
        for _seat, team, user, _st in seats:
            if user is None:
                team_ratings[team].append(AI_RATING)
                continue
            row = await db.fetchrow(
                "SELECT mu, sigma, games, wins, losses, streak, best_streak, peak, last_active FROM ratings"
                " WHERE season_id = ? AND mode = ? AND user_id = ?", season.id, mode, user,
            )
            olds[user] = row
            if row is None:
                mu, sigma = MU0, SIGMA0
                shown_before[user] = display_rating(mu, sigma)
            else:
                mu, sigma = row[0], row[1]
                shown_before[user] = display_rating(mu, sigma)
                last = _dt(row[8])
                if last is not None:
                    sigma = inflate_sigma(sigma, (r.finished_at - last).total_seconds() / 86400.0)
            before[user] = (mu, sigma)
            team_ratings[team].append((mu, sigma))
        new = rate(team_ratings, r.winner)
        index = [0, 0]
        for _seat, team, user, _st in seats:
            value = new[team][index[team]]
            index[team] += 1
            if user is None:
                continue
            after[user] = value
            mu, sigma = value
            shown = display_rating(mu, sigma)
            won = team == r.winner
            old = olds[user]
            if old is None:
                games = wins = losses = streak = best = 0
                peak = shown
            else:
                games, wins, losses, streak, best, peak = old[2], old[3], old[4], old[5], old[6], old[7]
            streak = (max(streak, 0) + 1) if won else (min(streak, 0) - 1)
            await db.execute(
                _PUT_RATING, season.id, mode, user, mu, sigma, shown, games + 1, wins + int(won),
                losses + int(not won), streak, max(best, streak), max(peak, shown), when,
            )
            changes.append(RatingChange(user, shown_before[user], shown, mu, sigma))
    await db.executemany(
        "INSERT INTO chica_players (chica_id, seat, team, guild_id, user_id, won, caidas, limpias, rondas,"
        " doble_rondas, mu_before, sigma_before, mu_after, sigma_after, display_before, display_after)"
        " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        [
            (chica_id, seat, team, guild, user, int(team == r.winner), st.caidas, st.limpias, st.rondas,
             st.doble_rondas,
             *(before[user] if user in before else (None, None)),
             *(after[user] if user in after else (None, None)),
             shown_before.get(user),  # type: ignore[arg-type]
             display_rating(*after[user]) if user in after else None)
            for seat, team, user, st in seats
        ],
    )
    return Recorded(stored=True, rated=rated, season_number=season.number, changes=tuple(changes))


# ---------------------------------------------------------------------------------------- leaderboard


async def _leaderboard(db: Database, guild_id: int, mode: str, number: int | None, page: int,
                       viewer: int | None, now: datetime) -> Leaderboard:
    settings = await _settings(db, guild_id)
    min_games = max(settings.min_games, 1)
    season = await _find_season(db, guild_id, number)
    if season is None:
        vr = (ViewerRank(viewer, Standing.FEW_GAMES, None, 0, min_games, settings.active_days, None, False)
              if viewer is not None else None)
        return Leaderboard(None, mode, 0, 1, 0, [], vr, False, min_games, settings.active_days)
    if season.ended_at is not None:
        return await _frozen_board(db, season, mode, page, viewer, settings)
    cutoff = _cutoff(now, settings.active_days)
    total = await db.fetchval(f"SELECT COUNT(*) FROM ratings WHERE {_LIVE_WHERE}",
                              season.id, mode, min_games, cutoff)
    pages = max(1, math.ceil(total / PAGE_SIZE))
    page = min(max(page, 0), pages - 1)
    rows = await _live_page(db, season.id, mode, min_games, cutoff, PAGE_SIZE, page * PAGE_SIZE)
    vr = None
    if viewer is not None:
        me = await db.fetchrow("SELECT display, sigma, games, last_active FROM ratings"
                               " WHERE season_id = ? AND mode = ? AND user_id = ?", season.id, mode, viewer)
        if me is None:
            vr = ViewerRank(viewer, Standing.FEW_GAMES, None, 0, min_games, settings.active_days, None, False)
        else:
            st = standing(me[2], _dt(me[3]), now, min_games, settings.active_days)
            rank = None
            if st is Standing.RANKED:
                rank = 1 + await db.fetchval(
                    f"SELECT COUNT(*) FROM ratings WHERE {_LIVE_WHERE}"
                    " AND display >= ? AND (display > ? OR user_id < ?)",
                    season.id, mode, min_games, cutoff, me[0], me[0], viewer,
                )
            vr = ViewerRank(viewer, st, rank, me[2], min_games, settings.active_days, me[0],
                            is_provisional(me[1]))
    return Leaderboard(season, mode, page, pages, total, rows, vr, False, min_games, settings.active_days)


async def _frozen_board(db: Database, season: Season, mode: str, page: int, viewer: int | None,
                        settings: Settings) -> Leaderboard:
    min_games = max(settings.min_games, 1)
    total = await db.fetchval("SELECT COUNT(*) FROM season_standings WHERE season_id = ? AND mode = ?",
                              season.id, mode)
    pages = max(1, math.ceil(total / PAGE_SIZE))
    page = min(max(page, 0), pages - 1)
    rows = await db.fetch(
        "SELECT rank, user_id, display, sigma, games, wins, losses, last_active FROM season_standings"
        " WHERE season_id = ? AND mode = ? AND rank > ? ORDER BY rank LIMIT ?",
        season.id, mode, page * PAGE_SIZE, PAGE_SIZE,
    )
    out = [_board_row(r[0], r[1:]) for r in rows]
    vr = None
    if viewer is not None:
        mine = await db.fetchrow("SELECT rank, display, sigma, games FROM season_standings"
                                 " WHERE season_id = ? AND mode = ? AND user_id = ?", season.id, mode, viewer)
        if mine is not None:
            vr = ViewerRank(viewer, Standing.RANKED, mine[0], mine[3], min_games, settings.active_days,
                            mine[1], is_provisional(mine[2]))
        else:
            me = await db.fetchrow("SELECT display, sigma, games, last_active FROM ratings"
                                   " WHERE season_id = ? AND mode = ? AND user_id = ?", season.id, mode, viewer)
            if me is None:
                vr = ViewerRank(viewer, Standing.FEW_GAMES, None, 0, min_games, settings.active_days, None,
                                False)
            else:
                st = Standing.FEW_GAMES if me[2] < min_games else Standing.INACTIVE
                vr = ViewerRank(viewer, st, None, me[2], min_games, settings.active_days, me[0],
                                is_provisional(me[1]))
    return Leaderboard(season, mode, page, pages, total, out, vr, True, min_games, settings.active_days)


# ---------------------------------------------------------------------------------------- seasons


async def _close(db: Database, guild_id: int, next_name: str | None, when: datetime) -> SeasonClose:
    season = await _current_season(db, guild_id)
    if season is None:
        raise NoCurrentSeasonError("there is no open season to close")
    settings = await _settings(db, guild_id)
    min_games = max(settings.min_games, 1)
    cutoff = _cutoff(when, settings.active_days)
    top: dict[str, list[BoardRow]] = {}
    for mode in MODES:
        rows = await db.fetch(
            f"SELECT user_id, display, sigma, games, wins, losses, last_active FROM ratings"
            f" WHERE {_LIVE_WHERE} {_LIVE_ORDER}", season.id, mode, min_games, cutoff,
        )
        await db.executemany(
            "INSERT INTO season_standings (season_id, mode, rank, user_id, display, sigma, games, wins,"
            " losses, last_active) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            [(season.id, mode, rank, *row) for rank, row in enumerate(rows, start=1)],
        )
        board = [_board_row(rank, row) for rank, row in enumerate(rows[:10], start=1)]
        top[mode] = board[:10]
    await db.execute("UPDATE seasons SET ended_at = ? WHERE id = ?", _iso(when), season.id)
    closed = Season(season.id, guild_id, season.number, season.name, season.reset_policy, season.started_at,
                    _dt(_iso(when)))
    policy = settings.reset_policy
    nxt = await _open_season(db, guild_id, season.number + 1, next_name, policy, when)
    if policy != "hard":
        carried = []
        for mode, user, mu, sigma, last in await db.fetch(
            "SELECT mode, user_id, mu, sigma, last_active FROM ratings WHERE season_id = ?", season.id
        ):
            mu2, sigma2 = season_reset(mu, sigma, policy)  # type: ignore[misc]
            shown = display_rating(mu2, sigma2)
            carried.append((nxt.id, mode, user, mu2, sigma2, shown, shown, last))
        await db.executemany(
            "INSERT INTO ratings (season_id, mode, user_id, mu, sigma, display, peak, last_active)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?)", carried,
        )
    return SeasonClose(closed, top, nxt)


# ---------------------------------------------------------------------------------------- stats


def _others(seat_rows: Sequence[Any], seat: int, team: int) -> tuple[tuple[Any, ...], tuple[Any, ...]]:
    partners = tuple(u for s, t, u in seat_rows if t == team and s != seat)
    opponents = tuple(u for s, t, u in seat_rows if t != team)
    return partners, opponents


def _best_run(flags: Sequence[int]) -> int:
    best = run = 0
    for won in flags:
        run = run + 1 if won else 0
        best = max(best, run)
    return best


async def _stats(db: Database, guild_id: int, user_id: int) -> PlayerStats:
    agg: dict[str, tuple[int, ...]] = {mode: (0, 0, 0, 0, 0, 0, 0, 0, 0) for mode in MODES}
    for row in await db.fetch(
        "SELECT c.mode, COUNT(*), SUM(p.won), SUM(c.rated), SUM(p.caidas), SUM(p.limpias), SUM(p.rondas),"
        " SUM(p.doble_rondas), SUM(CASE WHEN c.zapatero = 1 AND p.won = 1 THEN 1 ELSE 0 END),"
        " SUM(CASE WHEN c.zapatero = 1 AND p.won = 0 THEN 1 ELSE 0 END)"
        " FROM chica_players p JOIN chicas c ON c.id = p.chica_id"
        " WHERE p.guild_id = ? AND p.user_id = ? GROUP BY c.mode", guild_id, user_id,
    ):
        agg[row[0]] = tuple(int(v or 0) for v in row[1:])  # PostgreSQL's SUM of integers is a Decimal
    mesas = dict.fromkeys(MODES, (0, 0))
    for players, n, won in await db.fetch(
        "SELECT m.players, COUNT(*), SUM(CASE WHEN m.winner = t.team THEN 1 ELSE 0 END) FROM"
        " (SELECT DISTINCT c.table_id, p.team FROM chica_players p JOIN chicas c ON c.id = p.chica_id"
        "  WHERE p.guild_id = ? AND p.user_id = ?) t"
        " JOIN mesas m ON m.table_id = t.table_id AND m.guild_id = ? GROUP BY m.players",
        guild_id, user_id, guild_id,
    ):
        mesas["1v1" if players == 2 else "2v2"] = (int(n), int(won or 0))
    flags: dict[str, list[int]] = {mode: [] for mode in MODES}
    every: list[int] = []
    for mode, won in await db.fetch(
        "SELECT c.mode, p.won FROM chica_players p JOIN chicas c ON c.id = p.chica_id"
        " WHERE p.guild_id = ? AND p.user_id = ? ORDER BY p.chica_id", guild_id, user_id,
    ):
        flags[mode].append(won)
        every.append(won)
    current = await _current_season(db, guild_id)
    now_rating: dict[str, Any] = {}
    if current is not None:
        for mode, display, sigma, peak, games in await db.fetch(
            "SELECT mode, display, sigma, peak, games FROM ratings WHERE season_id = ? AND user_id = ?",
            current.id, user_id,
        ):
            if games:
                now_rating[mode] = (display, sigma, peak)
    best_peak = dict(await db.fetch(
        "SELECT r.mode, MAX(r.peak) FROM ratings r JOIN seasons s ON s.id = r.season_id"
        " WHERE s.guild_id = ? AND r.user_id = ? AND r.games > 0 GROUP BY r.mode", guild_id, user_id,
    ))
    modes: dict[str, ModeStats] = {}
    for mode in MODES:
        chicas, won, rated = agg[mode][0], agg[mode][1] or 0, agg[mode][2] or 0
        r = now_rating.get(mode)
        modes[mode] = ModeStats(
            mode, mesas[mode][0], mesas[mode][1] or 0, chicas, won, rated, won / chicas if chicas else 0.0,
            _best_run(flags[mode]), r[0] if r else None, is_provisional(r[1]) if r else False,
            r[2] if r else None, best_peak.get(mode),
        )

    def total(i: int) -> int:
        return sum(agg[m][i] or 0 for m in MODES)

    recent = await db.fetch(
        "SELECT p.chica_id, p.seat, p.team, p.won, p.display_before, p.display_after, c.table_id,"
        " c.chica_number, c.mode, c.score_a, c.score_b, c.zapatero, c.rated, c.finished_at"
        " FROM chica_players p JOIN chicas c ON c.id = p.chica_id"
        " WHERE p.guild_id = ? AND p.user_id = ? ORDER BY p.chica_id DESC LIMIT 10", guild_id, user_id,
    )
    seat_rows: dict[int, list[tuple[int, int, Any]]] = {}
    if recent:
        ids = [r[0] for r in recent]
        for chica_id, seat, team, user in await db.fetch(
            f"SELECT chica_id, seat, team, user_id FROM chica_players WHERE chica_id IN"
            f" ({', '.join('?' for _ in ids)}) ORDER BY chica_id, seat", *ids,
        ):
            seat_rows.setdefault(chica_id, []).append((seat, team, user))
    lines = []
    for (chica_id, seat, team, won, d_before, d_after, table_id, number, mode, sa, sb, zap, rated,
         finished) in recent:
        partners, opponents = _others(seat_rows[chica_id], seat, team)
        lines.append(ChicaLine(
            table_id, number, mode, bool(won), (sa, sb) if team == 0 else (sb, sa), bool(zap), bool(rated),
            d_after - d_before if d_after is not None and d_before is not None else None, partners, opponents,
            _dt(finished),  # type: ignore[arg-type]
        ))
    partner = await db.fetchrow(
        "SELECT q.user_id, COUNT(*) AS n, MAX(q.chica_id) AS last FROM chica_players p"
        " JOIN chica_players q ON q.chica_id = p.chica_id AND q.team = p.team AND q.seat <> p.seat"
        " WHERE p.guild_id = ? AND p.user_id = ? AND q.user_id IS NOT NULL"
        " GROUP BY q.user_id ORDER BY n DESC, last DESC LIMIT 1", guild_id, user_id,
    )
    return PlayerStats(
        guild_id, user_id, modes,
        sum(modes[m].mesas for m in MODES), sum(modes[m].mesas_won for m in MODES),
        total(0), total(1), total(3), total(4), total(5), total(6), total(7), total(8),
        _best_run(every), lines, (partner[0], partner[1]) if partner else None,
    )


# ---------------------------------------------------------------------------------------- history


async def _history(db: Database, guild_id: int, user_id: int, limit: int, offset: int) -> list[MesaLine]:
    rows = await db.fetch(
        "SELECT m.table_id, m.preset, m.players, m.seed, m.winner, m.chicas_a, m.chicas_b, m.zapateria,"
        " m.seats, m.finished_at, t.team, tb.meta FROM"
        " (SELECT c.table_id, MIN(p.team) AS team, MAX(p.chica_id) AS last"
        "  FROM chica_players p JOIN chicas c ON c.id = p.chica_id"
        "  WHERE p.guild_id = ? AND p.user_id = ? GROUP BY c.table_id) t"
        " JOIN mesas m ON m.table_id = t.table_id AND m.guild_id = ?"
        " LEFT JOIN tables tb ON tb.id = m.table_id"
        " ORDER BY t.last DESC LIMIT ? OFFSET ?", guild_id, user_id, guild_id, limit, offset,
    )
    if not rows:
        return []
    ids = [r[0] for r in rows]
    scores: dict[int, list[tuple[int, int]]] = {}
    for table_id, sa, sb in await db.fetch(
        f"SELECT table_id, score_a, score_b FROM chicas WHERE guild_id = ? AND table_id IN"
        f" ({', '.join('?' for _ in ids)}) ORDER BY table_id, chica_number", guild_id, *ids,
    ):
        scores.setdefault(table_id, []).append((sa, sb))
    out = []
    for table_id, preset, players, seed, winner, ca, cb, zap, seats_json, finished, team, meta in rows:
        seats = json.loads(seats_json)
        seat = next((i for i, u in enumerate(seats) if u == user_id), team)
        partners = tuple(u for i, u in enumerate(seats) if i % 2 == team and i != seat)
        opponents = tuple(u for i, u in enumerate(seats) if i % 2 != team)
        own = (lambda a, b: (a, b)) if team == 0 else (lambda a, b: (b, a))
        out.append(MesaLine(
            table_id, "1v1" if players == 2 else "2v2", preset, seed, winner == team, own(ca, cb),
            [own(a, b) for a, b in scores.get(table_id, [])], bool(zap), partners, opponents, seats,
            datetime.fromisoformat(finished), bool(json.loads(meta or "{}").get("house")),
        ))
    return out


__all__ = [
    "LANGUAGES",
    "PAGE_SIZE",
    "SCHEMA_PATH",
    "SETTING_NAMES",
    "BoardRow",
    "ChicaLine",
    "Leaderboard",
    "MesaLine",
    "ModeStats",
    "NoCurrentSeasonError",
    "PlayerStats",
    "RatingChange",
    "Ratings",
    "RatingsError",
    "Recorded",
    "Season",
    "SeasonClose",
    "Settings",
    "UnknownSeasonError",
    "ViewerRank",
]
