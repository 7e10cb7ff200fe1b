"""Ratings, leaderboards, stats, history and seasons: the non-Discord core.

Public API::

    from bot.ratings import Ratings, ChicaResult, chica_results
    ratings = Ratings(store.db)                  # the store's database (SQLite or PostgreSQL)
    for result in chica_results(game.events, seats, guild_id=g, table_id=t):
        await ratings.record_chica(result)       # stores + rates once; a retry is a no-op
    page = await ratings.leaderboard(g, "2v2", page=0, viewer=user_id)

The tables come from the store's migration ``0002_ratings.sql`` (`SCHEMA_PATH`). In the bot, the table
service records every chica inside the transaction that saves the play ending it (as a savepoint of it) and
catches up at startup; the Discord side is ``cogs/leaderboard.py`` with ``bot/ui/boards.py``. The rating
math (openskill Plackett-Luce, shown rating ``1500 + 24·(μ − 3σ)``) is in `bot.ratings.skill`.
"""

from .model import (
    LANGUAGES,
    PAGE_SIZE,
    SCHEMA_PATH,
    SETTING_NAMES,
    TABLE_PLACES,
    BoardRow,
    ChicaLine,
    Leaderboard,
    MesaLine,
    ModeStats,
    NoCurrentSeasonError,
    PlayerStats,
    RatingChange,
    RatingsError,
    Recorded,
    Season,
    SeasonClose,
    Settings,
    UnknownSeasonError,
    ViewerRank,
)
from .repo import Ratings
from .results import ChicaResult, SeatStats, chica_results
from .skill import (
    MODES,
    RESET_POLICIES,
    Standing,
    display_rating,
    inflate_sigma,
    is_provisional,
    rate,
    season_reset,
    standing,
    win_probability,
)

__all__ = [
    "LANGUAGES",
    "MODES",
    "PAGE_SIZE",
    "RESET_POLICIES",
    "SCHEMA_PATH",
    "SETTING_NAMES",
    "TABLE_PLACES",
    "BoardRow",
    "ChicaLine",
    "ChicaResult",
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
    "SeatStats",
    "Settings",
    "Standing",
    "UnknownSeasonError",
    "ViewerRank",
    "chica_results",
    "display_rating",
    "inflate_sigma",
    "is_provisional",
    "rate",
    "season_reset",
    "standing",
    "win_probability",
]
