"""Fixtures: the bot's store on a fresh database, once on each backend (SQLite, PostgreSQL), and a table
service over it on a manual clock (no Discord)."""

from __future__ import annotations

import pytest

from bot.store import Store
from bot.tables import TableService
from bot.tables.timers import ManualClock


async def _inline(func, *args):
    return func(*args)


@pytest.fixture
async def store(database_url) -> Store:
    """Every migration applied, on a fresh SQLite file, then on a fresh PostgreSQL database."""
    opened = await Store.open(database_url)
    yield opened
    await opened.close()


@pytest.fixture
def clock() -> ManualClock:
    return ManualClock()


@pytest.fixture
async def tables(store, clock) -> TableService:
    """A table service on ``store``: computer players move at once and inline, every seed "fixed"."""
    svc = TableService(store, ai_delay=0, seed_factory=lambda: "fixed", offload=_inline, clock=clock)
    clock.watch(svc._tasks)
    yield svc
    await svc.close()
