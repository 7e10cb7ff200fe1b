"""Matches the queue proposes (`bot.competitions.queue`) through SimCord: accepting, seating elsewhere,
double clicks, pings across a restart, members who leave, kicks at a refereed table. On SQLite only
(test_queue.py runs the queue on each backend)."""

from __future__ import annotations

from bot.i18n import t
from tests.support.helpers import custom_ids, message_text


async def open_queue(world):
    await world.eva.slash(world.channel, "cuarenta queue")
    return next(m for m in world.channel.history() if "c4:q:" in " ".join(custom_ids(m)))


def ping_of(world):
    return next(m for m in reversed(world.channel.history()) if any(c.startswith("c4:m:") for c in custom_ids(m)))


def match_id(message):
    return next(c for c in custom_ids(message) if c.startswith("c4:m:")).split(":")[2]


async def queue_match_started(world) -> None:
    """ana and beto join the 1 v 1 queue and both accept the match it proposes: its table opens."""
    queue_message = await open_queue(world)
    for member in (world.ana, world.beto):
        await member.click(queue_message, custom_id=f"c4:q:{world.guild.id}:a")
    mid = match_id(ping_of(world))
    for member in (world.ana, world.beto):
        await member.click(ping_of(world), custom_id=f"c4:m:{mid}:y")


async def test_a_match_whose_second_player_sat_down_elsewhere_leaves_the_first_in_the_queue_unseated(world):
    """G1: ana and beto are matched; ana accepts; beto, before accepting, opens a table in another channel,
    then accepts the ping. The match used to open a table for ana, fail to seat beto, leave ana seated
    alone there and out of the queue, and blame her. Now beto's acceptance is refused (he is seated),
    nothing changes, and ana keeps her place, unseated."""
    queue_message = await open_queue(world)
    await world.ana.click(queue_message, custom_id=f"c4:q:{world.guild.id}:a")
    await world.env.advance_time(1)
    await world.beto.click(queue_message, custom_id=f"c4:q:{world.guild.id}:a")
    ping = ping_of(world)
    mid = match_id(ping)
    await world.ana.click(ping, custom_id=f"c4:m:{mid}:y")
    other = world.guild.create_text_channel("otra")
    await world.beto.slash(other, "cuarenta new", players=2)
    assert world.bot.tables.table_of_user(world.beto.id) is not None
    refused = await world.beto.click(ping_of(world), custom_id=f"c4:m:{mid}:y")
    seated = world.bot.tables.table_of_user(world.beto.id)
    assert refused.ephemeral and refused.response.content == t("err.queue_seated", "en", table=seated.id)
    await world.env.settle()
    assert int(mid) in world.bot.queue.proposals, "the match is still open: beto may leave and accept"
    stray = world.bot.tables.table_of_user(world.ana.id)
    assert stray is None, f"ana is left seated at table {stray and stray.id} ({stray and stray.status})"
    assert world.ana.id in world.bot.queue.entries, "ana keeps her place in the queue"


async def test_a_double_click_on_the_last_accept_does_not_say_the_match_is_gone(world):
    """G9: beto double-clicks «Aceptar», the last acceptance: the first click opens the table; the second was
    told "That match is no longer open." although it had just started. Both are now answered with the
    started match (as a rematch's double «Acepto» is answered with the new table, `vote_rematch`)."""
    from tests.support.helpers import double_click

    queue_message = await open_queue(world)
    await world.ana.click(queue_message, custom_id=f"c4:q:{world.guild.id}:a")
    await world.beto.click(queue_message, custom_id=f"c4:q:{world.guild.id}:a")
    ping = ping_of(world)
    mid = match_id(ping)
    await world.ana.click(ping, custom_id=f"c4:m:{mid}:y")
    results = await double_click(world.env, world.beto, ping_of(world), f"c4:m:{mid}:y")
    texts = [r.response.content for r in results]
    table = world.bot.tables.table_of_user(world.beto.id)
    assert table is not None, "the match started"
    started = t("ok.match_started", "en", table=table.id, link=f"<#{table.channel_id}>")
    assert texts == [started, started], texts


async def test_a_match_ping_open_at_a_restart_does_not_keep_live_buttons(world, make_bot):
    """G8: a proposal open at a restart is dropped and its people are pinged again, but the old ping was
    never edited: two identical pings with live «Aceptar» / «Rechazar» (the same custom_id), and after the
    new match started the old one still asked them to accept, forever. Now the pings with buttons are kept
    in the store (migration 13): after a restart the dropped one says so, without buttons."""
    queue_message = await open_queue(world)
    await world.ana.click(queue_message, custom_id=f"c4:q:{world.guild.id}:a")
    await world.beto.click(queue_message, custom_id=f"c4:q:{world.guild.id}:a")
    old = ping_of(world)
    await world.env.restart_bot(make_bot())
    await world.env.settle()
    new = ping_of(world)
    assert new.id != old.id, "a new ping after the restart"
    mid = match_id(new)
    for member in (world.ana, world.beto):
        await member.click(ping_of(world), custom_id=f"c4:m:{mid}:y")
    assert world.bot.tables.table_of_user(world.ana.id) is not None, "the new match started"
    old_now = next(m for m in world.channel.history() if m.id == old.id)
    assert not custom_ids(old_now), f"the pre-restart ping still offers {custom_ids(old_now)}: {old_now.content!r}"
    assert old_now.content == t("match.dropped", "es")
    assert match_id(old) != mid, "a new ping's buttons never name the dropped proposal"
    await world.env.settle()
    assert await world.bot.queue.repo.pings() == [], "no ping with buttons is left to clean up"


async def test_a_ping_whose_last_edit_failed_shows_how_its_match_ended_after_a_restart(world, make_bot):
    """A match started, but Discord refused the edit that shows it on the ping (a 503): the ping still
    offered «Aceptar», and after a restart it said the restart had dropped the match, which had started.
    The words of that edit are now kept with the ping (migration 14), and a restart shows them, without
    buttons."""
    queue_message = await open_queue(world)
    await world.ana.click(queue_message, custom_id=f"c4:q:{world.guild.id}:a")
    await world.beto.click(queue_message, custom_id=f"c4:q:{world.guild.id}:a")
    ping = ping_of(world)
    mid = match_id(ping)
    await world.ana.click(ping, custom_id=f"c4:m:{mid}:y")
    world.env.inject_error("PATCH", f"/channels/{world.channel.id}/messages/{ping.id}", status=503, code=0,
                           message="Service Unavailable", times=1)
    await world.beto.click(ping_of(world), custom_id=f"c4:m:{mid}:y")
    await world.env.settle()
    table = world.bot.tables.table_of_user(world.ana.id)
    assert table is not None, "the match started"
    stale = next(m for m in world.channel.history() if m.id == ping.id)
    assert custom_ids(stale), "the edit failed: the ping still shows its buttons"

    await world.env.restart_bot(make_bot())
    await world.env.settle()
    now = next(m for m in world.channel.history() if m.id == ping.id)
    assert not custom_ids(now), now.content
    started = t("match.started", "es", mode=t("queue.mode.1v1", "es"), table=table.id, link=f"<#{table.channel_id}>")
    assert now.content.startswith(started), now.content
    assert "✅ ana · ✅ beto" in now.content
    assert await world.bot.queue.repo.pings() == []
    assert world.env.errors == []


async def test_a_queue_match_dm_hand_names_its_server_and_thread(world):
    """G7: tables opened by the queue (and by leagues and tournaments) were created without the server's and
    the channel's names, so every DM hand of a competition table was headed "Table #1 · ? · #?": the player
    could not tell where the table is. The presenters now give the thread's place (`Place`)."""
    from tests.support.helpers import latest_hand

    await queue_match_started(world)
    await world.env.advance_time(3)
    header = message_text(latest_hand(world.ana)).splitlines()[0]
    assert "· ? ·" not in header and "#?" not in header, header
    assert world.guild.name in header, header


async def test_a_member_who_left_the_server_is_not_matched_from_the_queue(world, make_bot):
    """G10: with the members intent on (so the bot hears GUILD_MEMBER_REMOVE, and a seat at a table is freed:
    `member_gone`), ana waits in the queue and then leaves the server. Her queue entry used to stay, and
    beto, joining next, was matched with someone no longer in the server. She now leaves the queue."""
    await world.env.restart_bot(make_bot(members_intent=True))
    queue_message = await open_queue(world)
    await world.ana.click(queue_message, custom_id=f"c4:q:{world.guild.id}:a")
    world.guild.remove_member(world.ana)
    await world.env.settle()
    await world.beto.click(queue_message, custom_id=f"c4:q:{world.guild.id}:a")
    assert world.ana.id not in world.bot.queue.entries, "ana left the server but still waits in its queue"
    assert not world.bot.queue.proposals, "beto was matched with ana, who is gone"


async def test_a_queue_match_host_cannot_kick_the_opponent_but_a_manager_can(world):
    """G4 at a queue match's table (refereed too): the player who happens to host it cannot remove the
    other side; a member who can manage the server still can, as at any table."""
    await queue_match_started(world)
    table = world.bot.tables.table_of_user(world.ana.id)
    assert table is not None and table.refereed == "queue" and table.status == "playing"
    host = world.ana if table.host_id == world.ana.id else world.beto
    opponent = world.beto if host is world.ana else world.ana
    thread = next(c for c in world.channel.threads if c.id == table.channel_id)
    refused = await host.slash(thread, "cuarenta kick", player=opponent)
    assert refused.ephemeral and refused.response.content == t("err.kick_refereed", "en")
    assert table.seat_of(opponent.id) is not None and not table.seats[table.seat_of(opponent.id)].away
    await world.bot.tables.kick(table.id, user_id=world.eva.id, target_id=opponent.id, can_manage=True)
    assert table.seats[1 - table.seat_of(host.id)].user_id is None, "a computer plays the seat now"


async def test_a_match_whose_accepted_player_sat_down_elsewhere_is_cancelled_for_them_only(world):
    """G1, the other order: ana accepts, then opens a table in another channel; beto's acceptance, the last
    one, cannot open the match. It is cancelled naming ana, who leaves the queue (seated people never wait
    in it); beto keeps his place and is seated nowhere."""
    queue_message = await open_queue(world)
    for member in (world.ana, world.beto):
        await member.click(queue_message, custom_id=f"c4:q:{world.guild.id}:a")
    mid = match_id(ping_of(world))
    await world.ana.click(ping_of(world), custom_id=f"c4:m:{mid}:y")
    other = world.guild.create_text_channel("otra")
    await world.ana.slash(other, "cuarenta new", players=2)
    lobby = world.bot.tables.table_of_user(world.ana.id)
    ping_id = ping_of(world).id
    answered = await world.beto.click(ping_of(world), custom_id=f"c4:m:{mid}:y")
    assert answered.response.content == t("match.cancelled_seated", "en", mode="1 v 1", names="ana")
    await world.env.settle()
    assert world.bot.tables.table_of_user(world.beto.id) is None
    assert world.bot.tables.table_of_user(world.ana.id) is lobby, "ana is only at the table she opened"
    assert world.ana.id not in world.bot.queue.entries and world.beto.id in world.bot.queue.entries
    ping = next(m for m in world.channel.history() if m.id == ping_id)
    assert not custom_ids(ping), ping.content
    assert ping.content.split("\n") == [t("match.cancelled_seated", "es", mode="1 v 1", names="ana"),
                                       "❌ ana · ✅ beto"], "ana sat down elsewhere; beto is not blamed"


async def test_a_match_whose_table_cannot_seat_everyone_ends_it_and_does_not_ping_again_at_once(world, monkeypatch):
    """Review of G1: when the match's table opened but a seat could not be taken (here the join fails), the
    table is ended, so nobody is left seated at it; everyone keeps their place in the queue; and the same
    people are not pinged again at once (a lasting fault would loop ping → accept → fail)."""
    from bot.tables import TableError

    queue_message = await open_queue(world)
    for member in (world.ana, world.beto):
        await member.click(queue_message, custom_id=f"c4:q:{world.guild.id}:a")
    mid = match_id(ping_of(world))
    await world.ana.click(ping_of(world), custom_id=f"c4:m:{mid}:y")

    async def failing_join(*args, **kwargs):
        raise TableError("err.generic")

    monkeypatch.setattr(world.bot.tables, "join", failing_join)
    pings_before = sum(1 for m in world.channel.history() if "c4:m:" in " ".join(custom_ids(m)))
    await world.beto.click(ping_of(world), custom_id=f"c4:m:{mid}:y")
    await world.env.settle()
    stray = [t_ for t_ in world.bot.tables.tables.values() if t_.options.queue_match == int(mid)]
    assert stray and all(not t_.is_open for t_ in stray), "the table that could not seat everyone is ended"
    assert world.bot.tables.table_of_user(world.ana.id) is None
    assert {world.ana.id, world.beto.id} <= set(world.bot.queue.entries), "both keep their place"
    assert not world.bot.queue.proposals, "not pinged again at once"
    assert sum(1 for m in world.channel.history() if "c4:m:" in " ".join(custom_ids(m))) == pings_before - 1
