"""The permissions the bot uses (`bot.ui.permissions`): the invite asks for all of them and no more, opening
a table, a queue, a league or a tournament where one is missing is refused at once and names it, and a
permission taken away mid-game is told to the host while play goes on, the table coming back when it
returns."""

from __future__ import annotations

import discord
import pytest
from simcord.backend.models.channel import Overwrite, OverwriteType

from bot.app import PERMISSIONS, invite_url
from bot.i18n import t
from bot.ui import permissions


def _deny(world, channel, *denied: str) -> None:
    """Deny the bot the permissions ``denied`` in ``channel`` (a member overwrite, announced by
    CHANNEL_UPDATE)."""
    bits = discord.Permissions(**dict.fromkeys(denied, True)).value
    world.env.backend.set_overwrite(channel.id, Overwrite(world.bot.user.id, OverwriteType.MEMBER, deny=bits))


def test_the_invite_asks_for_every_permission_the_bot_uses_and_no_more():
    """The invite used to leave out Attach Files (the table picture is a PNG on every table message)."""
    used = set(permissions.TABLE_CHANNEL) | set(permissions.THREAD_TABLE) | set(permissions.COMPETITION_CHANNEL)
    expected = {"view_channel", "send_messages", "send_messages_in_threads", "create_public_threads",
                "embed_links", "attach_files", "read_message_history"}
    assert used == expected
    assert PERMISSIONS == discord.Permissions(**dict.fromkeys(expected, True))
    assert f"permissions={PERMISSIONS.value}" in invite_url(42)
    assert not PERMISSIONS.use_external_emojis, "application emojis need no Use External Emojis"


def test_every_permission_has_its_name_in_every_language():
    for name in permissions.INVITE_NAMES:
        for lang in ("es", "en", "pt_BR"):
            assert t(f"perm.{name}", lang) != f"perm.{name}", (name, lang)


@pytest.mark.parametrize("denied, named", [
    (("attach_files",), "Attach Files"),
    (("read_message_history",), "Read Message History"),
    (("attach_files", "embed_links"), "Embed Links, Attach Files"),
])
async def test_a_table_is_not_opened_where_a_permission_is_missing(world, denied, named):
    """Opening a table used to check only View Channel, Send Messages and Embed Links: in a channel denying
    Attach Files the table opened, and every table message was then refused (403) with nobody told."""
    _deny(world, world.channel, *denied)
    await world.env.settle()
    result = await world.ana.slash(world.channel, "cuarenta new", players=2)
    assert result.ephemeral
    assert result.response.content == t("err.bot_permissions_which", "en", missing=named)
    assert world.bot.tables.tables == {}, "nothing is created"
    assert world.channel.history() == []


async def test_the_refusal_speaks_the_users_language(world, locales):
    locales[world.ana.id] = "es-419"
    _deny(world, world.channel, "attach_files")
    await world.env.settle()
    result = await world.ana.slash(world.channel, "cuarenta new", players=2)
    assert result.ephemeral and "Adjuntar archivos" in result.response.content
    assert world.bot.tables.tables == {}


@pytest.mark.parametrize("command, options", [
    ("cuarenta queue", {}),
    ("cuarenta league create", {"name": "Liga de Quito"}),
    ("cuarenta tournament create", {"name": "Copa", "format": "elimination"}),
])
async def test_no_queue_league_or_tournament_where_attach_files_is_missing(world, command, options):
    """The queue, leagues and tournaments used to be opened in a channel denying Attach Files, where the
    tables of their matches could show nothing."""
    _deny(world, world.channel, "attach_files")
    await world.env.settle()
    result = await world.eva.slash(world.channel, command, **options)
    assert result.ephemeral
    assert result.response.content == t("err.bot_permissions_which", "en", missing="Attach Files")
    assert world.channel.history() == [], "no queue message, no signup board"
    assert await world.bot.queue.queue_channel(world.guild.id) is None
