"""The live leaderboard, through the simulated Discord: an admin pins it with ``/cuarenta leaderboard
pinned:True`` (a non-admin is refused in their own language); the bot edits it after rated chicas, at most
once every `INTERVAL` seconds of the bot's clock over hours of play, and goes on after a restart; it stops
with ``pinned:False``, when its message is deleted, or when a newer one replaces it; another server's live
leaderboard is never touched."""

from __future__ import annotations

import asyncio
import itertools

import discord
import pytest

from bot.i18n import t
from bot.ratings import ChicaResult
from bot.ratings.live import INTERVAL
from bot.ratings.live_repo import LiveBoard
from tests.support.helpers import production_bot

HOUR = 3600
_tables = itertools.count(1000)


@pytest.fixture
def db_path(database_url):
    """These tests run the bot on each backend (SQLite, PostgreSQL)."""
    return database_url


def now_of(channel, message_id):
    """The channel's message with that id as it is now (None once deleted)."""
    return next((m for m in channel.history() if m.id == message_id), None)


async def rate(world, winner, loser, guild=None, mode_teams=None):
    """Record one rated 1v1 chica through the bot's ratings (the path a finished chica takes)."""
    guild_id = (guild or world.guild).id
    teams = mode_teams or ((winner.id,), (loser.id,))
    # in the bot's scope, as the table service records a chica: the timer it arms runs on the bot's clock
    with world.env._bot_scope():
        done = await world.bot.tables.ratings.record_chica(
            ChicaResult(guild_id, next(_tables), 1, teams, 0, scores=(40, 12)))
    assert done.rated


async def pin(world, member=None, channel=None, **options):
    return await (member or world.eva).slash(channel or world.channel, "cuarenta leaderboard", pinned=True,
                                             mode="1v1", **options)


def shows(message, member):
    """Whether the board message lists the member (by name, or as a mention when the bot knows no name)."""
    text = message.embeds[0].description
    return member.name in text or f"<@{member.id}>" in text


def edits_of(writes, message_id):
    return [w for w in writes.writes if w.method == "PATCH" and w.message == message_id]


async def stored(world):
    return await world.bot.live_boards.repo.all()


async def test_an_admin_pins_a_live_leaderboard_in_the_channel(world):
    await rate(world, world.ana, world.beto)
    answer = await pin(world)
    assert answer.ephemeral and answer.response.content == t("board.live_posted", "en", mode="1v1")
    posted = world.channel.last_message
    assert posted.author.id == world.bot.user.id
    assert posted.content == t("board.live_note", "es"), "public text in the server's language"
    assert shows(posted, world.ana)
    assert not posted.components, "the live message has no page buttons"
    assert await stored(world) == [LiveBoard(world.guild.id, "1v1", world.channel.id, posted.id)]


async def test_a_member_without_manage_server_is_refused_in_their_language(world, locales):
    locales[world.ana.id] = "es-ES"
    before = len(world.channel.history())
    answer = await pin(world, world.ana)
    assert answer.ephemeral and answer.response.content == t("err.need_manage_guild", "es")
    assert len(world.channel.history()) == before, "nothing posted"
    assert await stored(world) == []
    removal = await world.ana.slash(world.channel, "cuarenta leaderboard", pinned=False)
    assert removal.ephemeral and removal.response.content == t("err.need_manage_guild", "es")


@production_bot
async def test_rated_chicas_edit_it_at_most_once_per_interval_over_hours(world, writes):
    await pin(world)
    message_id = world.channel.last_message.id
    posted_at = world.env.now().timestamp()
    step = 40
    for _ in range(3 * HOUR // step):  # a rated chica every 40 s for three hours
        await rate(world, world.ana, world.beto)
        await world.env.advance_time(step)
    await world.env.advance_time(INTERVAL + 10)
    edits = edits_of(writes, message_id)
    times = [posted_at] + [e.at for e in edits]
    gaps = [b - a for a, b in itertools.pairwise(times)]
    assert gaps and min(gaps) >= INTERVAL - 1, f"edits closer than the interval: {gaps}"
    assert len(edits) >= 3 * HOUR // INTERVAL - 2, f"the board kept up with the ratings: {len(edits)} edits"
    board = await world.bot.tables.ratings.leaderboard(world.guild.id, "1v1")
    shown = now_of(world.channel, message_id)
    assert f"{board.rows[0].rating}" in shown.embeds[0].description, "the last edit shows the last rating"
    assert world.env.errors == []


async def test_no_rated_chica_no_edit(world, writes):
    await pin(world)
    message_id = world.channel.last_message.id
    await world.env.advance_time(2 * HOUR)
    assert edits_of(writes, message_id) == []


async def test_it_is_edited_after_a_restart(world, make_bot, writes):
    await pin(world)
    message_id = world.channel.last_message.id
    await world.env.restart_bot(make_bot())
    await rate(world, world.caro, world.dani)
    await world.env.advance_time(INTERVAL + 10)
    assert len(edits_of(writes, message_id)) == 1
    assert shows(now_of(world.channel, message_id), world.caro)


async def test_pinned_false_removes_it(world, writes):
    await pin(world)
    message_id = world.channel.last_message.id
    answer = await world.eva.slash(world.channel, "cuarenta leaderboard", pinned=False)
    assert answer.ephemeral and answer.response.content == t("board.live_removed", "en", modes="1v1")
    assert now_of(world.channel, message_id).content == t("board.live_ended", "es")
    assert await stored(world) == []
    mark = len(edits_of(writes, message_id))
    await rate(world, world.ana, world.beto)
    await world.env.advance_time(2 * INTERVAL)
    assert len(edits_of(writes, message_id)) == mark, "no edit once removed"
    again = await world.eva.slash(world.channel, "cuarenta leaderboard", pinned=False)
    assert again.response.content == t("board.live_none", "en")


async def test_deleting_its_message_drops_it(world, writes, make_bot):
    await pin(world)
    message_id = world.channel.last_message.id
    world.env.backend.delete_message(world.channel.id, message_id)
    await rate(world, world.ana, world.beto)
    await world.env.advance_time(INTERVAL + 10)
    assert len(edits_of(writes, message_id)) == 1, "one edit met Unknown Message"
    assert await stored(world) == [], "the board is dropped"
    await rate(world, world.ana, world.beto)
    await world.env.advance_time(2 * INTERVAL)
    assert len(edits_of(writes, message_id)) == 1, "and never tried again"
    await world.env.restart_bot(make_bot())
    assert world.bot.live_boards.board(world.guild.id, "1v1") is None


async def test_an_edit_refused_for_a_while_is_tried_again_later(world, writes):
    await pin(world)
    message_id = world.channel.last_message.id
    world.env.inject_error("PATCH", f"/channels/{world.channel.id}/messages/{message_id}", status=429, code=30046,
                           message="Maximum number of edits to messages older than 1 hour reached.")
    await rate(world, world.ana, world.beto)
    await world.env.advance_time(INTERVAL + 10)
    await world.env.advance_time(INTERVAL + 10)
    assert shows(now_of(world.channel, message_id), world.ana), "edited on a later try"
    assert len(await stored(world)) == 1


async def test_a_new_pin_replaces_the_older_one(world):
    await pin(world)
    first = world.channel.last_message.id
    other = world.guild.create_text_channel("ranking")
    await pin(world, channel=other)
    second = other.last_message.id
    assert now_of(world.channel, first).content == t("board.live_ended", "es")
    assert await stored(world) == [LiveBoard(world.guild.id, "1v1", other.id, second)]


async def test_another_servers_live_leaderboard_is_untouched(world, writes):
    env = world.env
    guild = env.create_guild("Guayaquil")
    channel = guild.create_text_channel("cuarenta")
    admins = guild.create_role("Admins", permissions=discord.Permissions(manage_guild=True))
    zoe = guild.add_member(env.create_user("zoe"), roles=[admins])
    await pin(world)
    ours = world.channel.last_message.id
    await zoe.slash(channel, "cuarenta leaderboard", pinned=True, mode="1v1")
    theirs = channel.last_message.id
    await rate(world, world.ana, world.beto)
    await env.advance_time(INTERVAL + 10)
    assert len(edits_of(writes, ours)) == 1
    assert edits_of(writes, theirs) == []
    assert not shows(now_of(channel, theirs), world.ana)
    await world.eva.slash(world.channel, "cuarenta leaderboard", pinned=False)
    assert world.bot.live_boards.board(guild.id, "1v1") is not None, "removing ours leaves theirs"


@pytest.mark.slow
async def test_a_played_mesa_edits_it(world, writes):
    from tests.support.helpers import play_to_end

    await pin(world)
    message_id = world.channel.last_message.id
    await world.ana.slash(world.channel, "cuarenta new", players=2, rules="rapido")
    await world.beto.slash(world.channel, "cuarenta join")
    table = world.bot.tables.table_in_channel(world.channel.id)
    await play_to_end(world, table.id, {world.ana.id: world.ana, world.beto.id: world.beto})
    await world.env.advance_time(INTERVAL + 10)
    assert edits_of(writes, message_id)
    assert shows(now_of(world.channel, message_id), world.ana)


async def test_a_new_season_edits_it(world, writes):
    await rate(world, world.ana, world.beto)
    await pin(world)
    message_id = world.channel.last_message.id
    assert shows(now_of(world.channel, message_id), world.ana)
    await world.eva.slash(world.channel, "cuarenta season start", name="Invierno")
    await world.env.advance_time(INTERVAL + 10)
    assert len(edits_of(writes, message_id)) == 1
    assert not shows(now_of(world.channel, message_id), world.ana), "the new season starts empty"


@production_bot
async def test_its_writes_stay_within_the_channel_budget(world, writes):
    for _ in range(4):  # each pin after the first is a post and the older one's retirement
        await pin(world)
        await world.eva.slash(world.channel, "cuarenta leaderboard", pinned=True, mode="2v2")
    await rate(world, world.ana, world.beto)
    await rate(world, world.ana, world.beto, mode_teams=((world.ana.id, world.caro.id), (world.beto.id, world.dani.id)))
    await world.env.advance_time(2 * INTERVAL)
    assert len(writes.by_channel()[world.channel.id]) == 8 + 6 + 2
    assert writes.densest(5.0)[world.channel.id] <= 5
    assert len(await stored(world)) == 2


async def test_an_unknown_channel_drops_it(world, writes):
    await pin(world)
    message_id = world.channel.last_message.id
    world.env.inject_error("PATCH", f"/channels/{world.channel.id}/messages/{message_id}", status=404, code=10003,
                           message="Unknown Channel")
    await rate(world, world.ana, world.beto)
    await world.env.advance_time(INTERVAL + 10)
    assert await stored(world) == []
    assert world.bot.live_boards.board(world.guild.id, "1v1") is None


async def test_an_edit_under_way_when_it_is_removed_does_not_land(world, monkeypatch):
    from bot.ui.live_board import DiscordBoardWriter

    render = DiscordBoardWriter.payload

    async def slow_payload(self, guild_id, mode):
        await asyncio.sleep(60)  # the bot's clock: the edit is under way while the admin removes the board
        return await render(self, guild_id, mode)

    await pin(world)
    message_id = world.channel.last_message.id
    monkeypatch.setattr(DiscordBoardWriter, "payload", slow_payload)
    await rate(world, world.ana, world.beto)
    await world.env.advance_time(INTERVAL + 10)
    monkeypatch.setattr(DiscordBoardWriter, "payload", render)
    await world.eva.slash(world.channel, "cuarenta leaderboard", pinned=False)
    await world.env.advance_time(120)
    assert now_of(world.channel, message_id).content == t("board.live_ended", "es")
