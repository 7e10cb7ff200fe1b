"""The garbage collector of a long-running bot process (`bot.heap`)."""

from __future__ import annotations

import json
import subprocess
import sys

import bot.__main__ as entry
from bot import heap
from bot.config import Settings

SETTLE_IN_A_FRESH_PROCESS = """
import gc, json
import bot.app  # the start-up's modules: discord.py, the engine, the catalogs, the cogs
from bot import heap
before = len(gc.get_objects())
frozen = heap.settle()
after = len(gc.get_objects())
print(json.dumps({"before": before, "frozen": frozen, "after": after, "thresholds": gc.get_threshold(),
                  "freeze_count": gc.get_freeze_count()}))
"""


def test_settle_freezes_what_start_up_left_and_raises_the_young_threshold():
    # in a process of its own: a frozen heap would keep every object of this test session
    out = subprocess.run([sys.executable, "-c", SETTLE_IN_A_FRESH_PROCESS], capture_output=True, text=True,
                         check=True, timeout=120)
    figures = json.loads(out.stdout.strip().splitlines()[-1])
    assert figures["frozen"] == figures["freeze_count"] > 0.9 * figures["before"]
    assert figures["after"] < 0.05 * figures["before"]  # what later collections walk
    assert tuple(figures["thresholds"]) == (heap.YOUNG_THRESHOLD, *heap.OLDER_THRESHOLDS)


class RecordingBot:
    """Stands in for `CuarentaBot` in `bot.__main__.run`: records the order of its start-up calls."""

    calls: list[str] = []

    def __init__(self, settings, sync_only=False, store=None):
        self.closed = False

    async def __aenter__(self):
        return self

    async def __aexit__(self, *exc):
        return None

    async def login(self, token):
        self.calls.append("login")

    async def connect(self, reconnect=True):
        self.calls.append("connect")

    async def start(self, token, reconnect=True):  # pragma: no cover - the entry point must not use it
        self.calls.append("start")

    def is_closed(self):
        return self.closed

    async def close(self):
        self.closed = True


async def _answers(*args):
    """Stands in for the start-up's checks (`bot.startup`): the database and Discord answer."""
    return True


def test_python_m_bot_settles_the_heap_after_login_and_before_the_gateway(monkeypatch):
    RecordingBot.calls = []
    monkeypatch.setattr(entry.startup, "open_store", _answers)
    monkeypatch.setattr(entry.startup, "reach_discord", _answers)
    monkeypatch.setattr(entry, "CuarentaBot", RecordingBot)
    monkeypatch.setattr(heap, "settle", lambda: RecordingBot.calls.append("settle") or 0)
    code = entry.event_loop.run(entry.run(Settings(token="x"), "run"))
    assert code == 0
    assert RecordingBot.calls == ["login", "settle", "connect"]


def test_syncing_the_commands_does_not_settle_the_heap(monkeypatch):
    RecordingBot.calls = []

    class SyncingBot(RecordingBot):
        application_id = None

        async def sync_global(self):
            return 0

    monkeypatch.setattr(entry, "CuarentaBot", SyncingBot)
    monkeypatch.setattr(entry.startup, "reach_discord", _answers)
    monkeypatch.setattr(heap, "settle", lambda: RecordingBot.calls.append("settle") or 0)
    assert entry.event_loop.run(entry.run(Settings(token="x"), "sync")) == 0
    assert RecordingBot.calls == ["login"]
