"""`bot.ops.metrics` and `bot.ops.pulse` on their own: what each observer call counts, the 429s read from
discord.py's own warnings, the exposition in both formats, and the pulse's line on a manual clock."""

from __future__ import annotations

import logging
from types import SimpleNamespace

import discord
import pytest
from prometheus_client.parser import text_string_to_metric_families

from bot.ops import BotMetrics, OpsServer, PortError, Pulse, RateLimitLog
from bot.tables.background import Background
from bot.tables.model import LOBBY, PLAYING
from bot.tables.timers import ManualClock, Scheduler
from bot.ui.answer import ON_ANSWERED


def scrape(metrics: BotMetrics) -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
    body, _ = metrics.exposition()
    return {(s.name, tuple(sorted(s.labels.items()))): s.value
            for family in text_string_to_metric_families(body.decode()) for s in family.samples}


def test_each_observer_call_moves_its_metric():
    metrics = BotMetrics()
    tables = [SimpleNamespace(status=PLAYING, players=4), SimpleNamespace(status=LOBBY, players=2),
              SimpleNamespace(status="finished", players=2)]
    metrics.watch(tables=lambda: tables, database_errors=lambda: 7, queues={"ai": lambda: 3, "pictures": lambda: 0})
    metrics.played(tables[0])
    metrics.played(tables[0])
    metrics.mesa_finished(tables[0], 600.0)
    metrics.request_done("PATCH", "/channels/{channel_id}/messages/{message_id}", False)
    metrics.request_done("PATCH", "/channels/{channel_id}/messages/{message_id}", True)
    metrics.dm_failed("hand", True)
    metrics.dm_failed("line", False)

    found = scrape(metrics)
    assert found[("cuarenta_tables_in_play", ())] == 1 and found[("cuarenta_lobbies_open", ())] == 1
    assert found[("cuarenta_plays_total", ())] == 2
    assert found[("cuarenta_mesas_finished_total", (("mode", "2v2"),))] == 1
    assert found[("cuarenta_mesas_finished_total", (("mode", "1v1"),))] == 0
    route = (("method", "PATCH"), ("route", "/channels/{channel_id}/messages/{message_id}"))
    assert found[("cuarenta_discord_requests_total", route)] == 2
    assert found[("cuarenta_discord_rate_limits_total", (("outcome", "failed"),))] == 1
    assert found[("cuarenta_dm_failures_total", (("reason", "closed"), ("what", "hand")))] == 1
    assert found[("cuarenta_dm_failures_total", (("reason", "other"), ("what", "line")))] == 1
    assert found[("cuarenta_worker_queue_depth", (("pool", "ai"),))] == 3
    assert found[("cuarenta_database_errors_total", ())] == 7


def test_an_interaction_is_counted_and_timed_to_its_first_answer_once():
    metrics = BotMetrics()
    interaction = SimpleNamespace(type=discord.InteractionType.component, extras={})
    metrics.interaction(interaction)
    hook = interaction.extras[ON_ANSWERED]
    hook()
    found = scrape(metrics)
    assert found[("cuarenta_interactions_total", (("kind", "component"),))] == 1
    assert found[("cuarenta_interaction_ack_seconds_count", (("kind", "component"),))] == 1
    autocomplete = SimpleNamespace(type=discord.InteractionType.autocomplete, extras={})
    metrics.interaction(autocomplete)
    assert ON_ANSWERED not in autocomplete.extras, "discord.py answers an autocomplete itself: not timed"


def test_discord_py_s_retried_429_warnings_are_counted_and_kept():
    metrics = BotMetrics()
    watcher = RateLimitLog(metrics)
    watcher.install()
    try:
        http = logging.getLogger("discord.http")
        http.warning("We are being rate limited. %s %s responded with 429. Retrying in %.2f seconds.",
                     "PATCH", "https://discord.com/api/v10/channels/1/messages/2", 0.5)
        http.warning("We are being rate limited. %s %s responded with 429. Timeout of %.2f was too long, "
                     "erroring instead.", "PATCH", "https://discord.com/api/v10/channels/1", 60.0)
        logging.getLogger("discord.webhook.async_").warning(
            "Webhook ID %s is rate limited. Retrying in %.2f seconds.", 5, 0.25)
        http.warning("something else")
    finally:
        watcher.remove()
    http.warning("We are being rate limited. %s %s responded with 429. Retrying in %.2f seconds.", "GET", "x", 1.0)
    assert scrape(metrics)[("cuarenta_discord_rate_limits_total", (("outcome", "retried"),))] == 2


def test_openmetrics_is_served_when_the_scraper_asks_for_it():
    body, content_type = BotMetrics().exposition("application/openmetrics-text; version=1.0.0")
    assert content_type.startswith("application/openmetrics-text") and body.endswith(b"# EOF\n")


async def test_the_pulse_says_the_live_tables_and_the_plays_of_each_period(caplog):
    caplog.set_level(logging.INFO, logger="bot.ops")
    clock = ManualClock()
    background = Background()
    clock.watch(background.tasks)
    plays = [0]
    pulse = Pulse(clock, Scheduler(clock, background.spawn), lambda: (2, 1), lambda: plays[0], every=300)
    pulse.start()
    plays[0] = 40
    await clock.advance(299)
    assert not caplog.records
    await clock.advance(1)
    plays[0] = 45
    await clock.advance(300)
    assert [r.getMessage() for r in caplog.records] == [
        "live: 2 tables in play, 1 lobby, 40 plays in the last 300 s",
        "live: 2 tables in play, 1 lobby, 5 plays in the last 300 s"]
    pulse.stop()
    await background.close()


async def test_a_port_taken_is_refused_naming_it():
    async def healthy():
        return None

    first = OpsServer(BotMetrics(), healthy)
    port = await first.start("127.0.0.1", 0)
    try:
        with pytest.raises(PortError, match=f"METRICS_PORT: cannot listen on 127.0.0.1:{port}"):
            await OpsServer(BotMetrics(), healthy).start("127.0.0.1", port)
    finally:
        await first.close()
