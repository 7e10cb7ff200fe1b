"""The bot: a `commands.AutoShardedBot` (one process runs every shard, their count from Discord, or the
range SHARD_IDS of SHARD_COUNT when the bot runs as several processes; DMs reach shard 0 only) whose
``setup_hook`` opens the database, builds the table service and the Discord presenter, registers the
persistent components, loads the cogs, restores open tables and, with a development guild, syncs the
commands there.
"""

from __future__ import annotations

import asyncio
import logging
import sys
from collections.abc import Awaitable, Callable
from typing import Any

import discord
from discord.ext import commands

from bot.competitions import QueueDiscord, QueueService
from bot.competitions.league_present import LeagueDiscord
from bot.competitions.leagues import LeagueService
from bot.competitions.settings import CompetitionSettings
from bot.competitions.tournament_present import TournamentDiscord
from bot.competitions.tournaments import TournamentService
from bot.config import Settings
from bot.i18n.translator import CatalogTranslator
from bot.ops import BotMetrics, OpsServer, Pulse, RateLimitLog
from bot.ops.pulse import PULSE_EVERY
from bot.organizer import OrganizerDiscord, OrganizerService
from bot.privacy import PrivacyService
from bot.ratings.live import LiveBoards
from bot.ratings.live_repo import LiveBoardRepo
from bot.store import Store
from bot.store.messages import TableMessages
from bot.tables import TableService
from bot.tables.timers import Clock
from bot.tables.workers import ProcessOffload
from bot.ui import permissions
from bot.ui.actions import Actions
from bot.ui.budget import RequestRate, WriteBudget
from bot.ui.emojis import CardEmojis
from bot.ui.faces import CardFaces
from bot.ui.items import DYNAMIC_ITEMS
from bot.ui.live_board import DiscordBoardWriter
from bot.ui.notifier import DiscordNotifier
from bot.ui.options import OptionCheckedTree
from bot.ui.picture_workers import PictureWorkers
from bot.ui.router import ComponentRouter
from bot.web import WebContext, web_routes
from bot.web.links import WebLinks
from bot.web.names import BotDirectory

log = logging.getLogger(__name__)

EXTENSIONS: tuple[str, ...] = ("cogs.tables", "cogs.leaderboard", "cogs.competitions",
                                  "cogs.leagues", "cogs.tournaments", "cogs.organizer", "cogs.learn",
                                  "cogs.replays", "cogs.house", "cogs.privacy")  # tables first: it owns /cuarenta

PERMISSIONS = permissions.INVITE
"""What the invite asks for: every permission the bot uses (`bot.ui.permissions`), no more."""

HEALTH_TIMEOUT = 2.0
"""Seconds the health check's trivial query may take before the database counts as not answering."""


class DiscordClock:
    """The table service's clock in the bot: UTC seconds from `discord.utils.utcnow` and `asyncio.sleep`.

    In production this is the system clock; under SimCord both follow its virtual clock, so the tests
    drive every turn timer with ``env.advance_time`` and never sleep."""

    def now(self) -> float:
        """UTC seconds since the epoch."""
        return discord.utils.utcnow().timestamp()

    async def sleep(self, seconds: float) -> None:
        """`asyncio.sleep`."""
        await asyncio.sleep(max(0.0, seconds))


class CuarentaBot(commands.AutoShardedBot):
    """The Cuarenta bot.

    Args:
        settings: `Settings` (database path, development guild …).
        ai_delay: seconds before a computer player moves (default from settings; 0 in tests).
        seed_factory: game seeds (tests pass a fixed one).
        offload: how slow pure work (the computer players' moves) runs off the loop. Default: worker
            processes (`ProcessOffload` of ``settings.ai_workers``, started at the first move, shut down
            by `close`); with ``ai_workers`` 0, `asyncio.to_thread`.
        edit_interval: seconds between edits of one table's public message.
        clock, sleep: the presenter's clock and wait (tests inject a fake clock).
        write_budget: hold every channel to Discord's 5 writes per 5 s (`bot.ui.budget`); tests that do
            not drive the clock turn it off.
        request_shedding: while the bot's bot-token request rate is at `bot.ui.budget.SHED_AT` per
            second, table message edits wait (the rate is counted either way, ``request_rate``); tests
            that click many times in one virtual instant turn it off.
        pictures: draw the table picture on the table message.
        card_emojis: upload the 42 card emojis (40 cards and the two jokers) at start and use them (else text labels only).
        sync_only: build only the command tree (``python -m bot sync``).
        store: an open `Store` the bot takes over (``setup_hook`` uses it, `close` closes it, whether or not
            the bot got that far); None: ``setup_hook`` opens ``settings.database``.
        pulse_every: seconds of the table service's clock between two log lines of the live tables
            (`bot.ops.pulse`); None: no such line (tests that jump days of virtual time).

    Attribute ``ai_offload``: the bot's own `ProcessOffload`, or None (an ``offload`` was given, or
    ``ai_workers`` is 0, or ``sync_only``). Attribute ``picture_workers``: the `PictureWorkers` that draw
    the table pictures, or None (``picture_workers`` 0, no pictures, or ``sync_only``: drawn in-process).

    Attributes (after ``setup_hook``): ``store``, ``tables`` (the `TableService`), ``notifier``, ``queue``
    (the `QueueService`), ``queue_presenter`` and ``privacy`` (the `PrivacyService`: members' data, and the
    daily pruning of servers the bot left). Attribute ``faces``: the cards' `CardFaces` (the card
    emojis once ``setup_hook`` synced them all, else text labels), handed to the presenter and read by the
    cogs. Attribute ``actions``: the `bot.ui.actions.Actions`
    registry through which persistent components reach the cogs (each cog fills its slot when it loads).
    Attribute ``metrics``: the `bot.ops.BotMetrics` (None before ``setup_hook`` and with ``sync_only``);
    ``ops_server``: the `bot.ops.OpsServer` of ``/healthz`` and ``/metrics`` once listening
    (``settings.metrics_port`` set), else None.
    """

    store: Store
    tables: TableService
    notifier: DiscordNotifier
    queue: QueueService
    queue_presenter: QueueDiscord
    leagues: LeagueService
    league_presenter: LeagueDiscord
    organizer: OrganizerService
    tournaments: TournamentService
    tournament_presenter: TournamentDiscord
    competition_settings: CompetitionSettings
    live_boards: LiveBoards
    actions: Actions
    request_rate: RequestRate
    privacy: PrivacyService

    def __init__(self, settings: Settings, *, ai_delay: float | None = None,
                 seed_factory: Callable[[], str] | None = None,
                 offload: Callable[..., Awaitable[Any]] | None = None, edit_interval: float = 1.0,
                 clock: Callable[[], float] | None = None,
                 sleep: Callable[[float], Awaitable[Any]] | None = None, sync_only: bool = False,
                 table_clock: Clock | None = None, members_intent: bool | None = None,
                 write_budget: bool = True, pictures: bool = True, card_emojis: bool = True,
                 request_shedding: bool = True, store: Store | None = None,
                 pulse_every: float | None = PULSE_EVERY, **options: Any) -> None:
        # The bot has no voice: discord.py's start-up warnings about missing voice libraries (PyNaCl,
        # davey) say nothing useful here, so they are switched off before the client is built.
        discord.VoiceClient.warn_nacl = False
        discord.VoiceClient.warn_dave = False
        # The smallest set the bot needs: guilds (the guild and channel cache, CHANNEL_DELETE,
        # THREAD_DELETE, GUILD_CREATE/REMOVE). Interactions arrive without any intent; the bot reads no
        # message, typing, reaction, presence or voice event, so none of those is subscribed.
        intents = discord.Intents.none()
        intents.guilds = True
        # Members leaving the server (GUILD_MEMBER_REMOVE) need the privileged members intent; it is
        # opt-in (DISCORD_MEMBERS_INTENT=1, and enabled in the developer portal). Without it, a member who
        # left is handed to a computer player by the turn timer instead.
        intents.members = settings.members_intent if members_intent is None else members_intent
        if settings.shard_ids is not None and "shard_ids" not in options:  # a range of shards (docs/SCALING.md)
            options.update(shard_ids=list(settings.shard_ids), shard_count=settings.shard_count)
        super().__init__(command_prefix=commands.when_mentioned, intents=intents, help_command=None,
                         tree_cls=OptionCheckedTree,
                         allowed_mentions=discord.AllowedMentions.none(), **options)
        self.settings = settings
        self._ai_delay = settings.ai_delay if ai_delay is None else ai_delay
        self._seed_factory = seed_factory
        self.ai_offload: ProcessOffload | None = None
        if offload is None and settings.ai_workers > 0 and not sync_only:
            self.ai_offload = ProcessOffload(settings.ai_workers)
        self._offload = offload or self.ai_offload
        self.picture_workers: PictureWorkers | None = None
        # the workers' pipes are read with ``loop.add_reader``, which Windows' event loop lacks: drawn in-process there
        if pictures and settings.picture_workers > 0 and not sync_only and sys.platform != "win32":
            self.picture_workers = PictureWorkers(settings.picture_workers)
        self._edit_interval = edit_interval
        self._clock = clock
        self._sleep = sleep
        self._table_clock = table_clock
        self.sync_only = sync_only
        self._write_budget = write_budget
        self._request_shedding = request_shedding
        self._pictures = pictures
        self._card_emojis = card_emojis
        self.card_emojis = CardEmojis()
        self.faces = CardFaces.TEXT
        self.actions = Actions()
        self._store_open = False
        self._given_store = store
        self.dynamic_factories: list[type[discord.ui.DynamicItem[Any]]] = []
        """Every `DynamicItem` class registered (`add_dynamic_items`), for the click fallback."""
        self.router = ComponentRouter(lambda: self.dynamic_factories)
        self.add_listener(self.router.on_interaction, "on_interaction")
        self.metrics: BotMetrics | None = None
        self.ops_server: OpsServer | None = None
        self._rate_limit_log: RateLimitLog | None = None
        self._pulse_every = pulse_every

    def dispatch(self, event_name: str, /, *args: Any, **kwargs: Any) -> None:
        """discord.py's event dispatch; an interaction is first counted and stamped for the metrics, in
        the same step as its receipt (before any handler's task runs)."""
        if event_name == "interaction" and self.metrics is not None:
            self.metrics.interaction(args[0])
        super().dispatch(event_name, *args, **kwargs)

    def add_dynamic_items(self, *items: type[discord.ui.DynamicItem[Any]]) -> None:
        """Register persistent components (discord.py) and remember them for `bot.ui.router`."""
        super().add_dynamic_items(*items)
        self.dynamic_factories.extend(i for i in items if i not in self.dynamic_factories)

    def remove_dynamic_items(self, *items: type[discord.ui.DynamicItem[Any]]) -> None:
        """Unregister persistent components (discord.py) and forget them in `bot.ui.router`."""
        super().remove_dynamic_items(*items)
        self.dynamic_factories[:] = [i for i in self.dynamic_factories if i not in items]

    async def setup_hook(self) -> None:
        """Open the store, wire the service and presenter, register components, load cogs, restore
        tables, sync commands to the development guild if one is set. With ``sync_only`` (``python -m bot
        sync``) only the command tree is built: no database, no tables."""
        await self.tree.set_translator(CatalogTranslator())
        if self.sync_only:
            for extension in EXTENSIONS:
                await self.load_extension(extension)
            return
        self.metrics = metrics = BotMetrics()
        budget = WriteBudget(clock=self._clock, sleep=self._sleep, enabled=self._write_budget)
        budget.install(self.http)  # a message write holds its slot while in flight, and counts from its answer
        self.request_rate = RequestRate(clock=self._clock, observer=metrics)
        self.request_rate.install(self.http)  # every bot-token request counted (the emoji uploads too)
        self.faces = await self._card_faces()
        given, self._given_store = self._given_store, None
        self.store = given or await Store.open(self.settings.database)
        self._store_open = True
        self.tables = TableService(self.store, ai_delay=self._ai_delay, seed_factory=self._seed_factory,
                                   offload=self._offload, clock=self._table_clock or DiscordClock())
        self.tables.serves_guild = self.settings.runs_guild  # several processes: each resumes its servers
        self.tables.writer.observer = metrics
        self.notifier = DiscordNotifier(self, self.tables, edit_interval=self._edit_interval, clock=self._clock,
                                        sleep=self._sleep, budget=budget, pictures=self._pictures,
                                        rate=self.request_rate if self._request_shedding else None,
                                        picture_workers=self.picture_workers, faces=self.faces,
                                        messages=TableMessages(self.store.db))
        self.tables.set_notifier(self.notifier)
        self.notifier.hands.observer = metrics
        self.queue = QueueService(self.store, self.tables, self.tables.clock)
        self.queue_presenter = QueueDiscord(self, self.tables, self.queue, budget=budget)
        self.queue.presenter = self.queue_presenter
        self.leagues = LeagueService(self.store, self.tables, self.tables.clock)
        self.league_presenter = LeagueDiscord(self, self.tables, self.leagues, budget=budget, sleep=self._sleep,
                                              delay=self._edit_interval)
        self.leagues.presenter = self.league_presenter
        self.tournaments = TournamentService(self.store, self.tables, self.tables.clock)
        self.tournament_presenter = TournamentDiscord(self, self.tables, self.tournaments, budget=budget,
                                                      sleep=self._sleep, delay=self._edit_interval)
        self.tournaments.presenter = self.tournament_presenter
        self.organizer = OrganizerService(self.store, self.leagues, self.tournaments,
                                          OrganizerDiscord(self, self.tables, budget=budget))
        self.competition_settings = CompetitionSettings(self.store)
        self.web_links = WebLinks(self.store.db, self.settings.web_base_url)
        self.league_presenter.page_url = self.tournament_presenter.page_url = self.web_links.page
        clock = self.tables.clock
        self.live_boards = LiveBoards(LiveBoardRepo(self.store.db), now=clock.now, sleep=clock.sleep)
        self.live_boards.writer = DiscordBoardWriter(self, self.tables, budget=budget)
        self.tables.ratings.on_rated.append(self.live_boards.changed)
        self.privacy = PrivacyService(self.store, self.tables.clock, prune_days=self.settings.prune_days_after_leave,
                                      forget_tables=self.tables.forget_ended_with)
        self.add_dynamic_items(*DYNAMIC_ITEMS)
        for extension in EXTENSIONS:
            await self.load_extension(extension)
        await self.tables.load()
        await self.queue.load()
        await self.leagues.load()
        await self.tournaments.load()
        await self.live_boards.load()
        await self._start_ops(metrics)
        self.privacy.start()
        if self.settings.guild_id:
            guild = discord.Object(id=self.settings.guild_id)
            self.tree.copy_global_to(guild=guild)
            synced = await self.tree.sync(guild=guild)
            log.info("synced %d commands to development guild %d", len(synced), self.settings.guild_id)

    async def _start_ops(self, metrics: BotMetrics) -> None:
        """What a host sees (`bot.ops`): the metrics read the live tables, the database's error count and
        the workers' queues; the periodic log line of the live tables; discord.py's retried 429s counted;
        and, when ``METRICS_PORT`` is set, the HTTP port of ``/healthz``, ``/metrics`` and the web pages
        of the servers that turned them on (`bot.web`).

        Raises:
            bot.ops.PortError: that port cannot be listened on.
        """
        ai, pictures = self.ai_offload, self.picture_workers
        metrics.watch(tables=lambda: self.tables.tables.values(), database_errors=lambda: self.store.db.errors,
                      queues={"ai": lambda: ai.pending if ai is not None else 0,
                              "pictures": lambda: pictures.pending if pictures is not None else 0})
        if self._pulse_every:
            Pulse(self.tables.clock, self.tables.scheduler, metrics.live, lambda: metrics.plays,
                  every=self._pulse_every).start()
        self._rate_limit_log = RateLimitLog(metrics)
        self._rate_limit_log.install()
        if self.settings.metrics_port is not None:
            pages = WebContext(self.store, self.tables.ratings, BotDirectory(self))
            server = OpsServer(metrics, self.health, web_routes(pages))
            await server.start(self.settings.metrics_host, self.settings.metrics_port)
            self.ops_server = server

    async def health(self) -> str | None:
        """None while the bot is healthy: ready, not closed, every shard connected, and the database
        answering a trivial query within `HEALTH_TIMEOUT` seconds. Else one word: ``starting``,
        ``closed``, ``disconnected`` or ``database``."""
        if self.is_closed():
            return "closed"
        if not self.is_ready():
            return "starting"
        if any(shard.is_closed() for shard in self.shards.values()):
            return "disconnected"
        if not self._store_open:
            return "database"
        try:
            await asyncio.wait_for(self.store.db.fetchval("SELECT 1"), HEALTH_TIMEOUT)
        except Exception as exc:  # noqa: BLE001 - any failure is the answer
            log.warning("health check: the database did not answer (%s)", type(exc).__name__)
            return "database"
        return None

    async def _card_faces(self) -> CardFaces:
        """Upload the card emojis that are missing (idempotent) and return the faces that use them on
        buttons and in lines; when Discord refuses (or ``card_emojis`` is off), text labels (``7♦``)."""
        if not self._card_emojis:
            return CardFaces.TEXT
        await self.card_emojis.sync(self)
        return self.card_emojis.faces()

    async def sync_global(self) -> int:
        """Sync the commands globally (``python -m bot sync``); returns how many."""
        synced = await self.tree.sync()
        return len(synced)

    async def close(self) -> None:
        """Stop the HTTP port of the health check and metrics, the table work (and the computer players'
        worker processes), close the Discord connection, then the database."""
        if self.ops_server is not None:
            await self.ops_server.close()
            self.ops_server = None
        if self._rate_limit_log is not None:
            self._rate_limit_log.remove()
            self._rate_limit_log = None
        if self._store_open:
            await self.queue.close()
            await self.leagues.close()
            await self.organizer.close()
            await self.tournaments.close()
            await self.league_presenter.live.close()
            await self.tournament_presenter.live.close()
            await self.live_boards.close()
            await self.privacy.close()
            await self.tables.close()
            await self.notifier.close()
        if self.ai_offload is not None:
            self.ai_offload.close()
        if self.picture_workers is not None:
            self.picture_workers.close()
        await super().close()
        if self._store_open:
            self._store_open = False
            await self.store.close()
        if self._given_store is not None:  # handed over, never taken by setup_hook
            given, self._given_store = self._given_store, None
            await given.close()


def invite_url(application_id: int) -> str:
    """The OAuth2 URL that adds the bot to a server (scopes bot and applications.commands)."""
    return discord.utils.oauth_url(application_id, permissions=PERMISSIONS,
                                   scopes=("bot", "applications.commands"))
