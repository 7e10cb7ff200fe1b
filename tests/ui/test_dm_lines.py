"""DMs that close mid-mesa, found by a DM that is not the hand (the 2/3 turn reminder line): handled as a
failed hand DM, the table says so once and the person plays through «Ver mi mano»."""

from __future__ import annotations

from tests.support.helpers import message_text, pick_play, play_through_ui, public_message, table_of

CLOSED_LINE = "tiene los mensajes directos cerrados"


def member_for(world, table, seat):
    user_id = table.seats[seat].user_id
    return next(m for m in (world.ana, world.beto) if m.id == user_id)


def dm_posts(env, channel_id, since):
    return [r for r in env.http_requests[since:] if r.method == "POST" and r.path.endswith(f"/channels/{channel_id}/messages")]


async def test_dms_closed_mid_mesa_found_by_the_reminder_are_said_once_on_the_table(world):
    """Used to fail: the reminder's DM line was refused (403, 50007) and `send_line` only logged it, so
    the seat was never marked and the table message never told her to play with «Ver mi mano»."""
    await world.ana.slash(world.channel, "cuarenta new", players=2, turn_timer=30)
    await world.beto.slash(world.channel, "cuarenta join")
    table = table_of(world, 1)
    seat = table.game.to_play
    member = member_for(world, table, seat)
    dm = member.user.dm_channel
    assert dm is not None and not table.messages.dm_closed, "her hand went out by DM"
    world.env.inject_error("POST", f"/channels/{dm.id}/messages", status=403, code=50007,
                           message="Cannot send messages to this user", times=None)  # she closes her DMs
    mark = len(world.env.http_requests)

    await world.env.advance_time(20)  # the 2/3 reminder: a mention in the channel and a DM line

    assert dm_posts(world.env, dm.id, mark), "the reminder tried her DMs"
    assert table.messages.dm_closed == [seat], "the refused reminder marked her seat"
    assert (await world.bot.store.load_table(1)).messages.get("dm_closed") == [seat], "persisted"
    await world.env.settle()
    assert message_text(public_message(world, table)).count(CLOSED_LINE) == 1, "the table says so"

    await world.env.advance_time(10)  # her turn runs out: the computer plays it
    other, play = pick_play(table)
    await play_through_ui(member_for(world, table, other), table, play)
    mark = len(world.env.http_requests)
    await world.env.advance_time(20)  # her next reminder: no DM line is tried any more
    assert dm_posts(world.env, dm.id, mark) == []
    assert table.messages.dm_closed == [seat]
    assert message_text(public_message(world, table)).count(CLOSED_LINE) == 1, "said once"

    shown = await member.click(public_message(world, table), custom_id="c4:h:1")  # «Ver mi mano»
    assert shown.ephemeral
    _, play = pick_play(table)
    nonce = table.nonce
    await play_through_ui(member, table, play, via=shown.response)
    assert table.nonce == nonce + 1
    assert world.env.errors == []
