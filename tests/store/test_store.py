"""The store, on both backends (SQLite and PostgreSQL): numbered migrations applied once, one open
table per channel, settings, plays, the compact snapshot migration."""

from __future__ import annotations

import asyncio

import pytest

from bot.store import ChannelBusyError, SchemaTooNewError, Store, migrations
from bot.store.db import IntegrityError


async def test_migrations_bring_a_new_database_to_the_last_version_once(blank_database_url):
    database_url = blank_database_url
    store = await Store.open(database_url)
    last = migrations()[-1][0]
    assert await store.schema_version() == last
    if store.db.dialect == "sqlite":
        assert await store.db.fetchval("PRAGMA journal_mode") == "wal"
    await store.close()
    again = await Store.open(database_url)
    assert await again.migrate() == last, "migrating twice changes nothing"
    await again.close()


async def test_the_migrations_a_store_applied_are_listed_by_name(blank_database_url):
    store = await Store.open(blank_database_url, schema=2)
    assert store.applied == [p.stem for _n, p in migrations()[:2]]
    await store.close()
    again = await Store.open(blank_database_url)
    assert again.applied == [p.stem for _n, p in migrations()[2:]]
    await again.close()
    last = await Store.open(blank_database_url)
    assert last.applied == []
    await last.close()


async def test_a_schema_newer_than_this_build_is_refused_and_left_alone(database_url):
    store = await Store.open(database_url)
    newest = migrations()[-1][0]
    await store._set_version(newest + 1)
    await store.close()
    with pytest.raises(SchemaTooNewError, match="upgrade the bot") as refused:
        await Store.open(database_url)
    assert (refused.value.version, refused.value.newest) == (newest + 1, newest)
    with pytest.raises(SchemaTooNewError) as again:  # nor with a stop: and the version was left as it was
        await Store.open(database_url, schema=newest)
    assert again.value.version == newest + 1


async def test_a_channel_holds_one_open_table(database_url):
    store = await Store.open(database_url)
    kwargs = dict(guild_id=1, channel_id=2, host_id=3, players=2, preset="quito", seats=[None, None], meta={})
    first = await store.create_table(**kwargs)
    with pytest.raises(ChannelBusyError):
        await store.create_table(**kwargs)
    await store.save_table(table_id=first, host_id=3, status="closed", seed=None, seats=[None, None], game=None)
    second = await store.create_table(**kwargs)
    assert second > first, "a new table (PostgreSQL's sequence may skip the refused id)"
    assert [row.id for row in await store.load_open_tables()] == [second]
    await store.close()


async def test_guild_language_is_stored(database_url):
    store = await Store.open(database_url)
    assert await store.guild_language(5) is None
    await store.set_guild_language(5, "en")
    await store.set_guild_language(5, "es")
    assert await store.guild_language(5) == "es"
    await store.close()


async def test_migration_9_turns_whole_saved_games_into_snapshots_that_rebuild_them(blank_database_url):
    """A table saved before the compact snapshot (a whole version-1 game, and one of its plays
    missing from ``plays``) is rewritten as a snapshot, and loads as exactly the same game."""
    import json
    import random

    from bot.engine import Game, Play, Rules
    from bot.tables.service import _game_of

    database_url = blank_database_url
    store = await Store.open(database_url, schema=8)  # the database as it was before migration 9
    game = Game.new(Rules.preset("quito"), 2, "old")
    rng = random.Random(5)
    for _ in range(57):
        game.play(rng.choice(game.legal_plays()))
    table_id = await store.create_table(guild_id=1, channel_id=2, host_id=3, players=2, preset="quito",
                                        seats=[None, None], meta={})
    seats = [e.seat for e in game.events if e.kind == "played"]
    for seq, play in enumerate(game.plays[:-1]):  # the last play's row is missing
        await store.db.execute(
            "INSERT INTO plays (table_id, seq, seat, card, captures) VALUES (?, ?, ?, ?, ?)",
            table_id, seq, seats[seq], play.card.code, " ".join(c.code for c in play.sorted_captures()))
    await store.db.execute("UPDATE tables SET status = 'playing', seed = 'old', game = ? WHERE id = ?",
                           json.dumps(game.to_dict()), table_id)
    assert await store.schema_version() == 8
    await store.close()

    store = await Store.open(database_url)
    assert await store.schema_version() == migrations()[-1][0]
    row = await store.load_table(table_id)
    assert row.game == game.snapshot(), "the stored game is now the compact snapshot"
    assert len(row.plays) == 57 and row.plays[-1][0] == seats[-1]
    assert _game_of(row) == game
    assert Game.from_snapshot(row.game, [Play.parse(c, x.split()) for _, c, x in row.plays]).events == game.events
    await store.close()


async def test_a_saved_play_its_mesa_and_settings_read_back_the_same(database_url):
    """Every Store method round-trips its values on this backend: plays in order, the mesa row, the
    clocks, the turn timer, seat names."""
    store = await Store.open(database_url)
    seats = [{"user_id": 2**62 + 5, "name": "Ana"}, None]  # Discord ids need 64 bits
    tid = await store.create_table(guild_id=2**60, channel_id=2, host_id=3, players=2, preset="quito",
                                   seats=seats, meta={"guild": "g"})
    await store.save_table(table_id=tid, host_id=3, status="playing", seed="s", seats=seats,
                           game={"version": 2, "x": 1}, play=(0, 0, "7o", ""), timers={"turn": 5.5}, casual=True)
    await store.save_table(table_id=tid, host_id=3, status="finished", seed="s", seats=seats,
                           game={"version": 2, "x": 2}, play=(1, 1, "7c", "7o"),
                           mesa={"guild_id": 2**60, "channel_id": 2, "preset": "quito", "players": 2, "seed": "s",
                                 "winner": 1, "chicas_a": 0, "chicas_b": 2, "zapateria": 1, "seats": [2**62 + 5, None]})
    row = await store.load_table(tid)
    assert (row.status, row.game, row.plays, row.timers, row.casual) == (
        "finished", {"version": 2, "x": 2}, [(0, "7o", ""), (1, "7c", "7o")], {"turn": 5.5}, True)
    assert await store.plays(tid) == row.plays
    mesa = await store.mesa(tid)
    assert (mesa["winner"], mesa["chicas_b"], mesa["seats"]) == (1, 2, [2**62 + 5, None])
    assert [r.id for r in await store.load_finished_tables(1)] == [tid]
    assert await store.seat_names(2**60, [2**62 + 5, 9]) == {2**62 + 5: "Ana"}
    assert await store.guild_turn_timer(7) is None
    await store.set_guild_turn_timer(7, 45)
    assert await store.guild_turn_timer(7) == 45
    await store.close()


async def test_a_save_whose_hook_fails_writes_nothing(database_url):
    """The play, the state and the hook's own writes are one transaction: the hook raising leaves the
    table as it was."""
    store = await Store.open(database_url)
    tid = await store.create_table(guild_id=1, channel_id=2, host_id=3, players=2, preset="quito",
                                   seats=[None, None], meta={})

    async def hook():
        await store.set_guild_language(1, "en")  # joins the save's transaction
        raise RuntimeError("ratings failed")

    with pytest.raises(RuntimeError):
        await store.save_table(table_id=tid, host_id=3, status="playing", seed="s", seats=[None, None],
                               game={"version": 2}, play=(0, 0, "7o", ""), before_commit=hook)
    row = await store.load_table(tid)
    assert (row.status, row.plays) == ("lobby", [])
    assert await store.guild_language(1) is None
    await store.close()


async def test_a_batch_returns_each_statements_rows_and_is_one_transaction(database_url):
    """`Database.batch` (a play's save: one trip to SQLite's thread) runs its statements in order and
    returns their rows; a statement refused by a constraint leaves none of the batch written, and a batch
    inside an open transaction is rolled back with it."""
    store = await Store.open(database_url)
    db = store.db
    tid = await store.create_table(guild_id=1, channel_id=2, host_id=3, players=2, preset="quito",
                                   seats=[None, None], meta={})
    play = "INSERT INTO plays (table_id, seq, seat, card, captures) VALUES (?, ?, ?, ?, ?)"
    bump = "UPDATE tables SET version = version + 1 WHERE id = ? RETURNING version"
    rows = await db.batch([(bump, (tid,)), (play, (tid, 0, 0, "7o", "")), ("SELECT seq FROM plays WHERE table_id = ?", (tid,))])
    assert [[tuple(r) for r in stmt] for stmt in rows] == [[(1,)], [], [(0,)]]
    with pytest.raises(IntegrityError):  # seq 0 again: the primary key refuses it, and the bump goes too
        await db.batch([(bump, (tid,)), (play, (tid, 0, 1, "7c", ""))])
    assert await db.fetchval("SELECT version FROM tables WHERE id = ?", tid) == 1
    with pytest.raises(RuntimeError):
        async with db.transaction():
            await db.batch([(bump, (tid,)), (play, (tid, 1, 1, "7c", ""))])
            raise RuntimeError("the rest of the change failed")
    assert await db.fetchval("SELECT version FROM tables WHERE id = ?", tid) == 1
    assert [tuple(r) for r in await db.fetch("SELECT seq FROM plays WHERE table_id = ?", tid)] == [(0,)]
    await store.close()


async def test_a_clock_save_and_a_play_save_at_once_both_commit(database_url):
    """Found by the test of two tables' timers: a write read in two trips to SQLite's thread (its RETURNING
    row fetched in a second trip) was still in progress when another task's transaction committed, which
    SQLite refuses ("SQL statements in progress"), leaving that transaction open for every later one.
    Every statement is now one trip, and a table's clocks are written in a transaction of their own."""
    store = await Store.open(database_url)
    tid = await store.create_table(guild_id=1, channel_id=2, host_id=3, players=2, preset="quito",
                                   seats=[None, None], meta={})
    for seq in range(20):
        clocks, version = await asyncio.gather(
            store.save_timers(tid, {"turn": seq}),
            store.save_table(table_id=tid, host_id=3, status="playing", seed="s", seats=[None, None],
                             game={"version": 2, "at": seq}, play=(seq, seq % 2, "7o", "")))
        assert {clocks, version} == {2 * seq + 1, 2 * seq + 2}, "each write bumped the version once"
    row = await store.load_table(tid)
    assert len(row.plays) == 20 and row.version == 40
    await store.close()


async def test_migration_15_moves_the_message_ids_to_the_presenters_table(blank_database_url):
    """The message ids a table kept in ``tables.messages`` are in ``table_messages`` after migration 15,
    and load with the table's row; a table without ids loads with none."""
    import json

    database_url = blank_database_url
    store = await Store.open(database_url, schema=14)
    kwargs = dict(guild_id=1, host_id=3, players=2, preset="quito", seats=[None, None], meta={})
    kept = await store.create_table(channel_id=2, **kwargs)
    bare = await store.create_table(channel_id=3, **kwargs)
    ids = {"lobby": 2**62 + 1, "public": 2**62 + 2, "public_hand": 3, "dm_closed": [1],
           "dms": {"0": {"channel": 2**62 + 3, "message": 2**62 + 4, "hand": 3}}}
    await store.db.execute("UPDATE tables SET messages = ? WHERE id = ?", json.dumps(ids), kept)
    await store.close()

    store = await Store.open(database_url)
    assert (await store.load_table(kept)).messages == ids
    assert (await store.load_table(bare)).messages == {}
    assert [r.messages for r in await store.load_open_tables()] == [ids, {}]
    await store.close()


async def test_the_presenters_message_ids_are_kept_apart_from_the_tables_saves(database_url):
    """`TableMessages` replaces a table's ids, which the table's row reads back; a save of the table
    neither changes them nor is changed by them (its version moves only with its own saves); a table that
    is not stored keeps nothing."""
    from bot.store.messages import TableMessages

    store = await Store.open(database_url)
    messages = TableMessages(store.db)
    tid = await store.create_table(guild_id=1, channel_id=2, host_id=3, players=2, preset="quito",
                                   seats=[None, None], meta={})
    assert await messages.load(tid) == {}
    await messages.save(tid, {"lobby": 2**62 + 1})
    await messages.save(tid, {"lobby": 2**62 + 1, "public": 5, "public_hand": 1})
    assert await messages.load(tid) == {"lobby": 2**62 + 1, "public": 5, "public_hand": 1}
    await store.save_table(table_id=tid, host_id=3, status="playing", seed="s", seats=[None, None],
                           game={"version": 2}, play=(0, 0, "7o", ""))
    row = await store.load_table(tid)
    assert row.messages == {"lobby": 2**62 + 1, "public": 5, "public_hand": 1} and row.version == 1
    await messages.save(tid + 1, {"lobby": 7})
    assert await messages.load(tid + 1) == {}
    await store.close()


async def test_migration_16_adds_where_tables_play_as_the_channel_keeping_every_other_setting(blank_database_url):
    """A server's settings stored before migration 16 read back the same after it, with its tables in the
    channel; the column takes only ``channel`` and ``thread``."""
    from bot.ratings import Ratings

    database_url = blank_database_url
    store = await Store.open(database_url, schema=15)
    await store.db.execute("INSERT INTO guild_settings (guild_id, min_games, default_preset, reset_policy)"
                           " VALUES (?, ?, ?, ?)", 7, 3, "cuenca", "hard")
    await store.close()

    store = await Store.open(database_url, schema=16)
    assert await store.schema_version() == 16
    settings = await Ratings(store.db).settings(7)
    assert (settings.table_place, settings.min_games, settings.default_preset, settings.reset_policy) == (
        "channel", 3, "cuenca", "hard")
    await store.db.execute("UPDATE guild_settings SET table_place = 'thread' WHERE guild_id = 7")
    assert (await Ratings(store.db).settings(7)).table_place == "thread"
    with pytest.raises(IntegrityError):
        await store.db.execute("UPDATE guild_settings SET table_place = 'forum' WHERE guild_id = 7")
    await store.close()


async def test_failed_statements_are_counted_once_and_a_constraints_refusal_is_not(database_url):
    store = await Store.open(database_url)
    db = store.db
    kwargs = dict(guild_id=1, channel_id=2, host_id=3, players=2, preset="quito", seats=[None, None], meta={})
    await store.create_table(**kwargs)
    with pytest.raises(ChannelBusyError):
        await store.create_table(**kwargs)
    assert db.errors == 0, "a unique index refusing a second table is an answer, not a failure"

    with pytest.raises(Exception, match="no_such_table"):
        await db.fetch("SELECT * FROM no_such_table")
    assert db.errors == 1
    with pytest.raises(Exception, match="no_such_table"):
        async with db.transaction(), db.transaction():  # a savepoint in a transaction: three layers
            await db.execute("UPDATE no_such_table SET x = 1")
    assert db.errors == 2, "one failure, counted once however many layers it went through"

    await store.close()
    with pytest.raises(Exception):  # noqa: B017 - each backend has its own error for a closed database
        await db.fetchval("SELECT 1")
    assert db.errors == 3


def test_asyncpg_pool_retries_log_one_line_without_a_traceback(caplog):
    import logging

    from bot.store.db import quiet_pool_log

    quiet_pool_log()
    quiet_pool_log()
    pool_log = logging.getLogger("asyncpg.pool")
    assert sum(type(f).__name__ == "OneLineErrors" for f in pool_log.filters) == 1, "installed once"
    try:
        raise ConnectionRefusedError(111, "Connection refused")
    except ConnectionRefusedError:
        with caplog.at_level(logging.WARNING, logger="asyncpg.pool"):
            pool_log.warning("Failed to restore the pool connection floor; retrying", exc_info=True)
    [record] = caplog.records
    assert record.exc_info is None
    assert record.getMessage() == ("Failed to restore the pool connection floor; retrying "
                                   "(ConnectionRefusedError: [Errno 111] Connection refused)")
    assert "Traceback" not in caplog.text


async def test_seat_names_are_each_user_s_name_at_their_last_seat_in_that_server_only(database_url):
    """`Store.seat_names` reads only the tables whose seats hold a wanted id: the latest name still wins,
    an id that is part of another id's digits is not confused with it, and another server's seat is not
    read."""
    store = await Store.open(database_url)
    ana, ana_long, beto = 123456789012345678, 1234567890123456789, 223456789012345678

    def seat(user, name):
        return {"user_id": user, "name": name, "ai": None, "ai_number": 0, "locale": "es"}

    for channel, seats, guild in ((1, [seat(ana, "Ana"), seat(beto, "Beto")], 7),
                                  (2, [seat(ana_long, "Otra"), seat(beto, "Beto B")], 7),
                                  (3, [seat(ana, "Ana María"), None], 7),
                                  (4, [seat(beto, "Elsewhere"), None], 8)):
        await store.create_table(guild_id=guild, channel_id=channel, host_id=1, players=2, preset="quito",
                                 seats=seats, meta={})
    assert await store.seat_names(7, [ana, beto, 99]) == {ana: "Ana María", beto: "Beto B"}
    assert await store.seat_names(7, [ana_long]) == {ana_long: "Otra"}
    assert await store.seat_names(8, [ana]) == {}
    await store.close()
