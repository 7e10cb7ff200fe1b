"""``python -m bot`` runs the bot; ``python -m bot sync`` syncs the slash commands globally and exits;
``python -m bot backup PATH`` and ``restore PATH`` copy the SQLite database out and back (`bot.store.backup`).

Reads `.env` (python-dotenv), sets up logging, checks the database and then Discord (`bot.startup`: a
failed start is one ERROR line and exit code 1, or 2 when only the host can fix it (`StartupError.exit_code`,
as for a bad setting: no restart loop under systemd's ``RestartPreventExitStatus=2``)), and closes the bot and the
database cleanly on SIGTERM and SIGINT.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import signal
import sys
from collections.abc import Mapping
from urllib.parse import urlsplit

import aiohttp
import discord

from bot import heap, startup
from bot import loop as event_loop
from bot.app import CuarentaBot, invite_url
from bot.config import ConfigError, Settings
from bot.ops import PortError

log = logging.getLogger("bot")

QUIET_LOGGERS = ("discord.http", "discord.webhook.async_", "discord.gateway", "aiosqlite", "asyncpg")
"""Loggers held at INFO or above whatever LOG_LEVEL says: at DEBUG they would print hidden cards."""

PLAIN_FORMAT = "{asctime} {levelname:<8} {name} {message}"
"""The layout of discord.py's colour formatter without its colours (``str.format`` style, dates
``%Y-%m-%d %H:%M:%S``): a line reads the same on a terminal and in a log file, less the escape codes."""


def log_formatter(stream: object, environ: Mapping[str, str] | None = None) -> logging.Formatter | None:
    """The formatter for log lines written to ``stream``: None (discord.py's colour formatter) only when
    ``stream`` is a terminal and NO_COLOR is unset or empty, else `PLAIN_FORMAT` with no ANSI codes.

    discord.py alone also colours a stream that is not a terminal when it runs in a container (it finds
    ``/.dockerenv``), which puts escape codes in ``podman logs``, journald and log files.
    """
    env = os.environ if environ is None else environ
    isatty = getattr(stream, "isatty", None)
    if callable(isatty) and isatty() and not env.get("NO_COLOR"):
        return None
    return logging.Formatter(PLAIN_FORMAT, "%Y-%m-%d %H:%M:%S", style="{")


async def run(settings: Settings, command: str) -> int:
    """Run the bot (``command == "run"``) or sync its commands (``"sync"``) against the Discord HTTP API
    at ``settings.discord_api_base``; returns an exit code: 0, or 1 when the start failed (one ERROR line
    says why, `bot.startup`), 2 when it failed for a cause only the host can fix (`StartupError.exit_code`). The database comes first (its SQLite file locked for this process's life),
    then Discord; both are tried again for ``settings.startup_retry_seconds`` while unreachable."""
    discord.http.Route.BASE = settings.discord_api_base  # every Route built from now on
    loop = asyncio.get_running_loop()
    stopping = asyncio.Event()
    bot: CuarentaBot | None = None

    def stop() -> None:
        if not stopping.is_set():
            log.info("signal received: closing")
            stopping.set()
            if bot is not None:
                loop.create_task(bot.close())

    for sig in (signal.SIGTERM, signal.SIGINT):
        with contextlib.suppress(NotImplementedError):
            loop.add_signal_handler(sig, stop)
    sqlite = command == "run" and not settings.database_url and settings.database_path != ":memory:"
    lock = startup.SqliteLock(settings.database_path) if sqlite else None
    store = None
    try:
        if command == "run":
            store = await startup.open_store(settings, stopping, lock)
            if store is None:
                return 0
        if not await startup.reach_discord(settings, stopping):
            return 0
        bot = CuarentaBot(settings, sync_only=command == "sync", store=store)
        store = None  # the bot's now: it closes it
        async with bot:
            if stopping.is_set():
                return 0
            await bot.login(settings.token)  # ``bot.start`` is login (which runs setup_hook), then connect
            if command == "sync":
                count = await bot.sync_global()
                print(f"Synced {count} commands globally. / Se sincronizaron {count} comandos.")
                if bot.application_id:
                    print(f"Invite / Invitación: {invite_url(bot.application_id)}")
                return 0
            heap.settle()  # start-up is over: the garbage collector's pauses stay short (bot/heap.py)
            await bot.connect()
    except startup.StartupError as exc:
        log.error("%s", exc)
        return exc.exit_code
    except PortError as exc:
        log.error("%s", exc)
        return 1
    except discord.LoginFailure:
        log.error("DISCORD_TOKEN was refused by Discord")
        return 2
    except discord.HTTPException as exc:  # Discord answered, but not as it should at start
        log.error("Discord refused a start-up request: HTTP %s %s", exc.status, exc.text[:200])
        return 1
    except (OSError, aiohttp.ClientError) as exc:
        log.error("lost Discord at %s while starting: %s", urlsplit(settings.discord_api_base).netloc, exc)
        return 1
    finally:
        if bot is not None and not bot.is_closed():
            await bot.close()
        if store is not None:
            await store.close()
        if lock is not None:
            lock.release()
    return 0


def main(argv: list[str] | None = None) -> int:
    """Entry point: ``python -m bot [run|sync|backup PATH|restore PATH]``."""
    args = list(sys.argv[1:] if argv is None else argv)
    command = args[0] if args else "run"
    if command in ("backup", "restore"):
        from bot.store import backup

        return backup.command(command, args[1:])
    if command not in ("run", "sync"):
        print("usage: python -m bot [run|sync|backup PATH [--force]|restore PATH]", file=sys.stderr)
        return 2
    try:
        settings = Settings.from_env()
    except ConfigError as exc:
        print(f"configuration error: {exc}", file=sys.stderr)
        return 2
    if not settings.token:
        print("DISCORD_TOKEN is empty: copy .env.example to .env and fill it in.", file=sys.stderr)
        return 2
    formatter = log_formatter(sys.stderr)
    if formatter is None:
        discord.utils.setup_logging(level=getattr(logging, settings.log_level), root=True)
    else:
        discord.utils.setup_logging(level=getattr(logging, settings.log_level), root=True, formatter=formatter)
    # discord.py logs request bodies at DEBUG (DM bodies hold hands) and aiosqlite logs every statement
    # with its parameters (the saved game holds every hand and the stock): keep those loggers at INFO.
    for name in QUIET_LOGGERS:
        logging.getLogger(name).setLevel(max(logging.INFO, getattr(logging, settings.log_level)))
    return event_loop.run(run(settings, command))


if __name__ == "__main__":
    sys.exit(main())
