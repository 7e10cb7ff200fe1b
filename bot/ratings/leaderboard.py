"""Leaderboard reads of the ratings repository: a live page of the open season or the frozen standings of
a closed one, with the viewer's rank or progress. Each function takes the open `bot.store.db.Database`;
reads take no transaction.

The live board lists every player active recently (``active_days``) with at least one rated chica this
season: first the ranked ones (at least ``min_games`` rated chicas), by rating, numbered 1, 2, …; then
the provisional ones (fewer), by rating, unnumbered (`BoardRow.ranked` False). Only ranked players get a
rank (the viewer's footer, the frozen standings and the top 10 of a closed season).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from datetime import datetime, timedelta
from typing import Any

from bot.store.db import Database

from .model import PAGE_SIZE, BoardRow, Leaderboard, Season, Settings, ViewerRank, _dt, _iso
from .skill import Standing, is_provisional, standing


def _cutoff(now: datetime, active_days: int) -> str:
    return _iso(now - timedelta(days=active_days)) if active_days > 0 else ""


def _board_row(rank: int, row: Sequence[Any], ranked: bool = True) -> BoardRow:
    user_id, display, sigma, games, wins, losses, last_active = row
    return BoardRow(rank if ranked else 0, user_id, display, is_provisional(sigma), wins, losses, games,
                    wins / games if games else 0.0, _dt(last_active), ranked)


_LIVE_ORDER = "ORDER BY display DESC, user_id"
_LIVE_WHERE = "season_id = ? AND mode = ? AND games >= ? AND last_active >= ?"
"""Ranked players of a season and mode (parameters: season id, mode, min_games, activity cutoff)."""
_LISTED_ORDER = "ORDER BY CASE WHEN games >= ? THEN 0 ELSE 1 END, display DESC, user_id"
"""The live board's order (parameter: min_games): ranked players first, then provisional ones."""


async def _live_page(db: Database, season_id: int, mode: str, min_games: int, cutoff: str,
                     limit: int, offset: int) -> list[BoardRow]:
    """Rows ``offset`` … ``offset + limit − 1`` of the live board: every listed player (one rated chica
    is enough), ranked ones first."""
    rows = await db.fetch(
        f"SELECT user_id, display, sigma, games, wins, losses, last_active FROM ratings"
        f" WHERE {_LIVE_WHERE} {_LISTED_ORDER} LIMIT ? OFFSET ?",
        season_id, mode, 1, cutoff, min_games, limit, offset,
    )
    return [_board_row(offset + i + 1, r, r[3] >= min_games) for i, r in enumerate(rows)]


async def _leaderboard(db: Database, settings: Settings, season: Season | None, mode: str, page: int,
                       viewer: int | None, now: datetime) -> Leaderboard:
    """One page of ``season``'s board (None: the guild has no season yet, an empty board) under the
    guild's ``settings``; see `bot.ratings.repo.Ratings.leaderboard`."""
    min_games = max(settings.min_games, 1)
    if season is None:
        vr = (ViewerRank(viewer, Standing.FEW_GAMES, None, 0, min_games, settings.active_days, None, False)
              if viewer is not None else None)
        return Leaderboard(None, mode, 0, 1, 0, [], vr, False, min_games, settings.active_days, 0)
    if season.ended_at is not None:
        return await _frozen_board(db, season, mode, page, viewer, settings)
    cutoff = _cutoff(now, settings.active_days)
    total = await db.fetchval(f"SELECT COUNT(*) FROM ratings WHERE {_LIVE_WHERE}", season.id, mode, 1, cutoff)
    ranked = await db.fetchval(f"SELECT COUNT(*) FROM ratings WHERE {_LIVE_WHERE}",
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
    return Leaderboard(season, mode, page, pages, total, rows, vr, False, min_games, settings.active_days,
                       ranked)


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
    return Leaderboard(season, mode, page, pages, total, out, vr, True, min_games, settings.active_days, total)
