"""Faults found by a fresh-eyes QA session (stop 27), each a regression test: interactions left unanswered
when the store is slow, a capture menu closed by a re-post, a DM hand that failed to send and was never
retried, an older click token kept over a newer one, and a refusal that named the wrong reason."""

from __future__ import annotations

import asyncio

import pytest

from bot.tables.choices import distinct_captures

from .clocked import hand_is_current
from .helpers import custom_ids, hand_messages, latest_hand, pick_play, play_through_ui, table_of


async def _inline(func, *args):
    return func(*args)


@pytest.fixture
def simcord_bot(make_bot):
    """The bot as in production (coalesced edits, write budget), computer moves inline."""
    return make_bot(edit_interval=1.0, write_budget=True, offload=_inline)


async def start_1v1(world):
    await world.ana.slash(world.channel, "cuarenta new", players=2, rules="quito")
    await world.beto.slash(world.channel, "cuarenta join")
    return table_of(world, 1)


def member_of(world, table, seat):
    return world.ana if table.seats[seat].user_id == world.ana.id else world.beto


async def test_a_ratings_command_on_a_slow_store_is_acknowledged_in_time_and_answered(world, monkeypatch):
    cog = next(c for c in world.bot.cogs.values() if hasattr(c, "ratings"))
    real = cog.ratings.stats

    async def slow(*args, **kwargs):  # a busy database: 3.5 s
        await asyncio.sleep(3.5)
        return await real(*args, **kwargs)

    monkeypatch.setattr(cog.ratings, "stats", slow)
    result = await world.ana.slash(world.channel, "cuarenta stats")
    await world.env.advance_time(5)
    assert result.acknowledged, "acknowledged before Discord's 3 s"
    assert result.response.embeds or result.followups, "and the stats followed"


async def test_the_first_command_in_a_server_with_a_slow_language_read_is_acknowledged_in_time(world, monkeypatch):
    """The server's language is read from the store the first time a process answers there: that read is
    under the 3-second guard."""
    guild = world.env.create_guild("Cuenca Club")  # a server the bot has not answered in yet
    channel = guild.create_text_channel("mesa")
    fer = guild.add_member(world.env.create_user("fer"))
    await world.bot.tree.sync()
    real = world.bot.store.guild_language

    async def slow(guild_id):  # a busy database: 3.5 s
        await asyncio.sleep(3.5)
        return await real(guild_id)

    monkeypatch.setattr(world.bot.store, "guild_language", slow)
    result = await fer.slash(channel, "cuarenta new", players=2)
    await world.env.advance_time(5)
    assert result.acknowledged
    assert world.bot.tables.table_in_channel(channel.id) is not None, "the lobby opened"


async def test_a_failing_language_read_still_plays_and_answers_the_click(world, monkeypatch, caplog):
    """A store that fails when the server's language is read (not cached in this process) costs the
    language only: the click plays and is answered, and one warning says why."""
    table = await start_1v1(world)
    seat, play = pick_play(table)
    member = member_of(world, table, seat)
    world.bot.tables._languages.clear()

    async def broken(guild_id):
        raise OSError("the database went away")

    monkeypatch.setattr(world.bot.store, "guild_language", broken)
    before = table.nonce
    await play_through_ui(member, table, play)
    await world.env.advance_time(1)
    assert table.nonce == before + 1, "the play was made"
    assert any("language could not be read" in r.getMessage() for r in caplog.records)
