"""``python -m bot`` runs the bot; ``python -m bot sync`` syncs the slash commands globally and exits;
``python -m bot backup PATH`` and ``restore PATH`` copy the SQLite database out and back (`bot.store.backup`).

Reads `.env` (python-dotenv), sets up logging, and closes the bot and the database cleanly on SIGTERM
and SIGINT.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import signal
import sys

import aiohttp
import discord

from bot import heap
from bot import loop as event_loop
from bot.app import CuarentaBot, invite_url
from bot.config import ConfigError, Settings

log = logging.getLogger("bot")

QUIET_LOGGERS = ("discord.http", "discord.webhook.async_", "discord.gateway", "aiosqlite", "asyncpg")
"""Loggers held at INFO or above whatever LOG_LEVEL says: at DEBUG they would print hidden cards."""


async def run(settings: Settings, command: str) -> int:
    """Run the bot (``command == "run"``) or sync its commands (``"sync"``); returns an exit code."""
    bot = CuarentaBot(settings, sync_only=command == "sync")
    loop = asyncio.get_running_loop()
    stopping = asyncio.Event()

    def stop() -> None:
        if not stopping.is_set():
            log.info("signal received: closing")
            stopping.set()
            loop.create_task(bot.close())

    for sig in (signal.SIGTERM, signal.SIGINT):
        with contextlib.suppress(NotImplementedError):
            loop.add_signal_handler(sig, stop)
    async with bot:
        try:
            if command == "sync":
                await bot.login(settings.token)
                count = await bot.sync_global()
                print(f"Synced {count} commands globally. / Se sincronizaron {count} comandos.")
                if bot.application_id:
                    print(f"Invite / Invitación: {invite_url(bot.application_id)}")
                return 0
            await bot.login(settings.token)  # ``bot.start`` is login (which runs setup_hook), then connect
            heap.settle()  # start-up is over: the garbage collector's pauses stay short (bot/heap.py)
            await bot.connect()
        except discord.LoginFailure:
            log.error("DISCORD_TOKEN was refused by Discord")
            return 1
        except (OSError, aiohttp.ClientError) as exc:
            log.error("cannot reach Discord: %s", exc)
            return 1
        finally:
            if not bot.is_closed():
                await bot.close()
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
    discord.utils.setup_logging(level=getattr(logging, settings.log_level), root=True)
    # discord.py logs request bodies at DEBUG (DM bodies hold hands) and aiosqlite logs every statement
    # with its parameters (the saved game holds every hand and the stock): keep those loggers at INFO.
    for name in QUIET_LOGGERS:
        logging.getLogger(name).setLevel(max(logging.INFO, getattr(logging, settings.log_level)))
    return event_loop.run(run(settings, command))


if __name__ == "__main__":
    sys.exit(main())
