"""A player's record in a guild, as the ratings repository reads it: `/cuarenta stats` (totals per mode,
streaks, caídas of the last 7 days, recent chicas, most frequent partner) and `/cuarenta history` (finished mesas, newest first).
Each function takes the open `bot.store.db.Database`; reads take no transaction.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from datetime import datetime, timedelta
from typing import Any

from bot.store.db import Database

from .model import ChicaLine, MesaLine, ModeStats, PlayerStats, _dt, _iso
from .seasons import _current_season
from .skill import MODES, is_provisional


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


def _current_run(flags: Sequence[int]) -> int:
    """The run the last results make: +n for n wins in a row at the end, −n for n losses, 0 for none."""
    if not flags:
        return 0
    last = bool(flags[-1])
    run = 0
    for won in reversed(flags):
        if bool(won) != last:
            break
        run += 1
    return run if last else -run


WEEK = timedelta(days=7)
"""The window of "this week" in `/cuarenta stats` (the last 7 days, not the calendar week)."""


async def _stats(db: Database, guild_id: int, user_id: int, now: datetime) -> PlayerStats:
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
    week = await db.fetchval(
        "SELECT SUM(p.caidas) FROM chica_players p JOIN chicas c ON c.id = p.chica_id"
        " WHERE p.guild_id = ? AND p.user_id = ? AND c.finished_at >= ?", guild_id, user_id, _iso(now - WEEK),
    )
    return PlayerStats(
        guild_id, user_id, modes,
        sum(modes[m].mesas for m in MODES), sum(modes[m].mesas_won for m in MODES),
        total(0), total(1), total(3), total(4), total(5), total(6), total(7), total(8),
        _best_run(every), lines, (partner[0], partner[1]) if partner else None,
        _current_run(every), int(week or 0),
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
