"""Fixtures: a database with every migration (on each backend), a movable clock, a repository."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from bot.ratings import Ratings
from bot.store import Database, Store

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


@pytest.fixture
async def conn(database_url) -> Database:
    """The bot's own store (every migration applied) on a fresh database, once on each backend (SQLite,
    PostgreSQL), as its `Database`."""
    store = await Store.open(database_url)
    yield store.db
    await store.close()


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def repo(conn, clock) -> Ratings:
    return Ratings(conn, clock=clock)
