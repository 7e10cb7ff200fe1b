"""Whole mesas played only through slash commands and clicks; the result equals the engine's replay.

The people in these tests choose like the greedy player, but prefer plays that need the second step (a
card with several captures) and, now and then, the explicit trail of a card that could capture, so every
path of the hand UI is used.
"""

from __future__ import annotations

import pytest

from bot.engine import Play
from bot.tables import FINISHED
from bot.ui.words import side_name
from tests.support.helpers import (
    assert_no_hidden_cards_in_public,
    message_text,
    play_through_ui,
    play_to_end,
    replay_from_store,
    table_of,
)


def varied_choice(table, play: Play) -> Play:
    """A legal play that exercises the second step or the trail control when the position allows."""
    game = table.game
    view = game.view(game.to_play)
    by_card = {}
    for p in view.legal_plays:
        by_card.setdefault(p.card, []).append(p)
    for plays in by_card.values():
        captures = [p for p in plays if p.captures]
        if len(captures) > 1:
            return captures[-1]
    if table.nonce % 5 == 0:
        for plays in by_card.values():
            if any(p.captures for p in plays) and any(p.is_trail for p in plays):
                return next(p for p in plays if p.is_trail)
    return play


def make_player(world, used: dict[str, int]):
    async def on_turn(table, member, play):
        play = varied_choice(table, play)
        game = table.game
        captures = [p for p in game.plays_for(play.card) if p.captures]
        kind = "choice" if play.captures and len(captures) > 1 else "trail" if play.is_trail and captures else "click"
        used[kind] = used.get(kind, 0) + 1
        await play_through_ui(member, table, play)
        assert_no_hidden_cards_in_public(world, table_of(world, table.id))

    return on_turn


async def check_result(world, table) -> None:
    assert table.status == FINISHED
    replay = await replay_from_store(world, table)
    assert replay == table.game, "the stored plays replay to the same mesa"
    stored = await world.bot.store.mesa(table.id)
    assert stored["winner"] == replay.winner
    assert (stored["chicas_a"], stored["chicas_b"]) == tuple(replay.chicas)
    winner = side_name(table, replay.winner, "es")  # the record names the side; its lines name the players
    final = next(m for m in world.channel.history() if m.id == table.messages.public)
    assert f"¡{winner} gana" in message_text(final), "the last hand's record names the mesa's winner"


async def test_1v1_against_computer_quito_to_the_end(world):
    await world.ana.slash(world.channel, "cuarenta new", players=2, rules="quito")
    result = await world.ana.select(world.channel.last_message, ["medio"], custom_id="c4:v:1")
    assert result.ephemeral
    assert table_of(world, 1).status == "playing", "a full table starts"
    used: dict[str, int] = {}

    table = await play_to_end(world, 1, {world.ana.id: world.ana}, on_turn=make_player(world, used))

    await check_result(world, table)
    assert used.get("choice", 0) > 0 and used.get("trail", 0) > 0, used
    assert world.env.errors == []


@pytest.mark.slow
async def test_1v1_two_people_cuenca_to_the_end(world):
    await world.ana.slash(world.channel, "cuarenta new", players=2, rules="cuenca")
    await world.beto.slash(world.channel, "cuarenta join")
    assert table_of(world, 1).status == "playing"
    members = {world.ana.id: world.ana, world.beto.id: world.beto}

    table = await play_to_end(world, 1, members, on_turn=make_player(world, {}))

    await check_result(world, table)
    assert world.env.errors == []


async def test_2v2_two_people_and_two_computers_cuenca_to_the_end(world):
    await world.ana.slash(world.channel, "cuarenta new", players=4, rules="cuenca")
    await world.beto.slash(world.channel, "cuarenta join", team="A")
    lobby = world.channel.last_message
    await world.ana.select(lobby, ["medio"], custom_id="c4:v:1")
    await world.ana.select(lobby, ["medio"], custom_id="c4:v:1")  # only the host adds computer players
    table = table_of(world, 1)
    assert table.status == "playing"
    assert [s.is_ai for s in table.seats] == [False, True, False, True]
    members = {world.ana.id: world.ana, world.beto.id: world.beto}

    table = await play_to_end(world, 1, members, on_turn=make_player(world, {}))

    await check_result(world, table)
    assert world.env.errors == []


async def test_2v2_one_person_and_three_computers_quito_to_the_end(world):
    await world.caro.slash(world.channel, "cuarenta new", players=4, rules="quito")
    await world.caro.slash(world.channel, "cuarenta start")
    table = table_of(world, 1)
    assert table.status == "playing"
    assert sum(s.is_ai for s in table.seats) == 3

    table = await play_to_end(world, 1, {world.caro.id: world.caro}, on_turn=make_player(world, {}))

    await check_result(world, table)
    assert world.env.errors == []


async def test_computer_moves_are_the_medio_players_from_the_seed(world):
    from bot.ai import player_for, rng_for
    from bot.engine import Game, Play, Rules

    await world.ana.slash(world.channel, "cuarenta new", players=2)
    await world.ana.select(world.channel.last_message, ["medio"], custom_id="c4:v:1")
    table = await play_to_end(world, 1, {world.ana.id: world.ana})
    rows = await world.bot.store.plays(1)
    game = Game.new(Rules.preset("quito"), 2, table.seed)
    computer_moves = 0
    for seat, card, captures in rows:
        play = Play.parse(card, captures.split())
        if seat == 1:
            view = game.view(1)
            assert player_for("medio").choose(view, rng_for(table.seed, view)) == play
            computer_moves += 1
        game.play(play, seat=seat)
    assert computer_moves > 20
