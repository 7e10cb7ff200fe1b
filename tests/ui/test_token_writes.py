"""A DM hand's writes go through the interaction token of the person's last click on it (edits,
turn alerts as follow-ups, deletions of the old hand), which Discord does not count against the bot's
global rate limit; the bot's own token is used only when no live token exists or the token path fails."""

from __future__ import annotations

import pytest

from tests.support.clocked import WriteLog, play_clocked
from tests.support.helpers import hand_messages, table_of


async def _inline(func, *args):
    return func(*args)


@pytest.fixture
def simcord_bot(make_bot):
    """The bot as in production (coalesced edits, write budget), computer moves inline."""
    return make_bot(edit_interval=1.0, write_budget=True, offload=_inline, virtual=True)


async def start_1v1(world):
    await world.ana.slash(world.channel, "cuarenta new", players=2, rules="quito")
    await world.beto.slash(world.channel, "cuarenta join")
    return {world.ana.id: world.ana, world.beto.id: world.beto}


def dm_writes(world, writes: WriteLog) -> list:
    dms = {world.ana.user.dm_channel.id, world.beto.user.dm_channel.id}
    return [w for w in writes.writes if w.channel in dms]


async def test_after_each_persons_first_click_their_hand_is_written_through_the_token(world, writes):
    members = await start_1v1(world)
    await play_clocked(world, 1, members, think=1.0, turns=20)
    dm = dm_writes(world, writes)
    token, bot = [w for w in dm if w.via_token], [w for w in dm if not w.via_token]
    assert len(token) >= 15, "the other person's hand follows every play through a token"
    # the bot's token wrote each hand only before that person's first click (the first hands)
    for member in members.values():
        channel = member.user.dm_channel.id
        first_token = min(w.at for w in token if w.channel == channel)
        assert all(w.at <= first_token for w in bot if w.channel == channel), "no bot-token DM write after it"
    # what is left for the bot's token: each person's welcome line, first hand and first alert (+ deletion)
    assert len(bot) <= 3 * len(members), [(w.method, w.channel) for w in bot]


async def test_a_slow_players_turn_alert_is_a_follow_up_through_the_token_and_the_old_hand_goes(world, writes):
    members = await start_1v1(world)
    # ana is slow: each of beto's turns comes 12 s after his last action, so each brings an alert
    await play_clocked(world, 1, members, think=1.0, slow={world.ana.id: 12.0}, turns=12)
    beto_dm = world.beto.user.dm_channel.id
    alerts = [w for w in writes.writes if w.channel == beto_dm and w.via_token and w.method == "POST"]
    deletes = [w for w in writes.writes if w.channel == beto_dm and w.via_token and w.method == "DELETE"]
    assert len(alerts) >= 4 and len(deletes) >= len(alerts) - 1, "a new message (notification) each turn"
    assert len(hand_messages(world.beto)) == 1, "the old hand was deleted each time: one hand in the DM"
    table = table_of(world, 1)
    assert table.messages.dms["1"]["message"] == hand_messages(world.beto)[-1].id, "the record follows it"


async def test_when_the_token_path_fails_the_bot_token_writes_the_hand_and_the_game_goes_on(world, writes):
    """Discord refuses every edit through an interaction token (404 Unknown Webhook, as for an expired
    token): the bot tries the token, then writes the hand with its own token, and the player in turn
    always has a hand with live buttons."""
    from tests.support.helpers import custom_ids

    world.env.inject_error("PATCH", "/webhooks/*", status=404, code=10015, message="Unknown Webhook", times=None)
    members = await start_1v1(world)
    table = await play_clocked(world, 1, members, think=1.0, turns=10)
    dm = dm_writes(world, writes)
    assert [w for w in dm if w.via_token and w.method == "PATCH"], "the token path was tried (and refused)"
    assert len([w for w in dm if not w.via_token and w.method == "PATCH"]) >= 6, "the bot's token took over"
    assert len(table.game.plays) >= 10
    seat = table.game.to_play
    member = members[table.seats[seat].user_id]
    ids = custom_ids(hand_messages(member)[-1])
    for card in table.game.hands[seat]:
        assert f"c4:p:{table.id}:{table.nonce}:{card.code}" in ids, "the hand in turn shows the current cards"


async def test_a_kept_token_lets_its_interaction_go_once_the_click_was_answered(world, writes):
    """A DM hand's token is kept for minutes; the click's interaction (its message, components and users,
    freed only by the garbage collector) is kept only until its own answer is seen done: at any moment at
    most the latest click of a table, whose hand has not been written since, still holds one."""
    from bot.ui import delivery

    members = await start_1v1(world)
    await play_clocked(world, 1, members, think=1.0, turns=12)
    tokens = list(world.env.bot.notifier.hands._tokens.values())
    assert len(tokens) == 2, "both people clicked: each has a token"
    assert all(isinstance(t.click, delivery.ClickToken) for t in tokens)
    assert sum(t.answering is not None for t in tokens) <= 1, "the token used since its click keeps no interaction"
