"""The store: numbered migrations tracked by PRAGMA user_version, WAL, one open table per channel."""

from __future__ import annotations

import pytest

from bot.store import ChannelBusyError, Store, migrations


async def test_migrations_bring_a_new_database_to_the_last_version_once(tmp_path):
    path = str(tmp_path / "m.db")
    store = await Store.open(path)
    last = migrations()[-1][0]
    assert await store.schema_version() == last
    async with store.connection.execute("PRAGMA journal_mode") as cur:
        assert (await cur.fetchone())[0] == "wal"
    await store.close()
    again = await Store.open(path)
    assert await again.migrate() == last, "migrating twice changes nothing"
    await again.close()


async def test_a_channel_holds_one_open_table(tmp_path):
    store = await Store.open(str(tmp_path / "c.db"))
    kwargs = dict(guild_id=1, channel_id=2, host_id=3, players=2, preset="quito", seats=[None, None], meta={})
    first = await store.create_table(**kwargs)
    with pytest.raises(ChannelBusyError):
        await store.create_table(**kwargs)
    await store.save_table(table_id=first, host_id=3, status="closed", seed=None, seats=[None, None], game=None)
    assert await store.create_table(**kwargs) == first + 1
    assert [row.id for row in await store.load_open_tables()] == [first + 1]
    await store.close()


async def test_guild_language_is_stored(tmp_path):
    store = await Store.open(str(tmp_path / "g.db"))
    assert await store.guild_language(5) is None
    await store.set_guild_language(5, "en")
    await store.set_guild_language(5, "es")
    assert await store.guild_language(5) == "es"
    await store.close()


def test_the_openapi_validator_catches_a_bad_body():
    from .openapi import request_errors, route_of

    assert route_of("/users/@me/channels") == "/users/@me/channels"
    assert route_of("/channels/1/messages/2") == "/channels/{channel_id}/messages/{message_id}"
    bad = {"components": [{"type": 1, "components": [{"type": 2, "style": 1, "label": "x" * 81, "custom_id": "a"}]}]}
    assert request_errors("POST", "/channels/1/messages", bad)
    assert request_errors("POST", "/channels/1/messages", {"content": "hola"}) == []
    assert request_errors("POST", "/users/@me/channels", {"recipient_id": 5}), "snowflakes are strings"


async def test_migration_9_turns_whole_saved_games_into_snapshots_that_rebuild_them(tmp_path):
    """Issue 13: a table saved before the compact snapshot (a whole version-1 game, and one of its plays
    missing from ``plays``) is rewritten as a snapshot, and loads as exactly the same game."""
    import json
    import random

    from bot.engine import Game, Play, Rules
    from bot.tables.service import _game_of

    path = str(tmp_path / "old.db")
    store = await Store.open(path)
    game = Game.new(Rules.preset("quito"), 2, "old")
    rng = random.Random(5)
    for _ in range(57):
        game.play(rng.choice(game.legal_plays()))
    table_id = await store.create_table(guild_id=1, channel_id=2, host_id=3, players=2, preset="quito",
                                        seats=[None, None], meta={})
    seats = [e.seat for e in game.events if e.kind == "played"]
    for seq, play in enumerate(game.plays[:-1]):  # the last play's row is missing
        await store.connection.execute(
            "INSERT INTO plays (table_id, seq, seat, card, captures) VALUES (?, ?, ?, ?, ?)",
            (table_id, seq, seats[seq], play.card.code, " ".join(c.code for c in play.sorted_captures())))
    await store.connection.execute("UPDATE tables SET status = 'playing', seed = 'old', game = ? WHERE id = ?",
                                   (json.dumps(game.to_dict()), table_id))
    await store.connection.execute("PRAGMA user_version = 8")
    await store.connection.commit()
    await store.close()

    store = await Store.open(path)
    assert await store.schema_version() == migrations()[-1][0]
    row = await store.load_table(table_id)
    assert row.game == game.snapshot(), "the stored game is now the compact snapshot"
    assert len(row.plays) == 57 and row.plays[-1][0] == seats[-1]
    assert _game_of(row) == game
    assert Game.from_snapshot(row.game, [Play.parse(c, x.split()) for _, c, x in row.plays]).events == game.events
    await store.close()
