"""Fixtures: an in-memory database at migration 1 + the ratings schema, a movable clock, a repository."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import aiosqlite
import pytest

from bot.ratings import Ratings
from bot.store import Store

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
    """The bot's own in-memory store (every migration applied), as a connection."""
    store = await Store.open(":memory:")
    return store.connection


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
