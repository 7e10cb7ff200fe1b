"""Tournaments: an 8-player single elimination seeded by rating with its pairings checked round
by round and a real mesa in it, and a 5-player Swiss of 3 rounds with a bye each round."""

from __future__ import annotations

import pytest

from bot.i18n import tn
from bot.ratings import ChicaResult
from tests.support.helpers import custom_ids, play_to_end


@pytest.fixture
def db_path(database_url):
    """These competitions tests run the bot on each backend (SQLite, PostgreSQL)."""
    return database_url


def latest_with(world, custom_id):
    return next(m for m in reversed(world.channel.history()) if custom_id in custom_ids(m))


def pairs(tour, rnd):
    return [(m.a_user, m.b_user) for m in sorted(tour.matches, key=lambda m: m.slot) if m.round == rnd]


async def eight_players(world):
    extra = [world.guild.add_member(world.env.create_user(n)) for n in ("fer", "gabi", "hugo")]
    await world.bot.tree.sync()
    return [world.ana, world.beto, world.caro, world.dani, world.eva, *extra]


@pytest.mark.slow
async def test_an_8_player_single_elimination_seeded_by_rating(world):
    players = await eight_players(world)
    a, hugo = players[0], players[7]
    for i in range(3):  # hugo beats ana three times: hugo is seeded first, ana last
        await world.bot.tables.ratings.record_chica(ChicaResult(
            guild_id=world.guild.id, table_id=700 + i, chica_number=1, teams=((hugo.id,), (a.id,)), winner=0,
            scores=(20, 4)))
    created = await world.eva.slash(world.channel, "cuarenta tournament create", name="Copa Quito",
                                    format="elimination", rules="rapido")
    assert "You created tournament #1" in created.response.content
    signup = latest_with(world, "c4:o:1:j")
    for member in players:
        result = await member.click(signup, custom_id="c4:o:1:j")
        assert result.response.content.startswith("You are signed up")
    closed = await world.eva.click(signup, custom_id="c4:o:1:c")
    assert closed.response.content == tn("ok.tournament_drawn", 3, "en", tournament=1, rounds=3)
    tour = world.bot.tournaments.tournaments[1]
    seed = {p.user_id: p.seed for p in tour.players}
    assert seed[hugo.id] == 1 and seed[a.id] == 8, "seeded by the server's rating"
    by_seed = {s: u for u, s in seed.items()}
    assert pairs(tour, 1) == [(by_seed[1], by_seed[8]), (by_seed[4], by_seed[5]), (by_seed[2], by_seed[7]),
                              (by_seed[3], by_seed[6])], "1 v 8, 4 v 5, 2 v 7, 3 v 6"

    # the top match is played for real: both press «Jugar», a whole rapido mesa through clicks
    members = {m.id: m for m in players}
    play = latest_with(world, "c4:o:1:p")
    waiting = await members[by_seed[1]].click(play, custom_id="c4:o:1:p")
    assert "ready" in waiting.response.content
    opened = await members[by_seed[8]].click(play, custom_id="c4:o:1:p")
    assert "Let's play! Table #" in opened.response.content
    first = next(m for m in tour.matches if m.round == 1 and m.slot == 0)
    table = await play_to_end(world, first.table_id, members)
    await world.env.settle()
    winner0 = table.seats[table.game.winner].user_id
    assert first.status == "done" and first.winner == winner0 and (first.wins_a, first.wins_b) in ((1, 0), (0, 1))
    for slot in (1, 2, 3):  # the others: walkovers for the higher seed, by the organizer
        m = next(m for m in tour.matches if m.round == 1 and m.slot == slot)
        await world.eva.slash(world.channel, "cuarenta tournament walkover", player=members[m.a_user])
    assert tour.current_round == 2
    assert pairs(tour, 2) == [(winner0, by_seed[4]), (by_seed[2], by_seed[3])], "winners of slots 2k and 2k+1 meet"
    for m in [m for m in tour.matches if m.round == 2]:
        await world.eva.slash(world.channel, "cuarenta tournament walkover", player=members[m.a_user])
    assert pairs(tour, 3) == [(winner0, by_seed[2])], "the final"
    await world.eva.slash(world.channel, "cuarenta tournament walkover", player=members[by_seed[2]])
    assert tour.status == "finished" and world.bot.tournaments.champion(tour) == by_seed[2]
    final = next(m for m in reversed(world.channel.history()) if m.embeds and "🏆" in (m.embeds[0].description or ""))
    assert members[by_seed[2]].name in final.embeds[0].description
    assert world.env.errors == []


async def test_a_5_player_swiss_of_3_rounds_with_a_bye_each_round(world):
    players = [world.ana, world.beto, world.caro, world.dani, world.eva]
    await world.eva.slash(world.channel, "cuarenta tournament create", name="Suizo", format="swiss", rounds=3,
                          rules="rapido")
    for member in players:
        await member.slash(world.channel, "cuarenta tournament signup")
    await world.eva.slash(world.channel, "cuarenta tournament close")
    tour = world.bot.tournaments.tournaments[1]
    seed = {p.user_id: p.seed for p in tour.players}
    u = {s: uid for uid, s in seed.items()}  # all unrated: seeded in sign-up order
    members = {m.id: m for m in players}
    # worked by hand in tests/competitions (the higher seed wins every match): byes 5, 4, 3
    expected = [[(u[1], u[2]), (u[3], u[4]), (u[5], None)],
                [(u[1], u[3]), (u[5], u[2]), (u[4], None)],
                [(u[1], u[5]), (u[2], u[4]), (u[3], None)]]
    for rnd, want in enumerate(expected, start=1):
        assert pairs(tour, rnd) == want, f"round {rnd}"
        for m in [m for m in tour.matches if m.round == rnd and m.b_user is not None]:
            higher = m.a_user if seed[m.a_user] < seed[m.b_user] else m.b_user
            await world.eva.slash(world.channel, "cuarenta tournament walkover", player=members[higher])
    assert tour.status == "finished"
    rows = world.bot.tournaments.swiss_standings(tour)
    assert [(r.player, r.points) for r in rows[:2]] == [(u[1], 3.0), (u[2], 2.0)]
    view_rows = [m.embeds[0].description for m in world.channel.history() if m.embeds and "🏆" in
                 (m.embeds[0].description or "")]
    assert view_rows and "Buchholz" in view_rows[-1]
    assert world.env.errors == []


@pytest.mark.slow
async def test_a_best_of_3_match_across_a_restart(world, make_bot):
    """Sign-ups, matches and wins survive a restart; a best-of-3 match goes on until two mesas are won."""
    await world.eva.slash(world.channel, "cuarenta tournament create", name="Final", best_of=3, rules="rapido")
    for member in (world.ana, world.beto):
        await member.slash(world.channel, "cuarenta tournament signup")
    await world.env.restart_bot(make_bot())
    tour = world.bot.tournaments.tournaments[1]
    assert [p.name for p in tour.players] == ["ana", "beto"], "sign-ups survived the restart"
    await world.eva.slash(world.channel, "cuarenta tournament close")
    members = {world.ana.id: world.ana, world.beto.id: world.beto}
    mesas = 0
    while tour.status == "running":
        match = tour.matches[0]
        for member in (world.ana, world.beto):
            await member.slash(world.channel, "cuarenta tournament play")
        assert match.status == "playing"
        await play_to_end(world, match.table_id, members)
        await world.env.settle()
        mesas += 1
        if mesas == 1:
            assert match.status == "pending" and match.wins_a + match.wins_b == 1, "one mesa is not a match"
            await world.env.restart_bot(make_bot())
            tour = world.bot.tournaments.tournaments[1]
            assert tour.matches[0].wins_a + tour.matches[0].wins_b == 1, "the score survived the restart"
    match = tour.matches[0]
    assert mesas in (2, 3) and max(match.wins_a, match.wins_b) == 2
    assert match.winner == (match.a_user if match.wins_a == 2 else match.b_user)
    assert world.env.errors == []


async def test_a_day_before_the_deadline_the_players_are_reminded_then_the_policy_applies(world):
    await world.eva.slash(world.channel, "cuarenta tournament create", name="Copa", days=3, rules="rapido")
    for member in (world.ana, world.beto):
        await member.slash(world.channel, "cuarenta tournament signup")
    await world.eva.slash(world.channel, "cuarenta tournament close")
    tour = world.bot.tournaments.tournaments[1]
    await world.ana.slash(world.channel, "cuarenta tournament play")  # ana shows up; beto never does
    await world.env.advance_time(2 * 86400 + 5)
    assert any("one day left" in (m.content or "") or "queda un día" in (m.content or "")
               for m in world.channel.history()), "reminded a day before"
    await world.env.advance_time(86400)
    match = tour.matches[0]
    assert match.status == "walkover" and match.winner == world.ana.id and tour.status == "finished"


async def test_the_old_buttons_and_commands_of_an_ended_tournament_say_it_ended(world):
    """Once a tournament ends its round message loses «Jugar» (it is edited); a command that names the
    tournament, or a button of a message the bot could not edit, says that tournament #N is over (or was
    cancelled), not that there is no tournament #N on the server (QA pass 4)."""
    from bot.i18n import t

    await world.eva.slash(world.channel, "cuarenta tournament create", name="Copa Quito", format="elimination",
                          rules="rapido")
    signup = latest_with(world, "c4:o:1:j")
    for member in (world.ana, world.beto):
        await member.click(signup, custom_id="c4:o:1:j")
    await world.eva.click(signup, custom_id="c4:o:1:c")
    play = latest_with(world, "c4:o:1:p")
    await world.eva.slash(world.channel, "cuarenta tournament walkover", player=world.ana)
    assert world.bot.tournaments.tournaments.get(1) is None, "the final was decided: the tournament is over"

    over = t("err.tournament_over", "en", tournament=1, name="Copa Quito")
    await world.env.settle()
    assert "c4:o:1:p" not in custom_ids(next(m for m in world.channel.history() if m.id == play.id)), "«Jugar» left the ended round"
    named = await world.beto.slash(world.channel, "cuarenta tournament play", tournament=1)
    assert named.ephemeral and named.response.content == over

    await world.eva.slash(world.channel, "cuarenta tournament create", name="Copa 2", format="swiss", rules="rapido")
    await world.eva.slash(world.channel, "cuarenta tournament cancel", tournament=2)
    cancelled = await world.ana.click(latest_with(world, "c4:o:2:j"), custom_id="c4:o:2:j")
    assert cancelled.response.content == t("err.tournament_was_cancelled", "en", tournament=2, name="Copa 2")
    assert world.env.errors == []


@pytest.mark.slow
async def test_at_the_deadline_the_side_ahead_in_a_best_of_3_takes_the_match(world):
    """A best-of-3 final: one mesa is played, then nobody presses «Jugar» again before the deadline. The
    side that won that mesa takes the match (1–0), rather than both losing by the double-loss policy."""
    await world.eva.slash(world.channel, "cuarenta tournament create", name="Final", best_of=3, days=2,
                          policy="double_loss", rules="rapido")
    for member in (world.ana, world.beto):
        await member.slash(world.channel, "cuarenta tournament signup")
    await world.eva.slash(world.channel, "cuarenta tournament close")
    tour = world.bot.tournaments.tournaments[1]
    match = tour.matches[0]
    for member in (world.ana, world.beto):
        await member.slash(world.channel, "cuarenta tournament play")
    table = await play_to_end(world, match.table_id, {world.ana.id: world.ana, world.beto.id: world.beto})
    await world.env.settle()
    first = table.seats[table.game.winner].user_id
    assert match.status == "pending" and match.wins_a + match.wins_b == 1

    await world.env.advance_time(2 * 86400 + 5)
    assert match.status == "done" and match.winner == first, (match.status, match.winner)
    assert tour.status == "finished" and world.bot.tournaments.champion(tour) == first
    assert world.env.errors == []


async def test_the_round_message_shows_each_result_as_it_comes(world):
    """The round message lists the round's matches. It used to be posted once and never edited, so it
    showed a decided match as still to play (visual review). It is now edited with each result."""
    from bot.competitions.tournament_present import match_line

    await world.eva.slash(world.channel, "cuarenta tournament create", name="Copa", format="elimination",
                          rules="rapido")
    for member in (world.ana, world.beto, world.caro, world.dani):
        await member.slash(world.channel, "cuarenta tournament signup")
    await world.eva.slash(world.channel, "cuarenta tournament close")
    tour = world.bot.tournaments.tournaments[1]
    round_message = latest_with(world, "c4:o:1:p")
    mentions = round_message.content
    await world.eva.slash(world.channel, "cuarenta tournament walkover", player=world.ana)
    await world.env.settle()

    match = next(m for m in tour.matches if m.round == 1 and world.ana.id in (m.a_user, m.b_user))
    assert match.status == "walkover" and tour.current_round == 1
    now = next(m for m in world.channel.history() if m.id == round_message.id)
    assert match_line(tour, match, "es") in now.embeds[0].description, now.embeds[0].description
    assert now.content == mentions and "c4:o:1:p" in custom_ids(now)
    assert world.env.errors == []
