"""Fixtures: an in-memory database at migration 1 + the ratings schema, a movable clock, a repository."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import aiosqlite
import pytest

from bot.ratings import SCHEMA_PATH, Ratings
from bot.store import MIGRATIONS_DIR

T0 = datetime(2026, 3, 1, 12, 0, 0, tzinfo=UTC)


class Clock:
    """A settable UTC clock for the repository."""

    def __init__(self, now: datetime = T0) -> None:
        self.now = now

    def __call__(self) -> datetime:
        return self.now

    def advance(self, **kw: float) -> datetime:
        self.now += timedelta(**kw)
        return self.now


async def open_db() -> aiosqlite.Connection:
    """A connection set up like `Store.open` (Row factory, foreign keys) with both migrations applied
    the way `Store.migrate` applies them (one script, one transaction each)."""
    conn = await aiosqlite.connect(":memory:")
    conn.row_factory = aiosqlite.Row
    await conn.execute("PRAGMA foreign_keys=ON")
    first = (MIGRATIONS_DIR / "0001_init.sql").read_text(encoding="utf-8")
    await conn.executescript(f"BEGIN;\n{first}\nPRAGMA user_version = 1;\nCOMMIT;")
    ours = SCHEMA_PATH.read_text(encoding="utf-8")
    await conn.executescript(f"BEGIN;\n{ours}\nPRAGMA user_version = 2;\nCOMMIT;")
    return conn


@pytest.fixture
async def conn():
    c = await open_db()
    yield c
    await c.close()


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def repo(conn, clock) -> Ratings:
    return Ratings(conn, clock=clock)
