"""The bot counts its own bot-token request rate (Discord allows about 50/s for the whole bot)
and, while it is at the limit, table message edits (optional: the next one shows every play) wait."""

from __future__ import annotations

import pytest

from bot.ui.budget import MAX_SHED, RequestRate
from tests.support.helpers import layout_texts, pick_play, play_through_ui, public_message, table_of


class FakeClock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def test_the_rate_is_busy_from_its_limit_and_falls_after_the_window():
    clock = FakeClock()
    rate = RequestRate(limit=40, window=1.0, clock=clock)
    for _ in range(39):
        rate.record()
    assert rate.rate() == 39 and not rate.busy()
    rate.record()
    assert rate.busy()
    clock.now += 0.5
    assert rate.busy(), "still within the window"
    clock.now += 0.6
    assert rate.rate() == 0 and not rate.busy() and rate.total == 40 and rate.wait_time() == 0
    for step in range(50):  # 50 requests 10 ms apart: it falls below 40/s once the first 11 have left
        clock.now = 200.0 + step * 0.01
        rate.record()
    assert rate.busy() and rate.wait_time() == pytest.approx(200.0 + 10 * 0.01 + 1.0 - clock.now)
    with pytest.raises(ValueError):
        RequestRate(limit=0)


async def test_install_counts_every_request_of_the_http_client():
    class Http:
        calls = 0

        async def request(self, route, **kwargs):
            Http.calls += 1
            return {"route": route, **kwargs}

    http = Http()
    rate = RequestRate(clock=FakeClock())
    rate.install(http)
    assert await http.request("r1", json={"a": 1}) == {"route": "r1", "json": {"a": 1}}
    await http.request("r2")
    assert rate.total == 2 == Http.calls


@pytest.fixture
def simcord_bot(make_bot):
    return make_bot(edit_interval=1.0, write_budget=True, request_shedding=True, virtual=True)


async def test_the_bot_counts_exactly_its_bot_token_requests(world, env):
    from simcord.http import router

    seen = []
    original = router.dispatch

    def dispatch(backend, method, path, *args, **kwargs):
        bare = path.split("?", 1)[0].removeprefix("/api/v10")
        if not bare.startswith(("/interactions/", "/webhooks/")):
            seen.append((method, bare))
        return original(backend, method, path, *args, **kwargs)

    router.dispatch = dispatch
    try:
        before = env.bot.request_rate.total
        await world.ana.slash(world.channel, "cuarenta new", players=2, rules="quito")
        await world.beto.slash(world.channel, "cuarenta join")
        await env.advance_time(3)
        table = table_of(world, 1)
        for _ in range(4):  # plays: the table message's edits with its picture, and the hands
            await play_one(world, table)
            await env.advance_time(2)
    finally:
        router.dispatch = original
    assert len(seen) >= 5, "welcome lines, hands, the table message"
    assert any(method == "PATCH" and path.startswith("/channels/") for method, path in seen), "the table's edits"
    assert env.bot.request_rate.total - before == len(seen)


def public_edits_after(writes, table, since: float) -> list:
    return [w for w in writes.writes if w.channel == table.channel_id and w.message == table.messages.public
            and w.method == "PATCH" and w.at >= since]


async def start(world, env):
    await world.ana.slash(world.channel, "cuarenta new", players=2, rules="quito")
    await world.beto.slash(world.channel, "cuarenta join")
    await env.advance_time(3)
    return table_of(world, 1)


async def play_one(world, table):
    member = world.ana if table.seats[table.game.to_play].user_id == world.ana.id else world.beto
    _, play = pick_play(table)
    await play_through_ui(member, table, play)


async def test_while_the_rate_is_at_its_limit_the_table_edit_waits_then_shows_the_latest_play(
        world, env, writes, monkeypatch):
    """Two plays while the rate is at its limit: the table message is not edited until the rate falls,
    and the first edit then shows the table after the second play (drawn after the wait, not before)."""
    from bot.ui import render

    table = await start(world, env)
    rate = env.bot.request_rate
    t0 = env.now().timestamp()
    busy = 5.5  # seconds at the limit (under MAX_SHED, so the edit waits for the rate, not the cap)
    monkeypatch.setattr(rate, "busy", lambda: env.now().timestamp() < t0 + busy)
    monkeypatch.setattr(rate, "wait_time", lambda: max(0.0, t0 + busy - env.now().timestamp()))
    shed = rate.shed
    await play_one(world, table)
    after_first = render.table_layout(table, "es", None, faces=env.bot.faces).view.to_components()
    await play_one(world, table)
    assert env.now().timestamp() < t0 + busy, "both plays inside the busy window"
    after_second = render.table_layout(table, "es", None, faces=env.bot.faces).view.to_components()
    assert after_first != after_second
    await env.advance_time(busy + 2)
    edits = public_edits_after(writes, table, t0)
    assert edits, "the table message was edited once the rate fell"
    assert t0 + busy <= edits[0].at <= t0 + busy + 1.5, "not before the rate fell, and soon after"
    assert rate.shed >= shed + 1
    assert layout_texts(edits[0].body["components"]) == layout_texts(after_second), \
        "the first edit after the wait shows the latest play"
    assert layout_texts(public_message(world, table)) == layout_texts(after_second)


async def test_an_edit_never_waits_more_than_max_shed(world, env, writes, monkeypatch):
    table = await start(world, env)
    monkeypatch.setattr(env.bot.request_rate, "busy", lambda: True)
    monkeypatch.setattr(env.bot.request_rate, "wait_time", lambda: 100.0)
    t0 = env.now().timestamp()
    await play_one(world, table)
    await env.advance_time(MAX_SHED + 3)
    edits = public_edits_after(writes, table, t0)
    assert edits and t0 + MAX_SHED - 0.5 <= edits[0].at <= t0 + MAX_SHED + 1.5, [w.at - t0 for w in edits]
