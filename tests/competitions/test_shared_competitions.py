"""Several processes, for the competitions: with several bot processes over one PostgreSQL, a league or a
tournament is run by the process of its server's shard (`docs/SCALING.md` §7), but the last play of one of
its tables may be made by another process (every DM click reaches the process of shard 0). The process
that runs the competition then records the result from the stored table, once: at once when the save's
notice comes, else at the round's deadline. A process that does not run the server records nothing.

Two "processes" as in `test_shared_tables`: an event loop in a thread each, with its own connection pool
and its own services on a manual clock.
"""

from __future__ import annotations

import pytest

from bot.competitions.leagues import LeagueService
from bot.competitions.referee import Place
from bot.competitions.tournaments import TournamentService
from bot.tables import Played
from tests.support.helpers import pick_play
from tests.tables.test_shared_tables import Process, _until

GUILD = 1_300_000_000_000_000_001
CHANNEL = 1_300_000_000_000_000_002
ANA, BETO = 1_100_000_000_000_000_010, 1_100_000_000_000_000_020
DAY = 86400.0


class Presenter:
    """Records what the tournament service announces; opens a place for each match table."""

    def __init__(self) -> None:
        self.told: list[tuple[str, str | None]] = []

    def __getattr__(self, name):
        async def record(*args, **kwargs) -> None:
            match = args[1] if len(args) > 1 and not isinstance(args[1], list) else None
            self.told.append((name, getattr(match, "status", None)))
        return record

    async def make_channel(self, competition, match) -> Place:
        return Place(CHANNEL + 100 + match.id, "Quito Club", f"match-{match.id}")


@pytest.fixture
def processes(postgres_url):
    made = [Process(postgres_url), Process(postgres_url)]
    yield made
    for p in made:
        if p.service is not None:
            p.run(p.tournaments.close())
            p.run(p.leagues.close())
        p.stop()


def _start(p: Process, runs_the_server: bool) -> TournamentService:
    """Start ``p`` as the process that runs the tournament's server, or as one that does not (shard 0's,
    say, which receives the DM clicks of every table)."""
    svc = p.start()
    svc.serves_guild = (lambda g: g == GUILD) if runs_the_server else (lambda g: g != GUILD)
    p.presenter = Presenter()

    async def make() -> TournamentService:
        tournaments = TournamentService(svc.store, svc, p.clock, presenter=p.presenter)
        p.leagues = LeagueService(svc.store, svc, p.clock, presenter=p.presenter)
        for service in (tournaments, p.leagues):
            p.clock.watch(service._tasks)
            await service.load()
        return tournaments

    p.tournaments = p.run(make())
    return p.tournaments


def _final_in_play(owner: Process):
    """On the owner: a two-player final, both pressed «Jugar»; its match (the owner's) and table id."""
    svc = owner.tournaments

    async def go():
        t = await svc.create(guild_id=GUILD, channel_id=CHANNEL, organizer_id=ANA, name="Final",
                             format="elimination", preset="rapido", round_days=2)
        await svc.sign_up(t, user_id=ANA, name="ana", locale="es")
        await svc.sign_up(t, user_id=BETO, name="beto", locale="es")
        await svc.close_signup(t, user_id=ANA, can_manage=False)
        await svc.play(t, user_id=ANA)
        status, match = await svc.play(t, user_id=BETO)
        assert status == "opened"
        return match, match.table_id

    return owner.run(go())


def _play_out(p: Process, table_id: int) -> int:
    """Every play of the table's mesa made on ``p`` (which loads the table); the winning user."""
    tables = p.service

    async def go() -> int:
        table = await tables.fetch(table_id)
        for _ in range(4000):
            if table.status == "finished":
                break
            seat, play = pick_play(table)
            result = await tables.play(table.id, user_id=table.seats[seat].user_id, nonce=table.nonce,
                                       card=play.card.code, trail=play.is_trail,
                                       captures=" ".join(c.code for c in play.sorted_captures()) if play.captures
                                       else None)
            assert isinstance(result, Played)
        assert table.status == "finished"
        return table.seats[table.game.winner].user_id

    return p.run(go())


def test_a_mesa_ended_by_another_process_is_recorded_once_by_the_process_that_runs_the_tournament(processes):
    owner, other = processes
    _start(owner, runs_the_server=True)
    _start(other, runs_the_server=False)
    match, table_id = _final_in_play(owner)
    assert other.run(other.tournaments.load()) == 0, "a process loads no tournament of another's server"

    winner = _play_out(other, table_id)

    _until(owner, lambda: match.status == "done", "the owner recorded the final")
    owner.run(owner.clock.settle())
    assert (match.winner, match.wins_a + match.wins_b) == (winner, 1)
    row = owner.run(owner.service.store.db.fetchrow(
        "SELECT status, winner, wins_a, wins_b FROM tournament_matches WHERE id = ?", match.id))
    assert (row["status"], row["winner"], row["wins_a"] + row["wins_b"]) == ("done", winner, 1), "stored once"
    assert owner.presenter.told.count(("result", "done")) == 1, owner.presenter.told
    assert ("finished", None) in owner.presenter.told, "the tournament is over"
    assert other.presenter.told == [], "the process that played the last play recorded and told nothing"


def test_a_mesa_ended_elsewhere_whose_notice_never_came_is_recorded_at_the_deadline_not_lost(processes):
    owner, other = processes
    tournaments = _start(owner, runs_the_server=True)
    _start(other, runs_the_server=False)
    match, table_id = _final_in_play(owner)
    tournaments._watched.clear()  # as if every notice of the table's saves was lost (the connection was down)

    winner = _play_out(other, table_id)
    owner.run(owner.clock.settle())
    assert match.status == "playing", "nothing told the owner yet"

    owner.run(owner.clock.advance(2 * DAY + 5))
    assert (match.status, match.winner) == ("done", winner), "the stored result, not the deadline's policy"
    assert owner.presenter.told.count(("result", "done")) == 1, owner.presenter.told


def test_a_league_fixture_ended_by_another_process_is_recorded_once_by_the_process_that_runs_the_league(
        processes):
    owner, other = processes
    _start(owner, runs_the_server=True)
    _start(other, runs_the_server=False)
    leagues = owner.leagues

    async def fixture_in_play():
        league = await leagues.create(guild_id=GUILD, channel_id=CHANNEL, organizer_id=ANA, name="Liga",
                                      mode="1v1", preset="rapido")
        await leagues.sign_up(league, user_id=ANA, name="ana", locale="es")
        await leagues.sign_up(league, user_id=BETO, name="beto", locale="es")
        await leagues.close_signup(league, user_id=ANA, can_manage=False)
        await leagues.play(league, user_id=ANA)
        status, fixture = await leagues.play(league, user_id=BETO)
        assert status == "opened"
        return league, fixture

    league, fixture = owner.run(fixture_in_play())
    assert other.run(other.leagues.load()) == 0, "a process loads no league of another's server"

    winner = _play_out(other, fixture.table_id)

    _until(owner, lambda: fixture.status == "done", "the owner recorded the fixture")
    owner.run(owner.clock.settle())
    side = league.side_of(winner)
    assert side is not None and fixture.winner == side.side_no
    row = owner.run(owner.service.store.db.fetchrow("SELECT status, winner FROM league_fixtures WHERE id = ?",
                                                    fixture.id))
    assert (row["status"], row["winner"]) == ("done", side.side_no), "stored"
    assert owner.presenter.told.count(("result", "done")) == 1, owner.presenter.told
    assert league.status == "finished", "its only fixture played: the league is over"
    assert other.presenter.told == [], "the process that played the last play recorded and told nothing"
