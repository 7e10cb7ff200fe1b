"""Mischief against the newest features, end to end through SimCord: tables played in a thread of the
channel (``/cuarenta settings tables_in:thread``), ``/cuarenta privacy`` (export and deletion) and the
records a mesa leaves in its channel (the score beside «Ver jugadas», the started lobby) in the server's
language. Every interaction gets one answer, nothing is logged as an error, no hidden card is public."""

from __future__ import annotations

import json

import discord
import pytest

from bot.i18n import t
from bot.privacy import ANONYMOUS_NAME
from tests.support.helpers import (
    LOOKS,
    click_raw,
    clicks_together,
    custom_ids,
    double_click,
    hand_messages,
    hidden_cards,
    is_layout,
    layout_texts,
    pick_play,
    play_through_ui,
    play_to_end,
    public_text,
    table_of,
    texts_of,
)

# ---------------------------------------------------------------------------------------------- helpers


async def threads_on(world) -> None:
    """eva (Manage Server) makes tables play in threads."""
    result = await world.eva.slash(world.channel, "cuarenta settings", tables_in="thread")
    assert result.ephemeral


def thread_of(world, table):
    """The thread ``table`` plays in."""
    return next(c for c in world.channel.threads if c.id == table.channel_id)


def one_answer(result) -> str:
    """The one answer of an interaction: its response, else its single follow-up (after a deferral); its
    words."""
    answers = [m for m in [result.response, *result.followups] if m is not None]
    assert len(answers) == 1, f"one answer, not {len(answers)}"
    return "\n".join(texts_of(answers[0]))


def refused_privately(result) -> str:
    """The interaction got exactly one answer, ephemeral; its words."""
    assert result.ephemeral
    return one_answer(result)


def only_the_thread_start_in_parent(world) -> None:
    """The parent channel holds nothing of a thread table but the thread's start notices."""
    kinds = {m.type for m in world.channel.history()}
    assert kinds <= {discord.MessageType.thread_created}, [m.content for m in world.channel.history()]


async def thread_1v1(world, *, rules: str = "rapido"):
    """ana opens a 1 v 1 in a thread and beto joins from the thread: the table, started, and its thread."""
    await threads_on(world)
    await world.ana.slash(world.channel, "cuarenta new", players=2, rules=rules)
    table = table_of(world, 1)
    thread = thread_of(world, table)
    joined = await world.beto.slash(thread, "cuarenta join")
    assert joined.ephemeral and table.status == "playing"
    return table, thread


async def play_hand(world, table) -> None:
    """The people play the current hand to its end."""
    members = {m.id: m for m in (world.ana, world.beto, world.caro, world.dani)}
    number = table.game.hand_number
    while table.status == "playing" and table.game.hand_number == number:
        seat, play = pick_play(table)
        await play_through_ui(members[table.seats[seat].user_id], table, play)
    await world.env.advance_time(3)


def assert_no_hidden_cards_anywhere_public(world, table, channel) -> None:
    """No message of ``channel`` (and of the parent channel) a spectator sees names a card in a hand or
    the stock, unless it is a record of a hand already over."""
    import re

    hidden = hidden_cards(table)
    for where in (channel, world.channel):
        for message in where.history(viewer=world.eva):
            text = public_text(message)
            number = re.search(r"\b(?:[Mm]ano|[Hh]and) (\d+)", text)
            if number and int(number[1]) < table.game.hand_number:
                continue
            shown = [str(c) for c in hidden if str(c) in text]
            assert not shown, f"public message {message.id} shows hidden cards {shown}"


# ------------------------------------------------------------------------------ tables in a thread


async def test_join_from_the_parent_channel_does_not_seat_at_the_threads_table_and_names_its_thread(world):
    await threads_on(world)
    await world.ana.slash(world.channel, "cuarenta new", players=2)
    table = table_of(world, 1)
    refused = await world.beto.slash(world.channel, "cuarenta join")
    assert refused_privately(refused) == t("err.no_table_here_threads", "en", threads=f"<#{table.channel_id}>")
    assert table.seat_of(world.beto.id) is None and table.status == "lobby"
    only_the_thread_start_in_parent(world)
    assert world.env.errors == []


async def test_the_threads_table_buttons_pressed_from_the_parent_are_refused_privately(world):
    table, thread = await thread_1v1(world)
    await world.env.advance_time(2)
    public = next(m for m in thread.history() if m.id == table.messages.public)
    ids = custom_ids(public)
    assert ids, "the table message has buttons"
    start = world.channel.history()[0]  # the thread's start notice, in the parent
    for cid in ids:
        if cid.startswith("c4:"):
            result = await click_raw(world.env, world.caro, start, cid)
            assert refused_privately(result), cid
    only_the_thread_start_in_parent(world)
    assert world.env.errors == []


async def test_a_second_new_in_the_parent_opens_another_thread_and_the_host_is_refused_a_second(world):
    await threads_on(world)
    await world.ana.slash(world.channel, "cuarenta new", players=2)
    again = await world.ana.slash(world.channel, "cuarenta new", players=2)
    assert again.ephemeral and len(world.bot.tables.tables) == 1, "ana hosts one table"
    other = await world.caro.slash(world.channel, "cuarenta new", players=2)
    assert other.ephemeral and len(world.bot.tables.tables) == 2
    assert len(world.channel.threads) == 2 and table_of(world, 2).channel_id != table_of(world, 1).channel_id
    only_the_thread_start_in_parent(world)
    assert world.env.errors == []


async def test_the_host_leaving_a_thread_lobby_hands_it_on_or_closes_it_in_the_thread(world):
    await threads_on(world)
    await world.ana.slash(world.channel, "cuarenta new", players=4)
    table = table_of(world, 1)
    thread = thread_of(world, table)
    await world.beto.slash(thread, "cuarenta join")
    left = await world.ana.slash(world.channel, "cuarenta leave")  # from the parent: her own table
    assert left.ephemeral and table.seat_of(world.ana.id) is None
    assert table.host_id == world.beto.id and table.status == "lobby"
    gone = await world.beto.slash(thread, "cuarenta leave")
    assert gone.ephemeral
    assert table.status != "lobby" or not any(table.seats)
    only_the_thread_start_in_parent(world)
    assert world.env.errors == []


async def test_the_host_leaving_mid_game_in_a_thread_leaves_a_computer_player_and_the_game_goes_on(world):
    table, thread = await thread_1v1(world)
    left = await world.ana.slash(world.channel, "cuarenta leave")
    assert left.ephemeral
    await world.env.advance_time(5)
    assert table.status in ("playing", "closed", "finished")
    seat = next(i for i, s in enumerate(table.seats) if s is not None and s.user_id == world.beto.id)
    assert table.seats[1 - seat].is_ai
    only_the_thread_start_in_parent(world)
    assert world.env.errors == []


async def test_end_from_the_parent_ends_the_hosts_thread_table_and_says_so_in_the_thread(world):
    table, thread = await thread_1v1(world)
    ended = await world.ana.slash(world.channel, "cuarenta end")
    assert ended.ephemeral
    await world.env.advance_time(3)
    assert not table.is_open
    assert any("se terminó antes de tiempo" in public_text(m) for m in thread.history()), "said in the thread"
    again = await world.ana.slash(world.channel, "cuarenta end")
    assert again.ephemeral, "nothing left to end: a private answer"
    only_the_thread_start_in_parent(world)
    assert world.env.errors == []


async def test_a_stranger_cannot_end_a_thread_table_from_its_thread(world):
    table, thread = await thread_1v1(world)
    refused = await world.caro.slash(thread, "cuarenta end")
    assert refused_privately(refused) and table.status == "playing"
    assert world.env.errors == []


@pytest.mark.slow
async def test_a_rematch_of_a_thread_table_is_dealt_in_the_same_thread(world):
    table, thread = await thread_1v1(world)
    await play_to_end(world, 1, {world.ana.id: world.ana, world.beto.id: world.beto})
    await world.env.settle()
    final = next(m for m in thread.history() if m.id == table.messages.public)
    asked = await world.ana.click(final, custom_id="c4:r:1")
    assert asked.ephemeral
    await world.env.advance_time(2)
    ready = next(m for m in reversed(thread.history()) if "c4:k:1:y" in custom_ids(m))
    accepted = await world.beto.click(ready, custom_id="c4:k:1:y")
    assert accepted.ephemeral
    new = table_of(world, 2)
    assert new.status == "playing" and new.channel_id == thread.id
    await world.env.advance_time(3)
    assert any(m.id == new.messages.public for m in thread.history())
    only_the_thread_start_in_parent(world)
    assert len(world.channel.threads) == 1
    assert world.env.errors == []


async def test_a_restart_mid_hand_resumes_the_thread_table_in_its_thread(world, make_bot):
    table, thread = await thread_1v1(world)
    members = {world.ana.id: world.ana, world.beto.id: world.beto}
    for _ in range(3):
        seat, play = pick_play(table)
        await play_through_ui(members[table.seats[seat].user_id], table, play)
    await world.env.restart_bot(make_bot())
    table = table_of(world, 1)
    assert table.status == "playing" and table.channel_id == thread.id
    await play_hand(world, table)
    assert any("c4:j:1:1" in custom_ids(m) for m in thread.history()), "the first record, in the thread"
    only_the_thread_start_in_parent(world)
    assert_no_hidden_cards_anywhere_public(world, table, thread)
    assert world.env.errors == []


async def test_a_thread_deleted_mid_game_ends_its_table_and_its_players_may_open_another(world):
    table, thread = await thread_1v1(world)
    world.env.backend.delete_channel(thread.id)
    await world.env.settle()
    assert not table.is_open and world.bot.tables.table_of_user(world.ana.id) is None
    again = await world.ana.slash(world.channel, "cuarenta new", players=2)
    assert again.ephemeral and table_of(world, 2).is_open
    hand = await world.beto.slash(world.channel, "cuarenta hand")
    assert hand.ephemeral
    assert world.env.errors == []


async def test_after_its_thread_is_deleted_the_players_are_told_and_an_old_hand_click_is_answered(world):
    table, thread = await thread_1v1(world)
    seat = table.game.to_play
    member = world.ana if table.seats[seat].user_id == world.ana.id else world.beto
    hand = hand_messages(member)[-1]
    card = next(c for c in custom_ids(hand) if c.startswith("c4:p:"))
    world.env.backend.delete_channel(thread.id)
    await world.env.settle()
    await world.env.advance_time(2)
    told = "\n".join(texts_of(member.user.dm_channel.history()[-1]))
    assert "Table #1" in told and custom_ids(member.user.dm_channel.history()[-1]) == []
    late = await click_raw(world.env, member.user, hand, card)
    assert late.response is not None and late.followups == []
    assert late.response.ephemeral and late.response.content == t("err.finished", "en")
    assert world.env.errors == []


async def test_a_thread_lobby_takes_clicks_after_a_restart_and_its_start_shows_the_sides(world, make_bot):
    await threads_on(world)
    await world.ana.slash(world.channel, "cuarenta new", players=4)
    thread = thread_of(world, table_of(world, 1))
    await world.env.restart_bot(make_bot())
    lobby = next(m for m in thread.history() if "c4:l:1:b" in custom_ids(m))
    joined = await world.beto.click(lobby, custom_id="c4:l:1:b")
    assert joined.ephemeral and table_of(world, 1).seat_of(world.beto.id) is not None
    started = await world.ana.slash(thread, "cuarenta start")
    assert started.ephemeral and table_of(world, 1).status == "playing"
    await world.env.advance_time(2)
    lobby = next(m for m in thread.history() if m.id == table_of(world, 1).messages.lobby)
    text = "\n".join(texts_of(lobby))
    assert t("lobby.goes_on", "es") in text and "Compu 1 (media)" in text and "Compu 2 (media)" in text
    assert custom_ids(lobby) == []
    only_the_thread_start_in_parent(world)
    assert world.env.errors == []


async def test_a_thread_closed_without_a_lock_and_a_restart_leave_the_table_playing_in_it(world, make_bot):
    """A moderator closes (archives) the thread mid-hand: discord.py drops it from the cache, and the
    restart's GUILD_CREATE does not list it; the table is kept (Discord still has the thread) and its
    record is written there."""
    table, thread = await thread_1v1(world, rules="quito")
    world.env.backend.edit_channel(thread.id, {}, thread_metadata={"archived": True})
    await world.env.settle()
    assert world.bot.get_channel(thread.id) is None
    await world.env.restart_bot(make_bot())
    table = table_of(world, 1)
    assert table.status == "playing"
    await play_hand(world, table)
    assert any("c4:j:1:1" in custom_ids(m) for m in thread.history())
    reposted = await world.beto.slash(thread, "cuarenta table")
    assert reposted.ephemeral and one_answer(reposted)
    only_the_thread_start_in_parent(world)
    assert world.env.errors == []


async def test_switching_back_to_the_channel_leaves_a_playing_thread_table_in_its_thread(world):
    table, thread = await thread_1v1(world)
    await world.eva.slash(world.channel, "cuarenta settings", tables_in="channel")
    await play_hand(world, table)
    assert table.channel_id == thread.id
    assert any("c4:j:1:1" in custom_ids(m) for m in thread.history())
    only_the_thread_start_in_parent(world)
    caro = await world.caro.slash(world.channel, "cuarenta new", players=2)
    assert caro.ephemeral and table_of(world, 2).channel_id == world.channel.id
    assert world.env.errors == []


async def test_the_table_command_in_the_parent_does_not_repost_the_thread_table_there(world):
    table, thread = await thread_1v1(world)
    result = await world.ana.slash(world.channel, "cuarenta table")
    assert result.ephemeral
    await world.env.advance_time(2)
    only_the_thread_start_in_parent(world)
    assert world.env.errors == []


async def test_a_thread_closed_and_locked_mid_hand_gets_its_record_once_it_is_reopened(world):
    """A moderator closes and locks the table's thread mid-hand (Discord answers every write there with
    400 50083, «Thread is archived»), the hand ends meanwhile, then the thread is reopened: the hand's
    record and the table come back to the thread, as they do to a channel whose permission came back."""
    table, thread = await thread_1v1(world, rules="quito")
    await world.env.advance_time(2)
    world.env.inject_error("*", f"/channels/{thread.id}/messages*", status=400, code=50083,
                           message="Thread is archived", times=None)  # closed and locked
    await play_hand(world, table)
    assert table.status == "playing" and table.game.hand_number == 2, "play went on through the DM hands"
    assert not any("c4:j:1:1" in custom_ids(m) for m in thread.history()), "Discord took nothing meanwhile"

    world.env.backend.faults.clear()  # reopened
    await world.env.advance_time(31)
    seat, play = pick_play(table)
    await play_through_ui(world.ana if table.seats[seat].user_id == world.ana.id else world.beto, table, play)
    await world.env.advance_time(31)
    assert any("c4:j:1:1" in custom_ids(m) for m in thread.history()), "the record of hand 1, in the thread"
    assert world.env.errors == []


# ------------------------------------------------------------------------------------------ privacy


async def finished_1v1(world, channel=None) -> int:
    """ana and beto play a 1 v 1 (rapido) to its end; the table id."""
    channel = channel or world.channel
    await world.ana.slash(channel, "cuarenta new", players=2, rules="rapido")
    await world.beto.slash(channel, "cuarenta join")
    table = world.bot.tables.table_in_channel(channel.id)
    await play_to_end(world, table.id, {world.ana.id: world.ana, world.beto.id: world.beto})
    await world.env.settle()
    return table.id


async def privacy(member, channel):
    shown = await member.slash(channel, "cuarenta privacy")
    assert shown.ephemeral and shown.response is not None
    return shown.response


async def delete_data(world, member):
    """``member`` asks for their data's deletion and confirms it; the confirmation's result."""
    message = await privacy(member, world.channel)
    asked = await member.click(message, custom_id="c4:d:a")
    confirm = asked.followups[0] if asked.followups else asked.response
    return confirm, await member.click(confirm, custom_id="c4:d:c")


async def test_a_double_clicked_confirmation_deletes_once_and_answers_each_click_once(world):
    await finished_1v1(world)
    message = await privacy(world.ana, world.channel)
    asked = await world.ana.click(message, custom_id="c4:d:a")
    confirm = asked.followups[0] if asked.followups else asked.response
    results = await double_click(world.env, world.ana, confirm, "c4:d:c")
    for result in results:
        answers = [m for m in [result.response, *result.followups] if m is not None]
        assert len(answers) == 1, [a.content for a in answers]
        assert answers[0].ephemeral
    rows = await world.bot.privacy.repo.rows(world.ana.id)
    assert all(v == [] for v in rows.values())
    assert world.env.errors == []


async def test_a_double_clicked_delete_asks_twice_privately_and_deletes_nothing(world):
    await finished_1v1(world)
    message = await privacy(world.ana, world.channel)
    results = await double_click(world.env, world.ana, message, "c4:d:a")
    for result in results:
        answers = [m for m in [result.response, *result.followups] if m is not None]
        assert len(answers) == 1 and answers[0].ephemeral
    rows = await world.bot.privacy.repo.rows(world.ana.id)
    assert rows["ratings"], "nothing deleted before the confirmation"
    assert world.env.errors == []


async def test_another_members_privacy_buttons_act_on_the_clicker_only(world):
    """caro presses the buttons of ana's summary (a forged click on a message she sees: the table's
    record): she gets her own (empty) export, and her confirmation deletes nothing of ana's."""
    await finished_1v1(world)
    ana_before = await world.bot.privacy.repo.rows(world.ana.id)
    record = next(m for m in world.channel.history() if "c4:j:1:1" in custom_ids(m))
    exported = await click_raw(world.env, world.caro, record, "c4:d:e")
    answers = [m for m in [exported.response, *exported.followups] if m is not None and m.attachments]
    assert len(answers) == 1 and answers[0].ephemeral
    document = json.loads(await answers[0].attachments[0].read())
    assert document["user_id"] == world.caro.id and str(world.ana.id) not in json.dumps(document)
    asked = await click_raw(world.env, world.caro, record, "c4:d:a")
    assert asked.ephemeral
    confirmed = await click_raw(world.env, world.caro, record, "c4:d:c")
    assert confirmed.ephemeral
    assert await world.bot.privacy.repo.rows(world.ana.id) == ana_before
    assert "c4:j:1:1" in custom_ids(next(m for m in world.channel.history() if m.id == record.id)), \
        "the public record is unchanged"
    assert world.env.errors == []


@pytest.mark.slow
async def test_after_deleting_a_member_plays_a_new_mesa_that_is_rated_and_shown(world):
    await finished_1v1(world)
    _, done = await delete_data(world, world.ana)
    assert done.response.content == t("privacy.deleted", "en")
    await world.bot.tables.ratings.set_settings(world.guild.id, min_games=1)
    await world.ana.slash(world.channel, "cuarenta new", players=2, rules="rapido")
    await world.beto.slash(world.channel, "cuarenta join")
    table = world.bot.tables.table_in_channel(world.channel.id)
    await play_to_end(world, table.id, {world.ana.id: world.ana, world.beto.id: world.beto})
    await world.env.settle()
    rows = await world.bot.privacy.repo.rows(world.ana.id)
    assert rows["ratings"] and [m["table_id"] for m in rows["mesas"]] == [table.id]
    board = await world.caro.slash(world.channel, "cuarenta leaderboard")
    text = "\n".join(texts_of(board.response)) if board.response else ""
    assert "ana" in text or str(world.ana.id) in text
    assert world.env.errors == []


async def test_deleting_while_in_the_queue_is_refused_in_the_members_language(world, locales):
    locales[world.ana.id] = "es-419"
    await world.eva.slash(world.channel, "cuarenta queue")
    await world.ana.slash(world.channel, "cuarenta find", mode="1v1")
    confirm, done = await delete_data(world, world.ana)
    answer = done.followups[0] if done.followups else done.response
    assert answer.ephemeral
    assert answer.content == t("privacy.err.queue", "es")
    assert world.env.errors == []


async def test_the_plays_of_a_deleted_members_mesa_name_the_anonymous_player_not_her(world):
    """beto presses «Ver jugadas» on a record of the mesa he played with ana after ana deleted her data:
    the plays name «Jugador anónimo», as `/cuarenta replay` and the stored table do (docs/PRIVACY.md)."""
    table_id = await finished_1v1(world)
    await delete_data(world, world.ana)
    record = next(m for m in world.channel.history() if f"c4:j:{table_id}:1" in custom_ids(m))
    plays = await world.beto.click(record, custom_id=f"c4:j:{table_id}:1")
    assert plays.ephemeral
    text = one_answer(plays)
    assert "beto" in text and ANONYMOUS_NAME in text
    assert "ana" not in text.replace(ANONYMOUS_NAME, ""), "ana's name is gone"
    assert world.env.errors == []


async def test_a_rematch_asked_after_a_member_deleted_her_data_posts_no_message_naming_her(world):
    table_id = await finished_1v1(world)
    await delete_data(world, world.ana)
    posted = {m.id for m in world.channel.history()}
    final = next(m for m in world.channel.history() if f"c4:r:{table_id}" in custom_ids(m))  # its «Revancha»
    asked = await world.beto.click(final, custom_id=f"c4:r:{table_id}")
    assert asked.ephemeral
    await world.env.advance_time(1)
    new = [m for m in world.channel.history() if m.id not in posted]
    assert all("ana" not in public_text(m).replace(ANONYMOUS_NAME, "") for m in new), [m.content for m in new]
    assert world.env.errors == []


async def test_a_deleted_member_who_left_mid_mesa_is_not_named_by_the_computer_that_took_her_seat(world):
    await world.ana.slash(world.channel, "cuarenta new", players=2, rules="rapido")
    await world.beto.slash(world.channel, "cuarenta join")
    await world.ana.slash(world.channel, "cuarenta leave")  # a computer player takes her seat
    await world.env.settle()
    table = await play_to_end(world, 1, {world.beto.id: world.beto})
    await world.env.settle()
    assert table.status == "finished"
    _, done = await delete_data(world, world.ana)
    assert done.response.content == t("privacy.deleted", "en")
    row = await world.bot.store.load_table(1)
    assert "ana" not in json.dumps(row.seats), row.seats
    replay = await world.beto.slash(world.channel, "cuarenta replay", mesa=1)
    shown = json.dumps([e.to_dict() for e in replay.response.embeds], ensure_ascii=False)
    assert "ana" not in shown.replace(ANONYMOUS_NAME, ""), "her name is gone from the replay"
    assert world.env.errors == []


async def test_a_thread_tables_host_who_deleted_her_data_leaves_no_copy_of_her_name_in_the_stored_table(world):
    table, thread = await thread_1v1(world)
    assert "ana" in thread.name
    await play_to_end(world, 1, {world.ana.id: world.ana, world.beto.id: world.beto})
    await world.env.settle()
    _, done = await delete_data(world, world.ana)
    assert done.response.content == t("privacy.deleted", "en")
    row = await world.bot.store.load_table(1)
    assert world.ana.id not in (row.host_id, *[s["user_id"] for s in row.seats if s])
    stored = json.dumps({"seats": row.seats, "meta": row.meta}, ensure_ascii=False)
    assert "ana" not in stored.replace(ANONYMOUS_NAME, ""), stored
    assert world.env.errors == []


async def test_after_a_restart_the_plays_of_a_deleted_members_mesa_name_the_anonymous_player(world, make_bot):
    table_id = await finished_1v1(world)
    await delete_data(world, world.ana)
    await world.env.restart_bot(make_bot())
    record = next(m for m in world.channel.history() if f"c4:j:{table_id}:1" in custom_ids(m))
    plays = await world.beto.click(record, custom_id=f"c4:j:{table_id}:1")
    assert plays.ephemeral
    text = one_answer(plays)
    assert "beto" in text and "ana" not in text.replace(ANONYMOUS_NAME, "")
    history = await world.beto.slash(world.channel, "cuarenta history")
    assert "ana" not in "\n".join(texts_of(history.response)).replace(ANONYMOUS_NAME, "")
    assert world.env.errors == []


async def test_a_quarter_of_an_hour_after_the_mesa_its_plays_name_the_anonymous_player(world):
    """The window of the fault above: an ended table leaves memory `KEEP_ENDED` (15 min) after its last
    change; from then on «Ver jugadas» reads the stored, anonymized table."""
    table_id = await finished_1v1(world)
    await delete_data(world, world.ana)
    await world.env.advance_time(16 * 60)
    record = next(m for m in world.channel.history() if f"c4:j:{table_id}:1" in custom_ids(m))
    plays = await world.beto.click(record, custom_id=f"c4:j:{table_id}:1")
    text = one_answer(plays)
    assert plays.ephemeral and ANONYMOUS_NAME in text and "ana" not in text.replace(ANONYMOUS_NAME, "")
    assert world.env.errors == []


async def test_a_double_clicked_export_sends_one_file_per_click_and_each_holds_only_her_rows(world):
    await finished_1v1(world)
    message = await privacy(world.ana, world.channel)
    for result in await double_click(world.env, world.ana, message, "c4:d:e"):
        answers = [m for m in [result.response, *result.followups] if m is not None]
        assert len(answers) == 1 and answers[0].ephemeral and len(answers[0].attachments) == 1
        document = json.loads(await answers[0].attachments[0].read())
        assert document["user_id"] == world.ana.id and "beto" not in json.dumps(document)
    assert world.env.errors == []


async def test_deleting_while_signed_up_to_a_league_is_refused(world):
    await world.eva.slash(world.channel, "cuarenta league create", name="Liga de Quito")
    signed = await world.ana.slash(world.channel, "cuarenta league signup", league=1)
    assert signed.ephemeral
    _, done = await delete_data(world, world.ana)
    answer = done.followups[0] if done.followups else done.response
    assert answer.ephemeral and answer.content == t("privacy.err.competition", "en")
    assert world.env.errors == []


@pytest.mark.slow
async def test_deleting_while_named_by_an_open_rematch_check_is_refused(world):
    table_id = await finished_1v1(world)
    final = next(m for m in world.channel.history() if m.id == table_of(world, table_id).messages.public)
    await world.beto.click(final, custom_id=f"c4:r:{table_id}")
    await world.env.advance_time(1)
    _, done = await delete_data(world, world.ana)
    answer = done.followups[0] if done.followups else done.response
    assert answer.ephemeral and answer.content == t("privacy.err.rematch", "en")
    assert world.env.errors == []


async def test_the_leaderboard_after_a_deletion_shows_no_ghost_row(world):
    await world.bot.tables.ratings.set_settings(world.guild.id, min_games=1)
    await finished_1v1(world)
    await delete_data(world, world.ana)
    board = await world.caro.slash(world.channel, "cuarenta leaderboard")
    text = "\n".join(texts_of(board.response))
    assert "beto" in text
    assert "ana" not in text and ANONYMOUS_NAME not in text and "<@-" not in text, text
    stats = await world.beto.slash(world.channel, "cuarenta stats")
    assert stats.response is not None
    stats_text = "\n".join(texts_of(stats.response))
    assert "<@-" not in stats_text and "ana" not in stats_text.replace(ANONYMOUS_NAME, ""), stats_text
    assert world.env.errors == []


async def test_a_closed_seasons_standings_after_a_deletion_have_no_gap_where_her_row_was(world):
    await world.bot.tables.ratings.set_settings(world.guild.id, min_games=1)
    await finished_1v1(world)  # ana wins 2-1
    closed = await world.eva.slash(world.channel, "cuarenta season end")
    assert "**1.** ana" in "\n".join(texts_of(closed.response))
    await delete_data(world, world.ana)
    past = await world.caro.slash(world.channel, "cuarenta leaderboard", mode="1v1", season=1)
    rows = [line for line in (past.response.embeds[0].description or "").splitlines() if line.startswith("**")]
    assert len(rows) == 1 and "beto" in rows[0]
    assert rows[0].startswith("**1.** "), rows
    assert world.env.errors == []


async def test_the_current_leaderboard_after_a_deletion_ranks_the_others_from_one(world):
    await world.bot.tables.ratings.set_settings(world.guild.id, min_games=1)
    await finished_1v1(world)
    await delete_data(world, world.ana)
    board = await world.caro.slash(world.channel, "cuarenta leaderboard", mode="1v1")
    rows = [line for line in (board.response.embeds[0].description or "").splitlines() if line.startswith("**")]
    assert len(rows) == 1 and rows[0].startswith("**1.** beto"), rows
    assert world.env.errors == []


async def test_deleting_the_parent_channel_ends_its_threads_table_and_frees_its_players(world):
    await threads_on(world)
    await world.ana.slash(world.channel, "cuarenta new", players=4)
    table = table_of(world, 1)
    other = world.guild.create_text_channel("otra")
    world.env.backend.delete_channel(world.channel.id)
    await world.env.settle()
    assert table.status == "closed"
    again = await world.ana.slash(other, "cuarenta new", players=2)
    assert again.ephemeral and table_of(world, 2).is_open
    assert world.env.errors == []


async def test_a_thread_deleted_while_the_bot_was_down_ends_its_table_at_the_next_start(world, make_bot):
    table, thread = await thread_1v1(world)
    backend = world.env.backend  # the thread goes without any event reaching the bot
    backend.channels.pop(thread.id)
    backend.messages.pop(thread.id, None)
    guild = backend.get_guild(world.guild.id)
    if thread.id in guild.thread_ids:
        guild.thread_ids.remove(thread.id)
    await world.env.restart_bot(make_bot())
    assert table_of(world, 1).status == "closed"
    again = await world.ana.slash(world.channel, "cuarenta new", players=2)
    assert again.ephemeral and table_of(world, 2).is_open
    assert world.env.errors == []


@pytest.mark.simcord_bot(**LOOKS)
async def test_a_thread_tables_first_hand_shows_no_hidden_card_and_its_record_has_the_score_beside_the_button(
        world):
    await world.eva.slash(world.channel, "cuarenta settings", language="en")
    table, thread = await thread_1v1(world, rules="quito")
    members = {world.ana.id: world.ana, world.beto.id: world.beto}
    while table.status == "playing" and table.game.hand_number == 1:
        seat, play = pick_play(table)
        await play_through_ui(members[table.seats[seat].user_id], table, play)
        await world.env.settle()
        hidden = hidden_cards(table)
        for message in thread.history(viewer=world.eva):
            if message.id == table.messages.public:
                text = public_text(message)
                shown = [str(c) for c in hidden if str(c) in text or f"c4_{c.code}:" in text]
                assert not shown, shown
    await world.env.advance_time(3)
    record = next(m for m in thread.history() if "c4:j:1:1" in custom_ids(m))
    assert is_layout(record)
    texts = layout_texts(record)
    assert any(line.startswith("🟦 **") and line.endswith(f"of {table.rules.target}") for line in texts), texts
    assert t("btn.plays", "en") in texts_of(record)
    only_the_thread_start_in_parent(world)
    assert world.env.errors == []


@pytest.mark.parametrize("deletion_first", [True, False])
async def test_a_deletion_and_a_join_clicked_together_leave_her_either_seated_and_kept_or_deleted_then_seated(
        world, deletion_first):
    finished = await finished_1v1(world)
    await world.caro.slash(world.channel, "cuarenta new", players=4)
    lobby = next(m for m in world.channel.history() if f"c4:l:{finished + 1}:b" in custom_ids(m))
    message = await privacy(world.ana, world.channel)
    asked = await world.ana.click(message, custom_id="c4:d:a")
    confirm = asked.followups[0] if asked.followups else asked.response
    clicks = [(world.ana, confirm, "c4:d:c"), (world.ana, lobby, f"c4:l:{finished + 1}:b")]
    results = await clicks_together(world.env, clicks if deletion_first else clicks[::-1])
    for result in results:
        answers = [m for m in [result.response, *result.followups] if m is not None]
        assert len(answers) == 1 and answers[0].ephemeral
    assert table_of(world, finished + 1).seat_of(world.ana.id) is not None, "she sits at the lobby"
    row = await world.bot.store.load_table(finished + 1)
    assert world.ana.id in [s["user_id"] for s in row.seats if s], "her seat is stored as it is in memory"
    rows = await world.bot.privacy.repo.rows(world.ana.id)
    if deletion_first:
        assert not rows["ratings"] and not rows["mesas"], "deleted, then seated anew"
    else:
        assert rows["ratings"] and rows["mesas"], "refused: she was seated first"
    assert world.env.errors == []


# ---------------------------------------------------------------------------- records in the channel


@pytest.mark.parametrize("lang", ["en", "pt"])
async def test_a_records_score_line_beside_its_plays_button_is_in_the_servers_language(world, lang):
    await world.eva.slash(world.channel, "cuarenta settings", language=lang)
    await world.ana.slash(world.channel, "cuarenta new", players=2, rules="quito")
    await world.beto.slash(world.channel, "cuarenta join")
    table = table_of(world, 1)
    await play_hand(world, table)
    record = next(m for m in world.channel.history() if "c4:j:1:1" in custom_ids(m))
    texts = layout_texts(record) if is_layout(record) else texts_of(record)
    joined = "\n".join(texts)
    target = table.rules.target
    score = t("sum.score_tiny", lang, sa=0, sb=0, target=target).split("**")[0]  # the marks before the figures
    assert score in joined
    tail = t("sum.score_tiny", lang, sa=0, sb=0, target=target).rsplit("**", 1)[1]
    assert tail in joined, (tail, joined)
    label = t("btn.plays", lang)
    assert label in texts_of(record)
    words_es = t("sum.score_tiny", "es", sa=0, sb=0, target=target).rsplit("**", 1)[1]
    if words_es != tail:
        assert words_es not in joined
    assert world.env.errors == []


@pytest.mark.parametrize("lang", ["en", "pt"])
async def test_a_started_lobby_shows_its_sides_and_that_the_game_goes_on_below_in_the_servers_language(
        world, lang):
    await world.eva.slash(world.channel, "cuarenta settings", language=lang)
    await world.ana.slash(world.channel, "cuarenta new", players=4)
    await world.beto.slash(world.channel, "cuarenta join", team="A")
    await world.caro.slash(world.channel, "cuarenta join", team="B")
    await world.dani.slash(world.channel, "cuarenta join", team="B")
    table = table_of(world, 1)
    assert table.status == "playing"
    await world.env.advance_time(2)
    lobby = next(m for m in world.channel.history() if m.id == table.messages.lobby)
    text = "\n".join(texts_of(lobby))
    assert t("lobby.goes_on", lang) in text
    for member in (world.ana, world.beto, world.caro, world.dani):
        assert f"<@{member.id}>" in text
    sides = t("lobby.sides", lang, a=f"<@{world.ana.id}>, <@{world.beto.id}>", b=f"<@{world.caro.id}>, <@{world.dani.id}>")
    assert sides in text, text
    assert custom_ids(lobby) == [], "no controls left on a started lobby"
    assert world.env.errors == []
