"""The table service without Discord: refusals change nothing, accepted plays are persisted first,
one lock per table makes concurrent clicks play once."""

from __future__ import annotations

import asyncio

import pytest

from bot.engine import Card, Game, Play, Rules
from bot.tables import (
    Choice,
    IllegalPlayError,
    NotPlayingError,
    NotYourTurnError,
    Played,
    StaleError,
    TableError,
    WrongStateError,
)


async def two_people(service):
    table = await service.create(guild_id=1, channel_id=2, user_id=10, name="ana", locale="es", players=2)
    await service.join(table.id, user_id=20, name="beto", locale="en")
    return table


async def test_a_full_table_deals_from_the_seed(service):
    table = await two_people(service)
    assert table.status == "playing"
    assert table.game == Game.new(table.rules, 2, "fixed")


def snapshot(table) -> dict:
    """Everything a refusal must leave as it was."""
    return {
        "game": table.game.to_dict() if table.game is not None else None,
        "seats": [s.to_dict() if s is not None else None for s in table.seats],
        "host": table.host_id, "status": table.status, "casual": table.casual,
        "timers": table.timers.to_dict(), "meta": table.meta_json(),
    }


async def test_refusals_change_nothing(service):
    table = await two_people(service)
    before = snapshot(table)
    to_play = table.game.to_play
    mover, other = (10, 20) if to_play == 0 else (20, 10)
    hand = table.game.hands[to_play]
    card = hand[0].code
    with pytest.raises(NotYourTurnError):
        await service.play(table.id, user_id=other, nonce=table.nonce, card=card)
    with pytest.raises(NotPlayingError):
        await service.play(table.id, user_id=99, nonce=table.nonce, card=card)
    with pytest.raises(StaleError):
        await service.play(table.id, user_id=mover, nonce=table.nonce + 3, card=card)
    with pytest.raises(IllegalPlayError):  # the table is empty: nothing can be captured
        await service.play(table.id, user_id=mover, nonce=table.nonce, card=card, captures=hand[1].code)
    with pytest.raises(IllegalPlayError):  # a card from the other hand
        await service.play(table.id, user_id=mover, nonce=table.nonce, card=table.game.hands[1 - to_play][0].code)
    assert snapshot(table) == before
    assert await service.store.plays(table.id) == []


async def test_an_accepted_play_is_persisted_before_returning(service):
    table = await two_people(service)
    to_play = table.game.to_play
    mover = 10 if to_play == 0 else 20
    for card in table.game.hands[to_play]:
        result = await service.play(table.id, user_id=mover, nonce=table.nonce, card=card.code)
        if isinstance(result, Played):
            break
        assert isinstance(result, Choice) and len(result.options) > 1
    stored = await service.store.load_table(table.id)
    assert stored.game == table.game.snapshot() and "events" not in stored.game
    assert Game.from_snapshot(stored.game, [Play.parse(c, x.split()) for _, c, x in stored.plays]) == table.game
    assert len(await service.store.plays(table.id)) == 1


async def test_concurrent_clicks_play_once(service):
    table = await two_people(service)
    to_play = table.game.to_play
    mover = 10 if to_play == 0 else 20
    card = next(c for c in table.game.hands[to_play]
                if len([p for p in table.game.plays_for(c) if p.captures]) <= 1)
    nonce = table.nonce
    results = await asyncio.gather(
        *[service.play(table.id, user_id=mover, nonce=nonce, card=card.code) for _ in range(5)],
        return_exceptions=True,
    )
    assert sum(isinstance(r, Played) for r in results) == 1
    assert all(isinstance(r, (StaleError, NotYourTurnError)) for r in results if not isinstance(r, Played))
    assert len(table.game.plays) == 1


async def test_a_failed_write_rolls_the_play_back(service, monkeypatch):
    table = await two_people(service)
    state = table.game.to_dict()
    to_play = table.game.to_play
    mover = 10 if to_play == 0 else 20

    async def broken(**kwargs):
        raise OSError("disk full")

    monkeypatch.setattr(service.store, "save_table", broken)
    card = table.game.hands[to_play][0].code
    with pytest.raises(OSError):
        await service.play(table.id, user_id=mover, nonce=table.nonce, card=card, trail=True)
    assert table.game.to_dict() == state


async def test_computer_players_fill_and_play(service):
    table = await service.create(guild_id=1, channel_id=3, user_id=10, name="ana", locale="es", players=4)
    await service.start(table.id, user_id=10)
    assert table.status == "playing"
    assert [s.ai is not None for s in table.seats] == [False, True, True, True]
    assert table.game.to_play == 0  # with seed "fixed" ana leads
    with pytest.raises(WrongStateError):
        await service.join(table.id, user_id=30, name="caro", locale="es")
    card = table.game.hands[0][0].code
    await service.play(table.id, user_id=10, nonce=table.nonce, card=card, trail=True)
    # the play's aftermath (notify, then kick the computers), then the three computer players' task
    await asyncio.gather(*[t for t in service._tasks if t.get_coro().__name__ == "_after_run"])
    await service._ai_tasks[table.id]
    assert len(table.game.plays) == 4 and table.game.to_play == 0


async def test_a_failed_write_leaves_the_lobby_as_it_was(service, monkeypatch):
    table = await service.create(guild_id=1, channel_id=4, user_id=10, name="ana", locale="es", players=2)

    async def broken(**kwargs):
        raise OSError("disk full")

    monkeypatch.setattr(service.store, "save_table", broken)
    with pytest.raises(OSError):
        await service.join(table.id, user_id=20, name="beto", locale="es")
    assert table.seat_of(20) is None and table.status == "lobby" and table.game is None


def test_computer_levels_are_chosen_by_name():
    from bot.ai import GreedyPlayer, rng_for
    from bot.tables import choose_play

    game = Game.new(Rules.preset("quito"), 2, "lvl")
    view = game.view(game.to_play)
    assert choose_play("greedy", "lvl", view) == GreedyPlayer().choose(view, rng_for("lvl", view))
    assert choose_play("no-such-level", "lvl", view) == choose_play("greedy", "lvl", view)
    assert choose_play("facil", "lvl", view) in view.legal_plays


async def test_a_failed_write_after_leaving_mid_game_changes_nothing(service, monkeypatch):
    table = await two_people(service)
    before = snapshot(table)

    async def broken(**kwargs):
        raise OSError("disk full")

    monkeypatch.setattr(service.store, "save_table", broken)
    with pytest.raises(OSError):
        await service.leave_game(table.id, user_id=20)
    assert snapshot(table) == before


def test_suit_only_twins_are_one_capture_choice_resolved_to_the_card_played_earlier():
    """Part 1 §2: two 5s on the table, neither just trailed: taking either gives the same; one choice,
    the 5 played earlier. With the other 5 just trailed by the previous player, they differ (caída)."""
    from bot.engine import Game
    from bot.tables.choices import distinct_captures

    game = Game.from_position(Rules.preset("quito"), players=2, hands=["5D 2C", "AS KH"], table="5C 3H 5H",
                              to_play=0, dealer=1)
    view = game.view(0)
    plays = [p for p in game.plays_for(Card.parse("5D")) if p.captures]
    assert len(plays) == 2
    merged = distinct_captures(plays, view)
    assert [[c.code for c in p.captures] for p in merged] == [["5C"]]

    game = Game.from_position(Rules.preset("quito"), players=2, hands=["5D 2C", "AS"], table="5C 3H 5H",
                              last_trail="5H", trailed_by=1, to_play=0, dealer=0)  # seat 1 led and trailed
    plays = [p for p in game.plays_for(Card.parse("5D")) if p.captures]
    assert len(distinct_captures(plays, game.view(0))) == 2, "a caída and a plain match are different"


async def test_a_card_whose_captures_differ_only_by_suit_is_played_at_once(service):
    from bot.engine import Game

    table = await service.create(guild_id=1, channel_id=2, user_id=10, name="ana", locale="es", players=2)
    await service.join(table.id, user_id=20, name="beto", locale="es")
    table.game = Game.from_position(Rules.preset("quito"), players=2, hands=["5D 2C", "AS KH"],
                                    table="5C 3H 5H", to_play=0, dealer=1)
    result = await service.play(table.id, user_id=10, nonce=table.nonce, card="5D")
    assert isinstance(result, Played), "no menu for a choice that changes nothing"
    assert [c.code for c in result.play.captures] == ["5C"]


async def test_a_restart_resumes_only_the_tables_and_rematch_checks_of_the_servers_it_runs(service):
    """Several processes over one PostgreSQL each run some shards (`bot.config.Settings.runs_guild`). At a
    restart a process restores the open tables and open rematch checks of its own servers only
    (`TableService.serves_guild`): one of another server is left to that server's process, its rematch
    check kept in the store (not resumed twice, nor forgotten), and the table is still loaded here at its
    first click."""
    from bot.tables import TableService
    from bot.tables.model import Seat

    store = service.store
    mine, theirs = 1 << 22, 2 << 22
    lobbies = {}
    for guild, channel in ((mine, 2), (theirs, 3)):
        lobbies[guild] = await service.create(guild_id=guild, channel_id=channel, user_id=10 + channel,
                                              name="ana", locale="es", players=2)
    finished = {}
    seats = [Seat(user_id=30, name="caro").to_dict(), Seat(user_id=40, name="dani").to_dict()]
    for guild, channel in ((mine, 4), (theirs, 5)):
        table_id = await store.create_table(guild_id=guild, channel_id=channel, host_id=30, players=2,
                                            preset="quito", seats=seats, meta={})
        await store.save_table(table_id=table_id, host_id=30, status="finished", seed="fixed", seats=seats,
                               game=None)
        await store.save_rematch_check(table_id, {"asked_by": 30, "deadline": service.clock.now() + 60,
                                                  "waiting": [40], "accepted": [30], "message_id": None})
        finished[guild] = table_id

    restarted = TableService(store, ai_delay=0, seed_factory=lambda: "fixed", offload=service.offload)
    restarted.serves_guild = lambda guild_id: guild_id == mine
    try:
        assert await restarted.load() == 1
        assert lobbies[mine].id in restarted.tables and lobbies[theirs].id not in restarted.tables
        assert set(restarted._checks) == {finished[mine]}
        assert set(await store.load_rematch_checks()) == {finished[mine], finished[theirs]}, "theirs is kept"
        clicked = await restarted.fetch(lobbies[theirs].id)
        assert clicked.guild_id == theirs and clicked.status == "lobby"
    finally:
        await restarted.close()


async def test_two_simultaneous_new_tables_seat_a_user_once(service):
    results = await asyncio.gather(
        service.create(guild_id=1, channel_id=2, user_id=10, name="ana", locale="es", players=2),
        service.create(guild_id=1, channel_id=3, user_id=10, name="ana", locale="es", players=2),
        return_exceptions=True,
    )
    opened = [r for r in results if not isinstance(r, BaseException)]
    assert len(opened) == 1, f"ana now sits at {len(opened)} open tables"
    assert all(isinstance(r, TableError) for r in results if isinstance(r, BaseException))


async def test_join_while_opening_another_table_seats_a_user_once(service):
    first = await service.create(guild_id=1, channel_id=2, user_id=10, name="ana", locale="es", players=4)
    results = await asyncio.gather(
        service.create(guild_id=1, channel_id=3, user_id=20, name="beto", locale="es", players=2, preset="quito"),
        service.join(first.id, user_id=20, name="beto", locale="es"),
        return_exceptions=True,
    )
    seated = sum(1 for t in service.tables.values() if t.is_open and t.seat_of(20) is not None)
    assert seated == 1, f"beto sits at {seated} open tables ({results})"
