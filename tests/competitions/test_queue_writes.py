"""A burst of queue matches with the bot as in production (Discord's write budget, the presenter's waits
in virtual time): four people join the 2 v 2 queue and accept at once, then two 1 v 1 matches form and
start at once. The queue channel stays within 5 writes in any 5 s, and the queue message and every match
ping end showing the last state (the counts, the started matches). SQLite only (test_queue.py runs the
queue on each backend)."""

from __future__ import annotations

import pytest

from bot.competitions.present import match_payload, queue_payload
from tests.support.clocked import WriteLog
from tests.support.helpers import custom_ids


async def _inline(func, *args):
    return func(*args)


@pytest.fixture
def simcord_bot(make_bot):
    """The bot as in production, computer players thinking inline, the presenter's waits in virtual time."""
    return make_bot(edit_interval=1.0, write_budget=True, offload=_inline, virtual=True)


def pings(world):
    return [m for m in world.channel.history() if any(c.startswith("c4:m:") for c in custom_ids(m))]


async def accept_all(world, members):
    for ping in pings(world):
        mid = next(c for c in custom_ids(ping) if c.startswith("c4:m:")).split(":")[2]
        for member in members:
            if f"<@{member.id}>" in (ping.content or ""):
                await member.click(ping, custom_id=f"c4:m:{mid}:y")


@pytest.mark.slow
async def test_a_burst_of_queue_matches_stays_within_the_write_budget(world, writes: WriteLog):
    guild = world.guild
    others = [guild.add_member(world.env.create_user(name)) for name in ("fer", "gabi")]
    members = [world.ana, world.beto, world.caro, world.dani]
    await world.eva.slash(world.channel, "cuarenta queue")
    queue_message = next(m for m in world.channel.history() if f"c4:q:{guild.id}:a" in custom_ids(m))
    for member in members:  # four 2 v 2 joins in one instant
        await member.click(queue_message, custom_id=f"c4:q:{guild.id}:b")
    await world.env.advance_time(6)
    proposals = list(world.bot.queue.proposals.values())
    await accept_all(world, members)
    await world.env.advance_time(6)
    assert all(world.bot.tables.table_of_user(m.id) is not None for m in members), "the 2 v 2 match started"
    for member in [world.eva, *others]:  # and three 1 v 1 joins
        await member.click(queue_message, custom_id=f"c4:q:{guild.id}:a")
    await world.env.advance_time(6)
    proposals += list(world.bot.queue.proposals.values())
    await accept_all(world, [world.eva, *others])
    await world.env.advance_time(30)
    assert len(proposals) == 2 and sum(world.bot.tables.table_of_user(m.id) is not None
                                       for m in (world.eva, *others)) == 2, "the 1 v 1 match started"

    worst = writes.densest(5.0)
    assert worst.get(world.channel.id, 0) <= 5, worst
    queue = world.bot.queue
    lang = await world.bot.tables.public_language(guild.id)
    now = next(m for m in world.channel.history() if m.id == queue_message.id)
    want = queue_payload(guild.id, queue.counts(guild.id), lang)
    assert now.embeds[0].description == want.embed.description, "the queue message shows the last counts"
    shown = {m.id: m for m in world.channel.history()}
    for proposal in proposals:
        link = f"<#{proposal.channel_id}>" if proposal.channel_id else None
        assert proposal.status != "open" and proposal.channel_id is not None
        assert shown[proposal.message_id].content == match_payload(proposal, lang, link).content
        assert not custom_ids(shown[proposal.message_id]), "a started match's ping has no buttons"
    assert world.env.errors == []
