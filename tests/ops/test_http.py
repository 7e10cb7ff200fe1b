"""The health check and metrics port (`bot.ops.http`) of the bot running in SimCord, scraped with an aiohttp
client: ``/healthz`` says 200 while the bot is connected and its database answers, 503 otherwise;
``/metrics`` parses as Prometheus' text format and its counters move with play. And the INFO lines of
`bot.tables.persistence` (a mesa's end) and `bot.ops.pulse` (the live tables)."""

from __future__ import annotations

import dataclasses
import logging

import aiohttp
import pytest
from prometheus_client.parser import text_string_to_metric_families

from bot.ops.pulse import PULSE_EVERY
from bot.tables import FINISHED
from tests.support.bot_fixtures import CARD_IN_TEXT
from tests.support.helpers import pick_play, play_through_ui, play_to_end, table_of


@pytest.fixture
def simcord_bot(make_bot):
    """The test bot, with its HTTP port on a free port of 127.0.0.1 (``METRICS_PORT=0``) and the periodic
    line of the live tables."""
    bot = make_bot(pulse_every=PULSE_EVERY)
    bot.settings = dataclasses.replace(bot.settings, metrics_port=0)
    return bot


async def get(bot, path: str) -> tuple[int, str, str]:
    """``(status, content type, body)`` of ``GET path`` on the bot's port."""
    assert bot.ops_server is not None and bot.ops_server.port
    async with aiohttp.ClientSession() as session, \
            session.get(f"http://127.0.0.1:{bot.ops_server.port}{path}") as response:
        return response.status, response.headers["Content-Type"], await response.text()


def samples(text: str) -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
    """Every sample of a scrape by ``(name, sorted labels)``; parsing fails on a malformed exposition."""
    return {(s.name, tuple(sorted(s.labels.items()))): s.value
            for family in text_string_to_metric_families(text) for s in family.samples}


def total(found: dict, name: str, **labels: str) -> float:
    """The sum of the samples named ``name`` whose labels include ``labels``."""
    return sum(v for (n, ls), v in found.items() if n == name and set(labels.items()) <= set(ls))


async def test_healthz_is_ok_while_connected_and_503_once_the_database_is_closed(world):
    bot = world.bot
    status, _, body = await get(bot, "/healthz")
    assert (status, body) == (200, "ok\n")

    await bot.store.db.close()  # the database stops answering (the fixture's close of it is idempotent)

    status, _, body = await get(bot, "/healthz")
    assert (status, body) == (503, "database\n")
    status, _, text = await get(bot, "/metrics")
    assert status == 200 and total(samples(text), "cuarenta_database_errors_total") >= 1


async def test_healthz_is_503_before_the_bot_is_ready(world, monkeypatch):
    monkeypatch.setattr(type(world.bot), "is_ready", lambda self: False)
    status, _, body = await get(world.bot, "/healthz")
    assert (status, body) == (503, "starting\n")


async def test_metrics_parse_and_move_with_plays(world):
    bot = world.bot
    status, content_type, text = await get(bot, "/metrics")
    assert status == 200 and content_type.startswith("text/plain")
    before = samples(text)
    served = {name for name, _ in before}
    assert {"cuarenta_tables_in_play", "cuarenta_lobbies_open", "cuarenta_plays_total",
            "cuarenta_mesas_finished_total", "cuarenta_worker_queue_depth",
            "cuarenta_database_errors_total"} <= served, "the scrape-time metrics are served from the start"

    await world.ana.slash(world.channel, "cuarenta new", players=2, rules="quito")
    lobby = samples((await get(bot, "/metrics"))[2])
    assert total(lobby, "cuarenta_lobbies_open") == 1 and total(lobby, "cuarenta_tables_in_play") == 0

    await world.beto.slash(world.channel, "cuarenta join")
    table = table_of(world, 1)
    members = {world.ana.id: world.ana, world.beto.id: world.beto}
    for _ in range(3):
        seat, play = pick_play(table)
        await play_through_ui(members[table.seats[seat].user_id], table, play)

    after = samples((await get(bot, "/metrics"))[2])
    assert total(after, "cuarenta_tables_in_play") == 1 and total(after, "cuarenta_lobbies_open") == 0
    assert total(after, "cuarenta_plays_total") - total(before, "cuarenta_plays_total") == 3
    assert total(after, "cuarenta_interactions_total", kind="application_command") >= 2
    assert total(after, "cuarenta_interactions_total", kind="component") >= 3
    answered = total(after, "cuarenta_interaction_ack_seconds_count")
    assert answered >= 5, "each command and click is timed to its first answer"
    assert answered == total(after, "cuarenta_interactions_total"), "every interaction was answered once"
    assert total(after, "cuarenta_discord_requests_total", method="POST",
                 route="/channels/{channel_id}/messages") >= 1
    assert total(after, "cuarenta_worker_queue_depth", pool="ai") == 0
    assert world.env.errors == []


async def test_dm_failures_and_429s_are_counted(world):
    bot = world.bot
    world.env.inject_error("POST", "/channels/*/messages", status=429, code=0, message="You are being rate limited.")
    await world.ana.slash(world.channel, "cuarenta new", players=2, rules="quito")
    world.env.inject_error("POST", "/channels/*/messages", status=403, code=50007,
                           message="Cannot send messages to this user", times=None)
    await world.beto.slash(world.channel, "cuarenta join")
    found = samples((await get(bot, "/metrics"))[2])
    assert total(found, "cuarenta_discord_rate_limits_total", outcome="failed") >= 1
    assert total(found, "cuarenta_dm_failures_total", reason="closed") >= 1
    world.env.errors.clear()


@pytest.mark.slow
async def test_a_mesa_with_a_computer_player_ends_with_one_log_line_and_no_card(world, caplog):
    caplog.set_level(logging.INFO, logger="bot")
    await world.ana.slash(world.channel, "cuarenta new", players=2, rules="quito")
    await world.ana.select(world.channel.last_message, ["medio"], custom_id="c4:v:1")
    table = await play_to_end(world, 1, {world.ana.id: world.ana})
    assert table.status == FINISHED

    lines = [r.getMessage() for r in caplog.records if r.getMessage().startswith("mesa ended")]
    assert len(lines) == 1, lines
    line = lines[0]
    assert f"table {table.id}," in line and f"server {table.guild_id}," in line
    assert f"winner side {'AB'[table.game.winner]}," in line
    assert f"{len(table.game.plays)} plays" in line and " s," in line, "the duration, in seconds"
    assert not CARD_IN_TEXT.search(line)
    found = samples((await get(world.bot, "/metrics"))[2])
    assert total(found, "cuarenta_mesas_finished_total", mode="1v1") == 1
    assert total(found, "cuarenta_plays_total") == len(table.game.plays)


async def test_the_live_tables_are_logged_every_five_minutes_of_the_clock(world, caplog):
    caplog.set_level(logging.INFO, logger="bot.ops")
    await world.ana.slash(world.channel, "cuarenta new", players=2, rules="quito")  # a lobby: no turn timer
    await world.env.advance_time(PULSE_EVERY - 1)
    assert not [r for r in caplog.records if r.getMessage().startswith("live:")]
    await world.env.advance_time(2)
    lines = [r.getMessage() for r in caplog.records if r.getMessage().startswith("live:")]
    assert lines == [f"live: 0 tables in play, 1 lobby, 0 plays in the last {PULSE_EVERY:.0f} s"]
