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
