"""The bot's metrics, in Prometheus' text format through ``prometheus_client``.

`BotMetrics` owns its own ``CollectorRegistry`` (no process-wide state: two bots in one test process keep
two sets) and is the one object behind every observer the layers below call:

- the table service's `bot.tables.ports.TableObserver` (`played`, `mesa_finished`);
- the presenter's `bot.ui.dm_writes.DmObserver` (`dm_failed`) and `bot.ui.budget.RequestObserver`
  (`request_done`, every bot-token REST call);
- `interaction`, called by the bot at the receipt of each interaction: it counts it and leaves the
  `bot.ui.answer.ON_ANSWERED` hook that times its first answer;
- `RateLimitLog`, a filter on discord.py's loggers that counts the 429s discord.py retries by itself.

Each of those is a counter increment or a histogram observation: no I/O, no lock held across an await.
What is a state rather than an event (tables in play, lobbies, the workers' queues, the database's error
count) is read when Prometheus scrapes (`watch`), so it costs nothing between scrapes.
`docs/metrics.md` lists every metric with its meaning.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Iterable, Iterator, Mapping
from typing import Any

import discord
from prometheus_client import CollectorRegistry, Counter, Histogram
from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily, Metric
from prometheus_client.exposition import choose_encoder

from bot.tables.model import LOBBY, PLAYING, Table
from bot.ui.answer import ON_ANSWERED

ACK_BUCKETS = (0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 1.5, 2.0, 2.5, 3.0, 5.0)
"""The ack-latency histogram's buckets, in seconds: fine below Discord's 3-second limit, where it matters
(the bot's own guard acknowledges at 2.5 s, `bot.ui.answer.ACK_DEADLINE`)."""

PREFIX = "cuarenta"
"""The prefix of every metric's name."""


def mode_of(table: Table) -> str:
    """A mesa's mode, the label of the finished-mesa counter: ``"1v1"`` or ``"2v2"``."""
    side = max(1, table.players // 2)
    return f"{side}v{side}"


class BotMetrics:
    """The counters, histogram and scrape-time gauges of one bot (see the module docstring).

    Attributes:
        registry: the ``prometheus_client`` registry `exposition` serves.
        plays: plays saved by this process since its start (also read by `bot.ops.pulse.Pulse`).
        mesas: mesas finished since the start, by mode (`mode_of`).
    """

    def __init__(self) -> None:
        self.registry = CollectorRegistry(auto_describe=True)
        self.plays = 0
        self.mesas: dict[str, int] = {}
        registry = self.registry
        self._interactions = Counter(f"{PREFIX}_interactions", "Interactions received, by kind.", ["kind"],
                                     registry=registry)
        self._ack = Histogram(f"{PREFIX}_interaction_ack_seconds",
                              "Seconds from an interaction's receipt to its first response, by kind.", ["kind"],
                              buckets=ACK_BUCKETS, registry=registry)
        self._requests = Counter(f"{PREFIX}_discord_requests",
                                 "Bot-token REST requests to Discord, by method and route template.",
                                 ["method", "route"], registry=registry)
        self._limited = Counter(f"{PREFIX}_discord_rate_limits",
                                "Discord's 429 answers: retried by discord.py, or a request that failed with one.",
                                ["outcome"], registry=registry)
        self._dm = Counter(f"{PREFIX}_dm_failures", "DMs refused or failed: closed DMs (403 50007) or other.",
                           ["what", "reason"], registry=registry)
        self._children: dict[tuple[Any, ...], Any] = {}
        self._tables: Callable[[], Iterable[Table]] = lambda: ()
        self._database_errors: Callable[[], int] = lambda: 0
        self._queues: Mapping[str, Callable[[], int]] = {}
        registry.register(_AtScrape(self))

    def watch(self, *, tables: Callable[[], Iterable[Table]], database_errors: Callable[[], int],
              queues: Mapping[str, Callable[[], int]]) -> None:
        """What is read at each scrape: the tables in memory, the database's error count
        (`bot.store.db.Database.errors`), and each worker pool's pending calls by pool name."""
        self._tables = tables
        self._database_errors = database_errors
        self._queues = dict(queues)

    def _child(self, metric: Any, *labels: str) -> Any:
        """``metric.labels(*labels)``, kept: the hot paths skip prometheus_client's lock and checks."""
        key = (id(metric), *labels)
        child = self._children.get(key)
        if child is None:
            child = self._children[key] = metric.labels(*labels)
        return child

    # ------------------------------------------------------------------ the table service (TableObserver)

    def played(self, table: Table) -> None:
        """A play was saved."""
        self.plays += 1

    def mesa_finished(self, table: Table, seconds: float | None) -> None:
        """A mesa ended (its duration is in the log line, `bot.tables.persistence`)."""
        mode = mode_of(table)
        self.mesas[mode] = self.mesas.get(mode, 0) + 1

    # ------------------------------------------------------------------ the presenter and Discord

    def interaction(self, interaction: discord.Interaction) -> None:
        """An interaction arrived: count it by kind (``application_command``, ``component``,
        ``autocomplete``, ``modal_submit``) and time its first response (`bot.ui.answer.ON_ANSWERED`; an
        autocomplete is answered by discord.py itself and is not timed)."""
        kind = interaction.type.name
        self._child(self._interactions, kind).inc()
        if interaction.type is discord.InteractionType.autocomplete:
            return
        start = time.monotonic()
        ack = self._child(self._ack, kind)
        interaction.extras[ON_ANSWERED] = lambda: ack.observe(max(0.0, time.monotonic() - start))

    def request_done(self, method: str, route: str, limited: bool) -> None:
        """A bot-token REST request ended (`bot.ui.budget.RequestObserver`)."""
        self._child(self._requests, method, route).inc()
        if limited:
            self._child(self._limited, "failed").inc()

    def rate_limited(self) -> None:
        """discord.py got a 429 and retries the request after the wait Discord asked for."""
        self._child(self._limited, "retried").inc()

    def dm_failed(self, what: str, closed: bool) -> None:
        """A DM was refused or failed (`bot.ui.dm_writes.DmObserver`)."""
        self._child(self._dm, what, "closed" if closed else "other").inc()

    # ------------------------------------------------------------------ reading

    def live(self) -> tuple[int, int]:
        """``(tables in play, open lobbies)`` among the tables in memory now."""
        playing = lobbies = 0
        for table in self._tables():
            if table.status == PLAYING:
                playing += 1
            elif table.status == LOBBY:
                lobbies += 1
        return playing, lobbies

    def exposition(self, accept: str | None = None) -> tuple[bytes, str]:
        """The registry's samples, encoded for a scraper's ``Accept`` header: ``(body, content type)``
        (Prometheus' text format, or OpenMetrics when asked)."""
        encoder, content_type = choose_encoder(accept or "")
        return encoder(self.registry), content_type


class _AtScrape:
    """The metrics computed when scraped (a ``prometheus_client`` custom collector)."""

    def __init__(self, metrics: BotMetrics) -> None:
        self._metrics = metrics

    def describe(self) -> list[Metric]:
        """No fixed description: the registry calls `collect` to learn the names."""
        return list(self.collect())

    def collect(self) -> Iterator[Metric]:
        """The samples now."""
        m = self._metrics
        playing, lobbies = m.live()
        yield GaugeMetricFamily(f"{PREFIX}_tables_in_play", "Tables whose mesa is being played, in this process.",
                                value=playing)
        yield GaugeMetricFamily(f"{PREFIX}_lobbies_open", "Lobbies waiting for players, in this process.",
                                value=lobbies)
        yield CounterMetricFamily(f"{PREFIX}_plays", "Plays saved (people's and computer players').",
                                  value=m.plays)
        mesas = CounterMetricFamily(f"{PREFIX}_mesas_finished", "Mesas played to their end, by mode.",
                                    labels=["mode"])
        for mode in sorted({"1v1", "2v2", *m.mesas}):
            mesas.add_metric([mode], m.mesas.get(mode, 0))
        yield mesas
        queues = GaugeMetricFamily(f"{PREFIX}_worker_queue_depth",
                                   "Calls waiting for or computed by a worker pool (ai: computer players' moves; "
                                   "pictures: table pictures).", labels=["pool"])
        for pool, depth in sorted(m._queues.items()):  # noqa: SLF001 - the collector is part of BotMetrics
            queues.add_metric([pool], depth())
        yield queues
        yield CounterMetricFamily(f"{PREFIX}_database_errors",
                                  "Statements and transactions that failed (not a constraint's refusal).",
                                  value=m._database_errors())  # noqa: SLF001


RATE_LIMITED = ("We are being rate limited.", "Webhook ID %s is rate limited.")
"""The starts of discord.py's warnings for a 429 it waits out and retries (``discord.http`` for the bot's
token, ``discord.webhook.async_`` for interaction tokens); the one that gives up instead ("was too long,
erroring instead") raises `discord.RateLimited`, which `BotMetrics.request_done` counts."""


class RateLimitLog(logging.Filter):
    """Counts discord.py's retried 429s from its own warnings (`RATE_LIMITED`); lets every record through.

    discord.py has no event for a rate limit it handles itself; its warning is the public trace. The
    loggers must let WARNING through (``LOG_LEVEL`` up to WARNING) for the count to see them.

    Args:
        metrics: where they are counted.
    """

    LOGGERS = ("discord.http", "discord.webhook.async_")

    def __init__(self, metrics: BotMetrics) -> None:
        super().__init__()
        self._metrics = metrics

    def filter(self, record: logging.LogRecord) -> bool:
        """Count a retried 429; keep the record."""
        msg = record.msg
        if isinstance(msg, str) and msg.startswith(RATE_LIMITED) and "Retrying" in msg:
            self._metrics.rate_limited()
        return True

    def install(self) -> None:
        """Watch discord.py's loggers."""
        for name in self.LOGGERS:
            logging.getLogger(name).addFilter(self)

    def remove(self) -> None:
        """Stop watching them."""
        for name in self.LOGGERS:
            logging.getLogger(name).removeFilter(self)
