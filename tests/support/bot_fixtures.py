"""SimCord harness for the bot tests.

- ``simcord_bot``: a fresh `CuarentaBot` on a temporary SQLite file, computer players without delay,
  fixed game seeds (``seed-1``, ``seed-2`` …).
- ``env``: the running SimCord environment; at teardown every REST request body the bot sent is validated
  against Discord's OpenAPI document, and no log line of ours may name a card.
- ``world``: a guild with a channel, the commands synced, and members ana, beto, caro, dani, eva (eva has
  Manage Server).
"""

from __future__ import annotations

import itertools
import logging
import re
from dataclasses import dataclass
from pathlib import Path

import discord
import pytest

from bot.app import CuarentaBot
from bot.config import Settings

from .clocked import VirtualWaits, park_primitive_waiters
from .openapi import invalid_requests, refused_by_discord

CARD_IN_TEXT = re.compile(r"(?<![A-Za-z0-9])(?:c4_)?(?:[A2-7JQK][SHDC]|W[12])(?![A-Za-z0-9])|[A2-7JQK][♠♥♦♣]|🃏[12]")
"""A card in a log line: its code (``7D``, the jokers ``W1``/``W2``), its emoji's name (``c4_7D``, as in
``<:c4_7D:…>``) or its display form (``7♦``, ``🃏1``)."""


@pytest.fixture
def db_path(tmp_path: Path) -> str:
    return str(tmp_path / "cuarenta-test.db")


@pytest.fixture
def virtual_waits() -> VirtualWaits:
    """The presenter's waits in SimCord's virtual time, for a bot built with ``make_bot(virtual=True)``
    (`clocked.VirtualWaits`; the ``env`` fixture gives it the environment)."""
    return VirtualWaits()


@pytest.fixture
async def make_bot(db_path: str, virtual_waits: VirtualWaits, monkeypatch):
    """Build a bot on the test database (call it again for a restart). SimCord detaches a restarted
    bot without closing it, so every bot's database connection (and worker pool) is closed at the end.

    Computer players think in threads (``ai_workers=0``) and table pictures are drawn in the test's
    process (``picture_workers=0``) unless a test asks for worker processes, and
    table edits are not shed at a high request rate (tests click many times in one virtual instant)
    unless a test asks for ``request_shedding=True``. No periodic log line of the live tables is armed
    (`bot.ops.pulse`: a tick every 5 virtual minutes made the tests that jump days settle thousands of
    times) unless a test asks for ``pulse_every``. The table messages carry no picture and the cards
    are text (no card emojis uploaded) unless a test asks for ``pictures=True`` or ``card_emojis=True``
    (`helpers.LOOKS`: both). With ``virtual=True`` the presenter's waits
    (coalesced edits, the write budget) pass in SimCord's virtual time only (`clocked.VirtualWaits`): they
    go on when the test advances the clock, and settling never waits real seconds for them."""
    counter = itertools.count(1)
    bots: list[CuarentaBot] = []
    # One bot process per SimCord test: no other process saves its tables. The loop that reads the live
    # tables' versions every second while PostgreSQL's notices are not proven (`bot.tables.shared.POLL_EVERY`)
    # would make SimCord's settling wait for a real query at every virtual second (a test of 1.5 s took
    # 41 s, some timed out); tests/tables/test_shared_tables.py checks that loop on its own services.
    monkeypatch.setattr("bot.tables.shared.POLL_EVERY", 3600.0)

    def factory(guild_id: int | None = None, ai_workers: int = 0, picture_workers: int = 0,
                virtual: bool = False, **overrides) -> CuarentaBot:
        for earlier in bots:  # a restart: the earlier bot's process is gone, and its worker processes with it
            # (SimCord's frozen clock would also make multiprocessing wait forever on a live earlier child
            # while it starts a new worker)
            if earlier.ai_offload is not None:
                earlier.ai_offload.close()
            if earlier.picture_workers is not None:
                earlier.picture_workers.close()
        settings = Settings(token="test", database_path=db_path, guild_id=guild_id, ai_delay=0,
                            ai_workers=ai_workers, picture_workers=picture_workers)
        options = {"ai_delay": 0, "seed_factory": lambda: f"seed-{next(counter)}", "edit_interval": 0, "shard_count": 1,
                   "write_budget": False, "request_shedding": False, "pictures": False, "card_emojis": False,
                   "pulse_every": None, **overrides}
        if virtual:
            park_primitive_waiters(monkeypatch)
            options["sleep"] = virtual_waits.sleep
        bot = CuarentaBot(settings, **options)
        bots.append(bot)
        return bot

    yield factory
    for bot in bots:
        if bot.ai_offload is not None:
            bot.ai_offload.close()
        if bot.picture_workers is not None:
            bot.picture_workers.close()
        if bot._store_open:
            bot._store_open = False
            await bot.store.close()


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "simcord_bot(**options): build this test's bot with make_bot(**options)")


@pytest.fixture
def simcord_bot(make_bot, request):
    """The test bot; a test marked ``@pytest.mark.simcord_bot(**options)`` (e.g. `helpers.production_bot`)
    gets ``make_bot(**options)``. A module that defines its own ``simcord_bot`` ignores the mark."""
    marker = request.node.get_closest_marker("simcord_bot")
    return make_bot(**(marker.kwargs if marker else {}))


SETTLE_POLL = 0.001
"""Seconds between SimCord's checks of whether the bot has settled (SimCord's default is 0.05)."""


def _poll_settle_faster(env) -> None:
    """SimCord settles (after every click, command, ``advance_time``) by polling: while some work is not
    yet parked it waits up to ``idle`` seconds (0.05 by default) for a bot task to *finish*. After nearly
    every click the only such work is SimCord's own bookkeeping callback for a task that just finished,
    which runs at once; no task finishes after it, so each settle slept the whole 0.05 s (about 14 of a
    rematch test's 18 s). Polling every millisecond settles on the same condition with the same
    deadline, only sooner."""
    settle = env._settle_internal

    async def settle_polling_faster(*, idle: float = SETTLE_POLL, **kwargs) -> None:
        if kwargs.get("timeout") is not None:  # SimCord's attach of a restarted bot asks for 5 s flat
            kwargs["timeout"] = max(kwargs["timeout"], env.settle_timeout)
        await settle(idle=min(idle, SETTLE_POLL), **kwargs)

    env._settle_internal = settle_polling_faster


def _drop_dead_fallbacks(monkeypatch) -> None:
    """SimCord gives every bot timer a real-time fallback handle on the loop; when the timer is cancelled
    (a View's timeout re-armed at each click, a sleep cut short) the fallback stays on the loop's heap until
    its real time, where it does nothing. Its settlement scans that heap for every pending task
    (``is_sleep_waiter``), so a long test scanned thousands of dead handles each time (half of a whole
    league's run). Cancelling the fallback with its timer is what its firing would do, only sooner."""
    import simcord.env
    from simcord import _settlement

    original = _settlement._active_callbacks

    def active_callbacks(state):
        for record in state.work.callbacks:
            real = record.real_handle
            if real is not None and record.handle is not None and record.handle.cancelled():
                real.cancel()
                record.real_handle = None
        return original(state)

    monkeypatch.setattr(_settlement, "_active_callbacks", active_callbacks)
    monkeypatch.setattr(simcord.env, "_active_callbacks", active_callbacks)


@pytest.fixture
async def env(simcord_env, caplog, virtual_waits, monkeypatch):
    virtual_waits.env = simcord_env
    _drop_dead_fallbacks(monkeypatch)
    caplog.set_level(logging.DEBUG, logger="bot")
    caplog.set_level(logging.DEBUG, logger="cogs")
    _poll_settle_faster(simcord_env)
    yield simcord_env
    problems = invalid_requests(simcord_env.http_requests)
    assert problems == [], "request bodies invalid against openapi.json:\n" + "\n".join(problems[:20])
    refused = refused_by_discord(simcord_env.http_requests)
    assert refused == [], "requests Discord refuses:\n" + "\n".join(refused[:20])
    formatter = logging.Formatter()  # the whole record as a handler writes it: message and traceback
    leaks = [text for r in caplog.records if r.name.startswith(("bot", "cogs"))
             for text in [formatter.format(r)] if CARD_IN_TEXT.search(text)]
    assert leaks == [], f"log lines name cards: {leaks[:5]}"


@dataclass
class World:
    env: object
    guild: object
    channel: object
    ana: object
    beto: object
    caro: object
    dani: object
    eva: object

    @property
    def bot(self) -> CuarentaBot:
        return self.env.bot  # type: ignore[attr-defined]


@pytest.fixture
async def world(env) -> World:
    guild = env.create_guild("Quito Club")
    channel = guild.create_text_channel("cuarenta")
    admins = guild.create_role("Admins", permissions=discord.Permissions(manage_guild=True))
    members = {name: guild.add_member(env.create_user(name)) for name in ("ana", "beto", "caro", "dani")}
    members["eva"] = guild.add_member(env.create_user("eva"), roles=[admins])
    await env.bot.tree.sync()
    return World(env, guild, channel, **members)


async def _inline(func, *args):
    return func(*args)


@pytest.fixture
async def service(database_url):
    """A `TableService` on a fresh database, once on each backend (SQLite, PostgreSQL), without Discord:
    computer players move at once and inline (no worker thread), every table is seeded "fixed"."""
    from bot.store import Store
    from bot.tables import TableService

    store = await Store.open(database_url)
    svc = TableService(store, ai_delay=0, seed_factory=lambda: "fixed", offload=_inline)
    yield svc
    await svc.close()
    await store.close()


@pytest.fixture
def locales(monkeypatch):
    """``{user_id: Discord locale}`` for users whose client is not in en-US (SimCord's default): their
    interactions carry that locale."""
    import simcord.interactions

    chosen: dict[int, str] = {}
    original = simcord.interactions.base_payload

    def base_payload(backend, **kwargs):
        record, payload = original(backend, **kwargs)
        locale = chosen.get(kwargs.get("user_id"))
        if locale is not None:
            payload["locale"] = locale
        return record, payload

    monkeypatch.setattr(simcord.interactions, "base_payload", base_payload)
    return chosen


@pytest.fixture
def writes(env, monkeypatch):
    """Every message write of the bot, bot-token and interaction-token DM writes (`clocked.WriteLog`)."""
    from .clocked import WriteLog

    log = WriteLog(env)
    log.install(monkeypatch)
    return log
