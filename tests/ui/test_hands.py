"""The DM hands (`bot.ui.notifier` hand presenter): written again after a failed send or edit, a capture
menu kept open across a table re-post, edited in place after a restart."""

from __future__ import annotations

import asyncio

import pytest

from bot.tables.choices import distinct_captures
from tests.support.clocked import hand_is_current
from tests.support.helpers import (
    custom_ids,
    hand_messages,
    latest_hand,
    member_for,
    member_of,
    pick_play,
    play_through_ui,
    production_bot,
    start_1v1,
    start_people,
)


@production_bot
async def test_a_dm_hand_that_failed_to_send_is_tried_again_before_the_turn_runs_out(world):
    """The player in turn's first hand posts get a 503 (discord.py does not retry it): the hand is tried
    again a few seconds later, so the player gets it long before the turn timer plays for them."""
    dm = world.beto.user.dm_channel
    world.env.inject_error("POST", f"/channels/{dm.id}/messages", status=503, code=0, message="Service Unavailable",
                           times=3)  # beto's welcome and his first two hand posts
    table = await start_1v1(world)
    assert table.seats[table.game.to_play].user_id == world.beto.id, "beto leads with this seed"
    await world.env.advance_time(20)  # well before the 2/3 reminder (60 s) and the timer (90 s)
    assert hand_messages(world.beto), "the hand arrived on a later try"
    hand = latest_hand(world.beto)
    assert any(c.startswith(f"c4:p:{table.id}:{table.nonce}:") for c in custom_ids(hand)), "and it is current"


async def test_a_dm_hand_edit_lost_to_a_network_error_is_tried_again(monkeypatch):
    """Not only Discord's 5xx: a write that never reached Discord (a dropped connection) is tried again."""
    import aiohttp

    from bot.ui import delivery

    from .test_shared_presenter import HandService, _notifier, _person_table

    shown: list[int] = []

    async def edit(client, channel_id: int, message_id: int, payload) -> None:
        if not shown:
            shown.append(-1)
            raise aiohttp.ClientConnectionError("connection reset")
        shown.append(table.nonce)

    monkeypatch.setattr(delivery, "edit_channel_message", edit)
    notifier = _notifier(HandService())
    table = _person_table()
    notifier.hands.refresh(table)
    for _ in range(20):  # the retry waits RETRY_AFTER[0] on the notifier's sleep (no wait here)
        await asyncio.sleep(0)
        await notifier.hands.settled()
    assert shown == [-1, 0], "the lost edit was made on the next try"


@pytest.mark.slow
@production_bot
async def test_a_table_repost_leaves_a_capture_menu_open_on_a_dm_hand(world):
    """``/cuarenta table`` (by a spectator) moves the table message: the DM hands' link to it changes, but
    a capture menu the player in turn has open stays open; it closes when the game moves on."""
    table = await start_1v1(world)
    found = None
    for _ in range(300):  # play on until the player in turn holds a card with several distinct captures
        seat = table.game.to_play
        member = member_of(world, table, seat)
        view = table.game.view(seat)
        found = next((c for c in table.game.hands[seat]
                      if len(distinct_captures((p for p in table.game.plays_for(c) if p.captures), view)) > 1), None)
        for _ in range(10):
            if hand_is_current(member, table):
                break
            await world.env.advance_time(0.5)
        await world.env.advance_time(1)
        if found:
            break
        _, play = pick_play(table)
        await play_through_ui(member, table, play)
    assert found, "a card with a capture menu came up"
    await member.user.click(latest_hand(member), custom_id=f"c4:p:{table.id}:{table.nonce}:{found.code}")
    menu = f"c4:c:{table.id}:{table.nonce}:{found.code}"
    assert menu in custom_ids(latest_hand(member)), "the capture menu is open on the DM hand"
    first = table.messages.public
    await world.eva.slash(world.channel, "cuarenta table")  # eva only watches
    await world.env.advance_time(3)
    assert table.messages.public != first, "the table message moved"
    assert menu in custom_ids(latest_hand(member)), "the open menu stays"


async def test_a_restart_edits_the_hand_in_turn_in_place(world, make_bot):
    table = await start_people(world)
    seat, play = pick_play(table)
    await play_through_ui(member_for(world, table, seat), table, play)
    member = member_for(world, table, table.game.to_play)
    before = latest_hand(member).id
    await world.env.restart_bot(make_bot())
    assert latest_hand(member).id == before, "not deleted and re-sent: an open capture menu would be lost"
