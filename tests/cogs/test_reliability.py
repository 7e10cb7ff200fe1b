"""Restarts, closed DMs, double clicks, stale and wrong-player clicks, non-players, refusals."""

from __future__ import annotations

import pytest

from bot.i18n import t
from tests.support.helpers import (
    controls,
    custom_ids,
    double_click,
    latest_hand,
    message_text,
    pick_play,
    play_through_ui,
    public_message,
    table_of,
)


async def start_1v1_people(world):
    await world.ana.slash(world.channel, "cuarenta new", players=2)
    await world.beto.slash(world.channel, "cuarenta join")
    return table_of(world, 1)


def member_for(world, table, seat):
    user_id = table.seats[seat].user_id
    return next(m for m in (world.ana, world.beto, world.caro, world.dani) if m.id == user_id)


async def play_turns(world, table, count):
    for _ in range(count):
        seat, play = pick_play(table)
        await play_through_ui(member_for(world, table, seat), table, play)


async def test_restart_mid_hand_resumes_and_old_dm_buttons_still_work(world, make_bot):
    table = await start_1v1_people(world)
    await play_turns(world, table, 3)
    before = table.game.to_dict()
    seat = table.game.to_play
    member = member_for(world, table, seat)
    old_dm = latest_hand(member)

    await world.env.restart_bot(make_bot())

    restored = table_of(world, 1)
    assert restored is not table, "a new process loaded the table from the database"
    assert restored.game.to_dict() == before, "the table resumes exactly where it was"
    _, play = pick_play(restored)
    nonce = restored.nonce
    assert f"c4:p:1:{nonce}:{play.card.code}" in custom_ids(old_dm), "the DM from before the restart"
    await play_through_ui(member, restored, play)
    assert restored.nonce > nonce, "the click on the old DM message played"
    shown = await world.caro.click(public_message(world, restored), custom_id="c4:h:1")
    assert shown.response.content == "You are not playing at this table.", "the old table message answers"
    await play_turns(world, restored, 4)
    assert world.env.errors == []


async def test_restart_with_computer_to_play_resumes_the_computer(world, make_bot):
    await world.env.restart_bot(make_bot(ai_delay=3600))  # this bot's computer thinks for an hour
    await world.ana.slash(world.channel, "cuarenta new", players=2)
    await world.ana.select(world.channel.last_message, ["medio"], custom_id="c4:v:1")
    table = table_of(world, 1)
    if table.game.to_play == 0:  # ana leads: one play, and it is the computer's turn
        seat, play = pick_play(table)
        await play_through_ui(world.ana, table, play)
    await world.env.settle()
    assert table.seats[table.game.to_play].ai is not None, "the computer is to play"
    played = len(table.game.plays)
    await world.env.restart_bot(make_bot())  # the restarted bot's computer answers at once
    restored = table_of(world, 1)
    assert len(restored.game.plays) >= played
    for _ in range(50):
        if len(restored.game.plays) > played:
            break
        await world.env.settle()
    assert len(restored.game.plays) == played + 1, "the computer moved after the restart, with no click"
    assert restored.seats[restored.game.to_play].ai is None or restored.game.is_over


async def test_closed_dms_are_told_ephemerally_and_my_hand_plays(world):
    dm = world.beto.user.dm_channel
    world.env.inject_error("POST", f"/channels/{dm.id}/messages", status=403, code=50007,
                           message="Cannot send messages to this user", times=None)
    await world.ana.slash(world.channel, "cuarenta new", players=2)
    joined = await world.beto.slash(world.channel, "cuarenta join")
    assert joined.ephemeral
    assert any("direct messages" in f.content for f in joined.followups), "told in the channel, ephemerally"
    assert all(f.ephemeral for f in joined.followups)
    table = table_of(world, 1)
    assert table.status == "playing"
    assert 1 in table.messages.dm_closed
    assert "mensajes directos cerrados" in message_text(public_message(world, table))

    for _ in range(6):  # the game never stalls: beto plays through "My hand"
        seat, play = pick_play(table)
        member = member_for(world, table, seat)
        if member is world.beto:
            shown = await world.beto.click(public_message(world, table), custom_id="c4:h:1")
            assert shown.ephemeral
            before = table.nonce
            await play_through_ui(world.beto, table, play, via=shown.response)
            assert table.nonce > before
        else:
            await play_through_ui(member, table, play)
    assert world.env.errors == []


async def test_double_click_plays_once(world):
    await world.ana.slash(world.channel, "cuarenta new", players=2)
    await world.ana.select(world.channel.last_message, ["medio"], custom_id="c4:v:1")
    table = table_of(world, 1)
    _, play = pick_play(table)
    card = next(c for c in table.game.hands[0] if len([p for p in table.game.plays_for(c) if p.captures]) <= 1)
    nonce = table.nonce
    plays_before = len(table.game.plays)

    first, second = await double_click(world.env, world.ana.user, latest_hand(world.ana), f"c4:p:1:{nonce}:{card.code}")

    assert len(table.game.plays) == plays_before + 2, "one play by ana, one answer by the computer"
    assert table.game.plays[plays_before].card is card
    assert first.acknowledged and second.acknowledged
    assert [r.deferred for r in (first, second)].count(True) == 1, \
        "the second click on the card just played is acknowledged silently (nothing needs saying)"
    assert not any(r.ephemeral for r in (first, second)), "no error message for a double click"
    assert len(await world.bot.store.plays(1)) == plays_before + 2


async def test_stale_hand_is_refused_and_changes_nothing(world):
    await world.ana.slash(world.channel, "cuarenta new", players=2)
    await world.ana.select(world.channel.last_message, ["medio"], custom_id="c4:v:1")
    table = table_of(world, 1)
    old = await world.ana.click(public_message(world, table), custom_id="c4:h:1")
    old_nonce = table.nonce
    _, play = pick_play(table)
    await play_through_ui(world.ana, table, play)  # ana plays from her DM; the computer answers
    state = table.game.to_dict()
    stale_card = next(cid for cid in custom_ids(old.response) if cid.startswith(f"c4:p:1:{old_nonce}:"))
    card_code = stale_card.rsplit(":", 1)[1]
    if card_code not in [c.code for c in table.game.hands[0]]:
        stale_card = next(cid for cid in custom_ids(old.response) if cid.rsplit(":", 1)[1] in
                          [c.code for c in table.game.hands[0]])

    result = await world.ana.click(old.response, custom_id=stale_card)

    assert result.ephemeral and result.response.content.startswith(
        "That hand was out of date, so the card wasn't played.")
    assert any(c.startswith(f"c4:p:1:{table.nonce}:") for c in custom_ids(result.response)), \
        "the answer is the current hand, with this turn's buttons"
    assert table.game.to_dict() == state


async def test_wrong_player_click_is_refused(world):
    table = await start_1v1_people(world)
    seat = table.game.to_play
    mover = member_for(world, table, seat)
    other = member_for(world, table, 1 - seat)
    mine = await mover.click(public_message(world, table), custom_id="c4:h:1")
    _, play = pick_play(table)
    await play_through_ui(mover, table, play)
    assert table.game.to_play == 1 - seat
    state = table.game.to_dict()
    button = next(cid for cid in custom_ids(mine.response)
                  if cid.startswith("c4:p:") and cid.rsplit(":", 1)[1] != play.card.code)

    result = await mover.click(mine.response, custom_id=button)

    assert result.ephemeral and "so the card wasn't played" in result.response.content
    assert f"It's {other.name}'s turn now" in result.response.content
    assert table.game.to_dict() == state
    theirs = latest_hand(mover)
    assert all(getattr(b, "disabled", True) for b in controls(theirs)
               if (getattr(b, "custom_id", None) or "").startswith("c4:p:")), "off turn, card buttons are disabled"


async def test_non_player_on_my_hand_is_told_ephemerally(world):
    table = await start_1v1_people(world)
    result = await world.caro.click(public_message(world, table), custom_id="c4:h:1")
    assert result.ephemeral
    assert result.response.content == "You are not playing at this table."
    assert world.env.errors == []


async def test_player_on_my_hand_sees_only_their_hand(world):
    table = await start_1v1_people(world)
    result = await world.beto.click(public_message(world, table), custom_id="c4:h:1")
    assert result.ephemeral
    for card in table.game.hands[1]:
        assert f"c4:p:1:{table.nonce}:{card.code}" in custom_ids(result.response)
    for card in table.game.hands[0]:
        assert f"c4:p:1:{table.nonce}:{card.code}" not in custom_ids(result.response)


async def test_second_table_in_the_same_channel_points_at_the_first(world):
    await world.ana.slash(world.channel, "cuarenta new", players=2)
    lobby = world.channel.last_message
    result = await world.beto.slash(world.channel, "cuarenta new")
    assert result.ephemeral
    assert "Table #1" in result.response.content
    assert str(lobby.id) in result.response.content
    assert len(world.bot.tables.tables) == 1


async def test_host_ends_a_table(world):
    table = await start_1v1_people(world)
    refused = await world.beto.slash(world.channel, "cuarenta end")
    assert refused.ephemeral and "Only the host" in refused.response.content
    assert table.status == "playing"
    ended = await world.ana.slash(world.channel, "cuarenta end")
    assert ended.ephemeral and "You ended Table #1" in ended.response.content
    assert table.status == "closed"
    assert (await world.bot.store.load_table(1)).status == "closed"
    assert "se terminó" in message_text(public_message(world, table))
    assert not custom_ids(public_message(world, table)), "no buttons left"
    again = await world.ana.slash(world.channel, "cuarenta new", players=2)
    assert "You opened Table #2" in again.response.content


async def test_manage_server_member_ends_a_table(world):
    await start_1v1_people(world)
    ended = await world.eva.slash(world.channel, "cuarenta end")
    assert "You ended Table #1" in ended.response.content


async def test_click_on_a_finished_table_is_refused(world):
    table = await start_1v1_people(world)
    seat = table.game.to_play
    mover = member_for(world, table, seat)
    shown = await mover.click(public_message(world, table), custom_id="c4:h:1")
    await world.ana.slash(world.channel, "cuarenta end")
    button = next(cid for cid in custom_ids(shown.response) if cid.startswith("c4:p:"))
    result = await mover.click(shown.response, custom_id=button)
    assert result.ephemeral and "has already finished" in result.response.content


async def test_unknown_table_button_is_refused(world):
    table = await start_1v1_people(world)
    mover = member_for(world, table, table.game.to_play)
    shown = await mover.click(public_message(world, table), custom_id="c4:h:1")
    await world.bot.store.db.execute("DELETE FROM plays")
    await world.bot.store.db.execute("DELETE FROM tables")
    world.bot.tables.tables.clear()
    button = next(cid for cid in custom_ids(shown.response) if cid.startswith("c4:p:"))
    result = await mover.click(shown.response, custom_id=button)
    assert result.ephemeral and "can't find that table" in result.response.content


async def test_discord_errors_on_the_table_message_and_dms_do_not_stall_the_game(world):
    """503s (which discord.py does not retry) on the table message and on a DM: the game goes on; a
    player whose DM could not be updated plays through "My hand", and the DM catches up later."""
    table = await start_1v1_people(world)
    world.env.inject_error("PATCH", f"/channels/{world.channel.id}/messages/*", status=503, times=3)
    world.env.inject_error("PATCH", f"/channels/{world.ana.user.dm_channel.id}/messages/*", status=503, times=2)
    before = table.nonce
    for _ in range(6):
        seat, play = pick_play(table)
        member = member_for(world, table, seat)
        if f"c4:p:1:{table.nonce}:{play.card.code}" in custom_ids(latest_hand(member)):
            await play_through_ui(member, table, play)
        else:
            shown = await member.click(public_message(world, table), custom_id="c4:h:1")
            await play_through_ui(member, table, play, via=shown.response)
    assert table.nonce == before + 6
    seat, play = pick_play(table)
    assert f"c4:p:1:{table.nonce}:{play.card.code}" in custom_ids(latest_hand(member_for(world, table, seat)))
    assert world.env.errors == []


async def test_missing_bot_permissions_are_explained(world):
    import discord

    quiet = world.guild.create_text_channel(
        "solo-lectura", overwrites={world.guild.me: discord.PermissionOverwrite(send_messages=False)})
    result = await world.ana.slash(quiet, "cuarenta new")
    assert result.ephemeral and "missing permissions" in result.response.content
    assert world.bot.tables.table_in_channel(quiet.id) is None


async def test_old_lobby_buttons_work_after_a_restart(world, make_bot):
    await world.ana.slash(world.channel, "cuarenta new", players=2)
    lobby = world.channel.last_message
    await world.env.restart_bot(make_bot())
    result = await world.beto.click(lobby, custom_id="c4:l:1:a")
    assert result.ephemeral and "You sat down at Table #1" in result.response.content
    assert table_of(world, 1).status == "playing"


async def test_a_development_guild_gets_its_commands_on_start(env, make_bot):
    guild = env.create_guild("Dev", id=1456074443980899999)
    channel = guild.create_text_channel("pruebas")
    ana = guild.add_member(env.create_user("ana"))
    await env.restart_bot(make_bot(guild_id=guild.id))
    puts = [r.path for r in env.http_requests if r.method == "PUT"]
    assert puts == [f"/applications/{env.bot.application_id}/guilds/{guild.id}/commands"]
    result = await ana.slash(channel, "cuarenta rules", preset="quito")
    assert result.ephemeral


async def test_dms_closed_after_joining_never_stall_the_deal(world):
    await world.ana.slash(world.channel, "cuarenta new", players=2)
    dm = world.ana.user.dm_channel
    world.env.inject_error("POST", f"/channels/{dm.id}/messages", status=403, code=50007, times=None)
    await world.ana.select(world.channel.last_message, ["medio"], custom_id="c4:v:1")
    table = table_of(world, 1)
    assert table.status == "playing" and 0 in table.messages.dm_closed
    assert "ana tiene los mensajes directos cerrados" in message_text(public_message(world, table))
    for _ in range(3):
        _, play = pick_play(table)
        shown = await world.ana.click(public_message(world, table), custom_id="c4:h:1")
        before = table.nonce
        await play_through_ui(world.ana, table, play, via=shown.response)
        assert table.nonce > before
    assert world.env.errors == []


async def test_a_failed_table_post_at_a_new_hand_still_deals_the_hands(world):
    world.env.inject_error("POST", f"/channels/{world.channel.id}/messages", status=503, times=2)
    await world.ana.slash(world.channel, "cuarenta new", players=2)
    await world.beto.slash(world.channel, "cuarenta join")
    table = table_of(world, 1)
    assert table.status == "playing"
    seat, play = pick_play(table)
    member = member_for(world, table, seat)
    assert f"c4:p:1:{table.nonce}:{play.card.code}" in custom_ids(latest_hand(member)), "the hand went out"
    await play_through_ui(member, table, play)
    assert table.messages.public is not None, "the table message is posted on the next change"


@pytest.mark.parametrize("status,code", [(500, 0), (404, 10062)], ids=["5xx", "unknown-interaction"])
async def test_a_play_whose_answer_discord_refuses_stands_and_nobody_is_told_of_an_error(world, caplog, status,
                                                                                        code):
    """QA: when Discord refused the answer of a card click (a 5xx after discord.py's retries, or 10062 when
    the answer came too late), the card was played but the player was told "something went wrong" and an
    ERROR was logged. The play stands: no error is shown or logged, and the presenter writes the DM hand
    again, so it shows the game as it is."""
    import logging

    await world.ana.slash(world.channel, "cuarenta new", players=2, rules="quito")
    await world.beto.slash(world.channel, "cuarenta join")
    table = table_of(world, 1)
    members = {world.ana.id: world.ana, world.beto.id: world.beto}
    while True:
        game = table.game
        card = next((c for c in game.hands[game.to_play] if len([p for p in game.plays_for(c) if p.captures]) <= 1),
                    None)
        if card is not None:
            break
        seat, play = pick_play(table)
        await play_through_ui(members[table.seats[seat].user_id], table, play)
    member = members[table.seats[table.game.to_play].user_id]
    plays = len(table.game.plays)
    world.env.inject_error("POST", "/interactions/*/callback", status=status, code=code, times=1)
    result = await member.user.click(latest_hand(member), custom_id=f"c4:p:1:{table.nonce}:{card.code}")
    await world.env.advance_time(2)
    assert len(table.game.plays) == plays + 1, "the play stands"
    generic = {t("err.generic", lang) for lang in ("es", "en", "pt")}
    said = [result.response.content if result.response else None] + [f.content for f in result.followups]
    assert not generic & set(said), said
    assert [r for r in caplog.records if r.levelno >= logging.ERROR] == []
    hand = latest_hand(member)
    assert card.code not in " ".join(custom_ids(hand)), "the DM hand was written again without the card played"
