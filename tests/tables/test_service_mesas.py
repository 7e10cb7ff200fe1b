"""Whole mesas through the table service, without Discord (R1-R40 end to end at the service boundary).

Each mesa is played to its end by people only, through `TableService.play` with the greedy choice, on
several seeds, once on each backend. At every accepted play: the 40 cards are each in one place, the
play was persisted before `play` returned (the store's plays replay to the live game), and within a
chica the score never goes down. At the end: the mesa is finished, its winner has more chicas, and the
store replays to the final game. The SimCord mesas (tests of the click path) stay few; these carry
the game-flow checks.
"""

from __future__ import annotations

import pytest

from bot.engine import Game, Play, Rules
from bot.tables import FINISHED, Played, TableService, choose_play
from tests.support.helpers import conserved

PEOPLE = {2: [(10, "ana"), (20, "beto")], 4: [(10, "ana"), (20, "beto"), (30, "caro"), (40, "dani")]}


async def _inline(func, *args):
    return func(*args)


@pytest.fixture
async def open_service(database_url):
    """A factory of `TableService` on a fresh database with a chosen seed (no Discord)."""
    from bot.store import Store

    store = await Store.open(database_url)
    made: list[TableService] = []

    def make(seed: str) -> TableService:
        service = TableService(store, ai_delay=0, seed_factory=lambda: seed, offload=_inline)
        made.append(service)
        return service

    yield make
    for service in made:
        await service.close()
    await store.close()


async def _stored_game(service: TableService, table_id: int) -> Game:
    row = await service.store.load_table(table_id)
    assert row is not None
    plays = [Play.parse(card, captures.split()) for _, card, captures in await service.store.plays(table_id)]
    return Game.replay(Rules.preset(row.preset), row.players, row.seed, plays)


async def _play_mesa(service: TableService, players: int, preset: str) -> None:
    people = PEOPLE[players]
    ana, *others = people
    table = await service.create(guild_id=1, channel_id=2, user_id=ana[0], name=ana[1], locale="es",
                                 players=players, preset=preset)
    for user_id, name in others:
        await service.join(table.id, user_id=user_id, name=name, locale="es")
    assert table.status == "playing"
    scores = (table.game.chica_number, list(table.game.scores))
    for _ in range(3000):
        if table.status == FINISHED:
            break
        game = table.game
        seat = game.to_play
        play = choose_play("greedy", game.seed, game.view(seat))
        user_id = table.seats[seat].user_id
        can_capture = any(p.captures for p in game.plays_for(play.card))
        captures = " ".join(c.code for c in play.captures) if play.captures else None
        result = await service.play(table.id, user_id=user_id, nonce=table.nonce, card=play.card.code,
                                    captures=captures, trail=play.is_trail and can_capture)
        assert isinstance(result, Played), f"the greedy play {play} was accepted"
        if table.status != FINISHED:
            conserved(table)
        stored = await _stored_game(service, table.id)
        assert stored.plays == table.game.plays, "persisted before play() returned"
        if table.game.chica_number == scores[0]:
            assert all(now >= before for now, before in zip(table.game.scores, scores[1], strict=True)), \
                "within a chica the score never goes down"
        scores = (table.game.chica_number, list(table.game.scores))
    else:
        raise AssertionError("the mesa did not end")
    final = await _stored_game(service, table.id)
    assert final.to_dict() == table.game.to_dict(), "the store replays to the final game"
    outcome = table.game.outcome()
    assert outcome is not None and outcome.chicas[outcome.winner] > outcome.chicas[1 - outcome.winner]


@pytest.mark.parametrize("seed", ["mesa-1", "mesa-2", "mesa-3"])
async def test_whole_1v1_mesas_through_the_service(open_service, seed):
    await _play_mesa(open_service(seed), 2, "quito")


@pytest.mark.parametrize("seed", ["mesa-4", "mesa-5"])
async def test_whole_2v2_mesas_through_the_service(open_service, seed):
    await _play_mesa(open_service(seed), 4, "quito")
