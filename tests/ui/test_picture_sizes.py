"""The table picture is drawn for the size a phone shows it (about 300 px wide): the sizes are read from the
layout (`text_items`, `rank_heights`: what the picture asks the font and the card art for), not from pixels,
and checked against the picture's width."""

from __future__ import annotations

import itertools

import pytest

from bot.engine import DECK
from bot.ui.picture import (
    MIN_RANK,
    MIN_TEXT,
    PHONE_WIDTH,
    SIZE,
    LastPlay,
    SeatScene,
    SideScene,
    TableScene,
    fit_text,
    layout,
    rank_heights,
    text_font,
    text_items,
)
from bot.ui.picture import text as picture_text

LABELS = {"perros": "perros", "tantos": "tantos", "chicas": "chicas", "cards": "cartas", "dealer": "da",
          "mano": "mano", "turn": "juega", "only_caida": "solo caída", "empty": "mesa limpia"}
NAMES = ("MMMMMMMMMMMMMMMM", "Ñandú Ágústín Ç", "WWWWWWWWWWWWWWWW", "Computadora 1", "ÇÃÕÉÍÓÚÑÜ çãõéíú",
         "Ana", "José Peña", "Mmmmmmmmmmmmmmmm")
"""Names of up to 16 characters: the widest letters, accents of Spanish and Portuguese, a computer."""

WIDTH = SIZE[0]


def seat(name: str, team: int, **flags) -> SeatScene:
    base = {"cards_left": 4, "dealer": False, "mano": False, "to_play": False, "level": None, "away": False}
    return SeatScene(name=name, team=team, **{**base, **flags})


def scene(names: tuple[str, ...], *, cards: int = 10, captured: int = 3, at38: bool = True) -> TableScene:
    """Mid-hand: ``cards`` on the table, the last one a trail a caída can take, and a capture just made."""
    four = len(names) == 4
    table = tuple(c.code for c in DECK[::3])[:cards]
    seats = tuple(seat(name, i % 2, dealer=i == len(names) - 1, mano=i == 0, to_play=i == 1,
                       level="difícil" if name.startswith("Computadora") else None) for i, name in enumerate(names))
    labels = ("Equipo A", "Equipo B") if four else names[:2]
    sides = (SideScene(labels[0], 3, 4, 1, at38, 12), SideScene(labels[1], 2, 1, 0, False, 8))
    played = tuple(c.code for c in DECK[1::3])[:captured + 1]
    return TableScene("Mesa #12 · quito · chica 2 · mano 3", table, table[-1] if table else None, "¡cae!", seats,
                      sides, LastPlay(0, played[0], played[1:], "¡Caída!"), LABELS)


def scenes() -> list[TableScene]:
    out = []
    for a, b in itertools.pairwise(NAMES):
        out.append(scene((a, b)))
    for k in range(0, len(NAMES), 4):
        out.append(scene(NAMES[k:k + 4]))
        out.append(scene(tuple(reversed(NAMES[k:k + 4]))))
    out.append(scene(("Ana", "Computadora 1", "Caro", "Computadora 2")))
    return out


def test_the_minimums_are_4_and_8_percent_of_the_width():
    assert all(len(name) <= 16 for name in NAMES)
    assert MIN_TEXT >= 0.04 * WIDTH and MIN_TEXT * PHONE_WIDTH / WIDTH >= 11
    assert MIN_RANK >= 0.08 * WIDTH and MIN_RANK * PHONE_WIDTH / WIDTH >= 24


@pytest.mark.parametrize("table", scenes(), ids=lambda s: f"{len(s.seats)}p-" + "-".join(x.name[:4] for x in s.seats))
def test_no_text_below_4_percent_and_table_ranks_of_8_percent(table):
    plan = layout(table)
    items = text_items(plan)
    assert {i.role.split(":")[0] for i in items} >= {"title", "score", "name", "hand", "dealer", "mano", "turn",
                                                      "only_caida", "trail_label", "callout"}
    for item in items:
        assert item.size >= MIN_TEXT, f"{item.role} {item.text!r} at {item.size} px"
        assert item.size * PHONE_WIDTH / WIDTH >= 11
    ranks = rank_heights(plan)
    assert {role for role, _, _ in ranks} == {"table", "played", "captured"}
    for role, code, height in ranks:
        assert height >= MIN_RANK, f"{role} {code}: rank {height} px"


@pytest.mark.parametrize("table", scenes(), ids=lambda s: f"{len(s.seats)}p-" + "-".join(x.name[:4] for x in s.seats))
def test_names_of_16_characters_are_never_cut_and_stay_in_their_plaque(table):
    plan = layout(table)
    for i, seat_ in enumerate(table.seats):
        lines = [item for item in text_items(plan) if item.role == f"name:{i}"]
        assert 1 <= len(lines) <= 2
        assert "".join(item.text for item in lines).replace(" ", "") == seat_.name.replace(" ", ""), "whole"
        assert not any(item.clipped for item in lines)
        plaque = plan.role(f"plaque:{i}")[0].box
        for item in lines:
            left, top, right, bottom = item.box
            assert plaque[0] < left and right <= plaque[2] and plaque[1] <= top and bottom <= plaque[3] + 2
        others = [s.box for s in plan.role_prefix(f"hand:{i}")] + [s.box for s in plan.role(f"level:{i}")]
        for box in others:
            assert all(item.box[2] <= box[0] for item in lines), "the name runs into the cards left or the level"


def test_level_dealer_mano_and_turn_are_legible_words():
    plan = layout(scene(("Ana", "Computadora 1")))
    assert [(i.text, i.size >= MIN_TEXT) for i in text_items(plan) if i.role == "level:1"] == [("difícil", True)]
    badges = {i.role: i.text for i in text_items(plan) if i.role in ("mano:0", "dealer:1", "turn:1")}
    assert badges == {"mano:0": "mano", "dealer:1": "da", "turn:1": "juega"}


def test_the_font_draws_spanish_and_portuguese_letters_itself():
    letters = "áéíóúñüçãõÁÉÍÓÚÑÜÇÃÕ¡¿"
    assert fit_text(letters, MIN_TEXT, 10_000) == letters
    notdef = bytes(text_font(48).getmask("\ue000"))
    for ch in letters:
        for bold in (False, True):
            assert bytes(text_font(48, bold).getmask(ch)) != notdef, ch
    assert not hasattr(picture_text, "_mark_mask"), "no accent is drawn by hand"
