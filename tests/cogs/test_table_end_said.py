"""However a table ends (``/cuarenta end``, or the last person leaving) and at whatever moment (in the lobby,
mid hand, or right after a hand's end, when the hand's record is written and the next hand's table is not
posted yet), the channel's last message says that the table ended."""

from __future__ import annotations

import asyncio

import pytest

from tests.support.helpers import pick_play, play_through_ui, public_text, table_of


async def _inline(func, *args):
    return func(*args)


@pytest.fixture
def simcord_bot(make_bot):
    """The bot as in production (coalesced edits, write budget), computer moves inline."""
    return make_bot(edit_interval=1.0, write_budget=True, offload=_inline, virtual=True)


def last_text(world) -> str:
    return public_text(world.channel.last_message)


async def start_against_a_computer(world):
    await world.ana.slash(world.channel, "cuarenta new", players=2, rules="quito")
    await world.ana.select(world.channel.last_message, ["medio"], custom_id="c4:v:1")
    await world.env.advance_time(3)
    return table_of(world, 1)


def hold_next_table_post(world) -> asyncio.Event:
    """Hold the next hand's table post (as the write budget may for seconds): a returned event is set
    once the pump waits there, with the hand's record written."""
    writer = world.bot.notifier.table_message
    post = writer.post
    held = asyncio.Event()

    async def held_post(table, **kwargs):
        if table.messages.public is None and table.game is not None and table.game.hand_number > 1:
            held.set()
            await asyncio.sleep(60)  # the table is ended meanwhile: the pump is cancelled
        return await post(table, **kwargs)

    writer.post = held_post
    return held


async def play_until_a_hand_ended(world, table, held: asyncio.Event) -> None:
    for _ in range(200):
        if held.is_set():
            return
        seat, play = pick_play(table)
        assert not table.seats[seat].is_ai
        await play_through_ui(world.ana, table, play)
        await world.env.advance_time(3)
    raise AssertionError("no hand ended")


async def test_a_table_ended_in_the_lobby_says_so(world):
    await world.ana.slash(world.channel, "cuarenta new", players=2, rules="quito")
    await world.ana.slash(world.channel, "cuarenta end")
    await world.env.advance_time(6)
    assert "Mesa #1 se cerró" in last_text(world)
    assert world.env.errors == []


async def test_a_table_ended_mid_hand_says_so(world):
    table = await start_against_a_computer(world)
    _, play = pick_play(table)
    await play_through_ui(world.ana, table, play)
    await world.env.advance_time(3)
    await world.ana.slash(world.channel, "cuarenta end")
    await world.env.advance_time(6)
    assert "Mesa #1 se terminó" in last_text(world)
    assert world.env.errors == []


@pytest.mark.parametrize("how", ["end", "leave"])
async def test_a_table_ended_right_after_a_hands_end_says_so_below_the_record(world, how):
    """Used to fail with ``/cuarenta end``: the hand's record had replaced the table message and the next
    table was not posted yet, so there was no message to turn into the closing note and nothing was
    written; the channel's last message stayed the hand's record. (The last person leaving was already
    told by its note, which names the end; the closing note with the final score now follows it.)"""
    table = await start_against_a_computer(world)
    held = hold_next_table_post(world)
    await play_until_a_hand_ended(world, table, held)
    record = world.channel.last_message
    assert table.messages.public is None and "Mano 1" in public_text(record), "the hand's record is last"

    await world.ana.slash(world.channel, f"cuarenta {how}")
    await world.env.advance_time(6)

    assert table.status == "closed"
    assert world.channel.last_message.id != record.id
    assert "Mesa #1 se terminó antes de tiempo" in last_text(world), "the closing note, with the score"
    assert "Mano 1" in public_text(next(m for m in world.channel.history() if m.id == record.id)), "record kept"
    assert world.env.errors == []
