"""Competition messages that are always current, through the simulated Discord: a round's message shows
every result of its round however it was decided (played, at the deadline, a walkover, a double loss),
after a restart too and once the round has moved on; a decided round has no «Jugar» and no deadline; a
fixture shows who pressed «Jugar»; one standings (or bracket) message per competition is edited instead
of a standings post per result; a tournament's threads say «ronda»."""

from __future__ import annotations

import io

import pytest
from PIL import Image

from bot.competitions.bracket import elimination_layout
from bot.competitions.league_present import fixture_line
from bot.competitions.tournament_present import BRACKET_FILE, match_line
from bot.i18n import t
from tests.support.helpers import custom_ids

DAY = 86400


@pytest.fixture
def db_path(database_url):
    """These competitions tests run the bot on each backend (SQLite, PostgreSQL)."""
    return database_url


def latest_with(world, custom_id):
    return next(m for m in reversed(world.channel.history()) if custom_id in custom_ids(m))


def now_of(world, message):
    """The message as it is now in the channel."""
    return next(m for m in world.channel.history() if m.id == message.id)


def round_messages(world, title_key, name, rounds, lang="es"):
    """Round number → the channel's message of that round (by its title)."""
    titles = {t(title_key, lang, name=name, round=r, rounds=rounds): r for r in range(1, rounds + 1)}
    return {titles[m.embeds[0].title]: m for m in world.channel.history()
            if m.embeds and m.embeds[0].title in titles}


async def league_of_four(world, days=2):
    await world.eva.slash(world.channel, "cuarenta league create", name="Liga de Quito", rules="rapido", days=days)
    for member in (world.ana, world.beto, world.caro, world.dani):
        await member.slash(world.channel, "cuarenta league signup")
    await world.eva.slash(world.channel, "cuarenta league close")
    return world.bot.leagues.leagues[1]


def assert_round_decided(league, message, rnd):
    """Every fixture of round ``rnd`` shows its result; no «Jugar», no deadline."""
    shown = message.embeds[0].description
    for fixture in [f for f in league.fixtures if f.round == rnd]:
        assert fixture.resolved and fixture_line(league, fixture, "es") in shown, shown
    assert "c4:g:1:p" not in custom_ids(message), "a decided round has no «Jugar»"
    assert "<t:" not in shown, "a decided round shows no deadline"


async def test_a_deadline_walkover_shows_in_the_round_message_after_the_round_moved_on(world):
    """The issue's steps: rapido, 2 days a round, 4 players; one side presses «Jugar», its opponent never
    does; 2 days later the walkover (and the other fixture's double loss) show in round 1's message, which
    loses «Jugar» and its deadline, although round 2 has started."""
    league = await league_of_four(world)
    first = latest_with(world, "c4:g:1:p")
    fixture = next(f for f in league.fixtures if f.round == 1)
    shows = league.side(fixture.side_a)
    member = next(m for m in (world.ana, world.beto, world.caro, world.dani) if m.id == shows.user1)
    await member.click(first, custom_id="c4:g:1:p")
    await world.env.advance_time(2 * DAY + 5)
    await world.env.settle()
    assert fixture.status == "walkover" and league.current_round == 2
    assert_round_decided(league, now_of(world, first), 1)
    assert world.env.errors == []


async def test_results_after_a_restart_edit_the_round_and_standings_messages(world, make_bot):
    """The round message's id is stored: a result after a restart edits it."""
    await league_of_four(world, days=7)
    first = latest_with(world, "c4:g:1:p")
    await world.env.restart_bot(make_bot())
    await world.eva.slash(world.channel, "cuarenta league walkover", player=world.ana)
    await world.env.settle()
    league = world.bot.leagues.leagues[1]
    fixture = next(f for f in league.fixtures if f.status == "walkover")
    assert fixture_line(league, fixture, "es") in now_of(world, first).embeds[0].description
    assert world.env.errors == []


async def test_the_round_message_shows_who_pressed_play(world):
    """Everyone (the organizer too) sees in the round message which side is ready."""
    league = await league_of_four(world, days=7)
    first = latest_with(world, "c4:g:1:p")
    await world.ana.click(first, custom_id="c4:g:1:p")
    await world.env.settle()
    fixture = next(f for f in league.fixtures if f.round == 1 and world.ana.id in
                   (*league.side(f.side_a).users, *league.side(f.side_b).users))
    line = fixture_line(league, fixture, "es")
    assert "ana" in line.split("·")[-1], line
    assert line in now_of(world, first).embeds[0].description
    assert world.env.errors == []


async def test_one_standings_message_is_edited_instead_of_a_standings_post_per_result(world):
    league = await league_of_four(world, days=7)
    await world.eva.slash(world.channel, "cuarenta league walkover", player=world.ana)
    other = next(f for f in league.fixtures if f.round == 1 and not f.resolved)
    winner = next(m for m in (world.beto, world.caro, world.dani) if m.id == league.side(other.side_a).user1)
    await world.eva.slash(world.channel, "cuarenta league walkover", player=winner)
    await world.env.settle()
    heading = t("league.table_title", "es")
    with_standings = [m for m in world.channel.history()
                      if heading in (m.content or "") or (m.embeds and heading in (m.embeds[0].description or ""))]
    assert len(with_standings) == 1, "one standings message"
    rows = with_standings[0].embeds[0].description
    for side in league.sides:
        points = next(r.points for r in world.bot.leagues.standings(league) if r.side == side.side_no)
        row = next(line for line in rows.splitlines() if side.name in line)
        assert f"{points} pts" in row, row
    assert world.env.errors == []


async def test_a_finished_tournament_shows_no_deadline_and_no_play(world):
    """The final's walkover ends the tournament: its round message shows the result, no "<t:0:R>", no
    «Jugar»; the bracket message names the champion."""
    await world.eva.slash(world.channel, "cuarenta tournament create", name="Copa Quito", format="elimination",
                          rules="rapido")
    signup = latest_with(world, "c4:o:1:j")
    for member in (world.ana, world.beto):
        await member.click(signup, custom_id="c4:o:1:j")
    await world.eva.click(signup, custom_id="c4:o:1:c")
    final = latest_with(world, "c4:o:1:p")
    tour = world.bot.tournaments.tournaments[1]
    await world.eva.slash(world.channel, "cuarenta tournament walkover", player=world.ana)
    await world.env.settle()
    shown = now_of(world, final)
    assert "<t:" not in shown.embeds[0].description, shown.embeds[0].description
    assert "c4:o:1:p" not in custom_ids(shown)
    assert match_line(tour, tour.matches[0], "es") in shown.embeds[0].description
    bracket = [m for m in world.channel.history()
               if m.embeds and m.embeds[0].title == t("tournament.bracket_title", "es", name="Copa Quito")]
    assert len(bracket) == 1 and "ana" in bracket[0].embeds[0].description.splitlines()[0]
    # the bracket picture rides on the same message, edited with it: the final decided, the champion's bar
    assert [a.filename for a in bracket[0].attachments] == [BRACKET_FILE]
    assert bracket[0].embeds[0].image.url.endswith(BRACKET_FILE)
    picture = Image.open(io.BytesIO(await bracket[0].attachments[0].read()))
    layout = elimination_layout(tour, "es", world.bot.tournaments.champion(tour))
    assert picture.size == (layout.width, layout.height) and layout.champion == "ana"
    assert world.env.errors == []


async def test_a_tournament_round_message_is_edited_after_the_round_moved_on(world):
    """4 players: round 1 decided at the deadline (one walkover, one double loss is not possible in a
    bracket: both walkovers) edits round 1's message once round 2 has started."""
    await world.eva.slash(world.channel, "cuarenta tournament create", name="Copa Quito", format="elimination",
                          rules="rapido", days=1)
    signup = latest_with(world, "c4:o:1:j")
    members = (world.ana, world.beto, world.caro, world.dani)
    for member in members:
        await member.click(signup, custom_id="c4:o:1:j")
    await world.eva.click(signup, custom_id="c4:o:1:c")
    first = latest_with(world, "c4:o:1:p")
    tour = world.bot.tournaments.tournaments[1]
    for m in [m for m in tour.matches if m.round == 1]:
        await next(x for x in members if x.id == m.a_user).click(first, custom_id="c4:o:1:p")
    await world.env.advance_time(DAY + 5)
    await world.env.settle()
    assert tour.current_round == 2
    shown = now_of(world, first)
    for m in [m for m in tour.matches if m.round == 1]:
        assert m.status == "walkover" and match_line(tour, m, "es") in shown.embeds[0].description
    assert "c4:o:1:p" not in custom_ids(shown) and "<t:" not in shown.embeds[0].description
    assert world.env.errors == []


async def test_a_tournament_thread_says_ronda(world):
    await world.eva.slash(world.channel, "cuarenta tournament create", name="Copa Quito", format="elimination",
                          rules="rapido")
    signup = latest_with(world, "c4:o:1:j")
    for member in (world.ana, world.beto):
        await member.click(signup, custom_id="c4:o:1:j")
    await world.eva.click(signup, custom_id="c4:o:1:c")
    play = latest_with(world, "c4:o:1:p")
    await world.ana.click(play, custom_id="c4:o:1:p")
    opened = await world.beto.click(play, custom_id="c4:o:1:p")
    assert "Table #" in opened.response.content, opened.response.content
    tour = world.bot.tournaments.tournaments[1]
    table = world.bot.tables.tables[tour.matches[0].table_id]
    name = world.bot.get_channel(table.channel_id).name
    assert "ronda 1" in name and "fecha" not in name, name
    assert name == t("tournament.thread", "es", name="Copa Quito", round=1, a="ana", b="beto"), name
    assert world.env.errors == []


async def test_a_tournament_result_after_a_restart_edits_its_round_and_bracket_messages(world, make_bot):
    await world.eva.slash(world.channel, "cuarenta tournament create", name="Copa Quito", format="elimination",
                          rules="rapido")
    signup = latest_with(world, "c4:o:1:j")
    for member in (world.ana, world.beto, world.caro, world.dani):
        await member.click(signup, custom_id="c4:o:1:j")
    await world.eva.click(signup, custom_id="c4:o:1:c")
    first = latest_with(world, "c4:o:1:p")
    await world.env.restart_bot(make_bot())
    await world.eva.slash(world.channel, "cuarenta tournament walkover", player=world.ana)
    await world.env.settle()
    tour = world.bot.tournaments.tournaments[1]
    match = next(m for m in tour.matches if m.status == "walkover")
    line = match_line(tour, match, "es")
    assert line in now_of(world, first).embeds[0].description
    bracket = next(m for m in world.channel.history()
                   if m.embeds and m.embeds[0].title == t("tournament.bracket_title", "es", name="Copa Quito"))
    assert line in bracket.embeds[0].description
    assert world.env.errors == []


def standings_message(world):
    return next(m for m in world.channel.history()
                if m.embeds and m.embeds[0].title == t("league.standings_title", "es", name="Liga de Quito"))


async def test_the_standings_message_is_pinned_when_the_bot_may_pin(world):
    await league_of_four(world)
    await world.env.settle()
    assert standings_message(world).pinned


async def test_without_pin_permissions_the_standings_message_is_kept_unpinned_and_linked(world):
    """The bot never asks for Manage Messages: without a permission to pin, the standings message is not
    pinned, nothing fails, and the round message links it."""
    import discord
    from simcord.backend.models.channel import Overwrite, OverwriteType

    bits = discord.Permissions(manage_messages=True, pin_messages=True).value
    world.env.backend.set_overwrite(world.channel.id,
                                    Overwrite(world.bot.user.id, OverwriteType.MEMBER, deny=bits))
    await league_of_four(world)
    await world.env.settle()
    standings = standings_message(world)
    assert not standings.pinned
    assert f"/{standings.id}" in latest_with(world, "c4:g:1:p").embeds[0].description
    assert world.env.errors == []
