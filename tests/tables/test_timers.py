"""Presence through Discord (SimCord): turn timers driven by SimCord's virtual clock (``env.advance_time``;
the bot's clock is `bot.app.DiscordClock`), reminders, expiry, AFK hand-over and return, leaving, kicks,
members removed, deleted channels, the lobby timeout, restarts, and tables that never cross."""

from __future__ import annotations

import pytest

from bot.i18n import t
from bot.tables.choices import distinct_captures
from tests.support.helpers import (
    click_raw,
    conserved,
    custom_ids,
    latest_hand,
    message_text,
    pick_play,
    play_through_ui,
    play_to_end,
    public_message,
    select_values,
    start_people,
    table_of,
)


def member_for(world, table, seat):
    user_id = table.seats[seat].user_id
    return next(m for m in (world.ana, world.beto, world.caro, world.dani) if m.id == user_id)




def texts(channel) -> list[str]:
    return [m.content or "" for m in channel.history()]


async def table_2v2(world, turn_timer=30, rules="rapido"):
    await world.ana.slash(world.channel, "cuarenta new", players=4, rules=rules, turn_timer=turn_timer)
    for member in (world.beto, world.caro, world.dani):
        await member.slash(world.channel, "cuarenta join")
    table = table_of(world, 1)
    assert table.status == "playing"
    return table


async def play_others_until(world, table, seat):
    """People other than ``seat`` play through their DM hands until it is ``seat``'s turn."""
    for _ in range(12):
        if table.game.to_play == seat:
            return
        to_play, play = pick_play(table)
        if table.seats[to_play].autoplays:
            await world.env.settle()
            continue
        await play_through_ui(member_for(world, table, to_play), table, play)
    raise AssertionError("never came back to the seat")


async def test_reminder_at_two_thirds_then_the_computer_plays_the_expired_turn(world):
    await world.ana.slash(world.channel, "cuarenta new", players=2, turn_timer=30)
    await world.beto.slash(world.channel, "cuarenta join")
    table = table_of(world, 1)
    seat, nonce = table.game.to_play, table.nonce
    member = member_for(world, table, seat)
    assert "<t:" in message_text(public_message(world, table)), "the table shows the deadline"

    await world.env.advance_time(19)
    assert not any("se acaba" in c for c in texts(world.channel))
    await world.env.advance_time(1)
    reminders = [m for m in world.channel.history() if "se acaba" in (m.content or "")]
    assert len(reminders) == 1 and f"<@{member.id}>" in reminders[0].content, "a mention in the channel"
    assert reminders[0].reference is not None and reminders[0].reference.message_id == table.messages.public
    assert any("runs out" in (m.content or "") for m in member.user.dm_channel.history()), "and a DM line"
    assert table.nonce == nonce

    await world.env.advance_time(10)
    assert table.nonce == nonce + 1, "the computer played the expired turn"
    assert any("se le acabó el tiempo" in c for c in texts(world.channel)), "the table says so"
    assert not table.casual
    conserved(table)
    assert world.env.errors == []


async def test_an_afk_player_in_a_2v2_is_replaced_after_two_expiries_and_returns_with_one_click(world):
    table = await table_2v2(world)
    afk = table.game.to_play
    member = member_for(world, table, afk)
    await world.env.advance_time(30)
    assert table.timers.strikes == {str(afk): 1} and not table.seats[afk].away
    await play_others_until(world, table, afk)
    await world.env.advance_time(30)
    assert table.seats[afk].away and table.casual, "two expiries in a row: a computer player takes the seat"
    assert "no está" in message_text(public_message(world, table))
    conserved(table)

    plays_by_afk = sum(1 for seat, _, _ in await world.bot.store.plays(1) if seat == afk)
    for _ in range(8):  # the others play on; the computer plays the away seat without waiting
        await world.env.settle()
        to_play, play = pick_play(table)
        if not table.seats[to_play].autoplays:
            await play_through_ui(member_for(world, table, to_play), table, play)
    assert sum(1 for seat, _, _ in await world.bot.store.plays(1) if seat == afk) > plays_by_afk
    hand = latest_hand(member)
    assert "c4:b:1" in custom_ids(hand)
    result = await member.user.click(hand, custom_id="c4:b:1")
    assert result.ephemeral and "Welcome back" in result.response.content
    assert not table.seats[afk].away
    await play_others_until(world, table, afk)
    nonce = table.nonce
    _, play = pick_play(table)
    await play_through_ui(member, table, play)
    assert table.nonce > nonce, "they play their own seat again"
    conserved(table)
    assert world.env.errors == []


async def test_back_command(world):
    table = await table_2v2(world)
    afk = table.game.to_play
    member = member_for(world, table, afk)
    await world.env.advance_time(30)
    await play_others_until(world, table, afk)
    await world.env.advance_time(30)
    assert table.seats[afk].away
    result = await member.slash(world.channel, "cuarenta back")
    assert result.ephemeral and "Welcome back" in result.response.content
    assert not table.seats[afk].away


async def test_a_restart_while_a_timer_runs_resumes_the_time_left(world, make_bot):
    await world.ana.slash(world.channel, "cuarenta new", players=2, turn_timer=30)
    await world.beto.slash(world.channel, "cuarenta join")
    table = table_of(world, 1)
    nonce = table.nonce
    await world.env.advance_time(21)  # reminded at 20 s
    await world.env.restart_bot(make_bot())
    restored = table_of(world, 1)
    assert restored.timers.deadline == table.timers.deadline
    await world.env.advance_time(8)
    assert restored.nonce == nonce, "not a fresh timer, not an instant expiry"
    await world.env.advance_time(1)
    assert restored.nonce == nonce + 1, "fired with the 9 s that were left"
    assert len([c for c in texts(world.channel) if "se acaba" in c]) == 1, "reminded once"
    assert world.env.errors == []


@pytest.mark.slow
async def test_a_player_leaves_mid_hand_and_the_mesa_reaches_its_end(world):
    table = await table_2v2(world, turn_timer=300)
    for _ in range(3):
        seat, play = pick_play(table)
        await play_through_ui(member_for(world, table, seat), table, play)
    ana_seat = table.seat_of(world.ana.id)
    hand = list(table.game.hands[ana_seat])
    result = await world.ana.slash(world.channel, "cuarenta leave")
    assert result.ephemeral and "a computer player takes over your seat" in result.response.content
    assert table.seats[ana_seat].is_ai and table.game.hands[ana_seat] == hand and table.casual
    assert table.host_id != world.ana.id, "hosting passed"
    assert any("se levantó" in c for c in texts(world.channel))
    assert (await world.bot.store.load_table(1)).casual
    conserved(table)
    members = {m.id: m for m in (world.beto, world.caro, world.dani)}

    async def on_turn(tbl, member, play):
        conserved(tbl)
        await play_through_ui(member, tbl, play)

    await world.env.settle()
    done = await play_to_end(world, 1, members, on_turn=on_turn)
    assert done.status == "finished"
    conserved(done)
    assert world.env.errors == []


async def test_host_kicks_a_player_and_manage_server_can_too(world):
    table = await table_2v2(world, turn_timer=300)
    refused = await world.beto.slash(world.channel, "cuarenta kick", player=world.caro)
    assert refused.ephemeral and "Only the host" in refused.response.content
    ok = await world.ana.slash(world.channel, "cuarenta kick", player=world.caro)
    assert ok.ephemeral and "is no longer playing at Table #1" in ok.response.content
    caro_seat = next(i for i, s in enumerate(table.seats) if s.stands_for == "caro")
    assert table.seats[caro_seat].is_ai and table.casual
    await world.eva.slash(world.channel, "cuarenta kick", player=world.ana)
    assert table.host_id in (world.beto.id, world.dani.id)
    conserved(table)
    ended = await world.bot.tables.end(1, user_id=table.host_id)
    assert ended.status == "closed"
    await world.env.settle()
    assert "Resultado:" in message_text(public_message(world, table)), "the final state, for everyone"


async def test_a_member_who_leaves_the_server_is_replaced(world, make_bot):
    await world.env.restart_bot(make_bot(members_intent=True))
    table = await table_2v2(world, turn_timer=300)
    seat = table.seat_of(world.beto.id)
    world.guild.remove_member(world.beto)
    await world.env.settle()
    assert table.seats[seat].is_ai and table.seats[seat].stands_for == "beto" and table.casual
    assert world.bot.tables.table_of_user(world.beto.id) is None
    conserved(table)


async def test_a_deleted_channel_mid_hand_ends_the_table_and_frees_its_players(world):
    await world.ana.slash(world.channel, "cuarenta new", players=2, turn_timer=30)
    await world.beto.slash(world.channel, "cuarenta join")
    table = table_of(world, 1)
    seat, play = pick_play(table)
    await play_through_ui(member_for(world, table, seat), table, play)
    world.env.backend.delete_channel(world.channel.id)
    await world.env.settle()
    assert table.status == "closed" and (await world.bot.store.load_table(1)).status == "closed"
    assert world.bot.tables.table_of_user(world.ana.id) is None
    await world.env.advance_time(120)
    assert table.nonce == 1, "no timer fires on a closed table"
    other = world.guild.create_text_channel("otra")
    result = await world.ana.slash(other, "cuarenta new", players=2)
    assert "You opened Table #2" in result.response.content, "sits elsewhere straight away"


async def test_the_lobby_closes_itself_after_15_minutes(world):
    await world.ana.slash(world.channel, "cuarenta new", players=4)
    await world.beto.slash(world.channel, "cuarenta join")
    await world.env.advance_time(14 * 60)
    assert table_of(world, 1).status == "lobby"
    await world.env.advance_time(60)
    assert table_of(world, 1).status == "closed"
    assert any("no empezó en 15 minutos" in c for c in texts(world.channel))
    again = await world.beto.slash(world.channel, "cuarenta new", players=2)
    assert "You opened Table #2" in again.response.content


async def test_missing_permissions_are_named(world):
    import discord

    quiet = world.guild.create_text_channel(
        "sin-enlaces", overwrites={world.guild.me: discord.PermissionOverwrite(embed_links=False)})
    result = await world.ana.slash(quiet, "cuarenta new")
    assert result.ephemeral and "Embed Links" in result.response.content
    assert "Send Messages" not in result.response.content


async def test_two_tables_in_two_channels_and_two_servers_never_cross(world):
    other_channel = world.guild.create_text_channel("cuarenta-2")
    guild2 = world.env.create_guild("Cuenca Club")
    channel3 = guild2.create_text_channel("mesa")
    fer = guild2.add_member(world.env.create_user("fer"))
    gabi = guild2.add_member(world.env.create_user("gabi"))
    await world.bot.tree.sync()
    await world.ana.slash(world.channel, "cuarenta new", players=2, turn_timer=30)
    await world.beto.slash(world.channel, "cuarenta join")
    await world.caro.slash(other_channel, "cuarenta new", players=2, turn_timer=60)
    await world.dani.slash(other_channel, "cuarenta join")
    await fer.slash(channel3, "cuarenta new", players=2, turn_timer=90)
    await gabi.slash(channel3, "cuarenta join")
    tables = [table_of(world, i) for i in (1, 2, 3)]
    nonces = [t.nonce for t in tables]
    await world.env.advance_time(30)
    assert [t.nonce for t in tables] == [nonces[0] + 1, nonces[1], nonces[2]]
    await world.env.advance_time(30)
    assert [t.nonce for t in tables] == [nonces[0] + 2, nonces[1] + 1, nonces[2]], "each on its own clock"
    world.env.backend.delete_channel(other_channel.id)
    await world.env.settle()
    assert [t.status for t in tables] == ["playing", "closed", "playing"]
    for channel, table in ((world.channel, tables[0]), (channel3, tables[2])):
        for message in channel.history():
            assert f"#{tables[1].id}" not in (message.content or "") or table.id == tables[1].id
    await world.env.advance_time(30)
    assert tables[2].nonce == nonces[2] + 1
    assert world.env.errors == []


async def test_the_host_picks_the_computer_players_level_in_the_lobby(world):
    await world.ana.slash(world.channel, "cuarenta new", players=2)
    lobby = world.channel.last_message
    assert "c4:v:1" in custom_ids(lobby)
    result = await world.ana.select(lobby, ["dificil"], custom_id="c4:v:1")
    assert result.ephemeral and "hard" in result.response.content
    table = table_of(world, 1)
    assert table.status == "playing" and table.seats[1].ai == "dificil"
    assert world.env.errors == []


async def test_a_deleted_thread_ends_its_table(world):
    backend = world.env.backend
    backend.create_thread(world.channel.id, "partida", world.ana.id)
    await world.env.settle()
    thread = next(t for t in world.channel.threads if t.name == "partida")
    await world.ana.slash(thread, "cuarenta new", players=2)
    await world.beto.slash(thread, "cuarenta join")
    table = table_of(world, 1)
    assert table.status == "playing" and table.channel_id == thread.id
    backend.delete_channel(thread.id)
    await world.env.settle()
    assert table.status == "closed" and world.bot.tables.table_of_user(world.beto.id) is None


@pytest.mark.slow
async def test_a_capture_choice_made_after_the_turn_timed_out_says_the_time_ran_out_and_what_was_played(world):
    await world.ana.slash(world.channel, "cuarenta new", players=2)
    await world.beto.slash(world.channel, "cuarenta join")
    table = table_of(world, 1)
    members = {world.ana.id: world.ana, world.beto.id: world.beto}
    for _ in range(400):  # play on until the player in turn holds a card with several captures
        game = table.game
        if game.to_play is None:
            await world.env.settle()
            continue
        member = members[table.seats[game.to_play].user_id]
        card = next((c for c in game.hands[game.to_play]
                     if len(distinct_captures([p for p in game.plays_for(c) if p.captures],
                                              game.view(game.to_play))) > 1), None)
        if card is not None:
            break
        seat, play = pick_play(table)
        await play_through_ui(member, table, play)
    nonce = table.nonce
    await member.user.click(latest_hand(member), custom_id=f"c4:p:1:{nonce}:{card.code}")  # the menu opens
    cid = f"c4:c:1:{nonce}:{card.code}"
    value = next(v for v in select_values(latest_hand(member), cid) if v != "-" and not v.startswith("~"))
    await world.env.advance_time(95)  # the turn timer runs out: the computer plays for them
    played = len(table.game.plays)
    late = await click_raw(world.env, member.user, latest_hand(member), cid, component_type=3, values=[value])
    assert len(table.game.plays) == played
    text = late.response.content
    # today: "That hand was out of date, so the card wasn't played. It's ana's turn now; …"
    assert "time ran out" in text.lower(), text


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
