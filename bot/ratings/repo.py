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
  first takes the guild's advisory lock (`bot.ratings.seasons._lock_guild`), so two processes never
  rewrite the same ratings at once. On SQLite the one writer already serializes them.

Every query is scoped by guild: nothing from one server is visible from another.

This module holds the `Ratings` class, its input checks and the recording of a chica; the values it
returns are in `bot.ratings.model`, the queries by kind of record in
`bot.ratings.seasons` (seasons and settings), `bot.ratings.leaderboard` and `bot.ratings.stats`
(a player's stats and history).
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable, Sequence
from datetime import datetime
from typing import Any, TypeVar

from bot.engine import PRESET_NAMES
from bot.store.db import Database

from .leaderboard import _leaderboard
from .model import (
    LANGUAGES,
    SETTING_NAMES,
    TABLE_PLACES,
    Leaderboard,
    MesaLine,
    PlayerStats,
    RatingChange,
    RatingsError,
    Recorded,
    Season,
    SeasonClose,
    Settings,
    _dt,
    _iso,
    _now,
)
from .results import ChicaResult
from .seasons import (
    _SEASON_COLS,
    _close,
    _current_season,
    _find_season,
    _lock_guild,
    _open_season,
    _season,
    _settings,
)
from .skill import AI_RATING, MODES, MU0, RESET_POLICIES, SIGMA0, display_rating, inflate_sigma, rate
from .stats import _history, _stats

_T = TypeVar("_T")

log = logging.getLogger(__name__)


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
        self.on_rated: list[Callable[[int, str], None]] = []
        """Observers told ``(guild_id, mode)`` of each chica rated now (e.g. `bot.ratings.live.LiveBoards.changed`),
        right after it is recorded (possibly before the caller's transaction commits: observers only note
        it). They must not block; an observer that raises is logged and the others are still told."""

    def _tell(self, results: Sequence[ChicaResult], done: Sequence[Recorded]) -> None:
        for result, recorded in zip(results, done, strict=False):
            if not recorded.rated:
                continue
            for observer in self.on_rated:
                try:
                    observer(result.guild_id, result.mode)
                except Exception:
                    log.exception("a ratings observer failed")

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
        done = await self._write(_record, result)
        self._tell([result], [done])
        return done

    async def record_chicas(self, results: Sequence[ChicaResult]) -> list[Recorded]:
        """`record_chica` for several chicas in one transaction, in order (for catching up after a
        restart: pass every `chica_results` of a table; the ones already stored are skipped)."""
        async def many(db: Database) -> list[Recorded]:
            return [await _record(db, r) for r in results]
        done = await self._write(many)
        self._tell(results, done)
        return done

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
        now = self._clock()

        async def board(db: Database) -> Leaderboard:
            settings = await _settings(db, guild_id)
            return await _leaderboard(db, settings, await _find_season(db, guild_id, season), mode, page,
                                      viewer, now)
        return await self._run(board)

    async def busiest_mode(self, guild_id: int) -> str:
        """The mode with the most rated chicas in the guild's current season: the one its leaderboard
        opens on. ``"1v1"`` on a tie, and when the guild has no season or no rated chica yet."""
        async def busiest(db: Database) -> str:
            season = await _current_season(db, guild_id)
            if season is None:
                return MODES[0]
            counts = dict(await db.fetch(
                "SELECT mode, COUNT(*) FROM chicas WHERE season_id = ? AND rated = 1 GROUP BY mode", season.id,
            ))
            return max(MODES, key=lambda mode: (int(counts.get(mode, 0)), -MODES.index(mode)))
        return await self._run(busiest)

    async def stats(self, guild_id: int, user_id: int) -> PlayerStats:
        """A user's record in a guild (see `PlayerStats`); zeros for a user who never played there.
        "This week" (`PlayerStats.caidas_week`) is the 7 days before the repository's clock."""
        return await self._run(_stats, guild_id, user_id, self._clock())

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
                es/en, ``rate_bots`` a bool, ``table_place`` channel/thread).
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
        elif key == "table_place":
            if value not in TABLE_PLACES:
                raise RatingsError(f"table_place must be one of {', '.join(TABLE_PLACES)}")
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


__all__ = ["Ratings"]
