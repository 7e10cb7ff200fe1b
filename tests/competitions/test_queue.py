"""The matchmaking queue: join, get matched, accept within 60 s, play at a table the bot opens in
a thread of the queue channel. 2 v 2 teams balanced by rating, a no-show, an expiry with its 20-minute
"still there?", a double join refused, and entries that survive a restart."""

from __future__ import annotations

from itertools import permutations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.competitions import balanced_teams
from bot.i18n import t
from bot.ratings import ChicaResult
from tests.support.helpers import custom_ids


@pytest.fixture
def db_path(database_url):
    """These competitions tests run the bot on each backend (SQLite, PostgreSQL)."""
    return database_url


async def open_queue(world):
    result = await world.eva.slash(world.channel, "cuarenta queue")
    assert result.ephemeral and result.response.content == t("ok.queue_channel_set", "en")
    queue_message = next(m for m in world.channel.history() if "c4:q:" in " ".join(custom_ids(m)))
    return queue_message


def ping_of(world):
    """The latest match ping in the queue channel (public text is in the server's language, Spanish)."""
    return next(m for m in reversed(world.channel.history()) if "partida" in (m.content or "").lower()
                and "<@" in (m.content or ""))


def match_id(message):
    return next(c for c in custom_ids(message) if c.startswith("c4:m:")).split(":")[2]


async def test_only_someone_with_manage_server_opens_the_queue_and_find_needs_it(world):
    refused = await world.ana.slash(world.channel, "cuarenta queue")
    assert refused.ephemeral and refused.response.content == t("err.need_manage_guild", "en")
    early = await world.ana.slash(world.channel, "cuarenta find")
    assert early.response.content == t("err.queue_no_channel", "en")
    await open_queue(world)
    assert world.env.errors == []


async def test_a_1v1_match_found_accepted_and_played_in_a_thread(world):
    queue_message = await open_queue(world)
    first = await world.ana.click(queue_message, custom_id=f"c4:q:{world.guild.id}:a")
    assert first.ephemeral and "1 v 1 queue (1 waiting)" in first.response.content
    assert "Esperando · 1 v 1: **1**" in world.channel.history()[0].embeds[0].description, "the count is shown"
    await world.beto.slash(world.channel, "cuarenta find", mode="1v1")

    ping = ping_of(world)
    assert f"<@{world.ana.id}>" in ping.content and f"<@{world.beto.id}>" in ping.content
    mid = match_id(ping)
    one = await world.ana.click(ping, custom_id=f"c4:m:{mid}:y")
    assert one.response.content == t("ok.match_accepted", "en")
    two = await world.beto.click(ping_of(world), custom_id=f"c4:m:{mid}:y")
    assert "Table #1" in two.response.content

    table = world.bot.tables.tables[1]
    assert table.status == "playing" and table.channel_id != world.channel.id, "in a thread of the queue channel"
    assert {s.user_id for s in table.seats} == {world.ana.id, world.beto.id}
    assert world.bot.queue.entries == {}, "both left the queue"
    assert world.bot.queue.proposals == {} and world.bot.queue.presenter._locks == {}, "a started match is let go"
    again = await world.ana.slash(world.channel, "cuarenta find")
    assert again.response.content == t("err.queue_seated", "en", table=1), "never in a queue while seated"
    assert world.env.errors == []


async def test_a_double_join_is_refused_and_leaving_is_one_click(world):
    queue_message = await open_queue(world)
    await world.ana.slash(world.channel, "cuarenta find", mode="2v2")
    again = await world.ana.click(queue_message, custom_id=f"c4:q:{world.guild.id}:a")
    assert again.ephemeral and again.response.content == t("err.queue_already", "en", mode="2 v 2")
    assert world.bot.queue.entries[world.ana.id].mode == "2v2", "the first queue is kept"
    left = await world.ana.click(queue_message, custom_id=f"c4:q:{world.guild.id}:x")
    assert left.response.content == t("ok.queue_left", "en", mode="2 v 2")
    assert world.bot.queue.entries == {}
    twice = await world.ana.click(queue_message, custom_id=f"c4:q:{world.guild.id}:x")
    assert twice.response.content == t("err.queue_not_in", "en")


async def test_a_no_show_leaves_the_queue_and_the_others_keep_their_place(world):
    queue_message = await open_queue(world)
    for member in (world.ana, world.beto):
        await world.env.advance_time(5)
        await member.click(queue_message, custom_id=f"c4:q:{world.guild.id}:a")
    ping = ping_of(world)
    mid = match_id(ping)
    await world.ana.click(ping, custom_id=f"c4:m:{mid}:y")
    await world.env.advance_time(61)

    assert world.bot.queue.entries.keys() == {world.ana.id}, "beto did not answer: out; ana stays"
    assert world.bot.queue.proposals == {} and world.bot.queue.presenter._locks == {}, "a cancelled one too"
    ana_place = world.bot.queue.entries[world.ana.id].joined_at
    cancelled = next(m for m in world.channel.history() if m.id == ping.id)
    assert "cancelada: beto no aceptó" in cancelled.content and not custom_ids(cancelled)
    assert any("didn't accept" in (m.content or "") for m in world.beto.user.dm_channel.history())
    late = await world.beto.click(queue_message, custom_id=f"c4:q:{world.guild.id}:a")
    assert "1 v 1 queue" in late.response.content or "match" in late.response.content
    assert world.bot.queue.entries[world.ana.id].joined_at == ana_place, "ana kept her place"
    old = await world.beto.click(cancelled, custom_id=f"c4:m:{mid}:y") if custom_ids(cancelled) else None
    assert old is None
    assert world.env.errors == []


async def test_2v2_teams_are_balanced_by_rating(world):
    guild = world.guild
    strong, weak = world.ana, world.beto
    for i in range(6):  # ana beats caro, beto loses to dani: ana strong, beto weak
        await world.bot.tables.ratings.record_chica(ChicaResult(
            guild_id=guild.id, table_id=900 + i, chica_number=1, teams=((strong.id, world.caro.id),
                                                                         (weak.id, world.dani.id)),
            winner=0, scores=(40, 10)))
    queue_message = await open_queue(world)
    for member in (world.ana, world.caro, world.beto, world.dani):
        await member.click(queue_message, custom_id=f"c4:q:{guild.id}:b")
    ping = ping_of(world)
    mid = match_id(ping)
    for member in (world.ana, world.caro, world.beto, world.dani):
        await member.click(ping_of(world), custom_id=f"c4:m:{mid}:y")
    table = world.bot.tables.tables[1]
    assert table.status == "playing"
    teams = [{s.user_id for i, s in enumerate(table.seats) if i % 2 == team} for team in (0, 1)]
    ratings = await world.bot.queue.repo.ratings(guild.id, "2v2", [m.id for m in (world.ana, world.beto,
                                                                                  world.caro, world.dani)])
    assert ratings[strong.id] > ratings[weak.id]
    want = balanced_teams([world.ana.id, world.caro.id, world.beto.id, world.dani.id], ratings)
    assert {frozenset(x) for x in teams} == {frozenset(want[0]), frozenset(want[1])}
    assert any(strong.id in team and weak.id in team for team in teams), "the strong and the weak together"
    assert world.env.errors == []


async def test_an_entry_is_asked_at_20_minutes_and_expires_at_30(world):
    queue_message = await open_queue(world)
    await world.ana.click(queue_message, custom_id=f"c4:q:{world.guild.id}:b")
    await world.env.advance_time(20 * 60 + 1)
    dm = world.ana.user.dm_channel.history()[-1]
    assert "Still looking for a 2 v 2 match?" in dm.content
    assert f"c4:q:{world.guild.id}:s" in custom_ids(dm)
    await world.env.advance_time(10 * 60)
    assert world.bot.queue.entries == {}, "expired at 30 minutes"
    assert "30 minutes went by" in world.ana.user.dm_channel.history()[-1].content
    assert "2 v 2: **0**" in world.channel.history()[0].embeds[0].description


async def test_still_here_renews_the_30_minutes(world):
    queue_message = await open_queue(world)
    await world.ana.click(queue_message, custom_id=f"c4:q:{world.guild.id}:b")
    await world.env.advance_time(20 * 60 + 1)
    dm = world.ana.user.dm_channel.history()[-1]
    kept = await world.ana.user.click(dm, custom_id=f"c4:q:{world.guild.id}:s")
    assert kept.response.content == t("ok.queue_still", "en")
    await world.env.advance_time(15 * 60)
    assert world.ana.id in world.bot.queue.entries, "30 minutes again from the click"


async def test_queue_entries_survive_a_restart_and_are_matched_after_it(world, make_bot):
    queue_message = await open_queue(world)
    await world.ana.click(queue_message, custom_id=f"c4:q:{world.guild.id}:a")
    await world.env.restart_bot(make_bot())
    assert world.ana.id in world.bot.queue.entries, "the entry was stored"
    await world.beto.click(queue_message, custom_id=f"c4:q:{world.guild.id}:a")
    ping = ping_of(world)
    assert f"<@{world.ana.id}>" in ping.content, "matched with the entry from before the restart"
    await world.env.advance_time(30 * 60 + 5)
    assert world.env.errors == []


@given(st.lists(st.integers(1000, 2200), min_size=4, max_size=4))
def test_property_the_chosen_split_is_the_most_balanced(values):
    players = [11, 12, 13, 14]
    rating = dict(zip(players, values, strict=True))
    a, b = balanced_teams(players, rating)
    gap = abs(sum(rating[p] for p in a) - sum(rating[p] for p in b))
    for p in permutations(players):
        assert gap <= abs(rating[p[0]] + rating[p[1]] - rating[p[2]] - rating[p[3]])
    assert players[0] in a and sorted(a + b) == players


async def test_a_queue_channel_without_thread_permission_is_refused_by_name(world):
    import discord

    closed = world.guild.create_text_channel(
        "sin-hilos", overwrites={world.guild.me: discord.PermissionOverwrite(create_public_threads=False)})
    result = await world.eva.slash(closed, "cuarenta queue")
    assert result.ephemeral and "Create Public Threads" in result.response.content
    league = await world.eva.slash(closed, "cuarenta league create", name="Liga")
    assert "Create Public Threads" in league.response.content


async def test_a_match_whose_table_cannot_open_says_so_and_keeps_everyone_queued(world):
    queue_message = await open_queue(world)
    world.env.inject_error("POST", f"/channels/{world.channel.id}/threads", status=403, code=50013, times=None)
    for member in (world.ana, world.beto):
        await member.click(queue_message, custom_id=f"c4:q:{world.guild.id}:a")
    ping = ping_of(world)
    mid = match_id(ping)
    await world.ana.click(ping, custom_id=f"c4:m:{mid}:y")
    await world.beto.click(ping_of(world), custom_id=f"c4:m:{mid}:y")
    shown = next(m for m in world.channel.history() if m.id == ping.id)
    assert shown.content.startswith(t("match.failed", "es", mode="1 v 1"))
    assert world.bot.queue.entries.keys() == {world.ana.id, world.beto.id}
    assert world.bot.tables.table_of_user(world.ana.id) is None
