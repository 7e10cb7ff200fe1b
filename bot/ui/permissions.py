"""Every Discord permission the bot uses, in one place: what each kind of channel needs, the invite's set,
and the check made before anything is opened in a channel.

What the bot does in a server, and the permission each thing takes (nothing else is done there):

- ``view_channel``: see the channel it plays in (every write needs it).
- ``send_messages``: post the lobby, the table message, the hand records, reminders and notes, the queue
  message and its match pings, the league and tournament boards.
- ``send_messages_in_threads``: the same in a thread (a table opened in a thread; queue, league and
  tournament matches, which are played in threads).
- ``create_public_threads``: open the thread of each queue, league and tournament match, and of each
  table when the server plays its tables in threads (``/cuarenta settings``, `THREAD_OPENING`).
- ``embed_links``: the lobby, the hand records, the boards and the standings are embeds.
- ``attach_files``: the table picture (a PNG on every table message) and the standings picture.
- ``read_message_history``: reminders are sent as replies to the table message, and a reply needs it.

- ``manage_roles``: only in a server whose admins turned rank roles on (``/cuarenta settings roles``,
  `RANK_ROLES`): create the tiers' roles, give and take them, delete them when turned off. Not in the
  invite: a server grants it to the bot when it wants rank roles.

Editing or deleting the bot's own messages, mentioning a player, and using the bot's application emojis
(the cards) need no permission of their own: application emojis work in every server without Use External
Emojis (Discord's Emoji resource, "Application-owned emoji").

Names are the attribute names of `discord.Permissions`; ``perm.<name>`` in the catalogs says each one in
words.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import discord

from bot.i18n import t

TABLE_CHANNEL: tuple[str, ...] = ("view_channel", "send_messages", "embed_links", "attach_files",
                                  "read_message_history")
"""What a table needs in a text channel."""

THREAD_TABLE: tuple[str, ...] = ("view_channel", "send_messages_in_threads", "embed_links", "attach_files",
                                 "read_message_history")
"""What a table needs in a thread (Send Messages in Threads replaces Send Messages there)."""

THREAD_OPENING: tuple[str, ...] = ("view_channel", "create_public_threads", "send_messages_in_threads",
                                  "embed_links", "attach_files", "read_message_history")
"""What opening a table in a thread of its own needs in the text channel (the server's ``table_place``
setting ``thread``): creating the public thread, and `THREAD_TABLE` in it (a thread takes its channel's
permissions)."""

COMPETITION_CHANNEL: tuple[str, ...] = ("view_channel", "send_messages", "embed_links", "attach_files",
                                        "read_message_history", "create_public_threads",
                                        "send_messages_in_threads")
"""What the queue, a league or a tournament needs in its channel: its own messages there, and a thread
per match holding a table (`THREAD_TABLE`, inherited from the channel)."""

RANK_ROLES: tuple[str, ...] = ("manage_roles",)
"""What rank roles need in the server, asked for only when an admin turns them on (not in `INVITE_NAMES`)."""


def _union(*groups: Iterable[str]) -> tuple[str, ...]:
    out: list[str] = []
    for group in groups:
        out.extend(name for name in group if name not in out)
    return tuple(out)


INVITE_NAMES: tuple[str, ...] = _union(TABLE_CHANNEL, THREAD_TABLE, THREAD_OPENING, COMPETITION_CHANNEL)
"""Every permission the bot uses, which the invite asks for: no more."""

INVITE = discord.Permissions(**dict.fromkeys(INVITE_NAMES, True))
"""`INVITE_NAMES` as `discord.Permissions` (the invite URL's ``permissions``)."""


def table_needs(in_thread: bool) -> tuple[str, ...]:
    """`THREAD_TABLE` in a thread, else `TABLE_CHANNEL`."""
    return THREAD_TABLE if in_thread else TABLE_CHANNEL


def missing(perms: discord.Permissions, needed: Sequence[str]) -> list[str]:
    """The names of ``needed`` that ``perms`` lacks, in ``needed``'s order."""
    return [name for name in needed if not getattr(perms, name)]


def words(names: Sequence[str], lang: str) -> str:
    """The permissions named in ``lang`` (``perm.<name>``), joined by commas."""
    return ", ".join(t(f"perm.{name}", lang) for name in names)


def channel_lacks(client: discord.Client, guild_id: int, channel_id: int) -> list[str] | None:
    """What the bot lacks for a table in a channel or thread, from its cache of the server (roles and
    overwrites as last told by the gateway). None when the cache cannot say (channel or member unknown)."""
    guild = client.get_guild(guild_id)
    if guild is None or guild.me is None:
        return None
    channel = guild.get_channel_or_thread(channel_id)
    if channel is None:
        return None
    return missing(channel.permissions_for(guild.me), table_needs(isinstance(channel, discord.Thread)))


__all__ = ["COMPETITION_CHANNEL", "INVITE", "INVITE_NAMES", "TABLE_CHANNEL", "THREAD_OPENING", "THREAD_TABLE",
           "channel_lacks", "missing", "table_needs", "words"]
