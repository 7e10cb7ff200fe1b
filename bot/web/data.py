"""The web pages' own rows: a server's opt-in (``guild_settings.web_pages``, migration 22) and the
opaque player numbers of the pages' URLs. Each function takes the open `bot.store.db.Database`; reads take
no transaction, `set_web_pages` writes in its own statement.

A player's number (`player_numbers`) is ``4 · chica_id + seat`` of their first chica in that server (the
first row of ``chica_players`` for them there): stable, the same on every page, and it says nothing about
the Discord account (a page never shows a user id). `player_of` reads it back, only for the server it
belongs to and only in that canonical form, so every player has one URL.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime

from bot.store.db import Database

SEATS_PER_CHICA = 4
"""A chica has at most four seats: the factor of a player number."""


async def web_pages_on(db: Database, guild_id: int) -> bool:
    """Whether server ``guild_id`` turned its web pages on (False for a server with no settings row)."""
    value = await db.fetchval("SELECT web_pages FROM guild_settings WHERE guild_id = ?", guild_id)
    return bool(value)


async def set_web_pages(db: Database, guild_id: int, on: bool) -> None:
    """Turn server ``guild_id``'s web pages on or off (creates its settings row with the defaults)."""
    await db.execute("INSERT INTO guild_settings (guild_id, web_pages) VALUES (?, ?)"
                     " ON CONFLICT (guild_id) DO UPDATE SET web_pages = excluded.web_pages", guild_id, int(on))


async def player_numbers(db: Database, guild_id: int, user_ids: Iterable[int | None]) -> dict[int, int]:
    """Each user's player number in server ``guild_id`` (see the module docstring); a user with no chica
    there is missing from the result."""
    wanted = sorted({int(u) for u in user_ids if u is not None})
    if not wanted:
        return {}
    marks = ", ".join("?" for _ in wanted)
    rows = await db.fetch(
        f"SELECT p.user_id, p.chica_id, MIN(p.seat) FROM chica_players p JOIN"
        f" (SELECT user_id, MIN(chica_id) AS first FROM chica_players WHERE guild_id = ? AND user_id IN ({marks})"
        f"  GROUP BY user_id) f ON f.user_id = p.user_id AND f.first = p.chica_id"
        f" WHERE p.guild_id = ? GROUP BY p.user_id, p.chica_id", guild_id, *wanted, guild_id,
    )
    return {int(user): int(chica) * SEATS_PER_CHICA + int(seat) for user, chica, seat in rows}


async def player_of(db: Database, guild_id: int, number: int) -> int | None:
    """The user whose player number in server ``guild_id`` is ``number``; None when no player of that
    server has it (another server's number, a seat that is not the player's first, a computer's seat)."""
    if not 0 <= number < 2**62:
        return None
    chica_id, seat = divmod(number, SEATS_PER_CHICA)
    user = await db.fetchval("SELECT user_id FROM chica_players WHERE chica_id = ? AND seat = ? AND guild_id = ?",
                             chica_id, seat, guild_id)
    if user is None:
        return None
    return int(user) if (await player_numbers(db, guild_id, [user])).get(int(user)) == number else None


async def rating_history(db: Database, guild_id: int, user_id: int, mode: str,
                         limit: int = 200) -> list[tuple[datetime, int]]:
    """The player's shown rating after each of their last ``limit`` rated chicas of ``mode`` in the
    server, oldest first, as ``(finished at, rating)`` (every season: a new season's reset shows as a
    step)."""
    rows = await db.fetch(
        "SELECT c.finished_at, p.display_after FROM chica_players p JOIN chicas c ON c.id = p.chica_id"
        " WHERE p.guild_id = ? AND p.user_id = ? AND c.mode = ? AND c.rated = 1 AND p.display_after IS NOT NULL"
        " ORDER BY p.chica_id DESC LIMIT ?", guild_id, user_id, mode, limit,
    )
    return [(_when(at), int(value)) for at, value in reversed(rows)]


def _when(value: object) -> datetime:
    return value if isinstance(value, datetime) else datetime.fromisoformat(str(value))


__all__ = ["SEATS_PER_CHICA", "player_numbers", "player_of", "rating_history", "set_web_pages", "web_pages_on"]
