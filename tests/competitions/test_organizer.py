"""The organizer's tools of leagues through the simulated Discord: a result entered and corrected by hand
with a reason (the standings follow, the history keeps it, the channel hears why), refused to anyone but
the organizer and across servers; the archive of a finished league; a player's results; the CSV export."""

from __future__ import annotations

import csv
import io

import pytest

from bot.i18n import t
from bot.organizer.export import BOM

DAY = 86400


@pytest.fixture
def db_path(database_url):
    """These tests run the bot on each backend (SQLite, PostgreSQL)."""
    return database_url


async def three_player_league(world):
    """eva's league of ana, beto and caro (rapido, three rounds with a bye each): the league."""
    created = await world.eva.slash(world.channel, "cuarenta league create", name="Liga de Quito", rules="rapido")
    assert "You created league #1" in created.response.content
    for member in (world.ana, world.beto, world.caro):
        await member.slash(world.channel, "cuarenta league signup")
    await world.eva.slash(world.channel, "cuarenta league close")
    return world.bot.leagues.leagues[1]


def member_of(world, user_id):
    return next(m for m in (world.ana, world.beto, world.caro, world.dani) if m.id == user_id)


def row_of(world, league, side_no):
    return next(r for r in world.bot.leagues.standings(league) if r.side == side_no)


def channel_texts(world):
    return [m.content or "" for m in world.channel.history()]


async def test_the_organizer_enters_then_corrects_a_result_and_the_standings_and_history_follow(world):
    league = await three_player_league(world)
    fixture = next(f for f in league.fixtures if f.round == 1)
    a, b = league.side(fixture.side_a), league.side(fixture.side_b)
    player = member_of(world, a.user1)

    entered = await world.eva.slash(world.channel, "cuarenta league result", round=1, player=player, outcome="win",
                                    reason="Jugaron en persona", player_chicas=2, opponent_chicas=1)
    assert entered.ephemeral and entered.response.content.startswith("Done:")
    assert (fixture.status, fixture.winner, fixture.chicas) == ("done", a.side_no, (2, 1))
    row_a, row_b = row_of(world, league, a.side_no), row_of(world, league, b.side_no)
    assert (row_a.points, row_a.won, row_a.chicas_for, row_a.chicas_against) == (2, 1, 2, 1)
    assert (row_b.points, row_b.lost) == (0, 1)
    assert league.current_round == 2, "the round's only fixture got its result: the next round started"

    corrected = await world.eva.slash(world.channel, "cuarenta league result", round=1, player=player,
                                      outcome="loss", reason="Se equivocaron de marcador")
    assert corrected.response.content.startswith("Done:")
    assert (fixture.status, fixture.winner) == ("walkover", b.side_no), "no score given: a walkover"
    row_a, row_b = row_of(world, league, a.side_no), row_of(world, league, b.side_no)
    assert (row_a.points, row_a.won, row_a.lost, row_b.points, row_b.won) == (0, 0, 1, 2, 1), "standings recomputed"
    assert (row_a.chicas_for, row_b.chicas_for) == (0, 0)

    history = await world.bot.organizer.history(league.id)
    assert [(c.round, c.fixture_id, c.by_user, c.reason) for c in history] == [
        (1, fixture.id, world.eva.id, "Jugaron en persona"), (1, fixture.id, world.eva.id, "Se equivocaron de marcador")]
    assert history[0].before == "pending:-:0-0" and history[0].after == f"done:{a.side_no}:2-1"
    assert history[1].before == history[0].after and history[1].after == f"walkover:{b.side_no}:0-0"
    await world.env.settle()
    announced = [text for text in channel_texts(world) if text.startswith("✏️")]
    assert len(announced) == 2 and "Jugaron en persona" in announced[0] and "Se equivocaron de marcador" in announced[1]
    assert "Liga de Quito" in announced[1]

    await world.env.advance_time(30)  # the competition messages' coalesced edits
    from bot.competitions.league_present import fixture_line

    title = t("league.round_title", "es", name="Liga de Quito", round=1, rounds=3)
    [round1] = [m for m in world.channel.history() if m.embeds and m.embeds[0].title == title]
    assert fixture_line(league, fixture, "es") in round1.embeds[0].description, "round 1's message shows the correction"
    reason = t("organizer.note_line", "es", reason="Se equivocaron de marcador")
    assert reason in round1.embeds[0].description, "with the organizer's latest reason under the fixture"
    assert "Jugaron en persona" not in round1.embeds[0].description, "only the latest reason"
    stored = await world.bot.leagues.repo.leagues_of(world.guild.id)
    again = next(f for f in stored[0].fixtures if f.id == fixture.id)
    assert (again.status, again.winner) == ("walkover", b.side_no), "the correction is stored"
    assert world.env.errors == []


async def test_a_correction_is_refused_to_non_organizers_other_servers_and_bad_requests(world):
    league = await three_player_league(world)
    fixture = next(f for f in league.fixtures if f.round == 1)
    player = member_of(world, league.side(fixture.side_a).user1)

    refused = await world.ana.slash(world.channel, "cuarenta league result", round=1, player=player,
                                    outcome="win", reason="Yo gané")
    assert refused.response.content == t("err.league_not_organizer", "en")
    assert fixture.status == "pending"

    guild2 = world.env.create_guild("Cuenca Club")
    channel2 = guild2.create_text_channel("liga")
    admins = guild2.create_role("Admins", permissions=discord_manage())
    fer = guild2.add_member(world.env.create_user("fer"), roles=[admins])
    await world.bot.tree.sync()
    foreign = await fer.slash(channel2, "cuarenta league result", round=1, player=fer, outcome="win",
                              reason="Desde otro servidor", league=1)
    assert foreign.response.content == t("err.league_unknown", "en", league=1)
    assert fixture.status == "pending"

    blank = await world.eva.slash(world.channel, "cuarenta league result", round=1, player=player, outcome="win",
                                  reason="   ")
    assert blank.response.content == t("err.correct_reason", "en", max=200)
    bad_score = await world.eva.slash(world.channel, "cuarenta league result", round=1, player=player,
                                      outcome="win", reason="Marcador", player_chicas=0, opponent_chicas=2)
    assert bad_score.response.content == t("err.correct_score", "en")
    future = await world.eva.slash(world.channel, "cuarenta league result", round=2, player=player, outcome="win",
                                   reason="Adelantado")
    assert future.response.content in (t("err.correct_future", "en", round=2),
                                       t("err.correct_no_fixture", "en", round=2))
    assert fixture.status == "pending" and await world.bot.organizer.history(league.id) == []
    assert world.env.errors == []


def discord_manage():
    import discord

    return discord.Permissions(manage_guild=True)


async def two_player_league_finished(world):
    """eva's league of ana and beto, its one fixture entered by hand for ana (2–0): finished."""
    await world.eva.slash(world.channel, "cuarenta league create", name="Liga Corta", rules="rapido")
    for member in (world.ana, world.beto):
        await member.slash(world.channel, "cuarenta league signup")
    await world.eva.slash(world.channel, "cuarenta league close")
    league = world.bot.leagues.leagues[1]
    await world.eva.slash(world.channel, "cuarenta league result", round=1, player=world.ana, outcome="win",
                          reason="Final en el club", player_chicas=2, opponent_chicas=0)
    await world.env.settle()
    assert league.status == "finished" and 1 not in world.bot.leagues.leagues
    return league


async def test_view_shows_the_archive_of_a_finished_league_with_its_champion_and_standings(world):
    league = await two_player_league_finished(world)
    shown = await world.caro.slash(world.channel, "cuarenta league view")
    text = shown.response.content
    assert shown.ephemeral
    assert t("league.champion", "en", name="Liga Corta", champion="ana") in text
    assert "Finished leagues: #1 Liga Corta" in text
    assert "Final en el club" in text, "the corrections are part of the archive"
    rows = world.bot.leagues.standings(league)
    assert [league.side(r.side).name for r in rows] == ["ana", "beto"]
    assert text.index("ana") < text.index("beto")
    named = await world.caro.slash(world.channel, "cuarenta league view", league=1)
    assert t("league.champion", "en", name="Liga Corta", champion="ana") in named.response.content
    late = await world.eva.slash(world.channel, "cuarenta league result", round=1, player=world.ana,
                                 outcome="loss", reason="Tarde", league=1)
    assert late.response.content == t("err.league_over", "en", league=1, name="Liga Corta"), "read-only"
    second = await world.eva.slash(world.channel, "cuarenta league create", name="Liga Abierta")
    assert "league #2" in second.response.content
    offered = await world.caro.autocomplete(world.channel, "cuarenta league view", "league", "")
    assert [(c["name"], c["value"]) for c in offered] == [("#2 Liga Abierta", 2), ("#1 Liga Corta · finished", 1)], \
        "the open league, then the archive"
    typed = await world.caro.autocomplete(world.channel, "cuarenta league view", "league", "corta")
    assert [c["value"] for c in typed] == [1]
    chosen = await world.caro.slash(world.channel, "cuarenta league view", league=1)
    assert t("league.champion", "en", name="Liga Corta", champion="ana") in chosen.response.content
    guild2 = world.env.create_guild("Cuenca Club")
    channel2 = guild2.create_text_channel("liga")
    fer = guild2.add_member(world.env.create_user("fer"))
    await world.bot.tree.sync()
    assert await fer.autocomplete(channel2, "cuarenta league view", "league", "") == [], "never another server's"
    other = await fer.slash(channel2, "cuarenta league view", league=1)
    assert other.response.content == t("err.league_unknown", "en", league=1), "the archive never crosses servers"
    assert world.env.errors == []


async def test_view_with_a_player_lists_their_fixtures_and_results(world):
    league = await three_player_league(world)
    fixture = next(f for f in league.fixtures if f.round == 1)
    player = member_of(world, league.side(fixture.side_a).user1)
    await world.eva.slash(world.channel, "cuarenta league result", round=1, player=player, outcome="win",
                          reason="Acuerdo", player_chicas=2, opponent_chicas=1)
    shown = await world.dani.slash(world.channel, "cuarenta league view", player=player)
    lines = shown.response.content.split("\n")
    side = league.side_of(player.id)
    mine = [f for f in league.fixtures if side.side_no in (f.side_a, f.side_b)]
    assert lines[0] == f"**{player.name}** in league #1 · Liga de Quito"
    assert lines[1].startswith("Rank 1 · 2 pts · 1 played, 1 won, 0 lost")
    fixture_lines = [line for line in lines if line.startswith("Round ") and "bye" not in line]
    assert len(fixture_lines) == len(mine) == 2
    assert f"{player.name} 2–1" in fixture_lines[0] and "won" in fixture_lines[0]
    assert sum(1 for line in lines if line.endswith(": bye")) == 1, "three players: one bye each"
    nobody = await world.dani.slash(world.channel, "cuarenta league view", player=world.dani)
    assert nobody.response.content == t("organizer.not_a_player", "en", name="dani", league=1)
    assert world.env.errors == []


def read_csv(attachment_bytes: bytes) -> list[list[str]]:
    text = attachment_bytes.decode("utf-8")
    assert text.startswith(BOM), "UTF-8 with a byte-order mark, for Excel"
    return list(csv.reader(io.StringIO(text[1:])))


async def test_the_export_sends_the_leagues_fixtures_standings_and_leaderboard_as_csv(world):
    from bot.ratings import ChicaResult

    for i, (winner, loser) in enumerate([(world.beto, world.ana), (world.beto, world.caro), (world.ana, world.caro)]):
        await world.bot.tables.ratings.record_chica(ChicaResult(
            guild_id=world.guild.id, table_id=700 + i, chica_number=1, teams=((winner.id,), (loser.id,)), winner=0,
            scores=(40, 12)))
    league = await three_player_league(world)
    fixture = next(f for f in league.fixtures if f.round == 1)
    player = member_of(world, league.side(fixture.side_a).user1)
    await world.eva.slash(world.channel, "cuarenta league result", round=1, player=player, outcome="win",
                          reason="Acuerdo", player_chicas=2, opponent_chicas=1)

    refused = await world.ana.slash(world.channel, "cuarenta league export")
    assert refused.response.content == t("err.league_not_organizer", "en")
    assert not [m for m in [refused.response, *refused.followups] if m is not None and m.attachments]

    result = await world.eva.slash(world.channel, "cuarenta league export")
    answers = [m for m in [result.response, *result.followups] if m is not None and m.attachments]
    assert len(answers) == 1 and answers[0].ephemeral
    files = {a.filename: read_csv(await a.read()) for a in answers[0].attachments}
    assert set(files) == {"league-1-fixtures.csv", "league-1-standings.csv", "leaderboard-1v1.csv",
                          "leaderboard-2v2.csv"}

    standings = files["league-1-standings.csv"]
    assert standings[0] == t("organizer.csv_standings", "en").split("|")
    assert standings[1:] == [[str(v) for v in (r.rank, league.side(r.side).name, r.points, r.played, r.won, r.lost,
                                                  r.chicas_for, r.chicas_against, r.tantos_for, r.tantos_against)]
                             for r in world.bot.leagues.standings(league)]
    fixtures = files["league-1-fixtures.csv"]
    assert len(fixtures) == 1 + len(league.fixtures)
    first = fixtures[1]
    assert first[:7] == ["1", league.side(fixture.side_a).name, league.side(fixture.side_b).name, "played",
                         league.side(fixture.side_a).name, "2", "1"]
    assert all(row[3] == "pending" for row in fixtures[2:])
    ids = {str(m.id) for m in (world.ana, world.beto, world.caro, world.eva)}
    for rows in files.values():
        assert not any(cell in ids for row in rows for cell in row), "display names only, no user ids"
    board = (await world.bot.tables.ratings.leaderboard(world.guild.id, "1v1")).rows
    names = {m.id: m.name for m in (world.ana, world.beto, world.caro)}
    assert files["leaderboard-1v1.csv"] == [t("organizer.csv_leaderboard", "en").split("|")] + [
        [str(r.rank) if r.ranked else "", names[r.user_id], str(r.rating), "yes" if r.provisional else "no",
         str(r.wins), str(r.losses), str(r.games)] for r in board], "the leaderboard as the bot shows it"
    assert len(board) == 3 and board[0].user_id == world.beto.id
    assert files["leaderboard-2v2.csv"] == [t("organizer.csv_leaderboard", "en").split("|")]
    assert world.env.errors == []


def pairs(tour, rnd):
    return [(m.a_user, m.b_user) for m in sorted(tour.matches, key=lambda m: m.slot) if m.round == rnd]


async def test_tournament_results_by_hand_a_refused_correction_the_archive_and_the_export(world):
    """A 4-player bracket: results entered and corrected by the organizer (an earlier round's winner moves
    on into the final while it is unplayed; refused once a finalist pressed «Jugar»), then the archive,
    a player's matches and the CSV of the matches."""
    from tests.support.helpers import custom_ids

    created = await world.eva.slash(world.channel, "cuarenta tournament create", name="Copa Quito",
                                    format="elimination", rules="rapido")
    assert "You created tournament #1" in created.response.content
    for member in (world.ana, world.beto, world.caro, world.dani):
        await member.slash(world.channel, "cuarenta tournament signup")
    await world.eva.slash(world.channel, "cuarenta tournament close")
    tour = world.bot.tournaments.tournaments[1]
    members = {m.id: m for m in (world.ana, world.beto, world.caro, world.dani)}
    first, second = sorted((m for m in tour.matches if m.round == 1), key=lambda m: m.slot)

    refused = await world.ana.slash(world.channel, "cuarenta tournament result", round=1,
                                    player=members[first.a_user], outcome="win", reason="Yo")
    assert refused.response.content == t("err.league_not_organizer", "en")
    too_many = await world.eva.slash(world.channel, "cuarenta tournament result", round=1,
                                     player=members[first.a_user], outcome="win", reason="Dos mesas",
                                     player_mesas=2, opponent_mesas=0)
    assert too_many.response.content == t("err.correct_match_score", "en", need=1, best_of=1), "a best of 1"
    entered = await world.eva.slash(world.channel, "cuarenta tournament result", round=1,
                                    player=members[first.a_user], outcome="win", reason="Jugado en el club",
                                    player_mesas=1, opponent_mesas=0)
    assert entered.response.content.startswith("Done:")
    assert (first.status, first.winner, first.wins_a, first.wins_b) == ("done", first.a_user, 1, 0)
    await world.eva.slash(world.channel, "cuarenta tournament result", round=1, player=members[second.b_user],
                          outcome="win", reason="No se presentó")
    assert (second.status, second.winner) == ("walkover", second.b_user)
    assert tour.current_round == 2 and pairs(tour, 2) == [(first.a_user, second.b_user)]

    moved = await world.eva.slash(world.channel, "cuarenta tournament result", round=1,
                                  player=members[first.a_user], outcome="loss", reason="Mal anotado")
    assert moved.response.content.startswith("Done:")
    assert first.winner == first.b_user and pairs(tour, 2) == [(first.b_user, second.b_user)], \
        "the final is unplayed: the new winner takes the place"
    await world.env.advance_time(30)  # the competition messages' coalesced edits
    round_title = t("tournament.round_title", "es", name=tour.name, round=1, rounds=tour.total_rounds)
    [round1] = [m for m in world.channel.history() if m.embeds and m.embeds[0].title == round_title]
    for why in ("Mal anotado", "No se presentó"):
        assert t("organizer.note_line", "es", reason=why) in round1.embeds[0].description, why
    stored = await world.bot.store.db.fetch("SELECT a_user, b_user FROM tournament_matches WHERE round = 2")
    assert [(int(r[0]), int(r[1])) for r in stored] == [(first.b_user, second.b_user)]

    final = next(m for m in tour.matches if m.round == 2)
    play = next(m for m in reversed(world.channel.history()) if "c4:o:1:p" in custom_ids(m))
    await members[final.a_user].click(play, custom_id="c4:o:1:p")
    assert final.ready_a is not None
    late = await world.eva.slash(world.channel, "cuarenta tournament result", round=1,
                                 player=members[first.a_user], outcome="win", reason="Otra vez")
    assert late.response.content == t("err.correct_later_played", "en", round=2)
    assert first.winner == first.b_user and pairs(tour, 2) == [(first.b_user, second.b_user)]

    await world.eva.slash(world.channel, "cuarenta tournament result", round=2, player=members[final.a_user],
                          outcome="win", reason="Final acordada", player_mesas=1, opponent_mesas=0)
    await world.env.settle()
    assert tour.status == "finished"
    champion = members[final.a_user].name
    history = await world.bot.organizer.history(1, "tournament")
    assert [c.reason for c in history] == ["Jugado en el club", "No se presentó", "Mal anotado", "Final acordada"]
    announced = [m.content for m in world.channel.history() if (m.content or "").startswith("✏️ Torneo #1")]
    assert len(announced) == 4 and "Mal anotado" in announced[2]

    archive = await world.caro.slash(world.channel, "cuarenta tournament view")
    assert t("tournament.champion", "en", champion=champion, name="Copa Quito") in archive.response.content
    assert "Finished tournaments: #1 Copa Quito" in archive.response.content
    offered = await world.caro.autocomplete(world.channel, "cuarenta tournament view", "tournament", "")
    assert [(c["name"], c["value"]) for c in offered] == [("#1 Copa Quito · finished", 1)]
    mine = await world.caro.slash(world.channel, "cuarenta tournament view", tournament=1,
                                  player=members[first.b_user])
    lines = mine.response.content.split("\n")
    assert lines[0].startswith(f"**{members[first.b_user].name}** in tournament #1")
    assert len(lines) == 3 and lines[1].startswith("Round 1: ") and lines[2].startswith("Round 2: ")

    exported = await world.eva.slash(world.channel, "cuarenta tournament export")
    answers = [m for m in [exported.response, *exported.followups] if m is not None and m.attachments]
    assert len(answers) == 1 and answers[0].ephemeral
    files = {a.filename: read_csv(await a.read()) for a in answers[0].attachments}
    assert set(files) == {"tournament-1-matches.csv", "leaderboard-1v1.csv", "leaderboard-2v2.csv"}
    rows = files["tournament-1-matches.csv"]
    assert rows[0] == t("organizer.csv_matches", "en").split("|")
    assert rows[1:] == [[str(m.round), tour.name_of(m.a_user), tour.name_of(m.b_user),
                         {"done": "played", "walkover": "walkover"}[m.status], tour.name_of(m.winner),
                         str(m.wins_a), str(m.wins_b)] for m in tour.matches]
    assert world.env.errors == []


async def test_a_played_mesa_is_refused_while_in_play_then_corrected_and_the_correction_survives_a_restart(
        world, make_bot):
    from tests.support.helpers import custom_ids, play_to_end

    league = await three_player_league(world)
    fixture = next(f for f in league.fixtures if f.round == 1)
    a, b = league.side(fixture.side_a), league.side(fixture.side_b)
    members = {m.id: m for m in (world.ana, world.beto, world.caro)}
    play = next(m for m in reversed(world.channel.history()) if "c4:g:1:p" in custom_ids(m))
    await members[a.user1].click(play, custom_id="c4:g:1:p")
    await members[b.user1].click(play, custom_id="c4:g:1:p")
    assert fixture.status == "playing"
    busy = await world.eva.slash(world.channel, "cuarenta league result", round=1, player=members[a.user1],
                                 outcome="win", reason="Antes de tiempo")
    assert busy.response.content == t("err.correct_in_play", "en", table=fixture.table_id)

    await play_to_end(world, fixture.table_id, members)
    await world.env.settle()
    assert fixture.status == "done" and league.current_round == 2
    played_winner = fixture.winner
    loser = a if played_winner == b.side_no else b
    corrected = await world.eva.slash(world.channel, "cuarenta league result", round=1, player=members[loser.user1],
                                      outcome="win", reason="Se sentó un suplente", player_chicas=2, opponent_chicas=0)
    assert corrected.response.content.startswith("Done:")
    assert fixture.winner == loser.side_no

    await world.env.restart_bot(make_bot())
    league = world.bot.leagues.leagues[1]
    again = next(f for f in league.fixtures if f.id == fixture.id)
    assert (again.status, again.winner) == ("done", loser.side_no)
    row = next(r for r in world.bot.leagues.standings(league) if r.side == loser.side_no)
    assert (row.points, row.won, row.lost) == (2, 1, 0)
    [history] = await world.bot.organizer.history(league.id)
    assert history.reason == "Se sentó un suplente" and history.before.startswith(f"done:{played_winner}:")
    shown = await world.caro.slash(world.channel, "cuarenta league view")
    assert "Round 2 of 3" in shown.response.content
    assert world.env.errors == []


async def test_a_swiss_correction_stands_while_no_later_match_was_played_and_is_refused_after(world):
    await world.eva.slash(world.channel, "cuarenta tournament create", name="Suizo", format="swiss", rounds=2,
                          rules="rapido")
    members = {m.id: m for m in (world.ana, world.beto, world.caro, world.dani)}
    for member in members.values():
        await member.slash(world.channel, "cuarenta tournament signup")
    await world.eva.slash(world.channel, "cuarenta tournament close")
    tour = world.bot.tournaments.tournaments[1]
    for m in [m for m in tour.matches if m.round == 1]:
        await world.eva.slash(world.channel, "cuarenta tournament result", round=1, player=members[m.a_user],
                              outcome="win", reason="Ronda 1")
    assert tour.current_round == 2
    first = next(m for m in tour.matches if m.round == 1)
    ok = await world.eva.slash(world.channel, "cuarenta tournament result", round=1, player=members[first.a_user],
                               outcome="loss", reason="Corregido antes de la ronda 2")
    assert ok.response.content.startswith("Done:") and first.winner == first.b_user
    points = {r.player: r.points for r in world.bot.tournaments.swiss_standings(tour)}
    assert points[first.b_user] == 1 and points[first.a_user] == 0, "the standings follow"
    later = next(m for m in tour.matches if m.round == 2)
    await world.eva.slash(world.channel, "cuarenta tournament result", round=2, player=members[later.a_user],
                          outcome="win", reason="Ronda 2")
    refused = await world.eva.slash(world.channel, "cuarenta tournament result", round=1,
                                    player=members[first.a_user], outcome="win", reason="Tarde")
    assert refused.response.content == t("err.correct_later_played", "en", round=2)
    assert first.winner == first.b_user
    assert [c.reason for c in await world.bot.organizer.history(1, "tournament")] == [
        "Ronda 1", "Ronda 1", "Corregido antes de la ronda 2", "Ronda 2"]
    assert world.env.errors == []
