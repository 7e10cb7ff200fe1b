"""The live table as a Components V2 message (`bot.ui.render.table_layout`): a container in the colour of the
side to play, the few facts the picture cannot say as text, the picture in a media gallery with the table
in words as its alt text, and the two buttons."""

from __future__ import annotations

from bot.engine import Play
from bot.tables import FINISHED
from bot.ui import render
from bot.ui.items import HandButton, WhyButton

from .test_render import _hand_table


def _components(payload: render.Payload) -> list[dict]:
    assert payload.layout
    (container,) = payload.view.to_components()
    assert container["type"] == 17
    return container["components"]


def test_the_table_is_a_container_of_text_picture_and_buttons_in_the_colour_of_the_side_to_play():
    table = _hand_table(["7D 5S 6H", "AS 2C 3C"], "7C 5H 2D", to_play=1, dealer=0)
    payload = render.table_layout(table, "es", b"png")
    text, gallery, row = _components(payload)
    assert payload.view.to_components()[0]["accent_color"] == render.SIDE_COLOURS[1].value
    assert text["type"] == 10 and "<@31>" in text["content"], "whose turn, as a mention"
    (item,) = gallery["items"]
    assert gallery["type"] == 12 and item["media"]["url"] == f"attachment://{render.PICTURE_NAME}"
    assert "7♣" in item["description"] and "Mesa #7" in item["description"], "the table in words"
    assert [f for f, _ in payload.files] == [render.PICTURE_NAME]
    assert [b["custom_id"] for b in row["components"]] == [HandButton.id_for(7), WhyButton.id_for(7)]


def test_the_side_to_play_colours_the_container():
    first = render.table_layout(_hand_table(["7D", "AS"], "7C", to_play=0, dealer=1), "es", b"png")
    assert first.view.to_components()[0]["accent_color"] == render.SIDE_COLOURS[0].value
    assert render.SIDE_COLOURS[0] != render.SIDE_COLOURS[1]


def test_the_text_says_the_last_play_and_the_turn_and_not_the_table_cards_the_picture_shows():
    table = _hand_table(["7D 5S 6H", "AS 2C 3C"], "4C 5H", to_play=0, dealer=1)
    game = table.game
    game.play(Play(card=next(c for c in game.hands[0] if c.code == "6H")), seat=0)
    text = _components(render.table_layout(table, "es", b"png"))[0]["content"]
    assert "6♥" in text, "the last play called out"
    assert "4♣" not in text, "the table cards are in the picture and its alt text, not twice"
    assert "AS" not in text and "A♠" not in text, "no hidden card"


def test_without_a_picture_the_table_in_words_is_shown_instead():
    table = _hand_table(["7D 5S 6H", "AS 2C 3C"], "7C 5H 2D", to_play=0, dealer=1)
    payload = render.table_layout(table, "es", None)
    kinds = [c["type"] for c in _components(payload)]
    assert kinds == [10, 10, 1] and payload.files == []
    assert "7♣" in _components(payload)[1]["content"]


def test_a_finished_table_has_no_buttons():
    table = _hand_table(["7D 5S 6H", "AS 2C 3C"], "7C 5H 2D", to_play=0, dealer=1)
    table.status = FINISHED
    kinds = [c["type"] for c in _components(render.table_layout(table, "es", b"png"))]
    assert 1 not in kinds


def test_the_notes_share_one_line_of_small_text():
    table = _hand_table(["7D 5S 6H", "AS 2C 3C"], "7C 5H 2D", to_play=0, dealer=1)
    table.messages.dm_closed = [1]
    table.seats[1].away = True
    text = _components(render.table_layout(table, "es", b"png"))[0]["content"]
    notes = [line for line in text.splitlines() if line.startswith("-# ")]
    assert len(notes) == 1, text
    assert "mensajes directos cerrados" in notes[0] and "no está" in notes[0]
