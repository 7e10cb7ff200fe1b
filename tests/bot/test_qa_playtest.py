"""Faults a fresh QA playtest found after issue 12's first pass (each reproduced as it was reported)."""

from __future__ import annotations

from bot.i18n import t

from .helpers import click_raw, latest_hand, pick_play, play_through_ui, public_message, table_of


async def start_people(world):
    await world.ana.slash(world.channel, "cuarenta new", players=2)
    await world.beto.slash(world.channel, "cuarenta join")
    return table_of(world, 1)


def member_for(world, table, seat):
    user_id = table.seats[seat].user_id
    return next(m for m in (world.ana, world.beto) if m.id == user_id)


async def test_a_stale_lobby_leave_after_the_start_keeps_the_seat(world):
    await world.ana.slash(world.channel, "cuarenta new", players=2)
    lobby = world.channel.last_message
    await world.beto.slash(world.channel, "cuarenta join")  # the table fills and starts
    table = table_of(world, 1)
    result = await click_raw(world.env, world.ana, lobby, "c4:l:1:x")  # an old copy of the lobby's Leave
    assert result.ephemeral and result.response.content == t("err.not_lobby", "en")
    assert table.seats[0].user_id == world.ana.id and not table.casual
    on_table = await click_raw(world.env, world.ana, public_message(world, table), "c4:l:1:x")
    assert on_table.response.content == t("err.not_lobby", "en") and table.status == "playing"


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
    dms = [m.content for m in world.ana.user.dm_channel.history()]
    assert not any("plays your seat" in (c or "") for c in dms)


async def test_the_last_person_leaving_gets_a_note_that_the_table_ended(world):
    await world.ana.slash(world.channel, "cuarenta new", players=2)
    await world.ana.select(world.channel.last_message, ["medio"], custom_id="c4:v:1")
    await world.ana.slash(world.channel, "cuarenta leave")
    await world.env.settle()
    notes = [m.content for m in world.channel.history() if (m.content or "").startswith("🚪")]
    assert notes == [t("note.left_ended", "es", name="ana", table=1)]


async def test_a_restart_edits_the_hand_in_turn_in_place(world, make_bot):
    table = await start_people(world)
    seat, play = pick_play(table)
    await play_through_ui(member_for(world, table, seat), table, play)
    member = member_for(world, table, table.game.to_play)
    before = latest_hand(member).id
    await world.env.restart_bot(make_bot())
    assert latest_hand(member).id == before, "not deleted and re-sent: an open capture menu would be lost"


async def test_a_click_on_the_card_the_timer_played_says_the_time_ran_out(world):
    table = await start_people(world)
    seat = table.game.to_play
    member = member_for(world, table, seat)
    nonce = table.nonce
    await world.env.advance_time(91)  # the turn timer: the computer plays for them
    played = next(e.card for e in reversed(table.game.events) if e.kind == "played" and e.seat == seat)
    result = await click_raw(world.env, member.user, latest_hand(member), f"c4:p:1:{nonce}:{played.code}")
    assert result.acknowledged and not result.deferred
    assert result.response.content.startswith(t("err.timed_out_played", "en").split(".")[0])


async def test_a_refusal_about_this_channels_table_names_it_for_a_host_of_another(world):
    other = world.guild.create_text_channel("otra")
    await world.ana.slash(world.channel, "cuarenta new", players=2)
    await world.caro.slash(other, "cuarenta new", players=2)
    result = await world.ana.slash(other, "cuarenta start")
    assert "Table #2 in this channel; your table is #1" in result.response.content


async def test_a_forged_huge_table_id_is_an_unknown_table_not_an_error(world, caplog):
    await world.ana.slash(world.channel, "cuarenta new", players=2)
    await world.ana.select(world.channel.last_message, ["medio"], custom_id="c4:v:1")
    result = await click_raw(world.env, world.ana.user, latest_hand(world.ana), "c4:p:999999999999999999999:0:7D")
    assert result.response.content == t("err.unknown_table", "en")
    assert not [r for r in caplog.records if r.exc_info and r.name.startswith(("bot", "cogs"))]
