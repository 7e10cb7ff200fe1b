"""The capture menu (`render.capture_select` and the hand's select): pages past Discord's 25 options,
outcomes offered once, and values that name no allowed play refused without playing."""

from __future__ import annotations

from bot.engine import Card, Game, Play, Rules
from bot.i18n import t
from bot.tables import Choice, Table
from bot.tables.choices import outcome
from bot.ui import render
from tests.support.helpers import click_raw, controls, table_of, table_with


def many_captures_choice() -> tuple[Table, Choice]:
    """Ten small cards on the table: the 7 of clubs has 35 different captures."""
    game = Game.from_position(Rules.preset("quito"), players=2, hands=["7C 2C", "KH QH"],
                              table="AS AH AD 2S 2H 3S 3H 4S 5S 6S", dealer=1, to_play=0)
    card = Card.parse("7C")
    options = tuple(p for p in game.plays_for(card) if p.captures)
    return table_with(game, "quito"), Choice(card, options, True, game.view(0))


def select_values(select) -> list[str]:
    """The option values of a capture menu (`render.capture_select`)."""
    return [o["value"] for o in select["options"]]


async def _hand_at(world, hands: list[str], on_table: str):
    """ana (seat 0) to play from a fixed position of a 1 v 1 between people; her ephemeral hand."""
    await world.ana.slash(world.channel, "cuarenta new", players=2)
    await world.beto.slash(world.channel, "cuarenta join")
    table = table_of(world, 1)
    table.game = Game.from_position(Rules.preset("quito"), players=2, hands=hands, table=on_table, dealer=1,
                                    to_play=0)
    return table, (await world.ana.slash(world.channel, "cuarenta hand")).response


def test_capture_menu_pages_offer_every_capture():
    """35 captures do not fit in one select (Discord allows 25 options): every capture is on a page, and
    each page links to the others."""
    table, choice = many_captures_choice()
    assert len(choice.options) == 35
    pages = render.capture_pages(choice)
    offered: list[str] = []
    for page in range(len(pages)):
        values = select_values(render.capture_select(table, choice, "es", page=page))
        assert len(values) <= 25
        assert "-" in values, "the trail is on every page"
        links = {v for v in values if v.startswith(render.PAGE_VALUE_PREFIX)}
        assert links == {f"{render.PAGE_VALUE_PREFIX}{p}" for p in (page - 1, page + 1) if 0 <= p < len(pages)}
        offered += [v for v in values if v != "-" and v not in links]
    expected = [".".join(c.code for c in p.sorted_captures()) for p in choice.options]
    assert sorted(offered) == sorted(expected)


def test_capture_menu_that_fits_has_one_page_and_no_links():
    game = Game.from_position(Rules.preset("quito"), players=2, hands=["7C 2C", "KH QH"],
                              table="AS 6S 3H 4S", dealer=1, to_play=0)
    card = Card.parse("7C")
    options = tuple(p for p in game.plays_for(card) if p.captures)
    choice = Choice(card, options, True, game.view(0))
    values = select_values(render.capture_select(table_with(game, "quito"), choice, "en"))
    assert len(values) == len(options) + 1
    assert not any(v.startswith(render.PAGE_VALUE_PREFIX) for v in values)


async def test_capture_menu_on_the_hand_merges_suit_only_twins_and_a_choice_plays(world):
    """Through Discord: ten small cards give the 7 of clubs 35 captures, but far fewer different
    outcomes; the menu on the hand offers each outcome once, and a choice there is played."""
    await world.ana.slash(world.channel, "cuarenta new", players=2)
    await world.beto.slash(world.channel, "cuarenta join")  # two people: nothing is played before the swap
    table = table_of(world, 1)
    assert table.nonce == 0
    table.game = Game.from_position(Rules.preset("quito"), players=2, hands=["7C 2C", "KH QH"],
                                    table="AS AH AD 2S 2H 3S 3H 4S 5S 6S", dealer=1, to_play=0)
    assert table.seat_of(world.ana.id) == 0
    nonce = table.nonce
    hand = await world.ana.slash(world.channel, "cuarenta hand")
    menu = await world.ana.click(hand.response, custom_id=f"c4:p:1:{nonce}:7C")
    cid = f"c4:c:1:{nonce}:7C"
    assert menu.response.id == hand.response.id, "the menu is on the hand itself"
    values = [o["value"] for item in controls(menu.response)
              if item.get("custom_id") == cid for o in item.get("options", [])]
    captures = [v for v in values if v != "-"]
    view = table.game.view(0)
    plays = [Play.parse(Card.parse("7C"), v.split(".")) for v in captures]
    assert len({outcome(p, view) for p in plays}) == len(plays), "no two choices with the same outcome"
    assert 1 < len(plays) < 35 and not any(v.startswith(render.PAGE_VALUE_PREFIX) for v in values)
    await world.ana.select(menu.response, [captures[-1]], custom_id=cid)
    assert table.nonce == nonce + 1
    played = table.game.plays[-1]
    assert ".".join(c.code for c in played.sorted_captures()) == captures[-1]
    assert world.env.errors == []


async def test_a_capture_menu_page_value_for_a_card_without_a_menu_plays_nothing(world):
    """QA: a capture menu's page value ("~<page>") only turns the page, but for a card with one capture (5♣
    takes the 5♥) or none (K♣) it played the card. Now it is refused ("That play is not allowed."),
    ephemerally, and the game is as it was."""
    table, hand = await _hand_at(world, ["5C 2C KC", "KH QH JH"], "5H 3S")
    for card, page in (("5C", "~1"), ("KC", "~0")):
        nonce, before = table.nonce, table.game.snapshot()
        result = await click_raw(world.env, world.ana, hand, f"c4:c:1:{nonce}:{card}", component_type=3,
                                 values=[page])
        assert result.acknowledged and result.ephemeral
        assert result.response.content == t("err.illegal", "en")
        assert table.nonce == nonce and table.game.snapshot() == before, f"the page value {page} played {card}"
    assert world.env.errors == []


async def test_a_capture_menu_with_no_value_or_a_card_twice_plays_nothing(world):
    """QA: the capture select sent with no value trailed the 7♣, which could capture (4♥+3♠ or 6♦+A♠); a
    trail on purpose is the "-" value or the trail control. An empty choice, or one naming a card twice,
    is refused ephemerally and changes nothing; the real choice then plays."""
    table, hand = await _hand_at(world, ["7C 2C KC", "KH QH JH"], "4H 3S AS 6D")
    nonce, before = table.nonce, table.game.snapshot()
    for values in ([], ["4H.4H.3S"]):
        result = await click_raw(world.env, world.ana, hand, f"c4:c:1:{nonce}:7C", component_type=3,
                                 values=values)
        assert result.acknowledged and result.ephemeral, values
        assert table.nonce == nonce and table.game.snapshot() == before, values
    played = await click_raw(world.env, world.ana, hand, f"c4:c:1:{nonce}:7C", component_type=3, values=["3S.4H"])
    assert played.acknowledged and table.nonce == nonce + 1
    assert {c.code for c in table.game.table} == {"AS", "6D"}, "the 7♣ took the 4♥ and the 3♠"
    assert world.env.errors == []
