"""The picture's scene is built from public state only, and says what the table shows."""

from __future__ import annotations

import random

from bot.engine import Game, Rules
from bot.tables import Messages, Seat, Table
from bot.ui.picture import layout, render_table
from bot.ui.table_scene import table_scene


def table_4p(seed: str = "scene", plays: int = 7) -> Table:
    game = Game.new(Rules.preset("quito"), 4, seed)
    rng = random.Random(seed)
    for _ in range(plays):
        game.play(rng.choice(game.legal_plays()))
    seats = [Seat(1, "ana"), Seat(None, ai="dificil", ai_number=1), Seat(2, "caro"), Seat(None, ai="facil", ai_number=2)]
    return Table(id=7, guild_id=1, channel_id=2, host_id=1, players=4, preset="quito", status="playing", seats=seats,
                 game=game, messages=Messages(public=5, public_hand=1))


def test_the_scene_shows_the_table_seats_in_turn_order_scores_and_nothing_hidden():
    table = table_4p()
    game = table.game
    scene = table_scene(table, "es")
    assert scene.table_cards == tuple(c.code for c in game.table), "table cards in play order"
    assert [s.name for s in scene.seats] == ["ana", "Compu 1", "caro", "Compu 2"]
    assert [s.level for s in scene.seats] == [None, "difícil", None, "fácil"], "computers shown with their level"
    assert [s.cards_left for s in scene.seats] == [len(h) for h in game.hands], "counts, never the cards"
    assert [s.to_play for s in scene.seats] == [i == game.to_play for i in range(4)]
    assert [s.dealer for s in scene.seats].index(True) == game.dealer
    assert [s.mano for s in scene.seats].index(True) == game.mano
    for team, side in enumerate(scene.sides):
        assert side.perros * 10 + side.tantos * 2 == game.scores[team]
        assert side.captured == len(game.piles[team]) and side.chicas == game.chicas[team]
    hidden = {c.code for hand in game.hands for c in hand} | {c.code for c in game.stock}
    drawn = set(layout(scene).cards)
    assert not drawn & hidden, "no card in a hand or the stock is drawn"
    assert render_table(scene)[:8] == b"\x89PNG\r\n\x1a\n"


def test_the_scene_marks_the_trailed_card_and_the_38():
    game = Game.from_position(Rules.preset("quito"), players=2, hands=["5D 2C", "AS"], table="5C 3H",
                              last_trail="5C", trailed_by=1, to_play=0, dealer=0, scores=(38, 12))
    table = Table(id=1, guild_id=1, channel_id=2, host_id=1, players=2, preset="quito", status="playing",
                  seats=[Seat(1, "ana"), Seat(2, "beto")], game=game)
    scene = table_scene(table, "en")
    assert scene.trail == "5C"
    assert [s.at38 for s in scene.sides] == [True, False]
    assert [s.label for s in scene.sides] == ["ana", "beto"], "1 v 1 names the players, not teams"
