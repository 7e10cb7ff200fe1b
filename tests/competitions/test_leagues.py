"""Casual leagues through the simulated Discord: sign-up, the draw, «Jugar», whole mesas
recorded by the bot, standings after each mesa, a walkover at the deadline on the simulated clock, a
restart in the middle of a round, the champion; a 2 v 2 league with pair sign-up; organizer tools."""

from __future__ import annotations

import pytest

from bot.engine import EventKind
from bot.i18n import t, tn
from tests.support.helpers import custom_ids, play_to_end

DAY = 86400


@pytest.fixture
def db_path(database_url):
    """These competitions tests run the bot on each backend (SQLite, PostgreSQL)."""
    return database_url


def latest_with(world, custom_id):
    """The latest channel message carrying a component ``custom_id``."""
    return next(m for m in reversed(world.channel.history()) if custom_id in custom_ids(m))


def league_of(world, league_id=1):
    return world.bot.leagues.leagues.get(league_id)


def expected_rows(league, played):
    """Standings worked out here from the results: 2 points a win, 0 a loss; chicas and tantos summed."""
    rows = {s.side_no: dict(points=0, won=0, lost=0, cf=0, ca=0, tf=0, ta=0) for s in league.sides}
    for a, b, winner, chicas, tantos in played:
        for side, i in ((a, 0), (b, 1)):
            r = rows[side]
            if winner == side:
                r["points"] += 2
                r["won"] += 1
            else:
                r["lost"] += 1
            r["cf"] += chicas[i]
            r["ca"] += chicas[1 - i]
            r["tf"] += tantos[i]
            r["ta"] += tantos[1 - i]
    return rows


def check_standings(world, league, played):
    want = expected_rows(league, played)
    got = {r.side: dict(points=r.points, won=r.won, lost=r.lost, cf=r.chicas_for, ca=r.chicas_against,
                        tf=r.tantos_for, ta=r.tantos_against) for r in world.bot.leagues.standings(league)}
    assert got == want
    order = [r.side for r in world.bot.leagues.standings(league)]
    points = [want[s]["points"] for s in order]
    assert points == sorted(points, reverse=True), "ranked by points"


async def create_league(world, **options):
    result = await world.eva.slash(world.channel, "cuarenta league create", name="Liga de Quito", **options)
    assert result.ephemeral and "You created league #1" in result.response.content
    return league_of(world)


async def press_play(world, member, league_id=1):
    return await member.click(latest_with(world, f"c4:g:{league_id}:p"), custom_id=f"c4:g:{league_id}:p")


async def play_fixture(world, league, fixture, members, played):
    a, b = league.side(fixture.side_a), league.side(fixture.side_b)
    first = await press_play(world, members[a.user1])
    assert "ready" in first.response.content
    opened = await press_play(world, members[b.user1])
    assert "Let's play! Table #" in opened.response.content
    table = world.bot.tables.tables[fixture.table_id]
    assert table.channel_id != world.channel.id and table.preset == "rapido"
    assert table.seats[0].user_id == a.user1, "the fixture's first side sits on team A"
    table = await play_to_end(world, table.id, members)
    await world.env.settle()
    game = table.game
    tantos = [0, 0]
    for e in game.events:
        if e.kind == EventKind.CHICA_WON:
            tantos[0] += e.scores[0]
            tantos[1] += e.scores[1]
    winner = fixture.side_a if game.winner == 0 else fixture.side_b
    assert fixture.status == "done" and fixture.winner == winner
    played.append((fixture.side_a, fixture.side_b, winner, tuple(game.chicas), tuple(tantos)))
    check_standings(world, league, played)


@pytest.mark.slow
async def test_a_4_player_1v1_league_played_through_clicks(world, make_bot):
    members = {m.id: m for m in (world.ana, world.beto, world.caro, world.dani)}
    await create_league(world, rules="rapido", days=7)
    signup = latest_with(world, "c4:g:1:j")
    for member in members.values():
        joined = await member.click(signup, custom_id="c4:g:1:j")
        assert joined.response.content.startswith("You are signed up for league #1")
    again = await world.ana.click(signup, custom_id="c4:g:1:j")
    assert again.response.content == t("err.league_signed", "en", league=1)
    refused = await world.ana.click(signup, custom_id="c4:g:1:c")
    assert refused.response.content == t("err.league_not_organizer", "en")
    closed = await world.eva.click(signup, custom_id="c4:g:1:c")
    assert closed.response.content == tn("ok.league_drawn", 3, "en", league=1, rounds=3)
    league = league_of(world)
    assert league.status == "running" and len(league.fixtures) == 6
    played: list = []

    # round 1: both fixtures played, whole mesas
    for fixture in [f for f in league.fixtures if f.round == 1]:
        await play_fixture(world, league, fixture, members, played)
    assert league.current_round == 2, "the round is over: round 2 started"

    # round 2: a restart between the two «Jugar» of a fixture; the first side's readiness was stored
    first, second = [f for f in league.fixtures if f.round == 2]
    a, b = league.side(first.side_a), league.side(first.side_b)
    await press_play(world, members[a.user1])
    await world.env.restart_bot(make_bot())
    league = league_of(world)
    first, second = [f for f in league.fixtures if f.round == 2]
    assert first.ready_a is not None and first.status == "pending"
    opened = await press_play(world, members[b.user1])
    assert "Let's play! Table #" in opened.response.content
    table = await play_to_end(world, first.table_id, members)
    await world.env.settle()
    assert first.status == "done"
    tantos = [sum(e.scores[i] for e in table.game.events if e.kind == EventKind.CHICA_WON) for i in (0, 1)]
    played.append((first.side_a, first.side_b, first.winner, tuple(table.game.chicas), tuple(tantos)))
    await play_fixture(world, league, second, members, played)
    assert league.current_round == 3

    # round 3: one fixture played; in the other only one side shows up, and the deadline passes
    played_fx, lonely = [f for f in league.fixtures if f.round == 3]
    await play_fixture(world, league, played_fx, members, played)
    shows = league.side(lonely.side_b)
    waiting = await press_play(world, members[shows.user1])
    assert "ready" in waiting.response.content
    await world.env.advance_time(7 * DAY + 5)
    assert lonely.status == "walkover" and lonely.winner == shows.side_no, "a walkover for the side that showed up"
    played.append((lonely.side_a, lonely.side_b, lonely.winner, (0, 0), (0, 0)))

    assert league.status == "finished"
    rows = world.bot.leagues.standings(league)
    check_standings(world, league, played)
    final = next(m for m in reversed(world.channel.history()) if m.embeds and "final standings" in
                 (m.embeds[0].title or "") or m.embeds and "tabla final" in (m.embeds[0].title or ""))
    champion = league.side(rows[0].side).name
    assert champion in final.embeds[0].description
    assert world.env.errors == []


async def test_a_2v2_league_with_pair_signup(world):
    await create_league(world, mode="2v2", rules="rapido", days=3)
    invite = await world.ana.slash(world.channel, "cuarenta league signup", partner=world.beto)
    assert "You invited beto" in invite.response.content
    league = league_of(world)
    assert [s.accepted for s in league.sides] == [False]
    taken = await world.caro.slash(world.channel, "cuarenta league signup", partner=world.caro)
    assert taken.response.content == t("err.league_partner_self", "en")
    accepted = await world.beto.slash(world.channel, "cuarenta league signup", partner=world.ana)
    assert "as ana & beto" in accepted.response.content
    await world.caro.slash(world.channel, "cuarenta league signup", partner=world.dani)
    await world.dani.slash(world.channel, "cuarenta league signup", partner=world.caro)
    button = await world.dani.click(latest_with(world, "c4:g:1:j"), custom_id="c4:g:1:j")
    assert "you sign up as a pair" in button.response.content
    await world.eva.slash(world.channel, "cuarenta league close")
    assert league.status == "running" and league.rounds == 1
    await press_play(world, world.caro)
    await press_play(world, world.ana)
    fixture = league.fixtures[0]
    table = world.bot.tables.tables[fixture.table_id]
    assert table.players == 4 and table.status == "playing"
    team_of = {s.user_id: i % 2 for i, s in enumerate(table.seats)}
    side_a = league.side(fixture.side_a)
    assert team_of[side_a.user1] == team_of[side_a.user2] == 0
    side_b = league.side(fixture.side_b)
    assert team_of[side_b.user1] == team_of[side_b.user2] == 1
    assert world.env.errors == []


async def test_organizer_tools_and_the_deadline_double_loss(world):
    await create_league(world, rules="rapido", days=2, policy="double_loss")
    for member in (world.ana, world.beto, world.caro):
        await member.slash(world.channel, "cuarenta league signup")
    await world.eva.slash(world.channel, "cuarenta league close")
    league = league_of(world)
    assert league.rounds == 3 and league.byes, "three players: a bye each round"
    not_yours = await world.ana.slash(world.channel, "cuarenta league walkover", player=world.ana)
    assert not_yours.response.content == t("err.league_not_organizer", "en")
    extended = await world.eva.slash(world.channel, "cuarenta league extend", days=1)
    assert extended.response.content.startswith("This round's deadline is now")
    fixture = next(f for f in league.fixtures if f.round == 1)
    winner = league.side(fixture.side_a)
    user = next(m for m in (world.ana, world.beto, world.caro) if m.id == winner.user1)
    await world.eva.slash(world.channel, "cuarenta league walkover", player=user)
    assert fixture.status == "walkover" and fixture.winner == winner.side_no
    assert league.current_round == 2
    await world.env.advance_time(2 * DAY - 3600)
    reminder = [m.content for m in world.channel.history() if "one day left" in (m.content or "")
                or "queda un día" in (m.content or "")]
    assert reminder, "a reminder a day before the deadline"
    await world.env.advance_time(3600 + 5)
    round2 = [f for f in league.fixtures if f.round == 2]
    assert [f.status for f in round2] == ["double_loss"], "nobody pressed «Jugar»: a double loss by policy"
    view = await world.ana.slash(world.channel, "cuarenta league view")
    assert "Round 3 of 3" in view.response.content
    caro = league.side_of(world.caro.id).side_no
    open_before = [f for f in league.fixtures if not f.resolved and caro in (f.side_a, f.side_b)]
    removed = await world.eva.slash(world.channel, "cuarenta league remove", player=world.caro)
    assert "left league #1" in removed.response.content
    for f in open_before:
        assert f.status == "walkover" and f.winner != caro, "caro's unplayed fixtures are her opponents' walkovers"
    assert world.env.errors == []


async def test_leagues_never_cross_servers(world):
    await create_league(world, rules="rapido")
    guild2 = world.env.create_guild("Cuenca Club")
    channel2 = guild2.create_text_channel("liga")
    fer = guild2.add_member(world.env.create_user("fer"))
    await world.bot.tree.sync()
    other = await fer.slash(channel2, "cuarenta league signup", league=1)
    assert other.response.content == t("err.league_unknown", "en", league=1)
    none = await fer.slash(channel2, "cuarenta league view")
    assert none.response.content == t("err.league_none", "en")


async def test_a_fixture_whose_table_was_ended_records_nothing_and_can_be_played_again(world):
    """The written rule: a league table that ends without a winner (/cuarenta end) records no result. Only a
    member who can manage the server may end it (its host is just one of the players: QA pass 4)."""
    await create_league(world, rules="rapido")
    for member in (world.ana, world.beto):
        await member.slash(world.channel, "cuarenta league signup")
    await world.eva.slash(world.channel, "cuarenta league close")
    league = league_of(world)
    fixture = league.fixtures[0]
    await press_play(world, world.ana)
    await press_play(world, world.beto)
    first_table = fixture.table_id
    host = world.bot.tables.tables[first_table]
    ender = world.ana if host.host_id == world.ana.id else world.beto
    thread = next(t for t in world.channel.threads if t.id == host.channel_id)
    refused = await ender.slash(thread, "cuarenta end")
    assert refused.response.content == t("err.end_refereed", "en")
    ended = await world.eva.slash(thread, "cuarenta end")  # Manage Server
    assert ended.response.content == t("ok.ended", "en", table=first_table)
    assert fixture.status == "playing" and fixture.winner is None, "no result recorded"
    again = await press_play(world, world.ana)
    assert "ready" in again.response.content and fixture.status == "pending"
    await press_play(world, world.beto)
    assert fixture.status == "playing" and fixture.table_id != first_table, "a new table for the same fixture"


async def test_the_organizer_replaces_a_player_who_inherits_the_fixtures(world):
    await create_league(world, rules="rapido")
    for member in (world.ana, world.beto):
        await member.slash(world.channel, "cuarenta league signup")
    await world.eva.slash(world.channel, "cuarenta league close")
    league = league_of(world)
    side = league.side_of(world.beto.id).side_no
    refused = await world.ana.slash(world.channel, "cuarenta league replace", player=world.beto, newcomer=world.caro)
    assert refused.response.content == t("err.league_not_organizer", "en")
    done = await world.eva.slash(world.channel, "cuarenta league replace", player=world.beto, newcomer=world.caro)
    assert "caro takes beto's place" in done.response.content
    assert league.side_of(world.caro.id).side_no == side and league.side_of(world.beto.id) is None
    await press_play(world, world.ana)
    opened = await press_play(world, world.caro)
    assert "Let's play! Table #" in opened.response.content, "the newcomer plays the side's fixture"


async def test_an_organizer_role_runs_leagues_without_manage_server(world):
    refused = await world.caro.slash(world.channel, "cuarenta league create", name="Liga")
    assert refused.response.content == t("err.need_manage_guild", "en")
    role = world.guild.create_role("Ligueros")
    world.guild.remove_member(world.caro)
    caro = world.guild.add_member(world.caro.user, roles=[role])
    not_admin = await world.ana.slash(world.channel, "cuarenta organizers", role=role)
    assert not_admin.response.content == t("err.need_manage_guild", "en")
    done = await world.eva.slash(world.channel, "cuarenta organizers", role=role)
    assert done.response.content == t("ok.organizers_set", "en", role=f"<@&{role.id}>")
    created = await caro.slash(world.channel, "cuarenta league create", name="Liga de caro")
    assert "You created league #1" in created.response.content
    for member in (world.ana, world.beto):
        await member.slash(world.channel, "cuarenta league signup")
    closed = await caro.slash(world.channel, "cuarenta league close")
    assert closed.response.content == tn("ok.league_drawn", 1, "en", league=1, rounds=1)


async def test_the_standings_message_carries_the_standings_as_a_picture_and_as_text(world):
    await create_league(world, rules="rapido")
    for member in (world.ana, world.beto, world.caro):
        await member.slash(world.channel, "cuarenta league signup")
    await world.eva.slash(world.channel, "cuarenta league close")
    round_message = latest_with(world, "c4:g:1:p")
    message = next(m for m in world.channel.history() if m.embeds and m.embeds[0].image.url)
    assert f"/{message.id}" in round_message.embeds[0].description, "the round message links the standings"
    embed = message.embeds[0]
    assert embed.image.url and embed.image.url.endswith("tabla.png")
    assert [a.filename for a in message.attachments] == ["tabla.png"]
    assert "**Tabla**" in embed.description and "ana" in embed.description


async def test_the_old_buttons_and_commands_of_an_ended_league_say_it_ended(world):
    """A league's sign-up button stays on its message after it ends (its «Jugar» goes: the round message
    is edited). A click on it, or a command that names the league, says that league #N is over (or was
    cancelled), not that there is no league #N on the server (QA pass 4)."""
    await create_league(world, rules="rapido", days=1, policy="double_loss")
    signup = latest_with(world, "c4:g:1:j")
    for member in (world.ana, world.beto):
        await member.click(signup, custom_id="c4:g:1:j")
    await world.eva.click(signup, custom_id="c4:g:1:c")
    play_button = latest_with(world, "c4:g:1:p")
    await world.env.advance_time(DAY + 5)
    assert world.bot.leagues.leagues.get(1) is None, "nobody played the only fixture: the league finished"

    over = t("err.league_over", "en", league=1, name="Liga de Quito")
    assert "c4:g:1:p" not in custom_ids(next(m for m in world.channel.history() if m.id == play_button.id))
    named = await world.ana.slash(world.channel, "cuarenta league play", league=1)
    assert named.ephemeral and named.response.content == over

    second = await world.eva.slash(world.channel, "cuarenta league create", name="Liga 2")
    assert "league #2" in second.response.content
    await world.eva.slash(world.channel, "cuarenta league cancel", league=2)
    cancelled = await world.ana.click(latest_with(world, "c4:g:2:j"), custom_id="c4:g:2:j")
    assert cancelled.response.content == t("err.league_was_cancelled", "en", league=2, name="Liga 2")
    unknown = await world.ana.slash(world.channel, "cuarenta league play", league=9)
    assert unknown.response.content == t("err.league_unknown", "en", league=9), "a league that never was"
    assert world.env.errors == []


async def test_the_round_message_shows_each_result_as_it_comes(world):
    """The round message lists the round's fixtures, the standings message the standings. The round
    message used to be posted once and never edited, so after a result it still showed the fixture as
    pending and everyone on 0 points, above the result's own message (visual review). Both are now edited
    with each result of the round."""
    from bot.competitions.league_present import fixture_line

    await create_league(world, rules="rapido", days=7)
    for member in (world.ana, world.beto, world.caro, world.dani):
        await member.slash(world.channel, "cuarenta league signup")
    await world.eva.slash(world.channel, "cuarenta league close")
    league = league_of(world)
    round_message = latest_with(world, "c4:g:1:p")
    mentions = round_message.content
    fixture = next(f for f in league.fixtures if f.round == 1 and world.ana.id in league.side(f.side_a).users
                   + league.side(f.side_b).users)
    await world.eva.slash(world.channel, "cuarenta league walkover", player=world.ana)
    await world.env.settle()

    now = next(m for m in world.channel.history() if m.id == round_message.id)
    shown = now.embeds[0].description
    assert fixture.status == "walkover" and fixture_line(league, fixture, "es") in shown, shown
    table = next(m for m in world.channel.history() if m.embeds and m.embeds[0].image.url).embeds[0].description
    ana_row = next(line for line in table.splitlines() if "ana" in line and "pts" in line)
    assert "2 pts" in ana_row, ana_row
    assert now.content == mentions, "the mentions stay (an edit pings nobody)"
    assert "c4:g:1:p" in custom_ids(now), "«Jugar» stays for the round's other fixture"
    assert world.env.errors == []
