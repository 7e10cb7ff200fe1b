"""The web pages' own rows (`bot.web.data`) on each backend: the opt-in, the opaque player numbers (one
per player per server, read back only in that server) and the rating history."""

from __future__ import annotations

from datetime import timedelta

from bot.ratings import Ratings
from bot.store import Store
from bot.web.data import player_numbers, player_of, rating_history, set_web_pages, web_pages_on
from tests.ratings.conftest import T0
from tests.ratings.helpers import result

ANA, BETO, CARO = 10**17 + 1, 10**17 + 2, 10**17 + 3


async def test_the_opt_in_is_off_by_default_and_per_server(database_url):
    store = await Store.open(database_url)
    try:
        db = store.db
        assert not await web_pages_on(db, 1)
        await set_web_pages(db, 1, True)
        assert await web_pages_on(db, 1) and not await web_pages_on(db, 2)
        await store.set_guild_language(1, "en")
        assert await web_pages_on(db, 1), "another setting leaves it on"
        await set_web_pages(db, 1, False)
        assert not await web_pages_on(db, 1)
    finally:
        await store.close()


async def test_player_numbers_are_stable_per_server_and_read_back_only_there(database_url):
    store = await Store.open(database_url)
    try:
        ratings = Ratings(store.db, clock=lambda: T0)
        await ratings.record_chica(result(1, 1, [[ANA], [BETO]], 0, guild=1, at=T0))
        await ratings.record_chica(result(1, 2, [[ANA], [BETO]], 1, guild=1, at=T0 + timedelta(minutes=5)))
        await ratings.record_chica(result(2, 1, [[CARO], [ANA]], 0, guild=2, at=T0 + timedelta(minutes=9)))
        await ratings.record_chica(result(3, 1, [[CARO], [BETO]], 0, guild=1, at=T0 + timedelta(minutes=12)))
        one = await player_numbers(store.db, 1, [ANA, BETO, CARO, None, 99])
        two = await player_numbers(store.db, 2, [ANA, BETO, CARO])
        assert set(one) == {ANA, BETO, CARO} and set(two) == {ANA, CARO}
        assert len(set(one.values())) == 3
        assert one[ANA] != two[ANA], "a player's number differs from server to server"
        for user, number in one.items():
            assert await player_of(store.db, 1, number) == user
            assert str(user) not in str(number)
        assert await player_of(store.db, 2, one[BETO]) is None, "another server's number reads as nobody"
        assert await player_of(store.db, 1, one[ANA] + 2) is None, "a seat nobody sat in"
        assert await player_of(store.db, 1, -1) is None and await player_of(store.db, 1, 2**70) is None
        assert await player_numbers(store.db, 1, [ANA]) == {ANA: one[ANA]}, "the same number every time"

        history = await rating_history(store.db, 1, ANA, "1v1")
        board = await ratings.leaderboard(1, "1v1")
        assert [v for _, v in history][-1] == next(r.rating for r in board.rows if r.user_id == ANA)
        assert len(history) == 2 and history[0][0] < history[1][0]
        assert await rating_history(store.db, 1, ANA, "2v2") == []
    finally:
        await store.close()
