"""The table picture (`bot.ui.picture`) and the card art (`bot.ui.cardart`): what is drawn is asserted on
`layout` (content, not pixels); the PNG is checked for format, size and weight."""

from __future__ import annotations

import io
import struct
import zlib
from dataclasses import replace

import pytest
from PIL import Image

from bot.engine import DECK, CardError
from bot.ui.cardart import EMOJI_SIZE, card_back, card_fanned, card_image, card_width, emoji_png
from bot.ui.picture import (
    SIZE,
    LastPlay,
    SceneError,
    SeatScene,
    SideScene,
    TableScene,
    fit_text,
    layout,
    render_table,
)
from bot.ui.picture import arrange as picture_layout
from bot.ui.picture import draw as picture_draw
from bot.ui.picture import tiles as picture_tiles

LABELS = {"perros": "perros", "tantos": "tantos", "chicas": "chicas", "cards": "cartas", "dealer": "da",
          "mano": "mano", "turn": "juega", "only_caida": "solo caída", "empty": "mesa limpia"}
PNG = b"\x89PNG\r\n\x1a\n"
MAX_PNG = 80 * 1024


def seat(name: str, team: int, *, cards: int = 5, dealer: bool = False, mano: bool = False, to_play: bool = False,
         level: str | None = None, away: bool = False) -> SeatScene:
    return SeatScene(name=name, cards_left=cards, team=team, dealer=dealer, mano=mano, to_play=to_play,
                     level=level, away=away)


def side(label: str, points: int = 0, chicas: int = 0, *, at38: bool = False, captured: int = 0) -> SideScene:
    return SideScene(label=label, perros=points // 10, tantos=(points % 10) // 2, chicas=chicas, at38=at38,
                     captured=captured)


def one_v_one(**changes) -> TableScene:
    scene = TableScene(
        title="Mesa #3 · quito · chica 1 · mano 2",
        table_cards=("3C", "4H", "JS", "KD", "2S", "7H"),
        trail=None, trail_label="¡cae!",
        seats=(seat("Ana", 0, cards=4, dealer=True, to_play=True), seat("Beto", 1, cards=4, mano=True)),
        sides=(side("Ana", 16, 0, captured=6), side("Beto", 24, 1, captured=10)),
        last_play=None, labels=LABELS)
    return replace(scene, **changes)


def two_v_two(**changes) -> TableScene:
    scene = TableScene(
        title="Mesa #9 · quito · chica 2 · mano 4",
        table_cards=("AS", "2H", "3D", "4C", "5S", "6H", "7D", "JC", "QH", "KS"),
        trail="KS", trail_label="¡cae!",
        seats=(seat("Ana", 0, cards=3, mano=True), seat("Computadora 1", 1, cards=3, to_play=True, level="medio"),
               seat("Caro", 0, cards=2), seat("Dani", 1, cards=2, dealer=True)),
        sides=(side("Equipo A", 38, 1, at38=True, captured=12), side("Equipo B", 22, 0, captured=8)),
        last_play=LastPlay(0, "5D", ("5H", "6C", "7S"), "¡Caída!"), labels=LABELS)
    return replace(scene, **changes)


def overlaps(a: tuple[int, int, int, int], b: tuple[int, int, int, int]) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


# --------------------------------------------------------------------------- what is drawn


def test_one_v_one_draws_the_table_seats_and_scores():
    plan = layout(one_v_one())
    assert plan.size == SIZE
    assert plan.cards == ("3C", "4H", "JS", "KD", "2S", "7H")
    assert plan.seats == ("Ana", "Beto")
    assert plan.scores[0] == "1 perro 3 tantos", "a count of 1 takes the singular"
    assert plan.scores[1] == "2 perros 2 tantos"
    assert plan.chicas == (0, 1) and [s.value for s in plan.role("chicas")] == ["chicas"]
    assert plan.hands == (4, 4)
    assert "turn:0" in plan.highlights and "turn:1" not in plan.highlights
    assert {"dealer:0", "mano:1"} <= set(plan.highlights)
    assert not any(h.startswith(("only_caida", "trail", "last", "callout", "computer", "away", "empty"))
                   for h in plan.highlights)
    assert plan.trail is None
    assert plan.role("title") == () and "Ana" not in plan.scores[0], "no title; a side is not named"


def test_two_v_two_seats_in_turn_order_with_turn_38_trail_and_last_play():
    scene = two_v_two()
    plan = layout(scene)
    assert plan.cards == scene.table_cards
    assert plan.seats == ("Ana", "Computadora 1", "Caro", "Dani")
    assert plan.hands == (3, 3, 2, 2)
    assert [h for h in plan.highlights if h.startswith("turn:")] == ["turn:1"]
    assert "juega" in [s.value for s in plan.role("turn:1")]
    assert [h for h in plan.highlights if h.startswith("only_caida")] == ["only_caida:0"]
    assert plan.role("only_caida:0")[0].value == "solo caída"
    assert plan.scores[0] == "", "at 38 the badge stands in place of the numbers"
    assert plan.scores[1] == "2 perros 1 tanto" and plan.chicas == (1, 0)
    assert plan.trail == "KS" and plan.role("trail_label")[0].value == "¡cae!"
    assert {"computer:1", "level:1", "dealer:3", "mano:0", "last:0", "callout"} <= set(plan.highlights)
    assert [s.value for s in plan.role("level:1")] == ["medio"]
    assert [s.value for s in plan.role("played")] == ["5D"]
    assert [s.value for s in plan.role("captured")] == ["5H", "6C", "7S"]
    assert [s.value for s in plan.role("callout")] == ["¡Caída!"]


def test_seats_read_in_turn_order_two_to_a_row_side_0_at_the_left():
    for plan in (layout(two_v_two()), layout(one_v_one())):
        seats = len(plan.role_prefix("plaque:"))
        boxes = [plan.role(f"plaque:{i}")[0].box for i in range(seats)]
        for i in range(0, seats, 2):
            left, right = boxes[i], boxes[i + 1]
            assert left[2] <= right[0] and left[1] == right[1], "seat i | seat i + 1 on one row"
            assert right[2] > SIZE[0] // 2 > left[2] - 4
        for i in range(seats - 2):
            assert boxes[i][3] <= boxes[i + 2][1] and boxes[i][0] == boxes[i + 2][0], "the next row below"


def test_team_colours_match_the_sides():
    plan = layout(two_v_two(seats=tuple(replace(s, to_play=False) for s in two_v_two().seats)))
    panels = [s for s in plan.shapes if s.kind == "panel" and s.width == 2]
    side_colours = [panels[0].color, next(p for p in panels[1:] if p.color != panels[0].color).color]
    assert side_colours[0] != side_colours[1]
    for i, team in enumerate((0, 1, 0, 1)):
        assert plan.role(f"plaque:{i}")[0].color == side_colours[team]


def test_the_turn_highlight_follows_the_seat_to_play():
    for who in range(4):
        seats = tuple(replace(s, to_play=(i == who)) for i, s in enumerate(two_v_two().seats))
        plan = layout(two_v_two(seats=seats))
        assert [h for h in plan.highlights if h.startswith("turn:")] == [f"turn:{who}"]
        assert any(s.kind == "glow" for s in plan.role(f"turn:{who}"))
    nobody = layout(two_v_two(seats=tuple(replace(s, to_play=False) for s in two_v_two().seats)))
    assert not [h for h in nobody.highlights if h.startswith("turn:")]


def test_the_38_mark_only_on_the_side_at_38():
    for at38, expected in (((False, False), []), ((True, False), ["only_caida:0"]), ((False, True), ["only_caida:1"]),
                           ((True, True), ["only_caida:0", "only_caida:1"])):
        sides = (replace(two_v_two().sides[0], at38=at38[0]), replace(two_v_two().sides[1], at38=at38[1]))
        plan = layout(two_v_two(sides=sides))
        assert [h for h in plan.highlights if h.startswith("only_caida")] == expected


def test_an_empty_table_says_so_and_draws_no_table_card():
    plan = layout(one_v_one(table_cards=(), trail=None))
    assert plan.cards == ()
    assert "empty" in plan.highlights and plan.role("empty")[0].value == "mesa limpia"


def test_twelve_and_sixteen_cards_wrap_in_play_order_and_stay_on_the_felt():
    codes = tuple(c.code for c in DECK[::2])[:16]
    for scene_of in (one_v_one, two_v_two):
        for n in (12, 16):
            scene = scene_of(table_cards=codes[:n], trail=codes[n - 1], last_play=None)
            plan = layout(scene)
            assert plan.cards == codes[:n]
            assert plan.trail == codes[n - 1]
            boxes = [s.box for s in plan.role("table")]
            rows = sorted({b[1] for b in boxes})
            assert len(rows) >= 2, "many cards wrap to a second row"
            assert [b[1] for b in boxes] == sorted(b[1] for b in boxes), "rows are filled in play order"
            heights = {b[3] - b[1] for b in boxes}
            assert len(heights) == 1 and heights.pop() >= 60


def test_the_trail_mark_is_drawn_only_for_a_card_on_the_table():
    plan = layout(one_v_one(trail="7H", trail_label="¡cae!"))
    assert plan.trail == "7H" and "trail" in plan.highlights
    ring = plan.role("trail")[0].box
    card = next(s.box for s in plan.role("table") if s.value == "7H")
    assert ring[0] < card[0] and ring[2] > card[2]
    assert layout(one_v_one(trail="AS")).trail is None  # not on the table: no mark


def test_only_public_cards_are_drawn_face_up():
    scene = two_v_two()
    plan = layout(scene)
    public = set(scene.table_cards) | {scene.last_play.card} | set(scene.last_play.captured)
    assert set(plan.faces) == public
    assert sorted(plan.faces) == sorted([*scene.table_cards, scene.last_play.card, *scene.last_play.captured])
    assert plan.hands == tuple(s.cards_left for s in scene.seats)


def test_a_trail_last_play_and_an_unknown_card():
    plan = layout(one_v_one(last_play=LastPlay(1, "7H", (), "")))
    assert [s.value for s in plan.role("played")] == ["7H"] and plan.role("captured") == ()
    assert "last:1" in plan.highlights and "callout" not in plan.highlights
    plan = layout(one_v_one(last_play=LastPlay(0, "", (), "¡Ronda!")))
    assert plan.role("played") == () and [s.value for s in plan.role("callout")] == ["¡Ronda!"]


def test_many_captures_fan_out_and_a_long_callout_wraps_beside_every_seat():
    captured = ("KH", "AS", "2C", "3H", "4D", "5S", "6C")
    for scene_of, seats in ((one_v_one, 2), (two_v_two, 4)):
        for who in range(seats):
            scene = scene_of(last_play=LastPlay(who, "KD", captured, "¡Caída y limpia a todo rigor!"))
            plan = layout(scene)
            assert [s.value for s in plan.role("captured")] == list(captured)
            assert " ".join(s.value for s in plan.role("callout")).startswith("¡Caída y")
            box = plan.role(f"last:{who}")[0].box
            for shape in plan.shapes:
                if shape.kind == "glow":  # a soft halo may fade past the edge
                    continue
                assert 0 <= shape.box[0] and shape.box[2] <= SIZE[0] and 0 <= shape.box[1] and shape.box[3] <= SIZE[1]
                if shape.role in ("played", "captured", "callout"):
                    assert box[0] <= shape.box[0] and shape.box[2] <= box[2] + 2
            for card in plan.role("table"):
                assert not overlaps(card.box, box), "the last play covers a table card"


def test_plaques_never_cover_table_cards():
    codes = tuple(c.code for c in DECK[1::3])[:16]
    for scene in (one_v_one(table_cards=codes), two_v_two(table_cards=codes)):
        plan = layout(scene)
        plaques = [s.box for s in plan.shapes if s.role.startswith("plaque:")]
        for card in plan.role("table"):
            assert not any(overlaps(card.box, p) for p in plaques)


def test_computer_and_away_seats():
    seats = (seat("Ana", 0, away=True), seat("Computadora 2", 1, level="difícil"))
    plan = layout(one_v_one(seats=seats))
    assert {"away:0", "computer:1", "level:1"} <= set(plan.highlights)
    assert "level:0" not in plan.highlights and "computer:0" not in plan.highlights
    assert [s.value for s in plan.role("level:1")] == ["difícil"]


def test_long_names_with_emoji_are_cleaned_and_clipped():
    long_name = "María José 🔥🔥 de los Ángeles Ñúñez Peñaherrera " * 3
    for scene_of, seats in ((one_v_one, 2), (two_v_two, 4)):
        names = tuple(long_name if i == seats - 1 else f"P{i}" for i in range(seats))
        scene = scene_of(seats=tuple(replace(s, name=n) for s, n in zip(scene_of().seats, names, strict=True)))
        plan = layout(scene)
        drawn = plan.seats[-1]
        assert drawn.startswith("María José de") and drawn.endswith("…")
        assert "🔥" not in drawn
        text = plan.role(f"name:{seats - 1}")[0]
        plaque = plan.role(f"plaque:{seats - 1}")[0]
        assert plaque.box[0] < text.box[0] and text.box[2] <= plaque.box[2]
    only_emoji = layout(one_v_one(seats=(seat("🔥🔥", 0), seat("李明", 1))))
    assert only_emoji.seats == ("?", "?")


def test_fit_text_keeps_spanish_and_drops_what_the_font_lacks():
    assert fit_text("José Peña ¡Caída! ¿sí? Ñandú", 24, 10_000) == "José Peña ¡Caída! ¿sí? Ñandú"
    assert fit_text("🔥 Ana  🔥", 24, 10_000) == "Ana"
    assert fit_text("李明", 24, 10_000) == ""
    clipped = fit_text("Carolina de los Ángeles", 24, 160, True)
    assert clipped.endswith("…") and clipped.startswith("Carolina")


def test_missing_labels_fall_back():
    plan = layout(one_v_one(labels={}, table_cards=()))
    assert plan.role("empty")[0].value == "mesa limpia"
    assert plan.scores[0] == "1 perro 3 tantos" and plan.role("chicas")[0].value == "chicas", plan.scores[0]


def test_impossible_scenes_are_refused():
    with pytest.raises(SceneError):
        layout(one_v_one(seats=one_v_one().seats[:1]))
    with pytest.raises(SceneError):
        layout(one_v_one(seats=(*two_v_two().seats[:3],)))
    with pytest.raises(SceneError):
        layout(one_v_one(last_play=LastPlay(2, "7D", (), "")))
    with pytest.raises(SceneError):
        layout(one_v_one(seats=(seat("a", 2), seat("b", 1))))
    with pytest.raises(CardError):
        layout(one_v_one(table_cards=("8D",)))


# --------------------------------------------------------------------------- the PNG


@pytest.mark.parametrize("scene", [
    one_v_one(), two_v_two(), one_v_one(table_cards=()),
    two_v_two(table_cards=tuple(c.code for c in DECK[::2])[:16], trail=DECK[30].code),
    two_v_two(last_play=LastPlay(3, "KD", ("KH", "AS", "2C", "3H", "4D", "5S"), "¡Caída y limpia!")),
], ids=["1v1", "2v2", "empty", "16-cards", "big-capture"])
def test_render_table_is_a_small_png_of_the_picture_size(scene):
    data = render_table(scene)
    assert data.startswith(PNG)
    assert len(data) <= MAX_PNG, f"{len(data)} bytes"
    image = Image.open(io.BytesIO(data))
    image.load()
    assert image.size == SIZE
    assert render_table(scene) == data, "the same scene draws the same picture"


def _scenes_to_compare() -> list[TableScene]:
    """Scenes that use every cache: tiles merged (glows, a trail), fans, callouts, badges, empty table."""
    return [
        one_v_one(), two_v_two(), one_v_one(table_cards=()), two_v_two(trail=None, last_play=None),
        two_v_two(table_cards=tuple(c.code for c in DECK[::2])[:16], trail=DECK[30].code),
        two_v_two(last_play=LastPlay(3, "KD", ("KH", "AS", "2C", "3H", "4D", "5S"), "¡Caída y limpia!")),
        one_v_one(seats=(seat("Ana", 0, away=True, to_play=True), seat("Computadora 2", 1, level="difícil")),
                  sides=(side("Ana", 38, 2, at38=True), side("Computadora 2", 38, 0, at38=True)),
                  last_play=LastPlay(1, "7H", (), "")),
    ]


def _pixels(data: bytes) -> tuple[bytes, list[int] | None]:
    image = Image.open(io.BytesIO(data))
    image.load()
    assert image.mode == "P" and image.size == SIZE
    return image.tobytes(), image.getpalette()


def test_the_cached_picture_is_the_fresh_one_and_never_stale():
    scenes = _scenes_to_compare()
    picture_tiles._clear_caches()
    fresh = [render_table(scene) for scene in scenes]  # each drawn with only what it caches itself
    for scene, expected in zip(scenes, fresh, strict=True):  # now with every other scene's tiles and bands cached
        picture_tiles._clear_caches()
        render_table(scene)
        for other in scenes:
            render_table(other)
        assert render_table(scene) == expected
    # one play later: the next scene differs in a few tiles only, and draws as it would from nothing
    before = one_v_one()
    after = one_v_one(seats=(seat("Ana", 0, cards=3, dealer=True), seat("Beto", 1, cards=4, mano=True, to_play=True)))
    render_table(before)
    cached = render_table(after)
    picture_tiles._clear_caches()
    assert render_table(after) == cached != render_table(before)


def test_the_tiled_picture_is_the_whole_picture_drawn_shape_by_shape():
    for scene in _scenes_to_compare():
        whole = picture_draw._quantize(picture_draw._render_rgb(scene))
        pixels, palette = _pixels(render_table(scene))
        assert pixels == whole.tobytes(), "a tile or a band differs from the plain drawing"
        assert palette == whole.getpalette()


def test_the_png_is_one_valid_zlib_stream_of_the_rows():
    data = render_table(two_v_two())
    chunks, at = {}, 8
    while at < len(data):
        length, kind = struct.unpack(">I4s", data[at:at + 8])
        body = data[at + 8:at + 8 + length]
        assert struct.unpack(">I", data[at + 8 + length:at + 12 + length])[0] == zlib.crc32(kind + body)
        chunks[kind] = body
        at += 12 + length
    assert list(chunks) == [b"IHDR", b"PLTE", b"IDAT", b"IEND"]
    rows = zlib.decompress(chunks[b"IDAT"])  # checks the Adler-32 too
    pixels, _ = _pixels(data)
    assert rows == b"".join(b"\0" + pixels[y * SIZE[0]:(y + 1) * SIZE[0]] for y in range(SIZE[1]))


def test_the_png_is_pillows_at_its_level_and_another_level_draws_the_same_picture(monkeypatch):
    scene = two_v_two()
    picture_tiles._clear_caches()
    fast = render_table(scene)
    monkeypatch.setattr(picture_tiles, "PNG_LEVEL", 9)
    small = render_table(scene)
    assert small != fast and len(small) < len(fast)  # another level really ran
    assert _pixels(small) == _pixels(fast)


def test_parts_of_the_layout_are_cached_and_make_the_same_layout():
    scene = two_v_two()
    first, again = picture_layout.parts(scene), picture_layout.parts(scene)
    assert all(a is b for a, b in zip(first, again, strict=True)), "an unchanged part is the same object"
    assert tuple(s for part in first for s in part) == layout(scene).shapes
    turned = two_v_two(seats=tuple(replace(s, to_play=i == 2) for i, s in enumerate(scene.seats)))
    changed = picture_layout.parts(turned)
    assert [a is b for a, b in zip(first, changed, strict=True)] == [False, True, True, True, False, False, True], (
        "the band, the table and the plaques of seats 0 and 3 kept; the turn's glow and seats 1 and 2 laid out again")


# --------------------------------------------------------------------------- card art


@pytest.mark.parametrize("height", [24, 52, 106, 140])
def test_card_images_have_the_card_shape(height):
    for code in ("AS", "7D", "KH", "QC"):
        face = card_image(code, height)
        assert face.mode == "RGBA" and face.size == (card_width(height), height)
        assert abs(face.width / face.height - 0.7) < 0.03
        assert face.getpixel((0, 0))[3] < (200 if height < 40 else 10), "rounded corners are transparent"
        assert face.getpixel((face.width // 2, face.height // 2))[3] == 255
        assert card_fanned(code, height).size == face.size
    assert card_back(height).size == (card_width(height), height)
    assert card_image("7D", height) is card_image("7D", height), "cached"


def test_faces_differ_by_rank_and_colour_by_suit():
    faces = {c.code: card_image(c.code, 80).tobytes() for c in DECK}
    assert len(set(faces.values())) == 40
    red = card_image("7H", 80).convert("RGB").getcolors(1 << 16)
    black = card_image("7S", 80).convert("RGB").getcolors(1 << 16)
    assert max(red, key=lambda c: c[0] if c[1][0] > 150 and c[1][1] < 90 else 0)[1][0] > 150
    assert not any(rgb[0] > 150 and rgb[1] < 90 and n > 20 for n, rgb in black)


def test_card_art_refuses_bad_input():
    with pytest.raises(CardError):
        card_image("8D", 80)
    with pytest.raises(ValueError):
        card_image("7D", 4)
    with pytest.raises(ValueError):
        card_back(0)
    with pytest.raises(CardError):
        emoji_png("ZZ")


def test_emoji_pngs_for_all_40_cards():
    seen = set()
    for card in DECK:
        data = emoji_png(card.code)
        assert data.startswith(PNG) and len(data) <= 256 * 1024
        image = Image.open(io.BytesIO(data))
        assert image.size == (EMOJI_SIZE, EMOJI_SIZE) == (128, 128) and image.mode == "RGBA"
        alpha = image.getchannel("A")
        top, bottom = alpha.getbbox()[1], alpha.getbbox()[3]
        assert top <= 1 and bottom >= 127, "the card fills the height"
        assert alpha.getpixel((0, 64)) == 0, "transparent beside the card"
        seen.add(data)
    assert len(seen) == 40
