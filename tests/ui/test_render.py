"""Rendering: captures in words, perros and tantos, payload limits."""

from __future__ import annotations

import discord
import pytest

from bot.engine import ALL_CARDS, Event, Game, Play, Rules
from bot.engine import EventKind as K
from bot.i18n import t
from bot.tables import PLAYING, Choice, Seat, Table, TableOptions
from bot.ui import limits, records, render, words
from bot.ui.faces import CardFaces
from bot.ui.items import BackButton, CaptureSelect, CardButton, HandButton, TrailSelect, WhyButton
from tests.support.helpers import table_with


def test_a_capture_in_words_names_base_escalera_and_limpia():
    game = Game.from_position(hands=["7D", "AS"], table="3C 4H JS QD KC")
    view = game.view(0)
    play = next(p for p in view.legal_plays if p.captures)
    assert render.describe_capture(play, view, "en") == "7♦ → 3♣ + 4♥, then J♠ Q♦ K♣ — limpia"
    assert render.describe_capture(play, view, "es") == "7♦ → 3♣ + 4♥, luego J♠ Q♦ K♣ — limpia"


def test_a_caida_is_marked():
    game = Game.from_position(hands=["5D 2C", "AS"], table="5C 3H", last_trail="5C", trailed_by=1, to_play=0,
                              dealer=0)
    view = game.view(0)
    play = Play.parse("5D", "5C")
    assert render.describe_capture(play, view, "es") == "5♦ → 5♣ — caída"


def test_points_as_perros_and_tantos():
    assert words.perros_tantos(26) == (2, 3)
    assert words.perros_tantos(8) == (0, 4)
    assert words.perros_tantos(40) == (4, 0)
    assert words.score_words(26, "es") == "2 perros y 3 tantos"
    assert words.score_words(12, "es") == "1 perro y 1 tanto"
    assert words.score_words(0, "en") == "nothing"


def test_limits_are_checked():
    with pytest.raises(limits.PayloadLimitError):
        limits.check_message(content="x" * 2001)
    embed = discord.Embed(description="x" * 4097)
    with pytest.raises(limits.PayloadLimitError):
        limits.check_message(embed=embed)
    assert limits.clip("abcdef", 4) == "abc…"


def _hand_table(hands: list[str], table_cards: str, **position) -> Table:
    table = Table(id=7, guild_id=1, channel_id=2, host_id=3, players=2, preset="quito", status=PLAYING, seed="s",
                  seats=[Seat(30, name="ana"), Seat(31, name="beto", away=True)],
                  options=TableOptions(guild_name="g", channel_name="c"))
    table.game = Game.from_position(hands=hands, table=table_cards, **position)
    table.messages.public = 99
    return table


def _items_json(table: Table, seat: int, choice: Choice | None, emoji: discord.PartialEmoji) -> list[dict]:
    """The hand's controls built the old way, with discord.py's own items, as discord.py serializes them."""
    game = table.game
    view = game.view(seat)
    mine = view.my_turn
    rows: list[list[discord.ui.Item]] = [[
        CardButton(table.id, table.nonce, c.code, label=str(c), disabled=not mine,
                   emoji=discord.PartialEmoji(name=emoji.name, id=emoji.id),
                   style=(discord.ButtonStyle.success if choice is not None and c is choice.card
                          else discord.ButtonStyle.primary if mine else discord.ButtonStyle.secondary))
        for c in words.by_rank(view.hand)]]
    if mine:
        trailable = [c for c in words.by_rank(view.hand)
                     if {bool(p.captures) for p in view.legal_plays if p.card is c} == {True, False}]
        if trailable and choice is None:  # an open capture menu carries its card's trail itself
            rows.append([TrailSelect(table.id, table.nonce, placeholder=limits.clip(t("dm.trail_placeholder", "es"), 150),
                                     options=[discord.SelectOption(label=t("dm.trail_option", "es", card=c), value=c.code)
                                              for c in trailable])])
        if choice is not None:
            pages = render.capture_pages(choice)
            rows.append([CaptureSelect(table.id, table.nonce, choice.card.code,
                                       placeholder=t("dm.choose_placeholder", "es", card=choice.card),
                                       options=[discord.SelectOption(label=render.describe_capture(p, view, "es"),
                                                                     value=".".join(x.code for x in p.sorted_captures()))
                                                for p in choice.options[pages[0][0]:pages[0][1]]]
                                       + [discord.SelectOption(label=t("dm.trail_option", "es", card=choice.card),
                                                               value="-")] * choice.can_trail)])
    last: list[discord.ui.Item] = []
    if table.seats[seat].away:
        last.append(BackButton(table.id, label=t("btn.back", "es")))
    last.append(discord.ui.Button(style=discord.ButtonStyle.link, url=render.table_link(table),
                                  label=t("btn.see_table", "es")))
    rows.append(last)
    data = render.make_view(*rows).to_components()
    for row in data:  # Discord's API schema types snowflakes as strings
        for item in row["components"]:
            if "emoji" in item:
                item["emoji"]["id"] = str(item["emoji"]["id"])
    return data


@pytest.mark.parametrize("case", ["my turn, a trail menu", "a capture menu", "not my turn, away"])
def test_a_hands_controls_are_the_json_discord_py_items_would_send(case):
    """Hands are rebuilt at every play, so their controls are written as JSON (`bot.ui.components`)
    instead of discord.py items: the JSON is the same, custom_ids included (clicks route the same)."""
    emoji = discord.PartialEmoji(name="c", id=2**60 + 1)
    faces = CardFaces(emojis={card.code: emoji for card in ALL_CARDS})
    table = _hand_table(["7D 5S 6H", "AS 2C 3C"], "7C 5H 2D", to_play=0, dealer=1)
    seat, choice = 0, None
    if case == "a capture menu":
        view = table.game.view(0)
        plays = [p for p in view.legal_plays if p.card.code == "7D"]
        options = tuple(p for p in plays if p.captures)
        assert len(options) > 1, "7♦ takes the 7♣ or the 5♥ and 2♦: two ways"
        choice = Choice(options[0].card, options, any(not p.captures for p in plays), view)
    elif case == "not my turn, away":
        seat = 1
    payload = render.hand_payload(table, seat, table.game.view(seat), "es", choice=choice, faces=faces)
    assert payload.view.to_components() == _items_json(table, seat, choice, emoji)
    ids = [item.get("custom_id", item.get("url")) for item in payload.view.items]
    wanted = {"my turn, a trail menu": "c4:t:7:0", "a capture menu": "c4:c:7:0:7D", "not my turn, away": "c4:b:7"}
    assert wanted[case] in ids and ids[-1] == "https://discord.com/channels/1/2/99"
    if case == "a capture menu":  # one place offers "botar 7♦ sin llevar", not two (visual review)
        assert "c4:t:7:0" not in ids
        trail = t("dm.trail_option", "es", card=choice.card)
        assert [o["label"] for o in payload.view.to_components()[1]["components"][0]["options"]].count(trail) == 1
    assert not payload.view.is_dispatchable() and payload.view.is_finished()  # discord.py keeps nothing


def test_the_table_messages_buttons_are_the_json_discord_py_items_would_send():
    table = _hand_table(["7D 5S 6H", "AS 2C 3C"], "7C 5H 2D", to_play=0, dealer=1)
    payload = render.table_payload(table, "es")
    expected = render.make_view([HandButton(table.id, label=t("btn.my_hand", "es")),
                                 WhyButton(table.id, label=t("btn.why", "es"))]).to_components()
    assert payload.view.to_components() == expected


def test_a_limpia_that_does_not_count_at_38_is_counted_apart_in_the_hand_record():
    """R30: on 38 only a caída scores. The hand record's points by player used to read "ana: 1 limpia +0",
    a sum that looks wrong; the limpia that did not count now says why, so the record adds up."""

    table = _hand_table(["5C 2D 3S", "KD 4H 6S"], "5H", scores=(38, 10), to_play=0, dealer=1)
    game = table.game
    limpia = next(p for p in game.legal_plays() if p.card.code == "5C" and p.captures)
    game.play(limpia, seat=0)
    text = records.hand_record_payload(table, 1, "es").embed.description
    blocked = t("play.blocked_score", "es", score=38)
    assert f"ana: 1 limpia +0 {blocked}" in records.plays_embed(table, 1, "es").description  # «Ver jugadas»
    short = t("sum.blocked_score", "es", score=38)
    side = t("sum.side_parts", "es", side="ana", points=0, parts=f"1 limpia\u00a0+0 {short}")
    assert f"🟦 {side}" in text.splitlines(), text  # the record: the side's line says why, in short


def test_the_score_lines_squares_are_the_sides_colours_in_the_picture():
    """Side A is drawn blue and side B orange in the table picture; the text's score lines used to mark
    them 🟩 and 🟦, so in 2 v 2 the blue square named the other team (visual review)."""
    from bot.ui.picture.shapes import TEAM

    (ar, _ag, ab), (br, _bg, bb) = TEAM
    assert ab > ar and br > bb, "the picture: side A blue, side B orange"
    table = _hand_table(["5C 2D 3S", "KD 4H 6S"], "5H", to_play=0, dealer=1)
    assert render.side_line(table, 0, "es").startswith("🟦")
    assert render.side_line(table, 1, "es").startswith("🟧")


@pytest.mark.parametrize(("players", "es", "pt"), [(2, "¡Ganó por zapatería!", "Ganhou por zapatería!"),
                                                   (4, "¡Ganaron por zapatería!", "Ganharam por zapatería!")])
def test_a_mesa_won_by_zapateria_agrees_with_its_winners_in_number(players, es, pt):
    """R35: in 2 v 2 a pair wins the mesa by zapatería; the line used to be singular after the plural
    winners ("ana y caro … ¡Ganó por zapatería!")."""
    from bot.engine import EventKind
    from bot.ui import records

    seats = [Seat(30 + i, name=n) for i, n in enumerate(("ana", "beto", "caro", "dani")[:players])]
    table = Table(id=7, guild_id=1, channel_id=2, host_id=30, players=players, preset="quito", status=PLAYING,
                  seed="s", seats=seats)
    won = Event(EventKind.MESA_WON, team=0, counts=(1, 0), zapatero=True)
    assert records.mesa_lines(table, won, "es")[-1] == es
    assert records.mesa_lines(table, won, "pt")[-1] == pt


def test_fourth_caida_that_wins_the_chica_says_it_wins_the_chica():
    """cuenca: four consecutive caídas win the chica (R26); the line must not read "caída +0"."""
    game = Game.from_position(Rules.preset("cuenca"), players=2, hands=["5C 6D", "7H"],
                              table="5H 2S", last_trail="5H", trailed_by=1, to_play=0, dealer=0,
                              streaks=(3, 0), scores=(10, 10))
    events = game.play(Play.parse("5C", ["5H"]), seat=0)
    assert any(e.kind == K.CHICA_WON and e.reason == "four_caidas" for e in events)
    for lang, wins in (("es", "gana la chica"), ("en", "wins the chica")):
        text = "\n".join(render.play_lines(table_with(game, "cuenca"), events, lang))
        assert "+0" not in text and wins in text, text


def test_blocked_limpia_in_rapido_says_the_blocking_score_is_18():
    """rapido applies the 38 rule at 18: a limpia at 18 does not count, and the line says 18."""
    game = Game.from_position(Rules.preset("rapido"), players=2, hands=["5C 2C", "KH QH"], table="5H",
                              dealer=1, to_play=0, scores=(18, 0))
    events = game.play(Play.parse("5C", ["5H"]), seat=0)
    assert any(e.kind == K.LIMPIA and e.blocked == "38" for e in events)
    for lang in ("es", "en"):
        line = render.play_lines(table_with(game, "rapido"), events, lang)[0]
        assert "18" in line and "38" not in line, line


def test_match_with_escalera_is_written_like_the_capture_menu_not_as_a_sum():
    """A 5 matching a 5 and taking 6, 7 by escalera: "llevó 5♥, luego 6♠ 7♣ con 5♣"."""
    game = Game.from_position(Rules.preset("quito"), players=2, hands=["5C 2C", "KH QH"],
                              table="6S 5H 7C", dealer=1, to_play=0)
    events = game.play(Play.parse("5C", ["5H", "6S", "7C"]), seat=0)
    line = render.play_lines(table_with(game, "quito"), events, "es")[0]
    assert "5♥, luego 6♠ 7♣" in line, line
    assert "6♠ + 5♥" not in line and "5♥ + 6♠" not in line, line
    en = render.play_lines(table_with(game, "quito"), events, "en")[0]
    assert "5♥, then 6♠ 7♣" in en, en
