"""A computer move that waits out its pause (``ai_delay``) while the person whose seat it plays comes back,
on SimCord's virtual clock: the move is never computed for a seat that is no longer to play."""

from __future__ import annotations

import logging

from tests.support.helpers import pick_play, play_through_ui, table_of

DELAY = 20.0
"""Longer than SimCord's settle window (5 s of virtual time): a click or a command does not run the pause out."""


def member_for(world, table, seat):
    user_id = table.seats[seat].user_id
    return next(m for m in (world.ana, world.beto) if m.id == user_id)


async def away_seat_about_to_be_played(world, make_bot):
    """A 1 v 1 (ana, beto; 30 s turns) on a bot whose computer players pause `DELAY` seconds, where one
    person's turn ran out twice in a row (they are away), the other played, and the computer's move for
    the away seat is now waiting out its pause. Returns ``(table, away seat)``."""
    await world.env.restart_bot(make_bot(ai_delay=DELAY))
    await world.ana.slash(world.channel, "cuarenta new", players=2, turn_timer=30)
    await world.beto.slash(world.channel, "cuarenta join")
    table = table_of(world, 1)
    afk = table.game.to_play
    other = 1 - afk
    for _ in range(2):
        await world.env.advance_time(30)  # the turn runs out: the computer plays it at once
        assert table.game.to_play == other
        seat, play = pick_play(table)
        await play_through_ui(member_for(world, table, seat), table, play)  # no settle: it would run the pause out
        if table.seats[afk].away:
            break
    assert table.seats[afk].away, "two expiries in a row: the seat is away"
    assert table.game.to_play == afk and table.timers.deadline is None, "the computer's move is pending"
    return table, afk


def tracebacks(caplog):
    return [r for r in caplog.records if r.name.startswith(("bot", "cogs")) and (r.exc_info or r.levelno >= logging.ERROR)]


async def test_a_person_back_and_playing_during_the_computers_pause_logs_no_error(world, make_bot, caplog):
    """Used to fail: after its pause the computer read the view of the seat it had started for, which the
    person had meanwhile taken back and played, and choosing its move raised ``ValueError: not this
    seat's turn`` (logged as "background work failed")."""
    table, afk = await away_seat_about_to_be_played(world, make_bot)
    member = member_for(world, table, afk)
    nonce = table.nonce
    back = await member.slash(world.channel, "cuarenta back")
    assert back.ephemeral and not table.seats[afk].away
    _, play = pick_play(table)
    await play_through_ui(member, table, play)
    assert table.nonce == nonce + 1 and table.game.plays[nonce] == play, "the person played their own turn"

    await world.env.advance_time(DELAY + 1)
    await world.env.settle()

    assert tracebacks(caplog) == []
    assert table.nonce == nonce + 1, "no computer move for a seat whose person is there"
    assert table.game.to_play == 1 - afk and not table.seats[1 - afk].autoplays, "the other person's turn stands"
    assert world.env.errors == []


async def test_a_person_back_during_the_computers_pause_keeps_their_turn(world, make_bot, caplog):
    """The person takes the seat back during the pause but does not play yet: their turn stands, with its
    timer, and the computer plays nothing for them. (A guard beside the test above: the old code computed
    a move here too, but its check under the lock dropped it, so this one passed before the fix.)"""
    table, afk = await away_seat_about_to_be_played(world, make_bot)
    member = member_for(world, table, afk)
    nonce = table.nonce
    await member.slash(world.channel, "cuarenta back")

    await world.env.advance_time(DELAY + 1)
    await world.env.settle()

    assert tracebacks(caplog) == []
    assert table.nonce == nonce and table.game.to_play == afk, "the person's turn stands"
    assert not table.seats[afk].away and table.timers.deadline is not None, "their turn timer runs"
    _, play = pick_play(table)
    await play_through_ui(member, table, play)
    assert table.nonce == nonce + 1
    assert world.env.errors == []
