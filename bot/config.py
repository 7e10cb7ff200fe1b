"""Settings read from the environment (and `.env` through python-dotenv).

Variables (see `.env.example`):
    DISCORD_TOKEN: the bot token; required to run, not to test.
    DATABASE_PATH: the SQLite file, default ``cuarenta.db``.
    DATABASE_URL: ``postgresql://user:password@host:port/database`` to use PostgreSQL (asyncpg) instead of
        SQLite; wins over DATABASE_PATH. Needed to run more than one bot process over one database.
    DISCORD_GUILD_ID: optional development server; its commands sync on every start.
    LOG_LEVEL: DEBUG, INFO (default), WARNING or ERROR.
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
    PRUNE_DAYS_AFTER_LEAVE: days after the bot leaves (or is removed from) a server before every row of
        that server is deleted: its tables and mesas, ratings, competitions, settings (default 30; a whole
        number from 1 to 3650). The bot coming back before then cancels it. See ``docs/PRIVACY.md``.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass


class ConfigError(ValueError):
    """A setting is missing or malformed."""


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
        """Read the settings from ``environ`` (default ``os.environ``), after loading `.env` if asked.

        Raises:
            ConfigError: DISCORD_GUILD_ID is not a number, LOG_LEVEL is unknown, AI_WORKERS or
                PICTURE_WORKERS is not a whole number from 0 to 64, DATABASE_URL is not a
                ``postgresql://`` URL, SHARD_IDS and SHARD_COUNT are not a valid range (`_shards`), or
                PRUNE_DAYS_AFTER_LEAVE is not a whole number from 1 to 3650.
        """
        if load_dotenv_file and environ is None:
            from dotenv import load_dotenv

            load_dotenv()
        env = os.environ if environ is None else environ
        guild_raw = (env.get("DISCORD_GUILD_ID") or "").strip()
        if guild_raw and not guild_raw.isdigit():
            raise ConfigError(f"DISCORD_GUILD_ID must be a server id (digits), not {guild_raw!r}")
        level = (env.get("LOG_LEVEL") or "INFO").strip().upper()
        if level not in ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL"):
            raise ConfigError(f"LOG_LEVEL must be DEBUG, INFO, WARNING or ERROR, not {level!r}")
        ai_workers = _workers(env, "AI_WORKERS", 2, "threads")
        picture_workers = _workers(env, "PICTURE_WORKERS", 1, "the bot's process")
        url = (env.get("DATABASE_URL") or "").strip()
        if url and not url.startswith(("postgresql://", "postgres://")):
            raise ConfigError(f"DATABASE_URL must start with postgresql:// (for SQLite, set DATABASE_PATH), not {url[:20]!r}")
        shard_ids, shard_count = _shards(env, shared_database=bool(url))
        prune_raw = (env.get("PRUNE_DAYS_AFTER_LEAVE") or "").strip() or "30"
        if not (prune_raw.isascii() and prune_raw.isdigit()) or not 1 <= int(prune_raw) <= 3650:
            raise ConfigError(f"PRUNE_DAYS_AFTER_LEAVE must be a whole number of days from 1 to 3650, not {prune_raw!r}")
        return cls(
            database_url=url,
            token=(env.get("DISCORD_TOKEN") or "").strip(),
            database_path=(env.get("DATABASE_PATH") or "cuarenta.db").strip(),
            guild_id=int(guild_raw) if guild_raw else None,
            log_level=level,
            members_intent=(env.get("DISCORD_MEMBERS_INTENT") or "").strip().lower() in ("1", "true", "yes"),
            ai_workers=ai_workers,
            picture_workers=picture_workers,
            shard_ids=shard_ids,
            shard_count=shard_count,
            prune_days_after_leave=int(prune_raw),
        )
