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
from tests.support.helpers import pick_play, play_through_ui, public_text, table_of


def _deny(world, channel, *denied: str) -> None:
    """Deny the bot the permissions ``denied`` in ``channel`` (a member overwrite, announced by
    CHANNEL_UPDATE)."""
    bits = discord.Permissions(**dict.fromkeys(denied, True)).value
    world.env.backend.set_overwrite(channel.id, Overwrite(world.bot.user.id, OverwriteType.MEMBER, deny=bits))


def _member(world, table, seat):
    user_id = table.seats[seat].user_id
    return next(m for m in (world.ana, world.beto, world.caro, world.dani) if m.id == user_id)


async def _play(world, table, count: int) -> None:
    for _ in range(count):
        seat, play = pick_play(table)
        await play_through_ui(_member(world, table, seat), table, play)


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


def _blocked_dms(member) -> list[str]:
    return [m.content for m in member.user.dm_channel.history() if "Attach Files" in (m.content or "")]


async def test_a_permission_taken_mid_game_is_told_to_the_host_and_the_table_comes_back(world):
    """A 403 (50013) on the table channel used to be logged only: the host was not told, and the record of
    a hand that ended meanwhile was dropped for good."""
    await world.ana.slash(world.channel, "cuarenta new", players=2)
    await world.beto.slash(world.channel, "cuarenta join")
    table = table_of(world, 1)
    await world.env.settle()
    hand = table.game.hand_number
    posted = len(world.channel.history())

    _deny(world, world.channel, "attach_files")  # what the bot's cache will name
    world.env.inject_error("*", f"/channels/{world.channel.id}/messages*", status=403, code=50013,
                           message="Missing Permissions", times=None)  # what Discord answers
    await _play(world, table, 1)
    await world.env.settle()
    told = _blocked_dms(world.ana)
    assert len(told) == 1 and f"<#{world.channel.id}>" in told[0], "the host is told, by DM, naming it"
    assert _blocked_dms(world.beto) == []

    for _ in range(40):  # play on through the DM hands to the next hand
        if table.game.hand_number > hand:
            break
        await _play(world, table, 1)
    assert table.game.hand_number == hand + 1, "play went on"
    await world.env.advance_time(31)  # a retry, refused again
    await _play(world, table, 1)
    await world.env.settle()
    assert len(_blocked_dms(world.ana)) == 1, "told once"
    assert len(world.channel.history()) == posted, "Discord took nothing meanwhile"

    world.env.backend.faults.clear()  # the permission comes back
    world.env.backend.delete_overwrite(world.channel.id, world.bot.user.id)
    await world.env.advance_time(31)
    await world.env.settle()
    texts = [public_text(m) for m in world.channel.history()]
    record_title = t("sum.title", "es", hand=hand, table=table.id)
    assert any(record_title in text for text in texts), "the record of the hand played meanwhile"
    assert table.messages.public_hand == table.game.hand_number
    assert table.messages.public in [m.id for m in world.channel.history()], "the table is shown again"
    assert world.env.errors == []


async def test_a_host_with_closed_dms_is_told_at_their_next_click(world):
    """With the host's DMs closed, the missing permission used to go unsaid."""
    await world.ana.slash(world.channel, "cuarenta new", players=2)
    await world.beto.slash(world.channel, "cuarenta join")
    table = table_of(world, 1)
    await world.env.settle()
    dm = world.ana.user.dm_channel
    world.env.inject_error("POST", f"/channels/{dm.id}/messages", status=403, code=50007, times=None)
    world.env.inject_error("*", f"/channels/{world.channel.id}/messages*", status=403, code=50013,
                           message="Missing Permissions", times=None)
    _deny(world, world.channel, "attach_files")
    await _play(world, table, 1)
    await world.env.settle()
    answered = await world.ana.slash(world.channel, "cuarenta table")
    await world.env.settle()
    shown = [answered.response.content or ""] + [m.content or "" for m in answered.followups]
    assert sum("Attach Files" in text for text in shown) == 1
    again = await world.ana.slash(world.channel, "cuarenta table")
    assert not any("Attach Files" in (m.content or "") for m in [again.response, *again.followups]), "once"


def test_the_readme_names_every_permission_the_bot_checks():
    """The README's invite used to leave out Attach Files."""
    from pathlib import Path

    readme = (Path(__file__).resolve().parents[2] / "README.md").read_text(encoding="utf-8")
    for name in permissions.INVITE_NAMES:
        assert f"**{t(f'perm.{name}', 'en')}" in readme, name
