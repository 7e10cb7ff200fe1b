"""Where a new table plays: the channel ``/cuarenta new`` came from, or a public thread of it opened for the
table, as the server's ``table_place`` setting says (`bot.ratings.Settings.table_place`). The Discord side
of opening a table: the permissions checked, the thread opened and named, the fall back to the channel
when a thread cannot be opened, and the words that tell the host where the table is.

A command run inside a thread opens its table in that thread, whatever the setting; so does one run in a
channel that cannot hold threads (a voice channel's text chat). The thread is public and named for the
table's host and mode in the server's language («Mesa de ana · 1 v 1»): the table's number is given when
the table is stored, which needs its channel (the thread) first, and renaming the thread afterwards would
cost a write and post a rename notice in it.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal

import discord

from bot.i18n import t
from bot.tables import TableError

from . import permissions

log = logging.getLogger(__name__)

THREAD_NAME_LIMIT = 100
"""Discord's longest thread name, in characters."""

THREAD_ARCHIVE_MINUTES: Literal[1440] = 1440
"""A table's thread is archived by Discord after a day without messages (a mesa is over long before)."""


@dataclass(frozen=True)
class TablePlace:
    """Where a new table is created.

    Attributes:
        channel_id: the channel or thread the table plays in (its `bot.tables.Table.channel_id`).
        name: that channel's or thread's name (the DM hands name it).
        thread: the thread opened for this table; None when it plays where the command was run.
        missing: a thread was asked for but the bot lacks these permissions to open one or to play in it
            (names of `discord.Permissions`), so the table plays in the channel; empty otherwise.
        refused: a thread was asked for and Discord refused to open it (the server's limit of active
            threads, a permission taken away since the command was sent), so the table plays in the channel.
    """

    channel_id: int
    name: str
    thread: discord.Thread | None = None
    missing: tuple[str, ...] = ()
    refused: bool = False


def thread_name(host: str, players: int, lang: str) -> str:
    """The name of a table's thread in ``lang``: the host's name and the mode («Mesa de ana · 2 v 2»), at most
    `THREAD_NAME_LIMIT` characters (a long name is cut, the mode kept)."""
    mode = t("queue.mode.1v1" if players == 2 else "queue.mode.2v2", lang)
    room = THREAD_NAME_LIMIT - len(t("table.thread_name", lang, host="", mode=mode))
    return t("table.thread_name", lang, host=" ".join(host.split())[:max(room, 1)] or "?", mode=mode)


def _require(perms: discord.Permissions, needed: tuple[str, ...], lang: str) -> None:
    lacking = permissions.missing(perms, needed)
    if lacking:
        raise TableError("err.bot_permissions_which", missing=permissions.words(lacking, lang))


async def open_place(interaction: discord.Interaction, setting: str, *, host: str, players: int, lang: str,
                     public_lang: str, before_thread: Callable[[], None]) -> TablePlace:
    """The place of the table ``interaction`` (a ``/cuarenta new``) opens: with ``setting`` ``"thread"`` in a
    text channel, a new public thread of it named by `thread_name` in ``public_lang``; else the channel
    (or thread) the command was run in. Where a thread cannot be opened (a permission missing, or Discord
    refuses), the channel, saying why (`TablePlace.missing`, `TablePlace.refused`). ``before_thread`` is
    called just before a thread would be opened: it raises what creating the table would refuse, so no
    thread is opened for a table that cannot be.

    Raises:
        TableError: ``err.bot_permissions_which`` (params: missing, in ``lang``): the bot lacks what a table
            needs where it would play (`bot.ui.permissions.table_needs`); nothing was opened. Whatever
            ``before_thread`` raises.
    """
    channel = interaction.channel
    perms = interaction.app_permissions
    here = TablePlace(interaction.channel_id or 0, getattr(channel, "name", "") or "")
    if setting != "thread" or not isinstance(channel, discord.TextChannel):
        _require(perms, permissions.table_needs(isinstance(channel, discord.Thread)), lang)
        return here
    lacking = tuple(permissions.missing(perms, permissions.THREAD_OPENING))
    if not lacking:
        before_thread()
        kind = discord.ChannelType.news_thread if channel.is_news() else discord.ChannelType.public_thread
        try:
            thread = await channel.create_thread(name=thread_name(host, players, public_lang), type=kind,
                                                 auto_archive_duration=THREAD_ARCHIVE_MINUTES)
        except discord.HTTPException as exc:  # e.g. the server's limit of active threads
            log.info("no thread opened in channel %d (%s %s): the table plays in the channel", channel.id,
                     exc.status, exc.code)
            _require(perms, permissions.TABLE_CHANNEL, lang)
            return TablePlace(here.channel_id, here.name, refused=True)
        else:
            return TablePlace(thread.id, thread.name, thread)
    _require(perms, permissions.TABLE_CHANNEL, lang)
    return TablePlace(here.channel_id, here.name, missing=lacking)


async def drop_unused(place: TablePlace) -> None:
    """A thread opened for a table that was then not created (a refusal in the race between the check
    and the table's insert): delete it, if the bot may (Manage Threads); else it stays, empty."""
    if place.thread is None:
        return
    try:
        await place.thread.delete()
    except discord.HTTPException as exc:
        log.info("unused thread %d not deleted (%s %s)", place.thread.id, exc.status, exc.code)


def created_text(table_id: int, place: TablePlace, lang: str) -> str:
    """The host's answer to ``/cuarenta new`` in ``lang``: the table opened, where (the thread's mention
    when it has one) and, when a thread was asked for and could not be opened, why it plays here."""
    if place.thread is not None:
        return t("ok.created_thread", lang, table=table_id, thread=place.thread.mention)
    text = t("ok.created", lang, table=table_id)
    if place.missing:
        text += "\n" + t("ok.thread_fallback", lang, missing=permissions.words(place.missing, lang))
    elif place.refused:
        text += "\n" + t("ok.thread_refused", lang)
    return text


__all__ = ["THREAD_ARCHIVE_MINUTES", "THREAD_NAME_LIMIT", "TablePlace", "created_text", "drop_unused",
           "open_place", "thread_name"]
