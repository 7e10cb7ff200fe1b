"""Rematch with consent: «Revancha» opens a ready check; a new mesa is dealt only when every
person accepts within a minute; a decline or the timeout cancels it."""

from __future__ import annotations

import asyncio

import pytest

from bot.tables import FINISHED, WrongStateError
from tests.support.helpers import (
    custom_ids,
    double_click,
    message_text,
    play_to_end,
    public_message,
    table_of,
)


async def finished_1v1(world):
    await world.ana.slash(world.channel, "cuarenta new", players=2)
    await world.beto.slash(world.channel, "cuarenta join")
    table = await play_to_end(world, 1, {world.ana.id: world.ana, world.beto.id: world.beto})
    await world.env.settle()
    return table, next(m for m in world.channel.history() if m.id == table.messages.public)


def check_message(world):
    return next(m for m in reversed(world.channel.history()) if "revancha" in (m.content or "").lower())


async def accept_deals_the_new_mesa(world, ready):
    """beto's «Acepto» on the check ``ready`` deals table #2 with the same seats; the check's message then
    says so, without buttons."""
    accepted = await world.beto.click(ready, custom_id="c4:k:1:y")
    assert "Table #2" in accepted.response.content
    new = table_of(world, 2)
    assert new.status == "playing" and [s.user_id for s in new.seats] == [world.ana.id, world.beto.id]
    await world.env.advance_time(2)
    done = next(m for m in world.channel.history() if m.id == ready.id)
    assert "Mesa #2" in done.content and not custom_ids(done), "the check says it was dealt, without buttons"


@pytest.mark.slow
async def test_rematch_waits_until_everyone_accepts(world):
    table, final = await finished_1v1(world)
    asked = await world.ana.click(final, custom_id="c4:r:1")
    assert asked.ephemeral and "60" in asked.response.content
    await world.env.advance_time(2)
    assert [t for t in world.bot.tables.tables.values() if t.is_open] == [], "nothing is dealt yet"
    ready = check_message(world)
    assert "beto" in ready.content and custom_ids(ready) == ["c4:k:1:y", "c4:k:1:n"]
    stranger = await world.caro.click(ready, custom_id="c4:k:1:y")
    assert stranger.ephemeral and stranger.response.content == "You are not playing at this table."
    await accept_deals_the_new_mesa(world, ready)
    assert world.env.errors == []


@pytest.mark.slow
async def test_a_declined_rematch_deals_nothing_and_says_who(world):
    table, final = await finished_1v1(world)
    await world.ana.click(final, custom_id="c4:r:1")
    await world.env.advance_time(1)
    ready = check_message(world)
    declined = await world.beto.click(ready, custom_id="c4:k:1:n")
    assert declined.ephemeral
    await world.env.advance_time(1)
    done = next(m for m in world.channel.history() if m.id == ready.id)
    assert "beto no quiere la revancha" in done.content and not custom_ids(done)
    assert [t for t in world.bot.tables.tables.values() if t.is_open] == []
    with pytest.raises(WrongStateError):  # a vote that arrives after the decline changes nothing
        await world.bot.tables.vote_rematch(1, user_id=world.ana.id, accept=True)


@pytest.mark.slow
async def test_an_unanswered_rematch_expires_after_a_minute(world):
    table, final = await finished_1v1(world)
    await world.ana.click(final, custom_id="c4:r:1")
    await world.env.advance_time(59)
    assert [t for t in world.bot.tables.tables.values() if t.is_open] == []
    assert custom_ids(check_message(world)), "still open at 59 s"
    await world.env.advance_time(3)
    done = check_message(world)
    assert "No hay revancha" in done.content and "beto" in done.content and not custom_ids(done)
    assert [t for t in world.bot.tables.tables.values() if t.is_open] == []


@pytest.mark.slow
async def test_an_open_rematch_survives_a_restart_and_the_last_accept_deals_the_new_mesa(world, make_bot):
    """QA: an open ready check lived in memory only, so after a restart beto's «Acepto» was refused and the
    check's message kept live-looking buttons forever. Now the check is kept in the store: after the
    restart the same buttons work."""
    table, final = await finished_1v1(world)
    await world.ana.click(final, custom_id="c4:r:1")
    await world.env.advance_time(2)
    ready = check_message(world)
    assert custom_ids(ready) == ["c4:k:1:y", "c4:k:1:n"]

    await world.env.restart_bot(make_bot())
    await accept_deals_the_new_mesa(world, ready)
    assert await world.bot.tables.store.load_rematch_checks() == {}, "an ended check is not kept"
    assert world.env.errors == []


@pytest.mark.slow
async def test_an_open_rematch_expires_on_time_after_a_restart_and_its_message_loses_its_buttons(world, make_bot):
    """QA: after a restart the check's message showed «Acepto» / «No» forever. Now its expiry is armed
    again at the restart, and at the minute the message says nobody answered, without buttons."""
    table, final = await finished_1v1(world)
    await world.ana.click(final, custom_id="c4:r:1")
    await world.env.advance_time(30)
    ready = check_message(world)
    await world.env.restart_bot(make_bot())
    await world.env.advance_time(25)
    assert custom_ids(next(m for m in world.channel.history() if m.id == ready.id)), "still open at 55 s"
    await world.env.advance_time(10)
    done = next(m for m in world.channel.history() if m.id == ready.id)
    assert "No hay revancha" in done.content and "beto" in done.content and not custom_ids(done)
    assert [t for t in world.bot.tables.tables.values() if t.is_open] == []
    assert await world.bot.tables.store.load_rematch_checks() == {}
    assert world.env.errors == []



@pytest.mark.slow
async def test_two_rematch_changes_before_its_message_exists_post_one_message(world):
    """Both players ask for the rematch while the presenter is still busy with the table (held here by
    its notify lock), so both changes reach it before the check's message exists. They run in order, and
    the second edits the message the first posted: one message, which says the new mesa was dealt."""

    table, final = await finished_1v1(world)
    service = world.bot.tables
    async with service.tables[1].notify_lock:  # the presenter's calls wait here, as behind a slow post
        await asyncio.gather(service.ask_rematch(1, user_id=world.ana.id),
                             service.ask_rematch(1, user_id=world.beto.id))
        assert not [m for m in world.channel.history() if "revancha" in (m.content or "").lower()]
    await world.env.advance_time(3)
    checks = [m for m in world.channel.history() if "revancha" in (m.content or "").lower()]
    assert len(checks) == 1, [m.content for m in checks]
    assert "Mesa #2" in checks[0].content and not custom_ids(checks[0])
    assert table_of(world, 2).status == "playing"
    assert world.env.errors == []


def mesa_announcements(world):
    """The records of mesas' last hands (they name the winner and carry «Revancha»)."""
    return [m for m in world.channel.history() if "gana la mesa" in message_text(m) or "wins the mesa" in message_text(m)]


async def test_double_click_on_rematch_opens_one_table_and_names_it(world):
    await world.ana.slash(world.channel, "cuarenta new", players=2)
    await world.ana.select(world.channel.last_message, ["medio"], custom_id="c4:v:1")
    await play_to_end(world, 1, {world.ana.id: world.ana})
    announcement = mesa_announcements(world)[-1]
    first, second = await double_click(world.env, world.ana, announcement, "c4:r:1")
    texts = [first.response.content, second.response.content]
    assert len([tb for tb in world.bot.tables.tables.values() if tb.is_open]) == 1
    assert not any("went wrong" in x for x in texts), texts
    assert not any("#?" in x for x in texts), texts
    assert all("#2" in x for x in texts), texts
    assert world.env.errors == []


@pytest.mark.slow
async def test_rematch_refusal_names_the_busy_player(world):
    """Ana and Beto finish a 1v1; Beto sits at a table in another channel; Ana asks for a rematch."""
    other = world.guild.create_text_channel("otra")
    await world.ana.slash(world.channel, "cuarenta new", players=2)
    await world.beto.slash(world.channel, "cuarenta join")
    table = table_of(world, 1)
    await play_to_end(world, 1, {world.ana.id: world.ana, world.beto.id: world.beto})
    assert table.status == FINISHED
    await world.beto.slash(other, "cuarenta new", players=2)
    announcement = mesa_announcements(world)[-1]
    result = await world.ana.click(announcement, custom_id="c4:r:1")
    text = result.response.content
    assert result.ephemeral
    assert not text.startswith("You are already seated"), text
    assert "beto" in text.lower() and "#2" in text, text


@pytest.mark.slow
async def test_a_double_click_on_accept_answers_both_clicks_with_the_new_mesa(world):
    await world.ana.slash(world.channel, "cuarenta new", players=2)
    await world.beto.slash(world.channel, "cuarenta join")
    table = await play_to_end(world, 1, {world.ana.id: world.ana, world.beto.id: world.beto})
    await world.env.settle()
    await world.ana.click(public_message(world, table), custom_id="c4:r:1")
    await world.env.advance_time(2)
    ready = next(m for m in reversed(world.channel.history()) if "revancha" in (m.content or "").lower())
    first, second = await double_click(world.env, world.beto, ready, "c4:k:1:y")
    assert table_of(world, 2).status == "playing"
    texts = [r.response.content for r in (first, second)]
    # today the second says "That rematch is no longer open. Press Rematch to ask again."
    assert all("#2" in x for x in texts), texts
