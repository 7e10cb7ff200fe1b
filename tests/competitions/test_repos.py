"""The competitions' SQL on both backends: queue entries and channels, the
organizer role, leagues with their sides, draw and fixtures, and the fixture result written inside the
transaction that saves a mesa's last play."""

from __future__ import annotations

import pytest

from bot.competitions.league_repo import Fixture, League, LeagueRepo, Side
from bot.competitions.repo import Entry, QueueRepo
from bot.competitions.settings import CompetitionSettings
from bot.store import IntegrityError

GUILD = 1_300_000_000_000_000_001  # Discord ids are 64-bit
CHANNEL = 1_300_000_000_000_000_002
ANA, BETO, CARO, DANI = 1_100_000_000_000_000_010, 1_100_000_000_000_000_020, 30, 40


# ---------------------------------------------------------------------------------------------- queue


async def test_queue_entries_come_back_in_queue_order_with_their_types(store):
    repo = QueueRepo(store)
    await repo.add(Entry(BETO, GUILD, "1v1", "beto", "es", 1_800_000_000.5, 1_800_000_000.5))
    await repo.add(Entry(ANA, GUILD, "1v1", "ana", "en", 1_800_000_000.5, 1_800_000_000.5))  # same instant
    await repo.add(Entry(CARO, GUILD, "2v2", "caro", "pt_BR", 1_799_999_999.0, 1_799_999_999.0, True))
    entries = await repo.entries()
    assert [e.user_id for e in entries] == [CARO, ANA, BETO], "joined_at, then user id on a tie"
    assert entries[0] == Entry(CARO, GUILD, "2v2", "caro", "pt_BR", 1_799_999_999.0, 1_799_999_999.0, True)
    assert entries[1] == Entry(ANA, GUILD, "1v1", "ana", "en", 1_800_000_000.5, 1_800_000_000.5, False)
    assert all(isinstance(e.joined_at, float) and isinstance(e.reminded, bool) for e in entries)

    await repo.renew(ANA, 1_800_000_600.25, True)
    await repo.remove([BETO, CARO])
    await repo.remove([])
    assert await repo.entries() == [Entry(ANA, GUILD, "1v1", "ana", "en", 1_800_000_000.5, 1_800_000_600.25, True)]


async def test_a_person_waits_in_one_queue(store):
    repo = QueueRepo(store)
    await repo.add(Entry(ANA, GUILD, "1v1", "ana", "es", 1.0, 1.0))
    with pytest.raises(IntegrityError):
        await repo.add(Entry(ANA, GUILD + 1, "2v2", "ana", "es", 2.0, 2.0))
    assert [e.guild_id for e in await repo.entries()] == [GUILD], "the refused write left nothing behind"


async def test_queue_channel_is_set_and_replaced(store):
    repo = QueueRepo(store)
    assert await repo.queue_channel(GUILD) is None
    await repo.set_queue_channel(GUILD, CHANNEL, None)
    assert await repo.queue_channel(GUILD) == (CHANNEL, None)
    await repo.set_queue_channel(GUILD, CHANNEL + 1, 1_400_000_000_000_000_003)
    assert await repo.queue_channel(GUILD) == (CHANNEL + 1, 1_400_000_000_000_000_003)


async def test_queue_ratings_are_the_current_seasons(store):
    db = store.db
    old = await db.insert("INSERT INTO seasons (guild_id, number, reset_policy, started_at, ended_at)"
                          " VALUES (?, 1, 'soft', '2026-01-01T00:00:00Z', '2026-02-01T00:00:00Z')", GUILD)
    now = await db.insert("INSERT INTO seasons (guild_id, number, reset_policy, started_at)"
                          " VALUES (?, 2, 'soft', '2026-02-01T00:00:00Z')", GUILD)
    other = await db.insert("INSERT INTO seasons (guild_id, number, reset_policy, started_at)"
                            " VALUES (?, 1, 'soft', '2026-02-01T00:00:00Z')", GUILD + 1)
    rows = [(old, "1v1", ANA, 1900), (now, "1v1", ANA, 1620), (now, "2v2", ANA, 1700), (now, "1v1", BETO, 1480),
            (other, "1v1", CARO, 2000)]
    await db.executemany("INSERT INTO ratings (season_id, mode, user_id, mu, sigma, display, peak)"
                         " VALUES (?, ?, ?, 25.0, 8.333, ?, ?)", [(s, m, u, d, d) for s, m, u, d in rows])
    repo = QueueRepo(store)
    assert await repo.ratings(GUILD, "1v1", [ANA, BETO, CARO, DANI]) == {ANA: 1620.0, BETO: 1480.0}
    assert await repo.ratings(GUILD, "2v2", [ANA]) == {ANA: 1700.0}
    assert await repo.ratings(GUILD, "1v1", []) == {}


# ---------------------------------------------------------------------------------------------- organizer role


async def test_the_organizer_role_is_set_cleared_and_honoured(store):
    settings = CompetitionSettings(store)
    assert await settings.organizer_role(GUILD) is None
    role = 1_200_000_000_000_000_777
    await settings.set_organizer_role(GUILD, role)
    assert await settings.organizer_role(GUILD) == role
    assert await settings.may_organize(GUILD, can_manage=False, role_ids=[5, role])
    assert not await settings.may_organize(GUILD, can_manage=False, role_ids=[5])
    assert await settings.may_organize(GUILD + 1, can_manage=True, role_ids=[])
    await settings.set_organizer_role(GUILD, None)
    assert await settings.organizer_role(GUILD) is None
    assert not await settings.may_organize(GUILD, can_manage=False, role_ids=[role])


# ---------------------------------------------------------------------------------------------- leagues


def _league(**kw) -> League:
    base = dict(id=0, guild_id=GUILD, channel_id=CHANNEL, name="Liga de prueba", mode="2v2", preset="quito",
                double=True, round_days=3, win_points=3, loss_points=1, zapateria_bonus=1, policy="walkover",
                status="signup", organizer_id=ANA)
    base.update(kw)
    return League(**base)


async def test_a_league_is_stored_whole_and_read_back_the_same(store):
    repo = LeagueRepo(store)
    league = _league()
    league.id = await repo.create(league)
    assert league.id > 0
    second = _league(name="Otra", mode="1v1", double=False, policy="double_loss")
    second.id = await repo.create(second)
    assert second.id > league.id

    sides = [Side(1, ANA, "ana", BETO, "beto", locale1="en"), Side(2, CARO, "caro", DANI, "dani", accepted=False),
             Side(3, 50, "eva", None, None), Side(4, 70, "gus", 80, "hugo")]
    for side in sides:
        await repo.save_side(league.id, side)
    sides[1].accepted = True
    await repo.save_side(league.id, sides[1])  # the partner accepted: an update of the same side
    await repo.delete_side(league.id, 3)  # never became a side
    sides = [s for s in sides if s.side_no != 3]
    sides[2].user2, sides[2].name2, sides[2].locale2 = 90, "ivo", "pt_BR"  # hugo replaced by ivo
    await repo.replace_user(league.id, sides[2])

    league.signup_message_id = 1_500_000_000_000_000_001
    league.sides = sides
    await repo.save_league(league)

    league.status, league.current_round, league.round_deadline = "running", 1, 1_800_259_200.75
    league.fixtures = [Fixture(0, 1, 1, 2), Fixture(0, 2, 4, 1), Fixture(0, 3, 2, 4), Fixture(0, 1, 2, 1)]
    league.byes = {1: 4, 2: 2, 3: 1}
    await repo.draw(league)
    ids = [f.id for f in league.fixtures]
    assert len(set(ids)) == 4 and all(i > 0 for i in ids), "the draw gave every fixture its id"

    fixture = league.fixtures[0]
    fixture.status, fixture.ready_a = "pending", 1_800_000_100.125
    await repo.save_fixture(fixture)
    walkover = league.fixtures[1]
    walkover.status, walkover.winner, walkover.ready_b = "walkover", 4, 1_800_000_200.5
    await repo.save_fixture(walkover)
    league.reminded = True
    await repo.save_league(league)

    [loaded, other] = await repo.leagues_of(GUILD)  # newest first
    assert other.id == league.id and loaded.id == second.id
    league.fixtures.sort(key=lambda f: (f.round, f.id))
    assert other == league
    assert isinstance(other.round_deadline, float) and isinstance(other.double, bool)
    assert other.fixtures[0].ready_a == 1_800_000_100.125
    assert [lg.id for lg in await repo.open_leagues()] == [league.id, second.id]
    assert await repo.leagues_of(GUILD + 1) == []

    league.status = "finished"
    await repo.save_league(league)
    assert [lg.id for lg in await repo.open_leagues()] == [second.id]


async def _league_with_a_fixture_playing(store) -> tuple[LeagueRepo, League, int]:
    repo = LeagueRepo(store)
    league = _league(mode="1v1", double=False)
    league.id = await repo.create(league)
    for side in (Side(1, ANA, "ana"), Side(2, BETO, "beto")):
        await repo.save_side(league.id, side)
    league.status, league.current_round, league.round_deadline = "running", 1, 1_800_000_000.0
    league.fixtures = [Fixture(0, 1, 1, 2)]
    await repo.draw(league)
    table_id = await store.create_table(guild_id=GUILD, channel_id=CHANNEL, host_id=ANA, players=2,
                                        preset="quito", seats=[], meta={})
    fixture = league.fixtures[0]
    fixture.status, fixture.table_id = "playing", table_id
    await repo.save_fixture(fixture)
    fixture.status, fixture.winner, fixture.chicas, fixture.tantos, fixture.zapateria = \
        "done", 1, (2, 0), (80, 34), True
    return repo, league, table_id


async def test_a_result_written_in_the_save_transaction_commits_with_it(store):
    repo, league, table_id = await _league_with_a_fixture_playing(store)
    fixture = league.fixtures[0]

    async def hook() -> None:  # what the league's mesa hook does inside the table service's save
        await repo.record_result(fixture)

    await store.save_table(table_id=table_id, host_id=ANA, status="finished", seed="fixed", seats=[], game=None,
                           before_commit=hook)
    [stored] = (await repo.leagues_of(GUILD))[0].fixtures
    assert stored == fixture
    assert (await store.load_table(table_id)).status == "finished"


async def test_a_result_written_in_the_save_transaction_rolls_back_with_it(store):
    repo, league, table_id = await _league_with_a_fixture_playing(store)
    fixture = league.fixtures[0]

    async def hook() -> None:
        await repo.record_result(fixture)
        raise RuntimeError("a later hook failed")

    with pytest.raises(RuntimeError):
        await store.save_table(table_id=table_id, host_id=ANA, status="finished", seed="fixed", seats=[],
                               game=None, before_commit=hook)
    [stored] = (await repo.leagues_of(GUILD))[0].fixtures
    assert (stored.status, stored.winner, stored.table_id) == ("playing", None, table_id), "nothing written"
    assert (await store.load_table(table_id)).status == "lobby"


async def test_a_refused_draw_writes_nothing(store):
    repo = LeagueRepo(store)
    league = _league()
    league.id = await repo.create(league)
    league.status, league.current_round = "running", 1
    league.fixtures = [Fixture(0, 1, 1, 2)]
    league.byes = {1: 3}
    await repo.draw(league)
    again = _league(id=league.id, status="running", current_round=2)
    again.fixtures = [Fixture(0, 2, 1, 3)]
    again.byes = {1: 2}  # round 1 already has its bye: the primary key refuses it
    with pytest.raises(IntegrityError):
        await repo.draw(again)
    [stored] = await repo.leagues_of(GUILD)
    assert [(f.round, f.side_a, f.side_b) for f in stored.fixtures] == [(1, 1, 2)]
    assert (stored.current_round, stored.byes) == (1, {1: 3})
