"""The referee of competition tables (`bot.competitions.referee`): fixtures and matches whose table ended
without a result decided at the deadline, and no kick or «Revancha» that would change a refereed result."""

from __future__ import annotations

import pytest

from bot.i18n import t
from bot.tables import WrongStateError
from tests.support.helpers import custom_ids, latest_with

DAY = 86400


async def two_player_league(world, **options):
    await world.eva.slash(world.channel, "cuarenta league create", name="Liga", rules="rapido", days=1, **options)
    for member in (world.ana, world.beto):
        await member.slash(world.channel, "cuarenta league signup")
    await world.eva.slash(world.channel, "cuarenta league close")
    return world.bot.leagues.leagues[1]


async def league_fixture_in_play(world, before_the_deadline: float | None = None):
    """`two_player_league`, whose one fixture both players open with «Jugar» (``before_the_deadline``
    seconds before the round's deadline, if given): the league, the fixture and its table."""
    league = await two_player_league(world)
    fixture = league.fixtures[0]
    if before_the_deadline is not None:
        await world.env.advance_time(league.round_deadline - world.bot.tables.clock.now() - before_the_deadline)
    for member in (world.ana, world.beto):
        await member.click(latest_with(world, "c4:g:1:p"), custom_id="c4:g:1:p")
    return league, fixture, world.bot.tables.tables[fixture.table_id]


async def two_player_tournament_match(world, **options):
    """A one-round elimination tournament of ana and beto (``rapido``, a day a round) whose match both
    players have opened with «Jugar»: the tournament and the match."""
    await world.eva.slash(world.channel, "cuarenta tournament create", name="Copa", format="elimination",
                          rules="rapido", days=1, **options)
    for member in (world.ana, world.beto):
        await member.slash(world.channel, "cuarenta tournament signup")
    await world.eva.slash(world.channel, "cuarenta tournament close")
    tour = world.bot.tournaments.tournaments[1]
    for member in (world.ana, world.beto):
        await member.click(latest_with(world, "c4:o:1:p"), custom_id="c4:o:1:p")
    return tour, tour.matches[0]


async def test_a_league_fixture_whose_table_was_ended_is_decided_at_the_deadline(world):
    """G2: both sides press «Jugar», the table is ended (no result), nobody presses again: at the round's
    deadline the fixture must be decided by the policy like any unplayed one; it used to stay "playing"
    with no table, and the league never ended. The table's host may not end it (a player losing the mesa
    could), only a member who can manage the server."""
    league, fixture, table = await league_fixture_in_play(world)
    host = world.ana if table.host_id == world.ana.id else world.beto
    thread = next(c for c in world.channel.threads if c.id == table.channel_id)
    refused = await host.slash(thread, "cuarenta end")
    assert refused.ephemeral and refused.response.content == t("err.end_refereed", "en")
    assert table.is_open, "the host's /cuarenta end changed nothing"
    await world.bot.tables.end(table.id, user_id=world.eva.id, can_manage=True)  # a moderator
    await world.env.advance_time(3 * DAY)
    assert fixture.resolved, f"fixture still {fixture.status!r} two days after the deadline"
    assert league.status == "finished"


async def test_a_league_fixture_whose_players_all_timed_out_is_decided_at_the_deadline(world):
    """G2: both press «Jugar» and then nobody plays: the turn timers make both away and the table ends by
    itself. The round's deadline decides the fixture (it used not to)."""
    league, fixture, table = await league_fixture_in_play(world)
    await world.env.advance_time(3 * DAY)
    assert not table.is_open, "the abandoned table ended by itself"
    assert fixture.resolved, f"fixture still {fixture.status!r} two days after the deadline"
    assert league.status == "finished"


async def test_a_tournament_match_whose_table_was_abandoned_is_decided_at_the_deadline(world):
    """G3, the same in a tournament: a match whose table ended without a winner (both players timed out and
    went away) was never decided at the deadline, so the tournament never ended. It is decided now."""
    tour, match = await two_player_tournament_match(world)
    table = world.bot.tables.tables[match.table_id]
    await world.env.advance_time(3 * DAY)
    assert not table.is_open, "the abandoned table ended by itself"
    assert match.resolved, f"match still {match.status!r} two days after the deadline"
    assert tour.status == "finished"


async def test_a_league_player_cannot_kick_their_opponent_and_win_against_a_computer(world):
    """G4: at a league fixture's table the first side's player is the table's host. Hosting is a lobby
    convenience there, but it lets them `/cuarenta kick` their opponent mid-mesa: a computer takes the
    opponent's seat for good and the mesa, once finished, is recorded as the fixture's result. A player of a
    refereed match must not be able to remove the other side."""
    league, fixture, table = await league_fixture_in_play(world)
    host = world.ana if table.host_id == world.ana.id else world.beto
    opponent = world.beto if host is world.ana else world.ana
    thread = next(c for c in world.channel.threads if c.id == table.channel_id)
    result = await host.slash(thread, "cuarenta kick", player=opponent)
    assert table.seat_of(opponent.id) is not None, f"the opponent was kicked: {result.response.content!r}"
    assert result.ephemeral and result.response.content == t("err.kick_refereed", "en")
    assert not table.seats[table.seat_of(opponent.id)].away and table.status == "playing"


@pytest.mark.slow
async def test_a_tournament_table_offers_no_rematch_whose_mesa_would_not_count(world):
    """G5: after mesa 1 of a best-of-3 tournament match, the finished table in the match's thread offered
    «Revancha»; the mesa it dealt was played in full and never counted (the match stayed 1–0). A
    competition's table (`Table.refereed`) now has no «Revancha»: the tournament deals the next mesa from
    «Jugar», and a click on an old «Revancha» is refused, dealing nothing."""
    from tests.support.helpers import play_to_end

    tour, match = await two_player_tournament_match(world, best_of=3)
    members = {world.ana.id: world.ana, world.beto.id: world.beto}
    table = await play_to_end(world, match.table_id, members)
    await world.env.settle()
    assert table.refereed == "tournament" and match.wins_a + match.wins_b == 1
    thread = next(c for c in world.channel.threads if c.id == table.channel_id)
    final = next(m for m in thread.history() if m.id == table.messages.public)
    assert f"c4:r:{table.id}" not in custom_ids(final), "no «Revancha» at a competition's table"
    with pytest.raises(WrongStateError) as refused:  # a button from before this change
        await world.bot.tables.ask_rematch(table.id, user_id=world.ana.id)
    assert refused.value.key == "err.rematch_refereed"
    await world.env.settle()
    assert world.bot.tables.table_of_user(world.ana.id) is None, "nothing was dealt"


async def test_a_fixture_whose_table_ends_without_a_result_after_the_deadline_is_decided_then(world):
    """Review of G2: a fixture still in play at the round's deadline is left to its table; when that table
    later ends without a result, the round is looked at again (`RECHECK_AFTER`) and the fixture decided,
    so the league does not stay running for ever."""
    from bot.competitions.referee import RECHECK_AFTER

    league, fixture, table = await league_fixture_in_play(world, before_the_deadline=5)
    await world.env.advance_time(30)
    assert table.is_open and fixture.status == "playing", "in play at the deadline: left to its table"
    await world.bot.tables.end(table.id, user_id=world.eva.id, can_manage=True)
    await world.env.advance_time(RECHECK_AFTER + 1)
    assert fixture.resolved and league.status == "finished"
