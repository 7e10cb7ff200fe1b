"""The table picture is drawn for the size a phone shows it (280–320 px wide): the sizes and boxes are read
from the layout (`text_items`, `rank_heights`: what the picture asks the font and the card art for, and
where), not from pixels, and checked against the picture's width."""

from __future__ import annotations

import itertools
from dataclasses import replace

import pytest

from bot.engine import DECK
from bot.i18n import t
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
          "mano": "mano", "turn": "LE TOCA", "only_caida": "38 no juega", "empty": "mesa limpia"}
NAMES = ("MMMMMMMMMMMMMMMM", "Ñandú Ágústín Ç", "WWWWWWWWWWWWWWWW", "Computadora 1", "ÇÃÕÉÍÓÚÑÜ çãõéíú",
         "Ana", "José Peña", "Mmmmmmmmmmmmmmmm", "Ñañito Güeñez Ç", "João Conceição")
"""Names of up to 16 characters: the widest letters, accents of Spanish and Portuguese, a computer."""

REAL_NAMES = ("Ñañito Güeñez Ç", "Computadora 1", "ÇÃÕÉÍÓÚÑÜ çãõéíú", "Ana María Ñúñez", "João Conceição",
              "Computadora 2", "Mariángeles Peña", "José Peña")
"""Names of up to 16 characters as people write them (the widest letters, 16 Ms, take two lines)."""

WIDTH = SIZE[0]


def seat(name: str, team: int, **flags) -> SeatScene:
    base = {"cards_left": 5, "dealer": False, "mano": False, "to_play": False, "level": None, "away": False}
    return SeatScene(name=name, team=team, **{**base, **flags})


def scene(names: tuple[str, ...], *, cards: int = 10, captured: int = 3, at38: bool = True, trail_at: int = -1,
          to_play: int = 1) -> TableScene:
    """Mid-hand, full hands (5 cards left each): ``cards`` on the table, the one at ``trail_at`` a trail a caída
    can take, and a caída just made; seat 0 is mano, the last seat deals, a computer seat shows its level."""
    table = tuple(c.code for c in DECK[::3])[:cards]
    seats = tuple(seat(name, i % 2, dealer=i == len(names) - 1, mano=i == 0, to_play=i == to_play,
                       level="difícil" if name.startswith("Computadora") else None) for i, name in enumerate(names))
    sides = (SideScene("A", 3, 4, 1, at38, 12), SideScene("B", 2, 1, 0, False, 8))
    played = tuple(c.code for c in DECK[1::3])[:captured + 1]
    return TableScene("Mesa #12 · quito · chica 2 · mano 3", table, table[trail_at] if table else None, "¡cae!",
                      seats, sides, LastPlay(0, played[0], played[1:], "¡Caída y limpia!"), LABELS)


def scenes(names: tuple[str, ...] = NAMES) -> list[TableScene]:
    out = []
    for a, b in itertools.pairwise(names):
        out.append(scene((a, b)))
    for k in range(0, len(names) - 3, 2):
        out.append(scene(names[k:k + 4]))
        out.append(scene(tuple(reversed(names[k:k + 4])), trail_at=2, to_play=3))
    out.append(scene(("Ana", "Computadora 1", "Caro", "Computadora 2"), at38=False))
    return out


def ids(table: TableScene) -> str:
    return f"{len(table.seats)}p-" + "-".join(x.name[:4] for x in table.seats)


def test_the_minimums_are_4_percent_and_24_px_at_the_phone_width():
    assert all(len(name) <= 16 for name in NAMES + REAL_NAMES)
    assert 280 <= PHONE_WIDTH <= 320 and SIZE == (600, 450)
    assert MIN_TEXT >= 0.04 * WIDTH and MIN_TEXT * PHONE_WIDTH / WIDTH >= 11
    assert MIN_RANK * PHONE_WIDTH / WIDTH >= 24


@pytest.mark.parametrize("table", scenes(), ids=ids)
def test_no_text_below_4_percent_of_the_width(table):
    plan = layout(table)
    items = text_items(plan)
    expected = {"score", "chicas", "name", "hand", "dealer", "mano", "turn", "trail_label", "callout"}
    assert {i.role.split(":")[0] for i in items} >= expected | ({"only_caida"} if table.sides[0].at38 else set())
    for item in items:
        assert item.size >= MIN_TEXT, f"{item.role} {item.text!r} at {item.size} px"
        assert item.size * PHONE_WIDTH / WIDTH >= 11


@pytest.mark.parametrize("table", scenes(REAL_NAMES) + [scene(NAMES[:2]), scene(NAMES[2:4])], ids=ids)
def test_every_face_up_card_has_a_rank_of_24_px_at_the_phone_width(table):
    ranks = rank_heights(layout(table))
    assert {role for role, _, _ in ranks} == {"table", "played", "captured"}
    for role, code, height in ranks:
        assert height >= MIN_RANK, f"{role} {code}: rank {height} px"
        assert height * PHONE_WIDTH / WIDTH >= 24


@pytest.mark.parametrize("table", scenes(), ids=ids)
def test_names_of_16_characters_are_never_cut_and_stay_in_their_plaque(table):
    plan = layout(table)
    for i, seat_ in enumerate(table.seats):
        lines = [item for item in text_items(plan) if item.role == f"name:{i}"]
        assert 1 <= len(lines) <= 2
        assert "".join(item.text for item in lines).replace(" ", "") == seat_.name.replace(" ", ""), "whole"
        assert not any(item.clipped for item in lines)
        plaque = plan.role(f"plaque:{i}")[0].box
        for item in text_items(plan):
            if item.role.endswith(f":{i}") and item.role.split(":")[0] in ("name", "hand", "level", "turn", "dealer",
                                                                             "mano"):
                left, top, right, bottom = item.box
                assert plaque[0] < left and right < plaque[2] and plaque[1] < top and bottom < plaque[3], item


def _overlap(a: tuple[int, int, int, int], b: tuple[int, int, int, int]) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


@pytest.mark.parametrize("table", scenes() + [scene(("Ana", "Beto"), cards=16, captured=6)], ids=ids)
def test_no_text_covers_another_text_or_a_card(table):
    """Every text (its inked pixels) and badge, every face-up card and card back: no two of them overlap, in
    1 v 1 and 2 v 2, with long names, full hands, a trail and a caída's callout."""
    plan = layout(table)
    texts = [(f"{i.role} {i.text!r}", i.box) for i in text_items(plan)]
    cards = [(f"{s.role} {s.value}", s.box) for s in plan.shapes if s.kind in ("card", "back")]
    fanned = [(f"{s.role} {s.value}", s.box) for s in plan.shapes if s.kind == "fanned"]
    for k, (what, box) in enumerate(texts):
        assert 0 <= box[0] and 0 <= box[1] and box[2] <= SIZE[0] and box[3] <= SIZE[1], what
        for other, box2 in texts[k + 1:] + cards + fanned:
            assert not _overlap(box, box2), f"{what} covers {other}"
    for k, (what, box) in enumerate(cards):
        for other, box2 in cards[k + 1:]:
            assert not _overlap(box, box2), f"{what} covers {other}"


@pytest.mark.parametrize("players", [2, 4])
def test_a_seat_name_is_drawn_once(players):
    names = ("Ñañito Güeñez Ç", "Computadora 1", "Ana", "Beto")[:players]
    texts = [i.text for i in text_items(layout(scene(names, at38=False)))]
    for name in names:
        assert sum(text == name or (len(text) > 3 and text in name) for text in texts) == 1, (name, texts)


def test_level_dealer_mano_turn_and_every_badge_are_legible_words():
    plan = layout(scene(("Ana", "Computadora 1")))
    items = {i.role: i for i in text_items(plan)}
    assert items["level:1"].text == "difícil" and items["level:1"].size >= MIN_TEXT
    assert {role: items[role].text for role in ("mano:0", "dealer:1", "turn:1", "only_caida:0", "trail_label",
                                                "callout")} == {
        "mano:0": "mano", "dealer:1": "da", "turn:1": "LE TOCA", "only_caida:0": "38 no juega",
        "trail_label": "¡cae!", "callout": "¡Caída y limpia!"}
    assert all(items[role].size >= MIN_TEXT for role in items)


@pytest.mark.parametrize("lang", ["es", "en", "pt-BR"])
@pytest.mark.parametrize("players", [2, 4])
def test_the_catalogs_words_fit_without_a_cut(lang, players):
    labels = {key: t(f"pic.{key}", lang) for key in ("perros", "tantos", "chicas", "cards", "dealer", "mano",
                                                      "turn", "empty", "perros_one", "tantos_one", "chicas_one",
                                                      "cards_one", "trail")}
    labels["only_caida"] = t("pic.only_caida", lang, score=38)
    names = ("Computadora 1", "Computadora 2", "Ñañito Güeñez Ç", "ÇÃÕÉÍÓÚÑÜ çãõéíú")[:players]
    for at38 in (False, True):
        table = replace(scene(names, at38=at38), labels=labels, trail_label=labels["trail"])
        table = replace(table, seats=tuple(replace(s, level=s.level and "medium") for s in table.seats))
        for item in text_items(layout(table)):
            assert not item.clipped, item


def test_the_font_draws_spanish_and_portuguese_letters_itself():
    letters = "áéíóúñüçãõÁÉÍÓÚÑÜÇÃÕ¡¿"
    assert fit_text(letters, MIN_TEXT, 10_000) == letters
    notdef = bytes(text_font(48).getmask("\ue000"))
    for ch in letters:
        for bold in (False, True):
            assert bytes(text_font(48, bold).getmask(ch)) != notdef, ch
    assert not hasattr(picture_text, "_mark_mask"), "no accent is drawn by hand"
