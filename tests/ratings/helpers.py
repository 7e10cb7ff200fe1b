"""Builders for repository tests: results, and the `tables`/`mesas` rows migration 1 keeps."""

from __future__ import annotations

import json
from datetime import datetime

from bot.ratings import ChicaResult, SeatStats
from bot.store import Database

from .conftest import T0


def result(table_id: int, number: int, teams, winner: int, *, guild: int = 1, at: datetime = T0,
           scores=(40, 10), zapatero: bool = False, stats=()) -> ChicaResult:
    """A `ChicaResult` with short positional arguments."""
    teams = tuple(tuple(t) for t in teams)
    return ChicaResult(guild, table_id, number, teams, winner, scores=scores, zapatero=zapatero,
                       stats=stats, finished_at=at)


def seat_stats(*per_seat: SeatStats, players: int) -> tuple[tuple[SeatStats, ...], tuple[SeatStats, ...]]:
    """Stats given in seat order, regrouped by team like `ChicaResult.teams`."""
    seats = list(per_seat) + [SeatStats()] * (players - len(per_seat))
    return tuple(seats[0::2]), tuple(seats[1::2])


async def add_mesa(conn: Database, table_id: int, seats: list[int | None], winner: int,
                   chicas: tuple[int, int], *, guild: int = 1, zapateria: bool = False,
                   seed: str = "s", finished_at: str = "2026-03-01T12:00:00Z") -> None:
    """Insert a finished table and its `mesas` row as the store does."""
    async with conn.transaction():
        await conn.execute(
            "INSERT INTO tables (id, guild_id, channel_id, host_id, players, preset, status, seed, seats)"
            " VALUES (?, ?, 1, NULL, ?, 'quito', 'finished', ?, '[]')", table_id, guild, len(seats), seed,
        )
        await conn.execute(
            "INSERT INTO mesas (table_id, guild_id, channel_id, preset, players, seed, winner, chicas_a,"
            " chicas_b, zapateria, seats, finished_at) VALUES (?, ?, 1, 'quito', ?, ?, ?, ?, ?, ?, ?, ?)",
            table_id, guild, len(seats), seed, winner, chicas[0], chicas[1], int(zapateria), json.dumps(seats),
            finished_at,
        )
