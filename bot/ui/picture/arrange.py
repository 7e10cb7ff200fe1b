"""The layout: a `TableScene` → every shape the picture draws, in order (`layout`)."""

from __future__ import annotations

import math
from functools import lru_cache
from typing import Any, cast

from bot.engine.cards import Card

from ..cardart import FAN_SHOW, card_width
from .shapes import (
    AREA_2,
    AREA_4,
    AT38,
    BADGE,
    BADGE_INK,
    BAR,
    BOTTOM_PLAQUE,
    DEFAULT_LABELS,
    DIM,
    GAP,
    INK,
    LEVEL,
    MAX_CARD,
    MIN_TABLE,
    PLAQUE,
    PLAQUE_TURN,
    SCORE_BOXES,
    SHADOW,
    SIDE_PLAQUES,
    SIZE,
    TEAM,
    TOP_PLAQUE,
    TRAIL,
    TURN,
    LastPlay,
    Layout,
    SceneError,
    SeatScene,
    Shape,
    SideScene,
    TableScene,
    W,
)
from .text import _baseline, _line_height, _pad, fit_text, text_width

# --------------------------------------------------------------------------- layout


class _Builder:
    def __init__(self) -> None:
        self.shapes: list[Shape] = []

    def add(self, shape: Shape) -> Shape:
        self.shapes.append(shape)
        return shape

    def text(self, x: int, baseline: int, text: str, size: int, *, color=INK, bold: bool = False, role: str = "",
             max_width: int = 10_000, shadow: tuple[int, int, int] | None = None, align: str = "left",
             smallest: int | None = None) -> int:
        """Add a text whose baseline is at ``baseline``; ``x`` is its left (or right, or centre) edge. A
        text too wide is drawn smaller, down to ``smallest``, before it is cut. Returns the width drawn
        (0 when nothing is left to draw)."""
        if smallest is not None:
            size = _fitting_size(text, size, smallest, max_width, bold)
        shown = fit_text(text, size, max_width, bold)
        if not shown:
            return 0
        width = text_width(shown, size, bold)
        if align == "right":
            x -= width
        elif align == "center":
            x -= width // 2
        top = baseline - _baseline(size)
        self.add(Shape("text", (x, top, x + width, top + _line_height(size)), shown, role, color, shadow,
                       size=size, bold=bold))
        return width

    def pill(self, x: int, cy: int, text: str, size: int, *, fill, color, role: str, bold: bool = True,
             max_width: int = 10_000, align: str = "left") -> int:
        """Add a badge centred vertically on ``cy``; returns its width (0 when nothing to draw)."""
        shown = fit_text(text, size, max_width - 2 * _pill_pad(size), bold)
        if not shown:
            return 0
        width = text_width(shown, size, bold) + 2 * _pill_pad(size)
        height = round(size * 1.35)
        if align == "right":
            x -= width
        elif align == "center":
            x -= width // 2
        top = cy - height // 2
        self.add(Shape("pill", (x, top, x + width, top + height), shown, role, color, fill, radius=height // 2,
                       size=size, bold=bold))
        return width


def _fitting_size(text: str, size: int, smallest: int, max_width: int, bold: bool) -> int:
    """The largest size from ``size`` down to ``smallest`` (in steps of 2) at which ``text`` fits whole."""
    while size > smallest and text_width(text, size, bold) > max_width:
        size = max(smallest, size - 2)
    return size


def _pill_pad(size: int) -> int:
    return max(5, size // 2)


def _pill_width(text: str, size: int, bold: bool, max_width: int) -> int:
    shown = fit_text(text, size, max_width - 2 * _pill_pad(size), bold)
    return text_width(shown, size, bold) + 2 * _pill_pad(size) if shown else 0


_Words = tuple[tuple[str, str], ...]
"""The scene's small words, every key of `DEFAULT_LABELS` in its order, as (key, word) pairs: hashable, so
that a part of the layout is cached by them."""


def _words(scene: TableScene) -> _Words:
    labels = scene.labels or {}
    return tuple((key, labels.get(key) or default) for key, default in DEFAULT_LABELS.items())


def _label(words: _Words, key: str, count: int | None = None) -> str:
    """The scene's word ``key``; beside a ``count`` of 1, its singular (``key_one``)."""
    if count == 1:
        key += "_one"
    for name, word in words:
        if name == key:
            return word
    return DEFAULT_LABELS[key]


def _check(scene: TableScene) -> None:
    if len(scene.seats) not in (2, 4):
        raise SceneError(f"a table has 2 or 4 seats, not {len(scene.seats)}")
    if len(scene.sides) != 2:
        raise SceneError("a scene has exactly two sides")
    for seat in scene.seats:
        if seat.team not in (0, 1):
            raise SceneError(f"seat team must be 0 or 1, not {seat.team!r}")
    if scene.last_play is not None and not 0 <= scene.last_play.seat < len(scene.seats):
        raise SceneError(f"last play by seat {scene.last_play.seat}, but there are {len(scene.seats)} seats")
    for code in scene.table_cards:
        Card.parse(code)


def _score_panel(b: _Builder, words: _Words, data: SideScene, side: int) -> None:
    left, top, right, bottom = SCORE_BOXES[side]
    team = TEAM[side]
    b.add(Shape("panel", (left, top, right, bottom), color=team, fill=BAR, width=2, radius=12))
    b.add(Shape("panel", (left + 2, top + 2, left + 9, bottom - 2), color=team, fill=team, radius=3))
    x0, x1 = left + 18, right - 12
    row1, row2 = top + 26, bottom - 9
    role = f"score:{side}"
    # row 1: the label, the 38 mark, chicas at the right
    word = fit_text(_label(words, "chicas", data.chicas), 20, 120)
    number = str(data.chicas)
    chicas_x = x1 - text_width(word, 20) - 6 - text_width(number, 24, True)
    mark = _label(words, "only_caida")
    mark_w = _pill_width(mark, 17, True, 170) if data.at38 else 0
    mark_x = chicas_x - 10 - mark_w
    b.text(x0, row1, data.label, 24, bold=True, role=role,
           max_width=max(20, (mark_x if data.at38 else chicas_x) - 12 - x0), smallest=18)
    if data.at38:
        b.pill(mark_x, row1 - 7, mark, 17, fill=AT38, color=INK, role=f"only_caida:{side}", max_width=170)
    x = chicas_x + b.text(chicas_x, row1 + 1, number, 24, bold=True, role=role) + 6
    b.text(x, row1, word, 20, color=DIM, role=role)
    # row 2: perros and tantos, big; cards captured at the right
    x = x0
    for value, key in ((data.perros, "perros"), (data.tantos, "tantos")):
        x += b.text(x, row2, str(value), 30, bold=True, color=team, role=role) + 5
        x += b.text(x, row2, _label(words, key, value), 20, role=role, max_width=110) + 16
    word = fit_text(_label(words, "cards", data.captured), 20, max(30, x1 - x - 40))
    number = str(data.captured)
    start = x1 - text_width(word, 20) - 5 - text_width(number, 24, True)
    x = start + b.text(start, row2, number, 24, bold=True, role=role) + 5
    b.text(x, row2, word, 20, color=DIM, role=role)


def _grid(n: int, area: tuple[int, int, int, int], gap_y: int) -> tuple[int, int]:
    """(cards per row, card height) that shows ``n`` cards largest in ``area``."""
    aw, ah = area[2] - area[0], area[3] - area[1]
    best = (max(1, n), MIN_TABLE)
    for rows in range(1, 5):
        per_row = math.ceil(n / rows)
        by_h = (ah - (rows - 1) * gap_y) / rows
        by_w = (aw - (per_row - 1) * GAP) / per_row / 0.7
        h = int(min(MAX_CARD, by_h, by_w))
        if h > best[1]:
            best = (per_row, h)
        if per_row == 1:
            break
    return best



def _table(b: _Builder, words: _Words, cards: tuple[str, ...], trail: str | None, trail_label: str,
           area: tuple[int, int, int, int]) -> None:
    if not cards:
        cx, cy = (area[0] + area[2]) // 2, (area[1] + area[3]) // 2
        b.text(cx, cy + 10, _label(words, "empty"), 28, color=DIM, role="empty", align="center",
               max_width=area[2] - area[0] - 20, shadow=SHADOW)
        return
    trail_at = None
    if trail is not None:
        want = Card.parse(trail)
        for i in range(len(cards) - 1, -1, -1):
            if Card.parse(cards[i]) is want:
                trail_at = i
                break
    gap_y = 22 if trail_at is not None else 12
    per_row, h = _grid(len(cards), area, gap_y)
    w = card_width(h)
    rows = math.ceil(len(cards) / per_row)
    total_h = rows * h + (rows - 1) * gap_y
    y = area[1] + (area[3] - area[1] - total_h) // 2
    marks: list[Shape] = []
    for r in range(rows):
        row = cards[r * per_row:(r + 1) * per_row]
        row_w = len(row) * w + (len(row) - 1) * GAP
        x = (area[0] + area[2] - row_w) // 2
        for j, code in enumerate(row):
            i = r * per_row + j
            code = Card.parse(code).code
            if i == trail_at:
                b.add(Shape("glow", (x - 9, y - 9, x + w + 9, y + h + 9), color=TRAIL, radius=10))
            else:
                b.add(Shape("shadow", (x - 3, y, x + w + 5, y + h + 8), radius=max(3, round(w * 0.11))))
            b.add(Shape("card", (x, y, x + w, y + h), code, "table"))
            if i == trail_at:
                b.add(Shape("ring", (x - 4, y - 4, x + w + 4, y + h + 4), code, "trail", TRAIL, width=4,
                            radius=max(4, round(w * 0.13))))
                pb = _Builder()
                pb.pill(x + w // 2, y - 2, trail_label, 17, fill=TRAIL, color=INK, role="trail_label",
                        align="center", max_width=max(w + 40, 80))
                marks.extend(pb.shapes)
            x += w + GAP
        y += h + gap_y
    for shape in marks:  # labels on top of every card
        b.add(shape)


def _hand(b: _Builder, x: int, cy: int, n: int, role: str) -> int:
    """Face-down backs (at most 5) and the count; returns the width used."""
    h = 26
    w = card_width(h)
    step = 9
    shown = max(0, min(n, 5))
    for k in range(shown):
        b.add(Shape("back", (x + k * step, cy - h // 2, x + k * step + w, cy - h // 2 + h), role=role))
    used = (shown - 1) * step + w + 6 if shown else 0
    used += b.text(x + used, cy + 8, str(max(0, n)), 22, bold=True, role=role)
    return used


def _badges(b: _Builder, words: _Words, seat: SeatScene, i: int, x: int, cy: int, limit: int) -> int:
    start = x
    if seat.level:
        x += b.pill(x, cy, seat.level, 16, fill=LEVEL, color=INK, role=f"level:{i}", bold=False,
                    max_width=max(30, limit - x)) + 5
    for flag, key in ((seat.dealer, "dealer"), (seat.mano, "mano")):
        if flag:
            x += b.pill(x, cy, _label(words, key), 16, fill=BADGE, color=BADGE_INK, role=f"{key}:{i}",
                        max_width=max(30, limit - x)) + 5
    return x - start


def _plaque(b: _Builder, words: _Words, seat: SeatScene, i: int, box: tuple[int, int, int, int],
            tall: bool) -> None:
    left, top, right, bottom = box
    team = TEAM[seat.team]
    if seat.to_play:
        b.add(Shape("glow", (left - 12, top - 12, right + 12, bottom + 12), role=f"turn:{i}", color=TURN,
                    radius=14))
        b.add(Shape("panel", box, role=f"plaque:{i}", color=TURN, fill=PLAQUE_TURN, width=4, radius=14))
    else:
        b.add(Shape("panel", box, role=f"plaque:{i}", color=team, fill=PLAQUE, width=2, radius=14))
    b.add(Shape("panel", (left + 4, top + 4, left + 11, bottom - 4), color=team, fill=team, radius=3))
    x = left + 18
    name_size = 24 if tall else 26
    row1 = top + 30
    limit = right - 10
    if seat.to_play and not tall:
        limit -= b.pill(right - 10, row1 - 8, _label(words, "turn"), 18, fill=TURN, color=BADGE_INK,
                        role=f"turn:{i}", align="right", max_width=110) + 8
    elif seat.to_play:  # a tab on the top edge
        b.pill(right - 12, top, _label(words, "turn"), 17, fill=TURN, color=BADGE_INK, role=f"turn:{i}",
               align="right", max_width=right - left - 24)
    computer = seat.level is not None or seat.away
    icon_role = f"away:{i}" if seat.away else f"computer:{i}"
    icon_color = DIM if seat.away else team
    if computer and not tall:
        b.add(Shape("robot", (x, row1 - 19, x + 22, row1 + 3), role=icon_role, color=icon_color))
        x += 28
    name_size = _fitting_size(seat.name, name_size, 18, limit - x, True)
    name = fit_text(seat.name, name_size, limit - x, True) or "?"
    b.text(x, row1, name, name_size, bold=True, color=DIM if seat.away else INK, role=f"name:{i}",
           max_width=limit - x)
    x = left + 18
    if tall:
        row2 = top + 50
        used = _hand(b, x, row2, seat.cards_left, f"hand:{i}")
        row3 = top + 77
        if computer:
            b.add(Shape("robot", (x, row3 - 10, x + 20, row3 + 10), role=icon_role, color=icon_color))
            x += 25
        _badges(b, words, seat, i, x, row3, right - 8)
    else:
        row2 = top + 47
        used = _hand(b, x, row2, seat.cards_left, f"hand:{i}")
        _badges(b, words, seat, i, x + used + 10, row2, right - 8)


def _captured_row(n: int, height: int, room: int) -> tuple[int, bool]:
    """(step between card lefts, fanned) for ``n`` captured cards ``height`` tall in ``room`` pixels:
    side by side when they fit, else overlapping as a fan (never closer than `FAN_SHOW`)."""
    cw = card_width(height)
    if n <= 1 or n * cw + (n - 1) * 4 <= room:
        return cw + 4, False
    return max(math.ceil(cw * FAN_SHOW), (room - cw) // (n - 1)), True


def _callout_lines(text: str, largest: int, smallest: int, max_width: int) -> tuple[int, tuple[str, ...]]:
    """(size, lines) of a callout in ``max_width``: one line at the largest size that fits, else two lines
    split at the space that balances them best, else (too long anyway) cut at the smallest size."""
    sizes = range(largest, smallest - 1, -2)
    for size in sizes:
        if text_width(text, size, True) <= max_width:
            return size, (text,)
    words = text.split()
    splits = [(" ".join(words[:k]), " ".join(words[k:])) for k in range(1, len(words))]
    if not splits:
        return smallest, (text,)
    a, b = min(splits, key=lambda p: max(text_width(p[0], smallest, True), text_width(p[1], smallest, True)))
    for size in sizes:
        if max(text_width(a, size, True), text_width(b, size, True)) <= max_width:
            return size, (a, b)
    return smallest, (a, b)


def _callout_need(text: str, smallest: int) -> int:
    """The narrowest a callout can be drawn whole: one line, or two balanced lines, at ``smallest``."""
    words = text.split()
    two = min((max(text_width(" ".join(words[:k]), smallest, True), text_width(" ".join(words[k:]), smallest, True))
               for k in range(1, len(words))), default=10_000)
    return min(text_width(text, smallest, True), two)


def _last_play(b: _Builder, play: LastPlay, team: int, where: str, plaque: tuple[int, int, int, int]) -> None:
    """The last play beside the plaque of its seat. Top and bottom seats: one row to the right of the
    plaque (card played, arrow, captured cards, callout in one or two lines). Side seats (4 players): a box
    below the plaque (the column is free down to the felt's edge): the cards (the captured ones on a row
    of their own when many), then the callout. A trail gets an arrow pointing to the table."""
    i = play.seat
    pad = 8
    tall = where in ("left", "right")
    card_h, cap_h = (48, 40) if tall else (52, 44)
    callout = " ".join(fit_text(play.callout, 24, 10_000, True).split())
    played_w = card_width(card_h) + 6 if play.card else 0
    captured = [Card.parse(c).code for c in play.captured]
    arrow_w = 30 if captured else (24 if play.card else 0)
    cw = card_width(cap_h)
    natural = len(captured) * cw + max(0, len(captured) - 1) * 4
    least = cw + max(0, len(captured) - 1) * math.ceil(cw * FAN_SHOW) if captured else 0
    size, lines = 0, cast("tuple[str, ...]", ())
    second_row = False
    if tall:
        inner = plaque[2] - plaque[0] - 2 * pad
        room = inner - played_w - arrow_w
        if captured and least > room:  # the captured cards go on a row of their own
            second_row, room = True, inner
        if callout:
            size, lines = _callout_lines(callout, 22, 16, inner)
        height = 2 * pad + card_h + (6 + cap_h if second_row else 0) + (26 * len(lines) + 2 if lines else 0)
        box = (plaque[0], plaque[3] + 8, plaque[2], plaque[3] + 8 + height)
    else:
        avail = W - 12 - (plaque[2] + 10) - 2 * pad
        fixed = played_w + arrow_w
        room = min(natural, avail - fixed)
        width = fixed + room
        if callout:
            if avail - fixed - natural - 10 < _callout_need(callout, 18):
                room = max(least, min(natural, avail - fixed - 10 - _callout_need(callout, 16)))
            size, lines = _callout_lines(callout, 24, 16, avail - fixed - room - 10)
            text_w = min(max(text_width(line, size, True) for line in lines), avail - fixed - room - 10)
            width = fixed + room + 10 + text_w
        box = (plaque[2] + 10, plaque[1], plaque[2] + 10 + max(60, width + 2 * pad), plaque[3])
    left, top, right, bottom = box
    b.add(Shape("panel", box, role=f"last:{i}", color=TEAM[team], fill=PLAQUE, width=2, radius=12))
    x = left + pad
    cy = top + pad + card_h // 2 if tall else (top + bottom) // 2
    if play.card:
        code = Card.parse(play.card).code
        b.add(Shape("card", (x, cy - card_h // 2, x + card_width(card_h), cy - card_h // 2 + card_h), code, "played"))
        x += played_w
    if captured:
        b.add(Shape("arrow", (x, cy - 9, x + 24, cy + 9), "right", f"last:{i}", TURN))
        x += arrow_w
        if second_row:
            x, cy = left + pad, top + pad + card_h + 6 + cap_h // 2
        step, fanned = _captured_row(len(captured), cap_h, room)
        for k, code in enumerate(captured):
            cx = x + k * step
            b.add(Shape("fanned" if fanned else "card", (cx, cy - cap_h // 2, cx + cw, cy - cap_h // 2 + cap_h),
                        code, "captured"))
        x += (len(captured) - 1) * step + cw
    elif play.card:  # a trail: the card went to the table
        toward = {"bottom": "up", "top": "down", "left": "right", "right": "left"}[where]
        b.add(Shape("arrow", (x - 2, cy - 12, x + 16, cy + 12), toward, f"last:{i}", TURN))
        x += arrow_w - 6
    step_y = _line_height(size) - _pad(size) if lines else 0
    for k, line in enumerate(lines):
        if tall:
            baseline = top + pad + card_h + (6 + cap_h if second_row else 0) + 26 + k * step_y
            b.text((left + right) // 2, baseline, line, size, bold=True, color=TURN, role="callout",
                   align="center", max_width=right - left - 2 * pad, shadow=SHADOW)
        else:
            baseline = cy + size // 3 + round((k - (len(lines) - 1) / 2) * step_y)
            b.text(x + 10, baseline, line, size, bold=True, color=TURN, role="callout",
                   max_width=right - pad - x - 10, shadow=SHADOW)


def _shapes(build: Any, *args: Any) -> tuple[Shape, ...]:
    b = _Builder()
    build(b, *args)
    return tuple(b.shapes)


@lru_cache(maxsize=256)
def _title(title: str) -> tuple[Shape, ...]:
    b = _Builder()
    b.text(W // 2, 21, title, 19, color=DIM, role="title", align="center", max_width=W - 20)
    return tuple(b.shapes)


@lru_cache(maxsize=1024)
def _score_part(words: _Words, data: SideScene, side: int) -> tuple[Shape, ...]:
    return _shapes(_score_panel, words, data, side)


@lru_cache(maxsize=1024)
def _table_part(words: _Words, cards: tuple[str, ...], trail: str | None, trail_label: str,
                area: tuple[int, int, int, int]) -> tuple[Shape, ...]:
    return _shapes(_table, words, cards, trail, trail_label, area)


@lru_cache(maxsize=2048)
def _plaque_part(words: _Words, seat: SeatScene, i: int, box: tuple[int, int, int, int],
                 tall: bool) -> tuple[Shape, ...]:
    return _shapes(_plaque, words, seat, i, box, tall)


@lru_cache(maxsize=1024)
def _last_play_part(play: LastPlay, team: int, where: str, box: tuple[int, int, int, int]) -> tuple[Shape, ...]:
    return _shapes(_last_play, play, team, where, box)


def parts(scene: TableScene) -> tuple[tuple[Shape, ...], ...]:
    """The shapes of ``scene`` by part of the picture, in drawing order: the title, the two score panels, the
    table cards, each seat's plaque, and the last play (when there is one). Each part is cached by what it
    shows, so the parts that did not change since a recent picture are the same objects (and cost nothing
    to lay out again).

    Raises:
        SceneError, CardError: as `layout`.
    """
    _check(scene)
    words = _words(scene)
    out = [_title(scene.title), _score_part(words, scene.sides[0], 0), _score_part(words, scene.sides[1], 1)]
    four = len(scene.seats) == 4
    out.append(_table_part(words, scene.table_cards, scene.trail, scene.trail_label, AREA_4 if four else AREA_2))
    places = ("bottom", "right", "top", "left") if four else ("bottom", "top")
    boxes = {"bottom": BOTTOM_PLAQUE, "top": TOP_PLAQUE, "left": SIDE_PLAQUES[0], "right": SIDE_PLAQUES[1]}
    for i, where in enumerate(places):
        out.append(_plaque_part(words, scene.seats[i], i, boxes[where], where in ("left", "right")))
    play = scene.last_play
    if play is not None:
        where = places[play.seat]
        out.append(_last_play_part(play, scene.seats[play.seat].team, where, boxes[where]))
    return tuple(out)


def layout(scene: TableScene) -> Layout:
    """What the picture of ``scene`` shows: every shape `render_table` draws, in order.

    Raises:
        SceneError: not 2 or 4 seats, a team not 0 or 1, a last-play seat out of range.
        CardError: a card code names no card.
    """
    return Layout(SIZE, tuple(shape for part in parts(scene) for shape in part))
