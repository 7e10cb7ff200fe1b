"""Whole competitions with the bot as in production (coalesced edits, Discord's write budget, the
presenter's waits in virtual time): a 4-player league (mesas played through the UI, an organizer's
walkover, a restart between rounds, a walkover and a double loss at a deadline) and a 4-player tournament
(a mesa, a deadline walkover, a restart, the final given). Every round message ends showing each fixture
decided, without «Jugar» and without a deadline; the standings (bracket) message shows the champion; and
every channel stays within 5 writes in any 5 s."""

from __future__ import annotations

import pytest

from bot.competitions.league_present import fixture_line
from bot.i18n import t
from tests.support.clocked import WriteLog, play_clocked
from tests.support.helpers import custom_ids

DAY = 86400


@pytest.fixture
def db_path(database_url):
    return database_url


async def _inline(func, *args):
    return func(*args)


def _production(make_bot):
    return make_bot(edit_interval=1.0, write_budget=True, offload=_inline, virtual=True)


@pytest.fixture
def simcord_bot(make_bot):
    """The bot as in production, computer players thinking inline, the presenter's waits in virtual time."""
    return _production(make_bot)


def latest_with(world, custom_id):
    return next(m for m in reversed(world.channel.history()) if custom_id in custom_ids(m))


async def click_play(world, member):
    result = await member.click(latest_with(world, "c4:g:1:p"), custom_id="c4:g:1:p")
    await world.env.advance_time(2)
    return result


async def play_fixture(world, league, fixture, members):
    a, b = league.side(fixture.side_a), league.side(fixture.side_b)
    await click_play(world, members[a.user1])
    opened = await click_play(world, members[b.user1])
    assert "Table #" in opened.response.content, opened.response.content
    await play_clocked(world, fixture.table_id, members)
    await world.env.advance_time(10)


@pytest.mark.slow
async def test_a_whole_league_keeps_its_messages_current_within_the_write_budget(world, writes: WriteLog, make_bot):
    members = {m.id: m for m in (world.ana, world.beto, world.caro, world.dani)}
    await world.eva.slash(world.channel, "cuarenta league create", name="Liga de Quito", rules="rapido", days=2)
    for member in members.values():
        await member.slash(world.channel, "cuarenta league signup")
    await world.eva.slash(world.channel, "cuarenta league close")
    await world.env.advance_time(10)
    league = world.bot.leagues.leagues[1]
    assert league.rounds == 3

    # round 1: one fixture played, the other given by the organizer
    played, given = [f for f in league.fixtures if f.round == 1]
    await play_fixture(world, league, played, members)
    await world.eva.slash(world.channel, "cuarenta league walkover", player=members[league.side(given.side_a).user1])
    await world.env.advance_time(10)
    assert league.current_round == 2

    # a restart between rounds
    await world.env.restart_bot(_production(make_bot))
    await world.env.advance_time(5)
    league = world.bot.leagues.leagues[1]

    # round 2: one side shows up, the other fixture nobody: a walkover and a double loss at the deadline
    lonely, nobody = [f for f in league.fixtures if f.round == 2]
    await click_play(world, members[league.side(lonely.side_b).user1])
    await world.env.advance_time(2 * DAY + 5)
    assert lonely.status == "walkover" and nobody.status == "double_loss" and league.current_round == 3

    # round 3: one played, one given
    played, given = [f for f in league.fixtures if f.round == 3]
    await play_fixture(world, league, played, members)
    await world.eva.slash(world.channel, "cuarenta league walkover", player=members[league.side(given.side_b).user1])
    await world.env.advance_time(30)
    assert league.status == "finished"

    titles = {t("league.round_title", "es", name="Liga de Quito", round=r, rounds=3): r for r in (1, 2, 3)}
    rounds = {titles[m.embeds[0].title]: m for m in world.channel.history() if m.embeds and m.embeds[0].title in titles}
    assert sorted(rounds) == [1, 2, 3], "one message per round"
    for rnd, message in rounds.items():
        shown = message.embeds[0].description
        for fixture in [f for f in league.fixtures if f.round == rnd]:
            assert fixture.resolved and fixture_line(league, fixture, "es") in shown, (rnd, shown)
        assert "c4:g:1:p" not in custom_ids(message), f"round {rnd} keeps no «Jugar»"
        assert "<t:" not in shown, f"round {rnd} shows no deadline"

    final = t("league.final_title", "es", name="Liga de Quito")
    standings = [m for m in world.channel.history() if m.embeds and m.embeds[0].title == final]
    champion = league.side(world.bot.leagues.standings(league)[0].side).name
    assert standings and all(champion in m.embeds[0].description for m in standings)

    worst = writes.densest(5.0)
    assert worst and max(worst.values()) <= 5, worst
    assert world.env.errors == []


async def test_a_round_message_edit_that_discord_refuses_is_tried_again(world):
    """Discord refuses the edit that shows a result (a 503): the round message is edited again a little
    later, and ends current."""
    from bot.competitions.live_messages import RETRY_AFTER

    await world.eva.slash(world.channel, "cuarenta league create", name="Liga de Quito", rules="rapido", days=7)
    for member in (world.ana, world.beto, world.caro, world.dani):
        await member.slash(world.channel, "cuarenta league signup")
    await world.eva.slash(world.channel, "cuarenta league close")
    await world.env.advance_time(10)
    league = world.bot.leagues.leagues[1]
    first = latest_with(world, "c4:g:1:p")
    world.env.inject_error("PATCH", f"/channels/{world.channel.id}/messages/{first.id}", status=503, code=0,
                           message="Service Unavailable", times=1)
    await world.eva.slash(world.channel, "cuarenta league walkover", player=world.ana)
    await world.env.advance_time(5)
    fixture = next(f for f in league.fixtures if f.status == "walkover")
    line = fixture_line(league, fixture, "es")
    stale = next(m for m in world.channel.history() if m.id == first.id)
    assert line not in stale.embeds[0].description, "the first edit was refused"
    await world.env.advance_time(RETRY_AFTER + 5)
    now = next(m for m in world.channel.history() if m.id == first.id)
    assert line in now.embeds[0].description


@pytest.mark.slow
async def test_a_whole_tournament_keeps_its_messages_current_within_the_write_budget(world, writes: WriteLog,
                                                                                      make_bot):
    """4 players, single elimination, a day a round: in round 1 one match is played and the other decided at
    the deadline (one side pressed «Jugar»); a restart between the rounds; the final given by the
    organizer. Both round messages end decided, without «Jugar» or deadline; the bracket names the champion."""
    from bot.competitions.tournament_present import match_line

    members = {m.id: m for m in (world.ana, world.beto, world.caro, world.dani)}
    await world.eva.slash(world.channel, "cuarenta tournament create", name="Copa Quito", format="elimination",
                          rules="rapido", days=1)
    signup = latest_with(world, "c4:o:1:j")
    for member in members.values():
        await member.click(signup, custom_id="c4:o:1:j")
    await world.eva.click(signup, custom_id="c4:o:1:c")
    await world.env.advance_time(10)
    tour = world.bot.tournaments.tournaments[1]
    played, lonely = [m for m in tour.matches if m.round == 1]
    for user in (played.a_user, played.b_user):
        await members[user].click(latest_with(world, "c4:o:1:p"), custom_id="c4:o:1:p")
        await world.env.advance_time(2)
    await play_clocked(world, played.table_id, members)
    await members[lonely.a_user].click(latest_with(world, "c4:o:1:p"), custom_id="c4:o:1:p")
    await world.env.advance_time(DAY + 10)
    assert played.status == "done" and lonely.status == "walkover" and tour.current_round == 2

    await world.env.restart_bot(_production(make_bot))
    await world.env.advance_time(5)
    tour = world.bot.tournaments.tournaments[1]
    final = next(m for m in tour.matches if m.round == 2)
    await world.eva.slash(world.channel, "cuarenta tournament walkover", player=members[final.a_user])
    await world.env.advance_time(30)
    assert tour.status == "finished"

    titles = {t("tournament.round_title", "es", name="Copa Quito", round=r, rounds=2): r for r in (1, 2)}
    rounds = {titles[m.embeds[0].title]: m for m in world.channel.history() if m.embeds and m.embeds[0].title in titles}
    assert sorted(rounds) == [1, 2], "one message per round"
    for rnd, message in rounds.items():
        shown = message.embeds[0].description
        for m in [m for m in tour.matches if m.round == rnd]:
            assert m.resolved and match_line(tour, m, "es") in shown, (rnd, shown)
        assert "c4:o:1:p" not in custom_ids(message) and "<t:" not in shown, (rnd, shown)
    bracket = [m for m in world.channel.history()
               if m.embeds and m.embeds[0].title == t("tournament.bracket_title", "es", name="Copa Quito")]
    champion = tour.name_of(world.bot.tournaments.champion(tour))
    assert len(bracket) == 1 and champion in bracket[0].embeds[0].description.splitlines()[0]
    worst = writes.densest(5.0)
    assert worst and max(worst.values()) <= 5, worst
    assert world.env.errors == []
