"""A server's house-rule settings in the store, on both backends."""

from __future__ import annotations

import pytest

from bot.houserules.settings import HouseSettings, HouseSettingsRepo
from bot.store import Store

GUILD = 1_300_000_000_000_000_001


@pytest.fixture
async def store(database_url) -> Store:
    opened = await Store.open(database_url)
    yield opened
    await opened.close()


async def test_a_server_that_never_chose_has_the_defaults(store):
    assert await HouseSettingsRepo(store).get(GUILD) == HouseSettings({}, False)


async def test_settings_are_stored_changed_and_read_by_another_process(store):
    repo = HouseSettingsRepo(store)
    house = {"ronda": 0, "caida": 4, "name": "casa de ana", "flag": True}
    assert await repo.set(GUILD, house=house) == HouseSettings(house, False)
    assert await repo.set(GUILD, rated=True) == HouseSettings(house, True), "the house rules stay"
    assert await HouseSettingsRepo(store).get(GUILD) == HouseSettings(house, True), "from the database"
    assert await repo.set(GUILD, house={}) == HouseSettings({}, True)
    fresh = HouseSettingsRepo(store)
    assert await fresh.get(GUILD) == HouseSettings({}, True)
    assert await fresh.get(GUILD + 1) == HouseSettings({}, False), "servers do not share settings"
    assert await store.db.fetchval("SELECT rated FROM house_settings WHERE guild_id = ?", GUILD) == 1
