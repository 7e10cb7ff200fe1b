"""The ratings repository on the bot's own schema, each test once on SQLite and once on PostgreSQL."""

from __future__ import annotations

import asyncio
import math
from datetime import timedelta

import pytest
from openskill.models import PlackettLuce

from bot.ratings import (
    NoCurrentSeasonError,
    Ratings,
    RatingsError,
    SeasonClose,
    SeatStats,
    Settings,
    Standing,
    UnknownSeasonError,
    display_rating,
    season_reset,
)
from bot.ratings.repo import _PUT_RATING
from bot.ratings.skill import SIGMA_DRIFT_PER_DAY
from bot.store import IntegrityError, Store

from .conftest import T0
from .helpers import add_mesa, result, seat_stats


async def rows(conn, sql, *args):
    return [tuple(r) for r in await conn.fetch(sql, *args)]


# ------------------------------------------------------------------ migration


async def test_schema_is_one_migration_after_the_first(database_url):
    store = await Store.open(database_url)
    try:
        assert await store.schema_version() >= 2
        await store.set_guild_language(1, "en")
        ratings = Ratings(store.db)
        assert (await ratings.settings(1)) == Settings(language="en")
        assert (await ratings.record_chica(result(1, 1, [[1], [2]], 0))).rated
        assert await store.guild_language(1) == "en"
    finally:
        await store.close()


# ------------------------------------------------------------------ recording and exactly-once


async def test_first_rated_chica_matches_openskill(repo, conn):
    rec = await repo.record_chica(result(1, 1, [[1], [2]], 0))
    assert rec and rec.stored and rec.rated and rec.season_number == 1
    model = PlackettLuce()
    [[w], [lo]] = model.rate([[model.rating()], [model.rating()]], ranks=[1, 2])
    got = await rows(conn, "SELECT user_id, mu, sigma, display, games, wins, losses, streak, peak"
                           " FROM ratings ORDER BY user_id")
    assert got[0][:3] == (1, pytest.approx(w.mu), pytest.approx(w.sigma))
    assert got[1][:3] == (2, pytest.approx(lo.mu), pytest.approx(lo.sigma))
    assert got[0][3:] == (display_rating(w.mu, w.sigma), 1, 1, 0, 1, display_rating(w.mu, w.sigma))
    # the loser's peak is the first shown rating it earned (the starting 1500 is not a peak)
    assert got[1][3:] == (display_rating(lo.mu, lo.sigma), 1, 0, 1, -1, display_rating(lo.mu, lo.sigma))
    assert [(c.user_id, c.before) for c in rec.changes] == [(1, 1500), (2, 1500)]
    assert rec.changes[0].after == got[0][3] and rec.changes[0].delta == got[0][3] - 1500


async def test_retry_is_a_no_op(repo, conn):
    r = result(1, 1, [[1, 3], [2, 4]], 1)
    assert (await repo.record_chica(r)).rated
    before = await rows(conn, "SELECT * FROM ratings ORDER BY user_id")
    again = await repo.record_chica(r)
    assert not again and not again.stored and again.changes == ()
    assert await rows(conn, "SELECT * FROM ratings ORDER BY user_id") == before
    assert await rows(conn, "SELECT COUNT(*) FROM chicas") == [(1,)]
    assert await rows(conn, "SELECT COUNT(*) FROM chica_players") == [(4,)]
    # the batch form skips what is stored and records the rest
    out = await repo.record_chicas([r, result(1, 2, [[1, 3], [2, 4]], 0)])
    assert [(o.stored, o.rated) for o in out] == [(False, False), (True, True)]


async def test_concurrent_duplicates_store_once(repo, conn):
    r = result(1, 1, [[1], [2]], 0)
    out = await asyncio.gather(*(repo.record_chica(r) for _ in range(5)))
    assert sum(o.stored for o in out) == 1 and sum(o.rated for o in out) == 1
    assert await rows(conn, "SELECT games FROM ratings") == [(1,), (1,)]


async def test_joins_the_callers_transaction(repo, conn):
    """Called while the store's transaction is open, the rating lives or dies with it."""
    await add_mesa(conn, 50, [1, 2], 0, (2, 0))

    class Died(Exception):
        pass

    with pytest.raises(Died):
        async with conn.transaction():
            await conn.execute("INSERT INTO plays (table_id, seq, seat, card, captures) VALUES (50, 0, 0, '1o', '')")
            assert (await repo.record_chica(result(50, 1, [[1], [2]], 0))).rated
            assert conn.in_transaction  # not committed behind the caller's back
            raise Died  # the bot died before the store committed
    assert await rows(conn, "SELECT COUNT(*) FROM chicas") == [(0,)]
    assert await rows(conn, "SELECT COUNT(*) FROM ratings") == [(0,)]
    assert await rows(conn, "SELECT COUNT(*) FROM plays") == [(0,)]
    # after the restart the same chica is recorded (once), and a second try changes nothing
    async with conn.transaction():
        await conn.execute("INSERT INTO plays (table_id, seq, seat, card, captures) VALUES (50, 0, 0, '1o', '')")
        assert (await repo.record_chica(result(50, 1, [[1], [2]], 0))).rated
    assert not (await repo.record_chica(result(50, 1, [[1], [2]], 0))).stored
    assert await rows(conn, "SELECT games FROM ratings ORDER BY user_id") == [(1,), (1,)]


@pytest.mark.parametrize("failure", ["python", "sql"])
async def test_a_failed_rating_undoes_only_itself_in_the_callers_transaction(repo, conn, monkeypatch, failure):
    """The table service records the chicas inside the store's transaction saving the play, and when that
    raises it logs the error and still commits the play: only the rating's own writes are undone (a
    savepoint), even after a failed statement, which on PostgreSQL aborts the whole transaction unless
    the savepoint is rolled back."""
    await add_mesa(conn, 50, [1, 2], 0, (2, 0))
    if failure == "python":
        def boom(*_a, **_k):
            raise RuntimeError("crash while rating")

        monkeypatch.setattr("bot.ratings.repo.rate", boom)
        expected: type[Exception] = RuntimeError
    else:  # the rating's upsert breaks a CHECK constraint (mode '1v1x')
        monkeypatch.setattr("bot.ratings.repo._PUT_RATING",
                            _PUT_RATING.replace("VALUES (?, ?, ?", "VALUES (?, ? || 'x', ?", 1))
        expected = IntegrityError
    async with conn.transaction():
        await conn.execute("INSERT INTO plays (table_id, seq, seat, card, captures) VALUES (50, 0, 0, '1o', '')")
        with pytest.raises(expected):
            await repo.record_chicas([result(50, 1, [[1], [2]], 0)])
        await conn.execute("INSERT INTO plays (table_id, seq, seat, card, captures) VALUES (50, 1, 1, '2o', '')")
    assert await rows(conn, "SELECT seq FROM plays ORDER BY seq") == [(0,), (1,)]
    assert await rows(conn, "SELECT COUNT(*) FROM chicas") == [(0,)]
    assert await rows(conn, "SELECT COUNT(*) FROM seasons") == [(0,)]
    assert await rows(conn, "SELECT COUNT(*) FROM ratings") == [(0,)]
    monkeypatch.undo()  # the startup catch-up records it later
    assert [r.rated for r in await repo.record_chicas([result(50, 1, [[1], [2]], 0)])] == [True]


async def test_a_rating_is_not_visible_before_the_callers_commit(repo, conn, database_url):
    """Another bot process (a second connection) sees the chica only once the caller commits."""
    other = await Store.open(database_url)
    try:
        async with conn.transaction():
            assert (await repo.record_chica(result(1, 1, [[1], [2]], 0))).rated
            assert await rows(other.db, "SELECT COUNT(*) FROM chicas") == [(0,)]
        assert await rows(other.db, "SELECT COUNT(*) FROM chicas") == [(1,)]
    finally:
        await other.close()


async def test_two_processes_rating_the_same_players_lose_no_update(conn, clock, database_url):
    """Two bot processes on one database record chicas of the same players at the same time: every
    chica counts once, no rating update is lost, and the guild gets one season 1."""
    other = await Store.open(database_url)
    try:
        here, there = Ratings(conn, clock=clock), Ratings(other.db, clock=clock)

        async def play(repo, first_table):
            for k in range(8):
                await repo.record_chica(result(first_table + k, 1, [[1], [2]], k % 2))

        await asyncio.gather(play(here, 100), play(there, 200))  # both open the guild's first season
        await asyncio.gather(play(here, 300), play(there, 400))  # both rewrite the same two ratings
        assert await rows(conn, "SELECT user_id, games, wins, losses FROM ratings ORDER BY user_id") == [
            (1, 32, 16, 16), (2, 32, 16, 16)]
        assert await rows(conn, "SELECT COUNT(*) FROM chicas") == [(32,)]
        assert await rows(conn, "SELECT number FROM seasons") == [(1,)]
        # the rating history is one chain: each chica starts from the rating the previous one left
        chain = await rows(conn, "SELECT p.mu_before, p.mu_after FROM chica_players p"
                                 " JOIN chicas c ON c.id = p.chica_id WHERE p.user_id = 1 ORDER BY c.id")
        assert all(chain[i][1] == pytest.approx(chain[i + 1][0]) for i in range(len(chain) - 1))
    finally:
        await other.close()


async def test_failure_midway_leaves_nothing(repo, conn, monkeypatch):
    def boom(*_a, **_k):
        raise RuntimeError("crash while rating")

    monkeypatch.setattr("bot.ratings.repo.rate", boom)
    with pytest.raises(RuntimeError):
        await repo.record_chica(result(1, 1, [[1], [2]], 0))
    assert not conn.in_transaction
    assert await rows(conn, "SELECT COUNT(*) FROM chicas") == [(0,)]
    assert await rows(conn, "SELECT COUNT(*) FROM seasons") == [(0,)]
    monkeypatch.undo()
    assert (await repo.record_chica(result(1, 1, [[1], [2]], 0))).rated


async def test_idle_sigma_grows_before_the_next_chica(repo, conn):
    await repo.record_chica(result(1, 1, [[1], [2]], 0, at=T0))
    [(sigma,)] = await rows(conn, "SELECT sigma FROM ratings WHERE user_id = 1")
    [(shown,)] = await rows(conn, "SELECT display FROM ratings WHERE user_id = 1")
    rec = await repo.record_chica(result(2, 1, [[1], [2]], 0, at=T0 + timedelta(days=30)))
    [(before, shown_before)] = await rows(
        conn, "SELECT sigma_before, display_before FROM chica_players p JOIN chicas c ON c.id = p.chica_id"
              " WHERE c.table_id = 2 AND p.user_id = 1")
    assert before == pytest.approx(math.sqrt(sigma**2 + 30 * SIGMA_DRIFT_PER_DAY))
    # the change is shown from the rating the board showed, not from the inflated one
    assert rec.changes[0].before == shown == shown_before


# ------------------------------------------------------------------ computer players


async def test_computer_games_are_casual_unless_the_server_says_so(repo, conn):
    stats = seat_stats(SeatStats(caidas=2), players=2)
    rec = await repo.record_chica(result(1, 1, [[1], [None]], 0, stats=stats))
    assert rec.stored and not rec.rated and rec.changes == ()
    assert await rows(conn, "SELECT COUNT(*) FROM ratings") == [(0,)]
    s = await repo.stats(1, 1)
    assert (s.chicas, s.chicas_won, s.caidas, s.modes["1v1"].rated_chicas) == (1, 1, 2, 0)
    assert s.modes["1v1"].rating is None

    await repo.set_settings(1, rate_bots=True)
    rec = await repo.record_chica(result(2, 1, [[1, None], [None, 2]], 1))
    assert rec.rated and [c.user_id for c in rec.changes] == [1, 2]
    assert await rows(conn, "SELECT user_id, games, wins FROM ratings ORDER BY user_id") == [(1, 1, 0), (2, 1, 1)]
    # no person at all: never rated
    assert not (await repo.record_chica(result(3, 1, [[None], [None]], 0))).rated
    # the setting is per server
    assert not (await repo.record_chica(result(4, 1, [[5], [None]], 0, guild=2))).rated


# ------------------------------------------------------------------ stats and history


async def _scenario(repo, conn):
    """User 1 plays three mesas (see the hand count in test_stats_by_hand)."""
    A = SeatStats
    await add_mesa(conn, 1, [1, 2, 3, 4], 0, (2, 0), seed="seed-1", finished_at="2026-03-01T12:10:00Z")
    await repo.record_chica(result(1, 1, [[1, 3], [2, 4]], 0, scores=(40, 10), zapatero=True,
                                   stats=seat_stats(A(2, 1, 1), A(1), A(0, 0, 1), players=4)))
    await repo.record_chica(result(1, 2, [[1, 3], [2, 4]], 0, scores=(40, 30)))
    await add_mesa(conn, 2, [5, 1], 1, (1, 2), seed="seed-2", finished_at="2026-03-01T12:20:00Z")
    await repo.record_chica(result(2, 1, [[5], [1]], 0, scores=(40, 12), zapatero=True,
                                   stats=seat_stats(A(), A(1), players=2)))
    await repo.record_chica(result(2, 2, [[5], [1]], 1, scores=(36, 40)))
    await repo.record_chica(result(2, 3, [[5], [1]], 1, scores=(20, 40)))
    await add_mesa(conn, 3, [2, 1, 4, 3], 1, (0, 1), seed="seed-3", zapateria=True,
                   finished_at="2026-03-01T12:30:00Z")
    await repo.record_chica(result(3, 1, [[2, 4], [1, 3]], 1, scores=(0, 40), zapatero=True,
                                   stats=seat_stats(A(), A(0, 1, 0, 1), players=4)))


async def test_stats_by_hand(repo, conn):
    await _scenario(repo, conn)
    s = await repo.stats(1, 1)
    two, one = s.modes["2v2"], s.modes["1v1"]
    assert (two.mesas, two.mesas_won, two.chicas, two.chicas_won, two.best_streak) == (2, 2, 3, 3, 3)
    assert (one.mesas, one.mesas_won, one.chicas, one.chicas_won, one.best_streak) == (1, 1, 3, 2, 2)
    assert one.win_rate == pytest.approx(2 / 3) and two.win_rate == 1.0
    assert (s.mesas, s.mesas_won, s.chicas, s.chicas_won) == (3, 3, 6, 5)
    assert (s.caidas, s.limpias, s.rondas, s.doble_rondas) == (3, 2, 1, 1)
    assert (s.zapateros_given, s.zapateros_suffered) == (2, 1)
    assert s.best_streak == 3  # W W | L W W | W
    assert s.partner == (3, 3)
    assert two.rated_chicas == 3 and two.rating is not None and two.peak >= two.rating
    assert two.best_peak == two.peak
    newest = s.last_results[0]
    assert (newest.table_id, newest.chica_number, newest.won, newest.scores) == (3, 1, True, (40, 0))
    assert (newest.partners, newest.opponents, newest.zapatero, newest.rated) == ((3,), (2, 4), True, True)
    assert [(c.table_id, c.chica_number) for c in s.last_results] == [
        (3, 1), (2, 3), (2, 2), (2, 1), (1, 2), (1, 1)]
    assert s.last_results[3].scores == (12, 40) and not s.last_results[3].won
    assert s.last_results[3].change < 0 < s.last_results[2].change
    # user 2 lost the zapatero chica of mesa 1 and mesa 3, and never partnered user 1
    s2 = await repo.stats(1, 2)
    assert (s2.zapateros_given, s2.zapateros_suffered, s2.partner) == (0, 2, (4, 3))
    assert (s2.caidas, s2.chicas_won) == (1, 0)
    nobody = await repo.stats(1, 999)
    assert (nobody.chicas, nobody.mesas, nobody.partner, nobody.last_results) == (0, 0, None, [])


async def test_history(repo, conn):
    await _scenario(repo, conn)
    h = await repo.history(1, 1)
    assert [m.table_id for m in h] == [3, 2, 1]
    m3, m2, m1 = h
    assert (m3.mode, m3.won, m3.chicas, m3.zapateria, m3.partners, m3.opponents) == (
        "2v2", True, (1, 0), True, (3,), (2, 4))
    assert m3.chica_scores == [(40, 0)] and m3.seed == "seed-3" and m3.seats == [2, 1, 4, 3]
    assert (m2.mode, m2.won, m2.chicas, m2.partners, m2.opponents) == ("1v1", True, (2, 1), (), (5,))
    assert m2.chica_scores == [(12, 40), (40, 36), (40, 20)]
    assert m1.chica_scores == [(40, 10), (40, 30)] and m1.preset == "quito"
    assert [m.table_id for m in await repo.history(1, 1, limit=1, offset=1)] == [2]
    h2 = await repo.history(1, 2)
    assert [(m.table_id, m.won, m.chicas) for m in h2] == [(3, False, (0, 1)), (1, False, (0, 2))]


# ------------------------------------------------------------------ leaderboard


async def _league(repo, players=25, rounds=3, table=100):
    """1v1 chicas on new tables after ``table``: each round, i plays i+1 (mod n); who wins follows a
    fixed pattern (two of three to the first seat)."""
    for rnd in range(rounds):
        for i in range(1, players + 1):
            j = i % players + 1
            table += 1
            winner = 0 if (i + rnd) % 3 else 1
            await repo.record_chica(result(table, 1, [[i], [j]], winner))


async def test_leaderboard_pages_and_ranks(repo, conn):
    await repo.set_settings(1, min_games=2)
    await _league(repo)
    await repo.record_chica(result(999, 1, [[77], [78]], 0))  # one game each: provisional, not ranked
    every = await rows(conn, "SELECT user_id, display FROM ratings WHERE games >= 2"
                             " ORDER BY display DESC, user_id")
    assert len(every) == 25
    p0 = await repo.leaderboard(1, "1v1", page=0, viewer=every[13][0])
    assert (p0.total, p0.ranked, p0.pages, p0.page, p0.frozen) == (27, 25, 3, 0, False)
    assert all(r.ranked for r in p0.rows)
    assert [r.rank for r in p0.rows] == list(range(1, 11))
    assert [(r.user_id, r.rating) for r in p0.rows] == every[:10]
    assert all(r.games == r.wins + r.losses == 6 for r in p0.rows)
    assert p0.rows[0].win_rate == p0.rows[0].wins / 6
    assert p0.viewer.standing is Standing.RANKED and p0.viewer.rank == 14
    p2 = await repo.leaderboard(1, "1v1", page=7)  # clamped to the last page
    assert p2.page == 2 and [r.rank for r in p2.rows] == [*range(21, 26), 0, 0] and p2.viewer is None
    assert [r.user_id for r in p2.rows] == [u for u, _ in every[20:]] + [77, 78], "provisional ones last"
    assert [r.ranked for r in p2.rows] == [True] * 5 + [False] * 2
    newbie = (await repo.leaderboard(1, "1v1", viewer=77)).viewer
    assert (newbie.standing, newbie.rank, newbie.games, newbie.min_games) == (Standing.FEW_GAMES, None, 1, 2)
    stranger = (await repo.leaderboard(1, "1v1", viewer=12345)).viewer
    assert (stranger.standing, stranger.games, stranger.rating) == (Standing.FEW_GAMES, 0, None)
    empty = await repo.leaderboard(1, "2v2")
    assert (empty.total, empty.pages, empty.rows) == (0, 1, [])
    with pytest.raises(RatingsError):
        await repo.leaderboard(1, "3v3")


async def test_every_viewer_rank_matches_the_order(repo, conn):
    await repo.set_settings(1, min_games=1)
    await _league(repo, players=9, rounds=2)  # small pool: equal ratings happen, ties go by user id
    order = [u for (u,) in await rows(conn, "SELECT user_id FROM ratings ORDER BY display DESC, user_id")]
    displays = [d for (d,) in await rows(conn, "SELECT display FROM ratings")]
    assert len(set(displays)) < len(displays)
    for expected, user in enumerate(order, start=1):
        assert (await repo.leaderboard(1, "1v1", viewer=user)).viewer.rank == expected


async def test_inactive_players_leave_the_board(repo, clock):
    await repo.set_settings(1, min_games=1, active_days=30)
    await repo.record_chica(result(1, 1, [[1], [2]], 0))
    clock.advance(days=31)
    board = await repo.leaderboard(1, "1v1", viewer=1)
    assert board.total == 0 and board.viewer.standing is Standing.INACTIVE and board.viewer.games == 1
    await repo.set_settings(1, active_days=0)
    assert (await repo.leaderboard(1, "1v1")).total == 2


async def test_no_season_yet(repo):
    board = await repo.leaderboard(1, "1v1", viewer=5)
    assert board.season is None and board.rows == [] and board.viewer.standing is Standing.FEW_GAMES
    assert await repo.current_season(1) is None
    with pytest.raises(UnknownSeasonError):
        await repo.leaderboard(1, "1v1", season=3)


# ------------------------------------------------------------------ seasons


async def test_season_close_freezes_and_soft_resets(repo, conn, clock):
    await repo.set_settings(1, min_games=2)
    await _league(repo, players=12)
    live = await repo.leaderboard(1, "1v1", page=1, viewer=3)
    old = {u: (mu, s) for u, mu, s in await rows(conn, "SELECT user_id, mu, sigma FROM ratings")}
    clock.advance(hours=1)
    closed = await repo.end_season(1)
    assert isinstance(closed, SeasonClose)
    assert (closed.closed.number, closed.closed.current, closed.next.number, closed.next.current) == (
        1, False, 2, True)
    assert closed.next.reset_policy == "soft" and closed.next.name is None
    first = await repo.leaderboard(1, "1v1", season=1, page=0)
    assert [(r.user_id, r.rating) for r in closed.top["1v1"]] == [(r.user_id, r.rating) for r in first.rows]
    assert closed.top["2v2"] == []
    # soft reset carried every rating into season 2, with no games yet
    new = await rows(conn, "SELECT user_id, mu, sigma, games, display FROM ratings WHERE season_id = ?",
                     closed.next.id)
    assert len(new) == 12
    for user, mu, sigma, games, display in new:
        assert (mu, sigma) == pytest.approx(season_reset(*old[user], "soft"))
        assert games == 0 and display == display_rating(mu, sigma)
    assert (await repo.leaderboard(1, "1v1")).total == 0
    # season 2 games do not move the frozen season 1
    await _league(repo, players=12, rounds=1, table=500)
    await repo.set_settings(1, min_games=50)
    frozen = await repo.leaderboard(1, "1v1", season=1, page=1, viewer=3)
    assert frozen.frozen and frozen.season.number == 1
    assert frozen.rows == live.rows and frozen.total == live.total and frozen.viewer.rank == live.viewer.rank
    s = await repo.stats(1, 3)
    mine = await rows(conn, "SELECT season_id, peak, games FROM ratings WHERE user_id = 3 ORDER BY season_id")
    assert [g for _, _, g in mine] == [6, 2]
    assert s.modes["1v1"].chicas == 8 and s.modes["1v1"].rated_chicas == 8
    assert s.modes["1v1"].peak == mine[1][1] and s.modes["1v1"].best_peak == max(p for _, p, _ in mine)


async def test_hard_and_none_resets(repo, conn):
    await repo.record_chica(result(1, 1, [[1], [2]], 0))
    await repo.set_settings(1, reset_policy="hard")
    hard = await repo.end_season(1, next_name="Invierno")
    assert hard.next.name == "Invierno" and hard.next.reset_policy == "hard"
    assert await rows(conn, "SELECT COUNT(*) FROM ratings WHERE season_id = ?", hard.next.id) == [(0,)]
    await repo.record_chica(result(2, 1, [[1], [2]], 0))
    await repo.set_settings(1, reset_policy="none")
    kept = await repo.start_season(1, "Verano")
    assert isinstance(kept, SeasonClose) and kept.next.name == "Verano" and kept.next.number == 3
    assert await rows(conn, "SELECT user_id, mu, sigma FROM ratings WHERE season_id = ? ORDER BY user_id",
                      hard.next.id) == await rows(
        conn, "SELECT user_id, mu, sigma FROM ratings WHERE season_id = ? ORDER BY user_id", kept.next.id)
    assert [s.number for s in await repo.seasons(1)] == [1, 2, 3]


async def test_season_start_and_end_edge_cases(repo):
    with pytest.raises(NoCurrentSeasonError):
        await repo.end_season(1)
    first = await repo.start_season(1, "  Apertura ")
    assert first.number == 1 and first.name == "Apertura" and first.current
    rec = await repo.record_chica(result(1, 1, [[1], [2]], 0))
    assert rec.season_number == 1
    with pytest.raises(RatingsError):
        await repo.start_season(1, "x" * 65)


# ------------------------------------------------------------------ isolation and settings


async def test_guilds_are_kept_apart(repo, conn):
    await repo.set_settings(1, min_games=1)
    await repo.set_settings(2, min_games=1, reset_policy="hard")
    await add_mesa(conn, 1, [1, 2], 0, (2, 0), guild=1)
    await repo.record_chica(result(1, 1, [[1], [2]], 0, guild=1))
    await repo.record_chica(result(1, 2, [[1], [2]], 0, guild=1))
    await add_mesa(conn, 2, [1, 2], 1, (0, 2), guild=2)
    await repo.record_chica(result(2, 1, [[1], [2]], 1, guild=2))
    g1, g2 = await repo.leaderboard(1, "1v1"), await repo.leaderboard(2, "1v1")
    assert [(r.user_id, r.wins) for r in g1.rows] == [(1, 2), (2, 0)]
    assert [(r.user_id, r.wins) for r in g2.rows] == [(2, 1), (1, 0)]
    s1, s2 = await repo.stats(1, 1), await repo.stats(2, 1)
    assert (s1.chicas, s1.chicas_won, s1.mesas, s1.mesas_won) == (2, 2, 1, 1)
    assert (s2.chicas, s2.chicas_won, s2.mesas, s2.mesas_won) == (1, 0, 1, 0)
    assert [m.table_id for m in await repo.history(1, 1)] == [1]
    assert [m.table_id for m in await repo.history(2, 1)] == [2]
    assert await repo.stats(3, 1) == await repo.stats(3, 1)
    assert (await repo.stats(3, 1)).chicas == 0
    closed = await repo.end_season(2)
    assert closed.next.number == 2 and (await repo.current_season(1)).number == 1
    assert (await repo.leaderboard(1, "1v1")).total == 2
    assert (await repo.settings(1)).reset_policy == "soft"
    with pytest.raises(RatingsError):  # a table id of server 1 can never be recorded for server 2
        await repo.record_chica(result(1, 1, [[1], [2]], 0, guild=2))


async def test_settings(repo, conn):
    assert await repo.settings(1) == Settings()
    s = await repo.set_settings(1, rate_bots=True, min_games=5, active_days=0, reset_policy="hard",
                                default_preset="cuenca", language="en")
    assert s == Settings("en", True, 5, 0, "hard", "cuenca")
    assert await repo.settings(1) == s and await repo.settings(2) == Settings()
    assert (await repo.set_settings(1, min_games=7)).min_games == 7
    assert await rows(conn, "SELECT language FROM guild_settings WHERE guild_id = 1") == [("en",)]
    for bad in ({"rate_bots": 1}, {"min_games": -1}, {"min_games": True}, {"active_days": 4000},
                {"reset_policy": "medium"}, {"default_preset": "lima"}, {"language": "fr"}, {"colour": 1},
                {"table_place": "forum"}, {"table_place": None}):
        with pytest.raises(RatingsError):
            await repo.set_settings(1, **bad)
    assert (await repo.settings(1)).min_games == 7


async def test_where_tables_play_is_the_channel_until_set_to_thread(repo):
    assert (await repo.settings(1)).table_place == "channel"
    await repo.set_settings(1, min_games=3)
    assert (await repo.settings(1)).table_place == "channel", "a server row made by another setting"
    assert (await repo.set_settings(1, table_place="thread")).table_place == "thread"
    assert (await repo.settings(1)).min_games == 3 and (await repo.settings(2)).table_place == "channel"


# ------------------------------------------------------------------ a new server's board, the story in stats


async def test_a_first_rated_chica_lists_both_players_as_provisional_and_ranks_nobody(repo):
    await repo.record_chica(result(1, 1, [[1], [2]], 0))
    board = await repo.leaderboard(1, "1v1", viewer=1)
    assert (board.total, board.ranked) == (2, 0)
    assert [(r.user_id, r.rank, r.ranked, r.games) for r in board.rows] == [(1, 0, False, 1), (2, 0, False, 1)]
    assert board.viewer.standing is Standing.FEW_GAMES and board.viewer.rank is None, "no rank before 10"
    closed = await repo.end_season(1)
    assert closed.top["1v1"] == [], "a closed season's standings keep only ranked players"
    assert (await repo.leaderboard(1, "1v1", season=1)).rows == []


async def test_the_busiest_mode_counts_rated_chicas_of_this_season_and_ties_go_to_1v1(repo):
    assert await repo.busiest_mode(1) == "1v1", "no season yet"
    await repo.record_chica(result(1, 1, [[1, 2], [3, 4]], 0))
    assert await repo.busiest_mode(1) == "2v2"
    await repo.record_chica(result(2, 1, [[1], [2]], 0))
    assert await repo.busiest_mode(1) == "1v1", "a tie"
    await repo.record_chica(result(3, 1, [[1, 2], [3, 4]], 1))
    await repo.record_chica(result(4, 1, [[1], [None]], 1))  # a computer seat: casual, not counted
    assert await repo.busiest_mode(1) == "2v2"
    await repo.end_season(1)
    await repo.record_chica(result(5, 1, [[1], [2]], 0))
    assert await repo.busiest_mode(1) == "1v1", "only this season counts"


async def test_stats_tell_the_current_streak_and_the_caidas_of_the_last_7_days(repo, clock):
    def caidas(n):
        return seat_stats(SeatStats(caidas=n), players=2)

    await repo.record_chica(result(1, 1, [[1], [2]], 0, stats=caidas(3), at=T0))
    clock.advance(days=8)
    when = clock.now
    for i, winner in enumerate((1, 0, 0)):
        await repo.record_chica(result(10 + i, 1, [[1], [2]], winner, stats=caidas(2), at=when))
    one = await repo.stats(1, 1)
    assert (one.current_streak, one.best_streak, one.caidas, one.caidas_week) == (2, 2, 9, 6)
    two = await repo.stats(1, 2)
    assert (two.current_streak, two.best_streak, two.caidas_week) == (-2, 1, 0)
    assert (await repo.stats(1, 99)).current_streak == 0
