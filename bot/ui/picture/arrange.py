"""The layout: a `TableScene` → every shape the picture draws, in order (`layout`)."""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from functools import lru_cache
from typing import Any

from bot.engine.cards import Card

from ..cardart import FAN_SHOW, FANNED_RANK_CAP, RANK_CAP, card_width
from .shapes import (
    AT38,
    BADGE,
    BADGE_INK,
    BAR,
    COLUMNS,
    DEFAULT_LABELS,
    DIM,
    FELT_BOX,
    GAP,
    HEADER_H,
    HEADER_TOP,
    INK,
    MAX_CARD,
    MIN_RANK,
    MIN_TEXT,
    PLAQUE,
    PLAQUE_TURN,
    PLAQUE_X,
    PLAQUES_TOP,
    ROW,
    ROW_GAP,
    ROW_GAP_CARDS,
    SHADOW,
    SIZE,
    TEAM,
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
from .text import _baseline, _cap_height, _line_height, clean, fit_text, text_width

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
    return max(5, size // 3)


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
    """One side's panel: its label (and the 38 mark), perros and tantos in big numbers, then chicas and the
    cards captured this hand."""
    left, right = COLUMNS[side]
    top, bottom = HEADER_TOP, HEADER_TOP + HEADER_H
    team = TEAM[side]
    b.add(Shape("panel", (left, top, right, bottom), color=team, fill=BAR, width=2, radius=12))
    b.add(Shape("panel", (left + 2, top + 2, left + 9, bottom - 2), color=team, fill=team, radius=3))
    x0, x1 = left + 18, right - 10
    role = f"score:{side}"
    row1, row2, row3 = top + 32, top + 66, top + 92
    mark = _label(words, "only_caida")
    mark_w = _pill_width(mark, MIN_TEXT, True, x1 - x0) if data.at38 else 0
    label_room = x1 - x0 - (mark_w + 8 if data.at38 else 0)
    b.text(x0, row1, data.label, 28, bold=True, role=role, max_width=max(20, label_room), smallest=MIN_TEXT)
    if data.at38:
        b.pill(x1, row1 - 9, mark, MIN_TEXT, fill=AT38, color=INK, role=f"only_caida:{side}", align="right",
               max_width=x1 - x0)
    # in the order the score is read: chicas, perros and tantos, cards (chicas are drawn on row 3)
    x = x0
    x += b.text(x, row3, str(data.chicas), MIN_TEXT, bold=True, role=role) + 2
    x += b.text(x, row3, _label(words, "chicas", data.chicas), MIN_TEXT, color=DIM, role=role,
                max_width=max(20, x1 - x)) + 18
    cards_x = x
    x = x0
    for value, key in ((data.perros, "perros"), (data.tantos, "tantos")):
        x += b.text(x, row2, str(value), 34, bold=True, color=team, role=role) + 2
        x += b.text(x, row2, _label(words, key, value), MIN_TEXT, role=role, max_width=max(20, x1 - x)) + 14
    x = cards_x
    x += b.text(x, row3, str(data.captured), MIN_TEXT, bold=True, role=role) + 2
    b.text(x, row3, _label(words, "cards", data.captured), MIN_TEXT, color=DIM, role=role, max_width=max(20, x1 - x))


# --------------------------------------------------------------------------- seats


NAME_SIZE = 28
"""Font size of a seat's name when it fits; a longer name shrinks down to `MIN_TEXT`, then takes two lines."""


def _split_name(name: str, size: int, room: int) -> tuple[str, ...]:
    """``name`` in two lines that each fit ``room`` at ``size`` (bold): at the space that balances them,
    else at the last character that fits. A name too long even so is cut with ``…`` on its second line."""
    words = name.split(" ")
    splits = [(" ".join(words[:k]), " ".join(words[k:])) for k in range(1, len(words))]
    fitting = [p for p in splits if max(text_width(p[0], size, True), text_width(p[1], size, True)) <= room]
    if fitting:
        a, rest = min(fitting, key=lambda p: max(text_width(p[0], size, True), text_width(p[1], size, True)))
        return (a, rest)
    cut = len(name)
    while cut > 1 and text_width(name[:cut], size, True) > room:
        cut -= 1
    first, rest = name[:cut].rstrip(), name[cut:].lstrip()
    return (first, fit_text(rest, size, room, True)) if rest else (first,)


@lru_cache(maxsize=2048)
def _name_lines(name: str, room: int) -> tuple[int, tuple[str, ...]]:
    """(size, lines) of a seat's name in ``room`` pixels: one line at the largest size from `NAME_SIZE`
    down to `MIN_TEXT` that fits, else two lines at `MIN_TEXT`. A name is never cut unless it cannot fit
    two lines (about twice the 16 widest characters)."""
    shown = clean(name) or "?"
    for size in range(NAME_SIZE, MIN_TEXT - 1, -2):
        if text_width(shown, size, True) <= room:
            return size, (shown,)
    return MIN_TEXT, _split_name(shown, MIN_TEXT, room)


def _hand_width(n: int) -> int:
    shown = max(0, min(n, 5))
    return ((shown - 1) * _BACK_STEP + card_width(_BACK_H) + 6 if shown else 0) + text_width(str(max(0, n)), 26, True)


_BACK_H, _BACK_STEP = 28, 7


def _cluster(words: _Words, seat: SeatScene) -> tuple[int, int]:
    """(width of the right-hand cluster: level, cards left, dealer or mano, the turn slot; left icon width)."""
    width = _pill_width(_label(words, "turn"), MIN_TEXT, True, 300) + 8
    for flag, key in ((seat.dealer, "dealer"), (seat.mano, "mano")):
        if flag:
            width += _pill_width(_label(words, key), MIN_TEXT, True, 300) + 8
    width += _hand_width(seat.cards_left) + 12
    if seat.level:
        width += text_width(seat.level, MIN_TEXT) + 10
    icon = 34 if seat.level is not None or seat.away else 0
    return width, icon


def _name_room(words: _Words, seat: SeatScene) -> int:
    cluster, icon = _cluster(words, seat)
    return PLAQUE_X[1] - PLAQUE_X[0] - 28 - icon - cluster


def _name_step(size: int) -> int:
    """Distance between the baselines of a name's two lines."""
    return round(size * 1.25)


def plaque_height(words: _Words, seat: SeatScene) -> int:
    """Height in pixels of a seat's plaque: one `ROW`, taller when its name takes two lines."""
    size, lines = _name_lines(seat.name, _name_room(words, seat))
    return ROW if len(lines) == 1 else 2 * _name_step(size) + 10


def _plaque(b: _Builder, words: _Words, seat: SeatScene, i: int, box: tuple[int, int, int, int]) -> None:
    """A seat's plaque, one row the width of the picture: the team stripe, the computer icon, the name
    (whole: shrunk or on two lines), then at the right the level, the cards left (backs and a number), the
    dealer or mano badge and the turn badge; the seat to play glows gold."""
    left, top, right, bottom = box
    team = TEAM[seat.team]
    if seat.to_play:
        b.add(Shape("glow", (left - 10, top - 10, right + 10, bottom + 10), role=f"turn:{i}", color=TURN,
                    radius=14))
        b.add(Shape("panel", box, role=f"plaque:{i}", color=TURN, fill=PLAQUE_TURN, width=4, radius=12))
    else:
        b.add(Shape("panel", box, role=f"plaque:{i}", color=team, fill=PLAQUE, width=2, radius=12))
    b.add(Shape("panel", (left + 4, top + 4, left + 11, bottom - 4), color=team, fill=team, radius=3))
    cy = (top + bottom) // 2
    x = left + 18
    cluster, icon = _cluster(words, seat)
    if icon:
        role = f"away:{i}" if seat.away else f"computer:{i}"
        b.add(Shape("robot", (x, cy - 13, x + 26, cy + 13), role=role, color=DIM if seat.away else team))
        x += icon
    size, lines = _name_lines(seat.name, _name_room(words, seat))
    step = _name_step(size)
    first = cy + _baseline(size) - _line_height(size) // 2 - (step // 2 if len(lines) == 2 else 0) + 1
    for k, line in enumerate(lines):
        b.text(x, first + k * step, line, size, bold=True, color=DIM if seat.away else INK, role=f"name:{i}")
    # the right-hand cluster, laid from the right edge leftwards
    x = right - 10
    if seat.to_play:
        b.pill(x, cy, _label(words, "turn"), MIN_TEXT, fill=TURN, color=BADGE_INK, role=f"turn:{i}", align="right")
    x -= _pill_width(_label(words, "turn"), MIN_TEXT, True, 300) + 8
    for flag, key in ((seat.mano, "mano"), (seat.dealer, "dealer")):
        if flag:
            x -= b.pill(x, cy, _label(words, key), MIN_TEXT, fill=BADGE, color=BADGE_INK, role=f"{key}:{i}",
                        align="right") + 8
    x -= _hand_width(seat.cards_left) + 4
    _hand(b, x, cy, seat.cards_left, f"hand:{i}")
    x -= 8
    if seat.level:
        b.text(x, cy + _cap_height(MIN_TEXT) // 2, seat.level, MIN_TEXT, color=DIM, role=f"level:{i}",
               align="right")


def _hand(b: _Builder, x: int, cy: int, n: int, role: str) -> None:
    """Face-down backs (at most 5) and the count."""
    w = card_width(_BACK_H)
    shown = max(0, min(n, 5))
    for k in range(shown):
        b.add(Shape("back", (x + k * _BACK_STEP, cy - _BACK_H // 2, x + k * _BACK_STEP + w,
                             cy - _BACK_H // 2 + _BACK_H), role=role))
    used = (shown - 1) * _BACK_STEP + w + 6 if shown else 0
    b.text(x + used, cy + _cap_height(26) // 2, str(max(0, n)), 26, bold=True, role=role)


# --------------------------------------------------------------------------- the felt: table cards, last play


def _last_need(play: LastPlay | None, h: int, callout_w: int, fan: bool) -> int:
    """The width of the last play's frame with cards ``h`` tall, its captured cards side by side or (``fan``)
    fanned as tight as they read; 0 without a last play."""
    if play is None:
        return 0
    w = card_width(h)
    n = len(play.captured)
    cards = (w + 6 if play.card else 0) + (34 if n or play.card else 0)
    if n:
        cards += w + (n - 1) * (math.ceil(w * FAN_SHOW) if fan else w + 4)
    return max(cards, callout_w, 60) + 2 * 8


MIN_CARD = math.ceil(MIN_RANK / RANK_CAP)
"""Height of the smallest table card whose rank is `MIN_RANK` tall."""


def _grid(n: int, play: LastPlay | None, callout_w: int, area: tuple[int, int, int, int]) -> tuple[int, int, bool]:
    """(card height, cards per row, whether the last play takes a row of its own) that shows ``n`` table
    cards and the last play (`_last_need`) largest in ``area``: the captured cards side by side with cards
    at least `MIN_CARD` tall if that fits, else fanned, else smaller."""
    aw, ah = area[2] - area[0] - 16, area[3] - area[1]
    for fan, smallest in ((False, MIN_CARD), (True, MIN_CARD), (True, 24)):
        for h in range(MAX_CARD, smallest - 1, -2):
            w = card_width(h)
            per_row = max(1, (aw + GAP) // (w + GAP))
            rows = math.ceil(n / per_row) if n else 0
            own_row = False
            if play is not None:
                need = _last_need(play, h, callout_w, fan)
                if need > aw:
                    continue
                used = (n - (rows - 1) * per_row) * (w + GAP) if rows else 0
                if not rows or used + 8 + need > aw:
                    rows += 1
                    own_row = True
            if rows * h + max(0, rows - 1) * ROW_GAP_CARDS + 12 <= ah:
                return h, per_row, own_row
    return 24, max(1, n), play is not None


def _felt(b: _Builder, words: _Words, cards: tuple[str, ...], trail: str | None, trail_label: str,
          play: LastPlay | None, team: int, area: tuple[int, int, int, int]) -> None:
    """The table cards in play order, as large as fit, in rows; the card a caída can take ringed with its
    label; then the last play, a framed group on the same grid: the card played, an arrow and the cards it
    took (fanned when many), its callout on the frame."""
    callout = clean(play.callout) if play is not None else ""
    callout_w = _pill_width(callout, MIN_TEXT + 2, True, area[2] - area[0]) if callout else 0
    if not cards and play is None:
        cx, cy = (area[0] + area[2]) // 2, (area[1] + area[3]) // 2
        b.text(cx, cy + 10, _label(words, "empty"), 32, color=DIM, role="empty", align="center",
               max_width=area[2] - area[0] - 20, shadow=SHADOW)
        return
    h, per_row, own_row = _grid(len(cards), play, callout_w, area)
    w = card_width(h)
    rows = math.ceil(len(cards) / per_row) if cards else 0
    total_rows = rows + (1 if own_row else 0)
    total_h = total_rows * h + max(0, total_rows - 1) * ROW_GAP_CARDS
    y = area[1] + 12 + max(0, (area[3] - area[1] - 12 - total_h) // 2)
    trail_at = None
    if trail is not None:
        want = Card.parse(trail)
        trail_at = next((i for i in range(len(cards) - 1, -1, -1) if Card.parse(cards[i]) is want), None)
    marks: list[Shape] = []
    x = area[0]
    if not cards:
        b.text((area[0] + area[2]) // 2, y + h // 2, _label(words, "empty"), 32, color=DIM, role="empty",
               align="center", max_width=area[2] - area[0] - 20, shadow=SHADOW)
    for r in range(rows):
        row = cards[r * per_row:(r + 1) * per_row]
        x = area[0] + 8
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
                pb.pill(x + w // 2, y - 2, trail_label, MIN_TEXT, fill=TRAIL, color=INK, role="trail_label",
                        align="center", max_width=max(w + 60, 100))
                marks.extend(pb.shapes)
            x += w + GAP
        if r < rows - 1 or own_row:
            y += h + ROW_GAP_CARDS
    for shape in marks:  # labels on top of every card
        b.add(shape)
    if play is not None:
        left = area[0] + 8 if own_row or not cards else x + 8
        _last_play(b, play, team, callout, callout_w, (left, y, area[2] - 4), h)


def _last_play(b: _Builder, play: LastPlay, team: int, callout: str, callout_w: int,
               place: tuple[int, int, int], h: int) -> None:
    """The last play at ``place`` (left, top of its cards, right limit), cards ``h`` tall."""
    left, top, limit = place
    i = play.seat
    pad = 8
    w = card_width(h)
    captured = [Card.parse(c).code for c in play.captured]
    fixed = (w + 6 if play.card else 0) + (34 if captured or play.card else 0)
    room = max(0, limit - left - 2 * pad - fixed)
    step, fanned = _captured_row(len(captured), h, room)
    cards_w = fixed + ((len(captured) - 1) * step + w if captured else 0)
    width = max(cards_w, callout_w, 60) + 2 * pad
    box = (left, top - pad, min(limit, left + width), top + h + pad)
    b.add(Shape("panel", box, role=f"last:{i}", color=TEAM[team], fill=PLAQUE, width=3, radius=12))
    x = box[0] + pad + max(0, (box[2] - box[0] - 2 * pad - cards_w) // 2)
    cy = top + h // 2
    if play.card:
        b.add(Shape("card", (x, top, x + w, top + h), Card.parse(play.card).code, "played"))
        x += w + 6
    if captured:
        b.add(Shape("arrow", (x, cy - 10, x + 26, cy + 10), "right", f"last:{i}", TURN))
        x += 34
        for k, code in enumerate(captured):
            cx = x + k * step
            b.add(Shape("fanned" if fanned else "card", (cx, top, cx + w, top + h), code, "captured"))
    elif play.card:  # a trail: the card went to the table
        b.add(Shape("arrow", (x + 2, cy - 13, x + 26, cy + 13), "up", f"last:{i}", TURN))
    if callout:
        b.pill((box[0] + box[2]) // 2, box[1], callout, MIN_TEXT + 2, fill=TURN, color=BADGE_INK, role="callout",
               align="center", max_width=box[2] - box[0])


def _captured_row(n: int, height: int, room: int) -> tuple[int, bool]:
    """(step between card lefts, fanned) for ``n`` captured cards ``height`` tall in ``room`` pixels:
    side by side when they fit, else overlapping as a fan (never closer than `FAN_SHOW`)."""
    cw = card_width(height)
    if n <= 1 or n * cw + (n - 1) * 4 <= room:
        return cw + 4, False
    return max(math.ceil(cw * FAN_SHOW), (room - cw) // (n - 1)), True


def _shapes(build: Any, *args: Any) -> tuple[Shape, ...]:
    b = _Builder()
    build(b, *args)
    return tuple(b.shapes)


@lru_cache(maxsize=256)
def _title(title: str) -> tuple[Shape, ...]:
    b = _Builder()
    b.text(W // 2, 28, title, MIN_TEXT, color=DIM, role="title", align="center", max_width=W - 16, bold=True)
    return tuple(b.shapes)


@lru_cache(maxsize=1024)
def _score_part(words: _Words, data: SideScene, side: int) -> tuple[Shape, ...]:
    return _shapes(_score_panel, words, data, side)


@lru_cache(maxsize=1024)
def _felt_part(words: _Words, cards: tuple[str, ...], trail: str | None, trail_label: str, play: LastPlay | None,
               team: int, area: tuple[int, int, int, int]) -> tuple[Shape, ...]:
    return _shapes(_felt, words, cards, trail, trail_label, play, team, area)


@lru_cache(maxsize=2048)
def _plaque_part(words: _Words, seat: SeatScene, i: int, box: tuple[int, int, int, int]) -> tuple[Shape, ...]:
    return _shapes(_plaque, words, seat, i, box)


@lru_cache(maxsize=1024)
def _plaque_boxes(words: _Words, seats: tuple[SeatScene, ...]) -> tuple[tuple[int, int, int, int], ...]:
    """The plaques' boxes, one row each in turn order from the top; depends on what each plaque shows but
    not on whose turn it is."""
    boxes = []
    y = PLAQUES_TOP
    for seat in seats:
        height = plaque_height(words, replace(seat, to_play=False))
        boxes.append((PLAQUE_X[0], y, PLAQUE_X[1], y + height))
        y += height + ROW_GAP
    return tuple(boxes)


def parts(scene: TableScene) -> tuple[tuple[Shape, ...], ...]:
    """The shapes of ``scene`` by part of the picture, in drawing order: the title, the two score panels, the
    felt (table cards and the last play), and each seat's plaque. Each part is cached by what it shows, so
    the parts that did not change since a recent picture are the same objects (and cost nothing to lay out
    again).

    Raises:
        SceneError, CardError: as `layout`.
    """
    _check(scene)
    words = _words(scene)
    out = [_title(scene.title), _score_part(words, scene.sides[0], 0), _score_part(words, scene.sides[1], 1)]
    boxes = _plaque_boxes(words, tuple(replace(s, to_play=False) for s in scene.seats))
    area = (FELT_BOX[0] + 6, boxes[-1][3] + 6, FELT_BOX[2] - 6, FELT_BOX[3] - 6)
    play = scene.last_play
    team = scene.seats[play.seat].team if play is not None else 0
    out.append(_felt_part(words, scene.table_cards, scene.trail, scene.trail_label, play, team, area))
    for i, seat in enumerate(scene.seats):
        out.append(_plaque_part(words, seat, i, boxes[i]))
    return tuple(out)


def layout(scene: TableScene) -> Layout:
    """What the picture of ``scene`` shows: every shape `render_table` draws, in order.

    Raises:
        SceneError: not 2 or 4 seats, a team not 0 or 1, a last-play seat out of range.
        CardError: a card code names no card.
    """
    return Layout(SIZE, tuple(shape for part in parts(scene) for shape in part))


@dataclass(frozen=True)
class TextItem:
    """One text of the picture, as `text_items` lists it.

    Attributes:
        role: the shape's role (``"name:0"``, ``"score:1"``, ``"callout"`` …). text: as drawn.
        size: the font size asked for, in pixels of the picture. box: (left, top, right, bottom) of the text
            (a badge's whole box for a badge). clipped: drawn with ``…`` in place of its end.
    """

    role: str
    text: str
    size: int
    box: tuple[int, int, int, int]
    clipped: bool


def text_items(plan: Layout) -> tuple[TextItem, ...]:
    """Every text and badge of ``plan``, with its font size and box, in drawing order (for checking the
    sizes against the picture's width: `MIN_TEXT`)."""
    return tuple(TextItem(s.role, s.value, s.size, s.box, s.value.endswith("…")) for s in plan.shapes
                 if s.kind in ("text", "pill"))


def rank_heights(plan: Layout) -> tuple[tuple[str, str, int], ...]:
    """(role, card code, capital height of its rank in pixels) of every face-up card drawn whole (table
    cards, the card played, captured cards side by side); a fanned card's rank is `FANNED_RANK_CAP` of
    its height."""
    return tuple((s.role, s.value, round((s.box[3] - s.box[1]) * (RANK_CAP if s.kind == "card" else FANNED_RANK_CAP)))
                 for s in plan.shapes if s.kind in ("card", "fanned"))
