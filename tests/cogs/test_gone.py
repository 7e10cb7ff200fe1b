"""Channels, servers and people going away: a channel deleted while the bot was
down, a write answered 10003, the bot removed from a server, /cuarenta leave, hand and end from another
channel, and the last person to leave a table with computers."""

from __future__ import annotations

import logging

from bot.i18n import t
from tests.support.helpers import custom_ids, message_text, pick_play, play_through_ui, table_of


async def start_1v1(world):
    await world.ana.slash(world.channel, "cuarenta new", players=2)
    await world.beto.slash(world.channel, "cuarenta join")
    table = table_of(world, 1)
    assert table.status == "playing"
    return table


def member_for(world, table, seat):
    user_id = table.seats[seat].user_id
    return next(m for m in (world.ana, world.beto) if m.id == user_id)


def requests_to_channel(env, channel_id, since=0):
    return [r for r in env.http_requests[since:] if r.path.startswith(f"/channels/{channel_id}/")]


def delete_while_down(env, channel_id):
    """Delete a channel without any gateway event reaching the bot (it is down at that moment)."""
    backend = env.backend
    listeners, backend.subscribers = backend.subscribers, []
    try:
        backend.delete_channel(channel_id)
    finally:
        backend.subscribers = listeners


async def test_a_channel_deleted_while_the_bot_was_down_ends_its_table_at_restart(world, make_bot, caplog):
    table = await start_1v1(world)
    seat, play = pick_play(table)
    await play_through_ui(member_for(world, table, seat), table, play)
    channel_id = world.channel.id
    delete_while_down(world.env, channel_id)

    await world.env.restart_bot(make_bot())
    await world.env.settle()

    restored = table_of(world, 1)
    assert restored.status == "closed", "the reconcile at start ended the table whose channel is gone"
    assert (await world.bot.store.load_table(1)).status == "closed"
    assert world.bot.tables.table_of_user(world.ana.id) is None
    other = world.guild.create_text_channel("otra")
    again = await world.ana.slash(other, "cuarenta new", players=2)
    assert "You opened Table #2" in again.response.content, "no phantom seat"
    mark = len(world.env.http_requests)
    await world.env.advance_time(600)
    assert requests_to_channel(world.env, channel_id, mark) == [], "the dead table plays on by no timer"
    tracebacks = [r for r in caplog.records if r.exc_info and r.name.startswith(("bot", "cogs"))]
    assert tracebacks == []


async def test_a_write_answered_10003_ends_the_table_without_looping(world, caplog):
    table = await start_1v1(world)
    start = len(world.env.http_requests)
    world.env.inject_error("*", f"/channels/{world.channel.id}/*", status=404, code=10003, times=None)
    seat, play = pick_play(table)
    await play_through_ui(member_for(world, table, seat), table, play)
    await world.env.settle()

    assert table.status == "closed"
    assert world.bot.tables.table_of_user(world.beto.id) is None
    refused = [r for r in world.env.http_requests[start:] if r.path.startswith(f"/channels/{world.channel.id}/")
               and r.method in ("POST", "PATCH")]
    mark = len(world.env.http_requests)
    await world.env.advance_time(300)
    assert requests_to_channel(world.env, world.channel.id, mark) == [], "no retry loop on a gone channel"
    assert len(refused) <= 3
    tracebacks = [r for r in caplog.records if r.exc_info and r.name.startswith(("bot", "cogs"))]
    assert tracebacks == [], "one log line per refused write, no traceback"


async def test_nothing_is_written_to_a_channel_after_its_channel_delete(world):
    table = await start_1v1(world)
    seat, play = pick_play(table)
    await play_through_ui(member_for(world, table, seat), table, play)
    mark = len(world.env.http_requests)
    world.env.backend.delete_channel(world.channel.id)
    await world.env.settle()
    await world.env.advance_time(120)
    assert table.status == "closed"
    assert requests_to_channel(world.env, world.channel.id, mark) == [], "not even the closing edit"
    assert world.env.errors == []


async def test_leave_hand_and_end_work_from_another_channel_and_name_the_table(world):
    table = await start_1v1(world)
    other = world.guild.create_text_channel("charla")

    hand = await world.ana.slash(other, "cuarenta hand")
    assert hand.ephemeral and "Table #1" in message_text(hand.response)
    assert any(c.startswith("c4:p:1:") for c in custom_ids(hand.response))

    left = await world.beto.slash(other, "cuarenta leave")
    assert left.ephemeral and "Table #1" in left.response.content
    assert table.seats[1].is_ai, "a computer player took beto's seat"

    ended = await world.ana.slash(other, "cuarenta end")
    assert ended.response.content == t("ok.ended", "en", table=1)
    assert table.status == "closed"
    assert world.env.errors == []


async def test_the_last_person_to_leave_is_told_the_table_ended(world):
    await world.ana.slash(world.channel, "cuarenta new", players=2)
    await world.ana.select(world.channel.last_message, ["medio"], custom_id="c4:v:1")
    table = table_of(world, 1)
    result = await world.ana.slash(world.channel, "cuarenta leave")
    assert table.status == "closed"
    assert result.response.content == t("ok.left_game_ended", "en", table=1)
    assert "goes on" not in result.response.content


async def test_the_bot_removed_from_a_server_ends_its_tables_and_frees_the_players(world, caplog):
    caplog.set_level(logging.INFO)
    table = await start_1v1(world)
    guild2 = world.env.create_guild("Cuenca Club")
    channel2 = guild2.create_text_channel("mesa")
    ana2 = guild2.add_member(world.ana.user)
    await world.bot.tree.sync()
    mark = len(world.env.http_requests)

    world.env.backend.remove_guild(world.guild.id)
    await world.env.settle()

    assert table.status == "closed" and (await world.bot.store.load_table(1)).status == "closed"
    assert world.bot.tables.table_of_user(world.ana.id) is None
    assert requests_to_channel(world.env, world.channel.id, mark) == []
    again = await ana2.slash(channel2, "cuarenta new", players=2)
    assert "You opened Table #2" in again.response.content
    assert world.env.errors == []


async def test_an_hour_old_table_message_is_reposted_before_the_hour_not_waited_on(world, make_bot, monkeypatch):
    """A slow hand's table message moves down before it is 50 minutes old, so no edit
    ever goes to a message older than Discord's one-hour edit window, and no play waits on one."""
    import discord

    from tests.support.clocked import WriteLog

    await world.env.restart_bot(make_bot(edit_interval=1.0, write_budget=True, virtual=True))
    log = WriteLog(world.env)
    log.install(monkeypatch)
    await world.ana.slash(world.channel, "cuarenta new", players=2, turn_timer=300)
    await world.beto.slash(world.channel, "cuarenta join")
    table = table_of(world, 1)
    first = table.messages.public
    hand = table.game.hand_number
    for _ in range(16):  # 16 plays, 4 minutes apart: about an hour, inside one hand
        await world.env.advance_time(240)
        seat, play = pick_play(table)
        await play_through_ui(member_for(world, table, seat), table, play)
        await world.env.advance_time(2)
    assert table.game.hand_number == hand, "still the same hand"
    assert table.messages.public != first, "the table message was posted anew below"
    edits = [w for w in log.writes if w.method == "PATCH" and w.channel == world.channel.id]
    too_old = [w for w in edits
               if w.at - discord.utils.snowflake_time(w.message).timestamp() >= 3600]
    assert too_old == [], "no edit of a message an hour old"
    moved = [w for w in edits if w.message == first]
    assert moved, "the old message was edited once more, to say where the table went"
    assert world.env.errors == []


async def test_the_last_person_kicked_everyone_is_told_the_table_ended(world):
    await world.ana.slash(world.channel, "cuarenta new", players=2)
    await world.ana.select(world.channel.last_message, ["medio"], custom_id="c4:v:1")
    table = table_of(world, 1)
    result = await world.eva.slash(world.channel, "cuarenta kick", player=world.ana)
    await world.env.settle()
    assert table.status == "closed"
    assert result.response.content == t("ok.kicked_ended", "en", name="ana", table=1)
    notes = [m.content for m in world.channel.history() if (m.content or "").startswith("🚪")]
    assert notes == [t("note.kicked_ended", "es", name="ana", table=1)], "no 'a computer plays on'"
    dms = [message_text(m) for m in world.ana.user.dm_channel.history()]
    assert not any("plays your seat" in (c or "") for c in dms)


async def test_the_last_person_leaving_gets_a_note_that_the_table_ended(world):
    await world.ana.slash(world.channel, "cuarenta new", players=2)
    await world.ana.select(world.channel.last_message, ["medio"], custom_id="c4:v:1")
    await world.ana.slash(world.channel, "cuarenta leave")
    await world.env.settle()
    notes = [m.content for m in world.channel.history() if (m.content or "").startswith("🚪")]
    assert notes == [t("note.left_ended", "es", name="ana", table=1)]
