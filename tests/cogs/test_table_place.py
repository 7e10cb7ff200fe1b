"""Where ``/cuarenta new`` opens a table, the server's ``tables_in`` setting (`bot.ui.places`,
`bot.ratings.Settings.table_place`): the channel by default; with ``thread``, a public thread of the channel
named for the table's host, where the lobby, the table and its records live; back in the channel, said to
the host, when the bot cannot open a thread; and the thread's table acted on only from its thread."""

from __future__ import annotations

import discord
import pytest
from simcord.backend.models.channel import Overwrite, OverwriteType

from bot.i18n import t
from bot.ui import places
from tests.support.helpers import click_raw, custom_ids, pick_play, play_through_ui, table_of


def _deny(world, channel, *denied: str) -> None:
    """Deny the bot ``denied`` in ``channel`` (a member overwrite, announced by CHANNEL_UPDATE)."""
    bits = discord.Permissions(**dict.fromkeys(denied, True)).value
    world.env.backend.set_overwrite(channel.id, Overwrite(world.bot.user.id, OverwriteType.MEMBER, deny=bits))


async def _threads_on(world) -> None:
    result = await world.eva.slash(world.channel, "cuarenta settings", tables_in="thread")
    assert result.ephemeral and "Settings saved" in result.response.embeds[0].title


def _thread_of(world, table):
    return next(c for c in world.channel.threads if c.id == table.channel_id)


def _field(response, name: str) -> str:
    return next(f.value for f in response.embeds[0].fields if f.name == name)


async def test_settings_show_tables_in_the_channel_by_default_and_a_manager_switches_them_to_threads(world):
    shown = await world.eva.slash(world.channel, "cuarenta settings")
    assert _field(shown.response, "Tables play in") == "the channel they are opened in"
    assert (await world.bot.tables.ratings.settings(world.guild.id)).table_place == "channel"

    changed = await world.eva.slash(world.channel, "cuarenta settings", tables_in="thread")
    assert changed.ephemeral and changed.response.embeds[0].title == t("settings.title_changed", "en")
    assert _field(changed.response, "Tables play in") == "a thread of the channel, one per table"
    assert (await world.bot.tables.ratings.settings(world.guild.id)).table_place == "thread"
    again = await world.eva.slash(world.channel, "cuarenta settings", tables_in="channel")
    assert _field(again.response, "Tables play in") == "the channel they are opened in"
    assert world.env.errors == []


async def test_only_a_manager_changes_where_tables_play(world):
    refused = await world.ana.slash(world.channel, "cuarenta settings", tables_in="thread")
    assert refused.ephemeral and refused.response.content == "You need the Manage Server permission."
    assert (await world.bot.tables.ratings.settings(world.guild.id)).table_place == "channel"


async def test_the_setting_is_offered_with_its_spanish_and_portuguese_names(world):
    sync = next(r for r in world.env.http_requests if r.method == "PUT" and r.path.endswith("/commands"))
    group = next(c for c in sync.json if c["name"] == "cuarenta")
    assert len(group["options"]) <= 25
    settings = next(o for o in group["options"] if o["name"] == "settings")
    option = next(o for o in settings["options"] if o["name"] == "tables_in")
    assert option["name_localizations"]["es-ES"] == "mesas_en"
    assert option["name_localizations"]["pt-BR"] == "mesas_em"
    assert [c["value"] for c in option["choices"]] == ["channel", "thread"]


async def test_by_default_a_new_table_plays_in_the_channel_and_opens_no_thread(world):
    result = await world.ana.slash(world.channel, "cuarenta new", players=2)
    assert result.response.content == t("ok.created", "en", table=1)
    assert table_of(world, 1).channel_id == world.channel.id
    assert world.channel.threads == []
    assert any("c4:l:1:a" in custom_ids(m) for m in world.channel.history()), "the lobby is in the channel"


async def test_with_threads_a_table_opens_in_a_thread_named_for_its_host_and_plays_a_hand_there(world):
    await _threads_on(world)
    result = await world.ana.slash(world.channel, "cuarenta new", players=2)
    table = table_of(world, 1)
    thread = _thread_of(world, table)
    assert thread.is_thread and thread.name == "Mesa de ana · 1 v 1", "the server's language (es)"
    assert result.ephemeral
    assert result.response.content == t("ok.created_thread", "en", table=1, thread=f"<#{thread.id}>")
    lobby = next(m for m in thread.history() if "c4:l:1:a" in custom_ids(m))
    await world.beto.click(lobby, custom_id="c4:l:1:a")  # the lobby's join button, in the thread
    assert table.status == "playing" and table.seat_of(world.beto.id) is not None

    members = {world.ana.id: world.ana, world.beto.id: world.beto}
    while table.game.hand_number == 1 and table.status == "playing":
        seat, play = pick_play(table)
        await play_through_ui(members[table.seats[seat].user_id], table, play)
    await world.env.advance_time(3)

    in_thread = thread.history()
    assert any(m.id == table.messages.public for m in in_thread), "the table message is in the thread"
    assert any("c4:j:1:1" in custom_ids(m) for m in in_thread), "the first hand's record is in the thread"
    parent = world.channel.history()
    assert [m.type for m in parent] == [discord.MessageType.thread_created], "only the thread's start"
    assert world.env.errors == []


async def test_a_table_in_a_thread_is_acted_on_only_from_its_thread(world):
    """The thread's table is named by its id in every button; a click that names it from the parent
    channel, and the channel's own commands, do not reach it: the channel comes from the interaction."""
    await _threads_on(world)
    await world.ana.slash(world.channel, "cuarenta new", players=4)
    in_thread = table_of(world, 1)
    await world.eva.slash(world.channel, "cuarenta settings", tables_in="channel")
    await world.caro.slash(world.channel, "cuarenta new", players=4)
    in_channel = table_of(world, 2)
    assert in_channel.channel_id == world.channel.id and in_thread.channel_id != world.channel.id

    channel_lobby = next(m for m in world.channel.history() if "c4:l:2:a" in custom_ids(m))
    forged = await click_raw(world.env, world.beto, channel_lobby, "c4:l:1:b")  # names the thread's table
    assert forged.ephemeral
    assert in_thread.seat_of(world.beto.id) is None, "a click in the channel does not seat at the thread's table"
    started = await world.ana.slash(world.channel, "cuarenta start")
    assert started.ephemeral and in_thread.status == "lobby", "the channel's start is about its own table"
    joined = await world.dani.slash(world.channel, "cuarenta join")
    assert joined.ephemeral and in_channel.seat_of(world.dani.id) is not None
    assert in_thread.seat_of(world.dani.id) is None

    thread = _thread_of(world, in_thread)
    await world.beto.slash(thread, "cuarenta join", team="B")
    assert in_thread.seat_of(world.beto.id) is not None, "in its thread, the table is this channel's table"
    assert world.env.errors == []


async def test_a_table_command_in_the_parent_channel_points_to_the_threads_tables(world):
    await _threads_on(world)
    before = await world.beto.slash(world.channel, "cuarenta join")
    assert before.response.content == t("err.no_table_here", "en"), "no table in its threads: the plain refusal"
    await world.ana.slash(world.channel, "cuarenta new", players=2)
    thread = _thread_of(world, table_of(world, 1))
    joined = await world.beto.slash(world.channel, "cuarenta join")
    assert joined.ephemeral
    assert joined.response.content == t("err.no_table_here_threads", "en", threads=f"<#{thread.id}>")
    assert table_of(world, 1).seat_of(world.beto.id) is None
    assert world.env.errors == []


async def test_new_inside_a_thread_opens_the_table_in_that_thread(world):
    await _threads_on(world)
    world.env.backend.create_thread(world.channel.id, "charla", world.ana.id)
    await world.env.settle()
    thread = world.channel.threads[0]
    result = await world.ana.slash(thread, "cuarenta new", players=2)
    assert result.response.content == t("ok.created", "en", table=1)
    assert table_of(world, 1).channel_id == thread.id
    assert [c.id for c in world.channel.threads] == [thread.id], "no thread opened inside the thread"


@pytest.mark.parametrize("denied", [("create_public_threads",), ("send_messages_in_threads",)])
async def test_without_thread_permissions_the_table_opens_in_the_channel_and_the_host_is_told(world, denied):
    await _threads_on(world)
    _deny(world, world.channel, *denied)
    await world.env.settle()
    result = await world.ana.slash(world.channel, "cuarenta new", players=2)
    named = t(f"perm.{denied[0]}", "en")
    assert result.ephemeral
    assert result.response.content == "\n".join([t("ok.created", "en", table=1),
                                                 t("ok.thread_fallback", "en", missing=named)])
    assert table_of(world, 1).channel_id == world.channel.id
    assert world.channel.threads == []
    assert world.env.errors == []


async def test_the_fallback_is_said_in_the_hosts_language(world, locales):
    locales[world.ana.id] = "es-419"
    await _threads_on(world)
    _deny(world, world.channel, "create_public_threads")
    await world.env.settle()
    result = await world.ana.slash(world.channel, "cuarenta new", players=2)
    assert "Crear hilos públicos" in result.response.content and "este canal" in result.response.content


async def test_when_discord_refuses_the_thread_the_table_opens_in_the_channel_and_says_so(world):
    await _threads_on(world)
    world.env.inject_error("POST", f"/channels/{world.channel.id}/threads", status=400, code=160006,
                           message="Maximum number of active threads reached")
    result = await world.ana.slash(world.channel, "cuarenta new", players=2)
    assert result.response.content == "\n".join([t("ok.created", "en", table=1), t("ok.thread_refused", "en")])
    assert table_of(world, 1).channel_id == world.channel.id


def _thread_posts(world) -> list:
    return [r for r in world.env.http_requests if r.method == "POST" and r.path.endswith("/threads")]


async def test_a_host_seated_elsewhere_is_refused_before_any_thread_is_opened(world):
    other = world.guild.create_text_channel("otra")
    await world.ana.slash(other, "cuarenta new", players=2)
    await _threads_on(world)
    refused = await world.ana.slash(world.channel, "cuarenta new", players=2)
    assert refused.ephemeral and world.bot.tables.table_of_user(world.ana.id).id == 1
    assert _thread_posts(world) == [], "no thread was opened"
    assert len(world.bot.tables.tables) == 1


async def test_a_thread_opened_for_a_table_that_is_then_refused_is_deleted(world, monkeypatch):
    """The host's check and the table's insert are two steps: a refusal between them (here the check is
    skipped, so the insert refuses) leaves no empty thread when the bot may delete it."""
    other = world.guild.create_text_channel("otra")
    await world.ana.slash(other, "cuarenta new", players=2)
    await _threads_on(world)
    monkeypatch.setattr(world.bot.tables, "check_host", lambda user_id: None)
    refused = await world.ana.slash(world.channel, "cuarenta new", players=2)
    assert refused.ephemeral and len(world.bot.tables.tables) == 1
    assert len(_thread_posts(world)) == 1 and world.channel.threads == [], "the thread opened was deleted"


def test_a_threads_name_fits_discords_100_characters_in_every_language():
    for lang in ("es", "en", "pt"):
        for players in (2, 4):
            name = places.thread_name("x" * 300, players, lang)
            mode = t("queue.mode.1v1" if players == 2 else "queue.mode.2v2", lang)
            assert len(name) <= places.THREAD_NAME_LIMIT and name.endswith(mode), (lang, name)
    assert places.thread_name("ana", 4, "en") == "ana's table · 2 v 2"
    assert places.thread_name("  ana \n maría ", 2, "pt") == "Mesa de ana maría · 1 v 1"
