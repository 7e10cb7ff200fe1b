"""Season and server-settings rows of the ratings repository: the guild's advisory lock, reading the
settings, finding and opening seasons, and closing one (freezing its standings and carrying the ratings
into the next season under the reset policy). Each function takes the open `bot.store.db.Database`;
the caller (`bot.ratings.repo.Ratings`) owns the transaction.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any

from bot.store import storable_id
from bot.store.db import Database

from .leaderboard import _LIVE_ORDER, _LIVE_WHERE, _board_row, _cutoff
from .model import (
    BoardRow,
    NoCurrentSeasonError,
    Season,
    SeasonClose,
    Settings,
    UnknownSeasonError,
    _dt,
    _iso,
)
from .skill import MODES, display_rating, season_reset


async def _lock_guild(db: Database, guild_id: int) -> None:
    """Inside a transaction on PostgreSQL: wait for, then hold until the transaction ends, the guild's
    ratings lock (a transaction-scoped advisory lock), so two bot processes never read and rewrite the
    same ratings, or open the same season, at once. On SQLite the one writer already serializes them."""
    if db.dialect == "postgresql":
        await db.execute("SELECT pg_advisory_xact_lock(40, ?)", guild_id % 2**31)


async def _settings(db: Database, guild_id: int) -> Settings:
    row = await db.fetchrow(
        "SELECT language, rate_bots, min_games, active_days, reset_policy, default_preset, table_place"
        " FROM guild_settings WHERE guild_id = ?", guild_id,
    )
    if row is None:
        return Settings()
    return Settings(row[0], bool(row[1]), row[2], row[3], row[4], row[5], row[6])


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
