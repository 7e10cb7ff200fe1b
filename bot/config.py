"""Settings read from the environment (and `.env` through python-dotenv).

The project directory (`project_dir`) is the nearest directory holding a `.env` file at or above the code
(``bot/``'s directory, then its parents: where python-dotenv finds `.env`), else the directory holding
``bot/`` (the repository's root). That `.env` is the one read; the SQLite file's default place and a relative
DATABASE_PATH are taken from that directory, never from the directory the bot was started in.

Variables (see `.env.example`):
    DISCORD_TOKEN: the bot token; required to run, not to test.
    DATABASE_PATH: the SQLite file, default ``cuarenta.db`` in the project directory; a relative path is
        taken relative to the project directory (``~`` is the user's home). Only one bot process may use
        a SQLite file at a time (`bot.startup`).
    DATABASE_URL: ``postgresql://user:password@host:port/database`` to use PostgreSQL (asyncpg) instead of
        SQLite; wins over DATABASE_PATH. Needed to run more than one bot process over one database.
    DISCORD_GUILD_ID: optional development server; its commands sync on every start.
    LOG_LEVEL: DEBUG, INFO (default), WARNING or ERROR; nothing else (above ERROR a failed start would
        print nothing).
    STARTUP_RETRY_SECONDS: how long, in whole seconds from 0 to 3600 (default 60), a start keeps trying
        again, with growing waits (1 s, 2 s, 4 s … at most 30 s), while Discord or the database cannot be
        reached yet (connection refused, timed out, server starting up); then the bot exits with code 1.
        0: no second try. A refused token, a missing database or an unwritable path fail at once.
    DISCORD_MEMBERS_INTENT: ``1`` to receive members leaving the server (a privileged intent: enable it
        in the developer portal too); their seat then passes to a computer player at once.
    AI_WORKERS: worker processes that compute the computer players' moves (default 2; ``0``: threads
        of the bot's process, which slow every table's answers while a hard computer thinks).
    PICTURE_WORKERS: worker processes that draw the table pictures (default 1; ``0``: the bot's own
        process draws them, a millisecond or two of its event loop a play).
    SHARD_IDS, SHARD_COUNT: to run the bot as several processes (`docs/SCALING.md`): the shards this
        process runs, as ids and ranges (``0``, ``1-7``, ``0,2,4-6``), out of SHARD_COUNT shards in all
        (every process is given the same count). Both unset (the default): one process runs every shard,
        their count from Discord. A process that runs only some of the shards needs DATABASE_URL: the
        processes share one PostgreSQL.
    DISCORD_API_BASE: the root of Discord's HTTP API, default ``https://discord.com/api/v10`` (Discord's
        own); an ``http://`` or ``https://`` URL, its trailing ``/`` dropped. Set it only to run the bot
        against a fake Discord in tests and benchmarks (the gateway's address comes from that API).
    METRICS_PORT: the TCP port of the health check and Prometheus metrics (``/healthz``, ``/metrics``;
        `docs/metrics.md`), 0 to 65535 (0: any free port); unset or blank (the default): no HTTP server.
    METRICS_HOST: the address that port listens on, default ``127.0.0.1`` (``0.0.0.0`` in a container).
        The same port serves the web pages of the servers that turned them on (``/s/<server>/…``, `bot.web`).
    WEB_BASE_URL: the public root of those pages as the bot links them (``https://cuarenta.example.org``,
        behind the host's own proxy), an ``http://`` or ``https://`` URL; unset (the default): no link posted.
    PRUNE_DAYS_AFTER_LEAVE: days after the bot leaves (or is removed from) a server before every row of
        that server is deleted: its tables and mesas, ratings, competitions, settings (default 30; a whole
        number from 1 to 3650). The bot coming back before then cancels it. See ``docs/PRIVACY.md``.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

LOG_LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR")
"""The values LOG_LEVEL accepts."""

_CODE_ROOT = Path(__file__).resolve().parent.parent
"""The directory holding ``bot/`` (the repository's root in a checkout)."""

DISCORD_API = "https://discord.com/api/v10"
"""Discord's real HTTP API, the default of DISCORD_API_BASE."""


class ConfigError(ValueError):
    """A setting is missing or malformed."""


def find_dotenv(start: Path | None = None) -> Path | None:
    """The nearest `.env` file in the directory ``start`` (default ``bot/`` itself, this module's directory)
    or one of its parents, as python-dotenv looks for it from the code; None when there is none."""
    here = (start or Path(__file__).resolve().parent).resolve()
    for directory in (here, *here.parents):
        if (directory / ".env").is_file():
            return directory / ".env"
    return None


def project_dir(start: Path | None = None) -> Path:
    """The project directory (see the module docstring): the directory of `find_dotenv` ``(start)``, else
    the directory holding ``bot/``; an absolute path."""
    found = find_dotenv(start)
    return found.parent if found is not None else _CODE_ROOT


def database_file(raw: str, base: Path) -> str:
    """The SQLite file of DATABASE_PATH ``raw`` (blank: ``cuarenta.db``): ``~`` expanded, a relative path
    joined to ``base`` (the project directory); ``":memory:"`` as it is."""
    raw = raw.strip() or "cuarenta.db"
    if raw == ":memory:":
        return raw
    path = Path(raw).expanduser()
    return str(path if path.is_absolute() else base / path)


def _retry_seconds(env: Mapping[str, str]) -> int:
    """STARTUP_RETRY_SECONDS (default 60): whole seconds from 0 to 3600.

    Raises:
        ConfigError: anything else.
    """
    raw = (env.get("STARTUP_RETRY_SECONDS") or "").strip() or "60"
    if not (raw.isascii() and raw.isdigit()) or int(raw) > 3600:
        raise ConfigError(f"STARTUP_RETRY_SECONDS must be a whole number of seconds from 0 to 3600, not {raw!r}")
    return int(raw)


def _workers(env: Mapping[str, str], name: str, default: int, zero: str) -> int:
    """A count of worker processes: ``env[name]`` (``default`` when unset or blank), a whole number from 0
    (``zero`` does the work instead) to 64.

    Raises:
        ConfigError: anything else.
    """
    raw = (env.get(name) or "").strip() or str(default)
    if not (raw.isascii() and raw.isdigit()) or int(raw) > 64:
        raise ConfigError(f"{name} must be a whole number from 0 ({zero}) to 64, not {raw!r}")
    return int(raw)


def _shards(env: Mapping[str, str], shared_database: bool) -> tuple[tuple[int, ...] | None, int | None]:
    """``(shard ids, shard count)`` from SHARD_IDS and SHARD_COUNT (see the module docstring): ``(None,
    None)`` when both are unset or blank; the ids sorted, each once.

    Raises:
        ConfigError: one of the two is set without the other; SHARD_COUNT is not a whole number from 1;
            SHARD_IDS is not a comma-separated list of ids and ``a-b`` ranges below SHARD_COUNT; or the ids
            leave out some shard while the database is not shared (no DATABASE_URL).
    """
    ids_raw = (env.get("SHARD_IDS") or "").strip()
    count_raw = (env.get("SHARD_COUNT") or "").strip()
    if not ids_raw and not count_raw:
        return None, None
    if not ids_raw or not count_raw:
        raise ConfigError("SHARD_IDS and SHARD_COUNT go together: the shards this process runs, out of how many "
                          "(leave both unset to run every shard, their count from Discord)")
    if not (count_raw.isascii() and count_raw.isdigit()) or int(count_raw) < 1:
        raise ConfigError(f"SHARD_COUNT must be a whole number from 1, not {count_raw!r}")
    count = int(count_raw)
    ids: set[int] = set()
    for part in ids_raw.split(","):
        low, dash, high = part.strip().partition("-")
        bounds = (low.strip(), high.strip() if dash else low.strip())
        if not all(b.isascii() and b.isdigit() for b in bounds) or int(bounds[0]) > int(bounds[1]):
            raise ConfigError(f"SHARD_IDS must be shard ids and ranges such as 0,2,4-6, not {ids_raw!r}")
        ids.update(range(int(bounds[0]), int(bounds[1]) + 1))
    if max(ids) >= count:
        raise ConfigError(f"SHARD_IDS names shard {max(ids)}, but shards are numbered 0 to {count - 1} "
                          f"(SHARD_COUNT={count})")
    if len(ids) < count and not shared_database:
        raise ConfigError("SHARD_IDS runs only some of the shards: the other processes must share this one's "
                          "database, so set DATABASE_URL (PostgreSQL); SQLite serves one process")
    return tuple(sorted(ids)), count


@dataclass(frozen=True, slots=True)
class Settings:
    """The bot's settings. Build them with `Settings.from_env`."""

    token: str = ""
    database_path: str = "cuarenta.db"
    guild_id: int | None = None
    log_level: str = "INFO"
    ai_delay: float = 0.8
    """Seconds a computer player waits before playing, so humans can follow (0 in tests)."""
    members_intent: bool = False
    """Declare the privileged members intent (to hear members leaving the server)."""
    database_url: str = ""
    """A PostgreSQL URL; empty: the SQLite file ``database_path``."""
    ai_workers: int = 2
    """Worker processes for the computer players' moves (`bot.tables.workers.ProcessOffload`), started
    at the first move; 0 runs them in threads of the bot's process (``asyncio.to_thread``)."""
    picture_workers: int = 1
    """Worker processes that draw the table pictures (`bot.ui.picture_workers.PictureWorkers`), each started at
    its first picture; 0 draws them in the bot's process."""
    shard_ids: tuple[int, ...] | None = None
    """The shards this process runs (``AutoShardedBot(shard_ids=…)``); None: every shard."""
    shard_count: int | None = None
    """Shards in all, the same in every process; None (with ``shard_ids`` None): Discord's count."""
    startup_retry_seconds: int = 60
    """Seconds a start keeps trying again while Discord or the database cannot be reached yet; 0: once."""
    discord_api_base: str = DISCORD_API
    """The root of Discord's HTTP API (no trailing ``/``), applied to ``discord.http.Route.BASE`` at start:
    Discord's own unless a test points the bot at a fake Discord."""
    metrics_port: int | None = None
    """The port of ``/healthz`` and ``/metrics`` (`bot.ops.http`); None: no HTTP server; 0: any free port."""
    metrics_host: str = "127.0.0.1"
    """The address ``metrics_port`` listens on."""
    web_base_url: str = ""
    """The public root of the web pages (`bot.web`) as the bot links them, no trailing ``/`` (for example
    ``https://cuarenta.example.org``); empty: the bot posts no link to a page."""
    prune_days_after_leave: int = 30
    """Days after the bot left a server before that server's data is deleted (`bot.privacy`)."""

    def runs_guild(self, guild_id: int) -> bool:
        """Whether this process runs the shard of server ``guild_id`` (Discord's ``(guild_id >> 22) %
        shard_count``), so receives its events: always, when it runs every shard."""
        if self.shard_ids is None or not self.shard_count:
            return True
        return (guild_id >> 22) % self.shard_count in self.shard_ids

    @property
    def database(self) -> str:
        """What `bot.store.Store.open` opens: the PostgreSQL URL when set, else the SQLite path."""
        return self.database_url or self.database_path

    @classmethod
    def from_env(cls, environ: Mapping[str, str] | None = None, *, load_dotenv_file: bool = True) -> Settings:
        """Read the settings from ``environ`` (default ``os.environ``), after loading the project's `.env`
        (`find_dotenv`) if asked. ``database_path`` comes out absolute (`database_file`), or ``":memory:"``.

        Raises:
            ConfigError: DISCORD_GUILD_ID is not a number, LOG_LEVEL is not one of `LOG_LEVELS`,
                STARTUP_RETRY_SECONDS is not a whole number from 0 to 3600, AI_WORKERS or
                PICTURE_WORKERS is not a whole number from 0 to 64, DATABASE_URL is not a
                ``postgresql://`` URL, SHARD_IDS and SHARD_COUNT are not a valid range (`_shards`), or
                DISCORD_API_BASE is not an ``http://`` or ``https://`` URL, or
                METRICS_PORT is not a port number (0 to 65535), or
                PRUNE_DAYS_AFTER_LEAVE is not a whole number from 1 to 3650, or
                WEB_BASE_URL is not an ``http://`` or ``https://`` URL.
        """
        if load_dotenv_file and environ is None:
            from dotenv import load_dotenv

            dotenv_file = find_dotenv()
            if dotenv_file is not None:
                load_dotenv(dotenv_file)
        env = os.environ if environ is None else environ
        guild_raw = (env.get("DISCORD_GUILD_ID") or "").strip()
        if guild_raw and not guild_raw.isdigit():
            raise ConfigError(f"DISCORD_GUILD_ID must be a server id (digits), not {guild_raw!r}")
        level = (env.get("LOG_LEVEL") or "INFO").strip().upper()
        if level not in LOG_LEVELS:
            raise ConfigError(f"LOG_LEVEL must be DEBUG, INFO, WARNING or ERROR, not {level!r}")
        ai_workers = _workers(env, "AI_WORKERS", 2, "threads")
        picture_workers = _workers(env, "PICTURE_WORKERS", 1, "the bot's process")
        url = (env.get("DATABASE_URL") or "").strip()
        if url and not url.startswith(("postgresql://", "postgres://")):
            raise ConfigError(f"DATABASE_URL must start with postgresql:// (for SQLite, set DATABASE_PATH), not {url[:20]!r}")
        shard_ids, shard_count = _shards(env, shared_database=bool(url))
        api_base = (env.get("DISCORD_API_BASE") or "").strip().rstrip("/") or DISCORD_API
        if not api_base.startswith(("http://", "https://")) or "://" == api_base[-3:]:
            raise ConfigError(f"DISCORD_API_BASE must be an http:// or https:// URL, not {api_base[:40]!r}")
        port_raw = (env.get("METRICS_PORT") or "").strip()
        if port_raw and not (port_raw.isascii() and port_raw.isdigit() and int(port_raw) <= 65535):
            raise ConfigError(f"METRICS_PORT must be a port number from 0 to 65535 (unset: no metrics), not {port_raw!r}")
        prune_raw = (env.get("PRUNE_DAYS_AFTER_LEAVE") or "").strip() or "30"
        if not (prune_raw.isascii() and prune_raw.isdigit()) or not 1 <= int(prune_raw) <= 3650:
            raise ConfigError(f"PRUNE_DAYS_AFTER_LEAVE must be a whole number of days from 1 to 3650, not {prune_raw!r}")
        web_base = (env.get("WEB_BASE_URL") or "").strip().rstrip("/")
        if web_base and (not web_base.startswith(("http://", "https://")) or web_base.endswith("://")):
            raise ConfigError(f"WEB_BASE_URL must be an http:// or https:// URL (unset: no links), not {web_base[:40]!r}")
        return cls(
            database_url=url,
            token=(env.get("DISCORD_TOKEN") or "").strip(),
            database_path=database_file(env.get("DATABASE_PATH") or "", project_dir()),
            guild_id=int(guild_raw) if guild_raw else None,
            log_level=level,
            members_intent=(env.get("DISCORD_MEMBERS_INTENT") or "").strip().lower() in ("1", "true", "yes"),
            ai_workers=ai_workers,
            picture_workers=picture_workers,
            shard_ids=shard_ids,
            shard_count=shard_count,
            discord_api_base=api_base,
            startup_retry_seconds=_retry_seconds(env),
            metrics_port=int(port_raw) if port_raw else None,
            metrics_host=(env.get("METRICS_HOST") or "").strip() or "127.0.0.1",
            prune_days_after_leave=int(prune_raw),
            web_base_url=web_base,
        )
