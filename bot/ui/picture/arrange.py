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
    BAND,
    BAR,
    COLUMNS,
    DEFAULT_LABELS,
    DIM,
    FELT_BOX,
    GAP,
    INK,
    LABEL_ROOM,
    MAX_CARD,
    MIN_RANK,
    MIN_TEXT,
    PLAQUE,
    PLAQUE_TURN,
    PLAQUES_TOP,
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
from .text import _baseline, _cap_height, _line_height, clean, fit_text, ink_box, text_width

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
        height = pill_height(size)
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
    return max(4, size // 4)


def pill_height(size: int) -> int:
    """Height in pixels of a badge whose text is ``size`` pixels."""
    return round(size * 1.2)


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


def _band(b: _Builder, words: _Words, sides: tuple[SideScene, SideScene]) -> None:
    """The score band, one line: side 0's perros and tantos in a panel of its colour at the left, side 1's at
    the right, and between them the chicas won (side 0's number, the word, side 1's number). A side at the
    blocking score shows the "only a caída counts" badge (its text holds the score) in place of its
    numbers. No side is named: the panels' colours are the plaques' colours below them."""
    left, top, right, bottom = BAND
    cy = (top + bottom) // 2
    base = cy + _cap_height(BIG) // 2
    word = _label(words, "chicas")
    n0, n1 = str(sides[0].chicas), str(sides[1].chicas)
    centre = text_width(n0, BIG, True) + text_width(word, MIN_TEXT) + text_width(n1, BIG, True) + 2 * 6
    x = W // 2 - centre // 2
    x += b.text(x, base, n0, BIG, bold=True, color=TEAM[0], role="chicas:0") + 6
    x += b.text(x, base, word, MIN_TEXT, color=DIM, role="chicas") + 6
    b.text(x, base, n1, BIG, bold=True, color=TEAM[1], role="chicas:1")
    boxes = ((left, top, W // 2 - centre // 2 - 6, bottom), (W // 2 + (centre + 1) // 2 + 6, top, right, bottom))
    for side, data in enumerate(sides):
        box = boxes[side]
        b.add(Shape("panel", box, color=TEAM[side], fill=BAR, width=2, radius=10))
        x0, x1 = box[0] + 8, box[2] - 6
        if data.at38:
            b.pill(x0, cy, _label(words, "only_caida"), MIN_TEXT, fill=AT38, color=INK, role=f"only_caida:{side}",
                   max_width=x1 - x0)
            continue
        big = BIG
        while big > MIN_TEXT and _score_width(words, data, big) > x1 - x0:
            big -= 2
        x = x0
        for value, key in ((data.perros, "perros"), (data.tantos, "tantos")):
            x += b.text(x, base, str(value), big, bold=True, color=TEAM[side], role=f"score:{side}") + 2
            x += b.text(x, base, _label(words, key, value), MIN_TEXT, role=f"score:{side}", max_width=max(20, x1 - x)) + 10


BIG = 28
"""Font size of the numbers of the score band."""


def _score_width(words: _Words, data: SideScene, big: int) -> int:
    return sum(text_width(str(value), big, True) + 2 + text_width(_label(words, key, value), MIN_TEXT) + 10
               for value, key in ((data.perros, "perros"), (data.tantos, "tantos"))) - 10


# --------------------------------------------------------------------------- seats


NAME_SIZE = 26
"""Font size of a seat's name when it fits; a longer name takes `MIN_TEXT`, then two lines."""

LINE = 30
"""Distance between the baselines of two lines of a plaque."""

_BACK_H = 28
"""Height of the card back beside a seat's count of cards left."""


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


def _hand_width(n: int) -> int:
    """Width of a seat's cards left: one back and the count."""
    return card_width(_BACK_H) + 4 + text_width(str(max(0, n)), MIN_TEXT, True)


@dataclass(frozen=True)
class _PlaquePlan:
    """How a seat's plaque is laid out (everything but whose turn it is): the name's size and lines, whether
    the cards left sit on the name's last line or on the badge line, whether the level has a line of its
    own, and the plaque's height."""

    size: int
    lines: tuple[str, ...]
    hand_on_name: bool
    level_line: bool
    height: int


@lru_cache(maxsize=2048)
def _plaque_plan(words: _Words, seat: SeatScene, width: int) -> _PlaquePlan:
    """The plan of ``seat``'s plaque ``width`` pixels wide. Lines, from the top: the name (the computer icon
    before it; at `NAME_SIZE`, else `MIN_TEXT`, else on two lines: a name of 16 characters is never cut),
    with the cards left at its right when they fit there; then the badge line: the level at the left, and at
    the right the cards left (when not above), the dealer or mano badge and the turn badge (its room kept
    whether or not it is this seat's turn, so the plaque does not change size with the turn). The level
    takes a line of its own only when the badge line cannot hold it."""
    room = width - 14 - 6
    icon = 32 if seat.level is not None or seat.away else 0
    hand = _hand_width(seat.cards_left)
    shown = clean(seat.name) or "?"
    size, hand_on_name = MIN_TEXT, False
    lines: tuple[str, ...] = (shown,)
    for candidate in (NAME_SIZE, MIN_TEXT):
        if text_width(shown, candidate, True) + 10 + hand <= room - icon:
            size, hand_on_name = candidate, True
            break
    else:
        if text_width(shown, MIN_TEXT, True) > room - icon:
            lines = _split_name(shown, MIN_TEXT, room - icon)
            hand_on_name = text_width(lines[-1], MIN_TEXT, True) + 10 + hand <= room - icon
    badges = _pill_width(_label(words, "turn"), MIN_TEXT, True, room) + 6
    for flag, key in ((seat.dealer, "dealer"), (seat.mano, "mano")):
        if flag:
            badges += _pill_width(_label(words, key), MIN_TEXT, True, room) + 6
    if not hand_on_name:
        badges += hand + 6
    level_line = bool(seat.level) and text_width(seat.level or "", MIN_TEXT) + 6 + badges - 6 > room
    height = 68 + LINE * (len(lines) - 1 + int(level_line))
    return _PlaquePlan(size, lines, hand_on_name, level_line, height)


def _plaque(b: _Builder, words: _Words, seat: SeatScene, i: int, box: tuple[int, int, int, int]) -> None:
    """A seat's plaque in its side's column (`_plaque_plan`): the team stripe, the computer icon, the name
    (whole: smaller or on two lines), the cards left (a back and the count), the level, the dealer or mano
    badge and, for the seat to play, the turn badge on a gold frame (its glow is `_glow_part`)."""
    left, top, right, bottom = box
    team = TEAM[seat.team]
    plan = _plaque_plan(words, replace(seat, to_play=False), right - left)
    if seat.to_play:
        b.add(Shape("panel", box, role=f"plaque:{i}", color=TURN, fill=PLAQUE_TURN, width=4, radius=12))
    else:
        b.add(Shape("panel", box, role=f"plaque:{i}", color=team, fill=PLAQUE, width=2, radius=12))
    b.add(Shape("panel", (left + 4, top + 4, left + 10, bottom - 4), color=team, fill=team, radius=3))
    x0, x1 = left + 14, right - 6
    base = top + 29
    x = x0
    if seat.level is not None or seat.away:
        role = f"away:{i}" if seat.away else f"computer:{i}"
        cy = base - _cap_height(plan.size) // 2
        b.add(Shape("robot", (x, cy - 13, x + 26, cy + 13), role=role, color=DIM if seat.away else team))
        x += 32
    for k, line in enumerate(plan.lines):
        b.text(x, base + k * LINE, line, plan.size, bold=True, color=DIM if seat.away else INK, role=f"name:{i}")
    last = base + (len(plan.lines) - 1) * LINE
    if plan.hand_on_name:
        _hand(b, x1 - _hand_width(seat.cards_left), last - _cap_height(plan.size) // 2, seat.cards_left, f"hand:{i}")
    if plan.level_line:
        last += LINE
        b.text(x0, last, seat.level or "", MIN_TEXT, color=DIM, role=f"level:{i}")
    cy = last + 21
    x = x1
    if seat.to_play:
        x -= b.pill(x, cy, _label(words, "turn"), MIN_TEXT, fill=TURN, color=BADGE_INK, role=f"turn:{i}",
                    align="right") + 6
    for flag, key in ((seat.mano, "mano"), (seat.dealer, "dealer")):
        if flag:
            x -= b.pill(x, cy, _label(words, key), MIN_TEXT, fill=BADGE, color=BADGE_INK, role=f"{key}:{i}",
                        align="right") + 6
    if not plan.hand_on_name:
        x -= _hand_width(seat.cards_left)
        _hand(b, x, cy, seat.cards_left, f"hand:{i}")
    if seat.level and not plan.level_line:
        b.text(x0, cy + _cap_height(MIN_TEXT) // 2, seat.level, MIN_TEXT, color=DIM, role=f"level:{i}")


def _hand(b: _Builder, x: int, cy: int, n: int, role: str) -> None:
    """A seat's cards left at ``x``, centred on ``cy``: one face-down back and the count."""
    w = card_width(_BACK_H)
    b.add(Shape("back", (x, cy - _BACK_H // 2, x + w, cy - _BACK_H // 2 + _BACK_H), role=role))
    b.text(x + w + 4, cy + _cap_height(MIN_TEXT) // 2, str(max(0, n)), MIN_TEXT, bold=True, role=role)


# --------------------------------------------------------------------------- the felt: table cards, last play


FRAME_PAD = 8
"""Space between the last play's frame and its cards, left and right (4 pixels above and below)."""


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
    return max(cards, callout_w, 60) + 2 * FRAME_PAD


MIN_CARD = math.ceil(MIN_RANK / RANK_CAP)
"""Height of the smallest table card whose rank is `MIN_RANK` tall."""


@dataclass(frozen=True)
class _Grid:
    """Where the felt's cards go: their height, cards per row, the top of each row (the last play's row
    last), and whether the last play has a row of its own."""

    height: int
    per_row: int
    tops: tuple[int, ...]
    own_row: bool
    fan: bool


def _trail_index(cards: tuple[str, ...], trail: str | None) -> int | None:
    if trail is None:
        return None
    want = Card.parse(trail)
    return next((i for i in range(len(cards) - 1, -1, -1) if Card.parse(cards[i]) is want), None)


def _grid(cards: tuple[str, ...], trail_at: int | None, play: LastPlay | None, callout_w: int,
          area: tuple[int, int, int, int]) -> _Grid:
    """The largest cards that show the table cards and the last play (`_last_need`) in ``area``: the captured
    cards side by side with cards at least `MIN_CARD` tall if that fits, else fanned, else smaller. A row
    whose card carries a label (the trail's, the last play's callout) has `LABEL_ROOM` above it, so that
    no badge covers a card."""
    n = len(cards)
    aw, ah = area[2] - area[0], area[3] - area[1]
    for fan, smallest in ((False, MIN_CARD), (True, MIN_CARD), (True, 24)):
        for h in (*range(MAX_CARD, smallest, -2), smallest):
            w = card_width(h)
            per_row = max(1, (aw + GAP) // (w + GAP))
            rows = math.ceil(n / per_row) if n else 0
            own_row = False
            if play is not None:
                need = _last_need(play, h, callout_w, fan)
                if need > aw:
                    continue
                used = (n - (rows - 1) * per_row) * (w + GAP) if rows else 0
                if not rows or used + need > aw:
                    rows += 1
                    own_row = True
            labelled = set()
            if trail_at is not None:
                labelled.add(trail_at // per_row)
            if play is not None and play.callout:
                labelled.add(rows - 1)
            gaps = [LABEL_ROOM if r in labelled else (8 if r == 0 else ROW_GAP_CARDS) for r in range(rows)]
            total = sum(gaps) + rows * h
            if total + 4 <= ah:
                y = area[1] + (ah - 4 - total) // 2
                tops = []
                for r in range(rows):
                    y += gaps[r]
                    tops.append(y)
                    y += h
                return _Grid(h, per_row, tuple(tops), own_row, fan)
    return _Grid(24, max(1, n), (area[1] + LABEL_ROOM,) * 2, play is not None, True)


def _felt(b: _Builder, words: _Words, cards: tuple[str, ...], trail: str | None, trail_label: str,
          play: LastPlay | None, team: int, area: tuple[int, int, int, int]) -> None:
    """The table cards in play order, as large as fit, in rows (`_grid`); the card a caída can take ringed,
    its label above it; then the last play, a framed group on the same grid: the card played, an arrow and
    the cards it took (fanned when many), its callout above the frame."""
    callout = clean(play.callout) if play is not None else ""
    callout_w = _pill_width(callout, MIN_TEXT, True, area[2] - area[0]) if callout else 0
    if not cards and play is None:
        cx, cy = (area[0] + area[2]) // 2, (area[1] + area[3]) // 2
        b.text(cx, cy + 10, _label(words, "empty"), 32, color=DIM, role="empty", align="center",
               max_width=area[2] - area[0] - 20, shadow=SHADOW)
        return
    trail_at = _trail_index(cards, trail)
    grid = _grid(cards, trail_at, play, callout_w, area)
    h, per_row = grid.height, grid.per_row
    w = card_width(h)
    rows = math.ceil(len(cards) / per_row) if cards else 0
    marks: list[Shape] = []
    x = area[0]
    y = grid.tops[0]
    if not cards:
        b.text((area[0] + area[2]) // 2, y + h // 2, _label(words, "empty"), 32, color=DIM, role="empty",
               align="center", max_width=area[2] - area[0] - 20, shadow=SHADOW)
    for r in range(rows):
        row = cards[r * per_row:(r + 1) * per_row]
        x = area[0]
        y = grid.tops[r]
        for j, code in enumerate(row):
            i = r * per_row + j
            code = Card.parse(code).code
            if i == trail_at:
                b.add(Shape("glow", (x - 8, y - 8, x + w + 8, y + h + 8), color=TRAIL, radius=10))
            else:
                b.add(Shape("shadow", (x - 3, y, x + w + 5, y + h + 8), radius=max(3, round(w * 0.11))))
            b.add(Shape("card", (x, y, x + w, y + h), code, "table"))
            if i == trail_at:
                b.add(Shape("ring", (x - 4, y - 4, x + w + 4, y + h + 4), code, "trail", TRAIL, width=4,
                            radius=max(4, round(w * 0.13))))
                pb = _Builder()
                pb.pill(x + w // 2, _badge_centre(y - 5), trail_label, MIN_TEXT, fill=TRAIL, color=INK,
                        role="trail_label", align="center", max_width=max(w + 60, 100))
                marks.extend(pb.shapes)
            x += w + GAP
    for shape in marks:  # labels on top of every card
        b.add(shape)
    if play is not None:
        left = area[0] if grid.own_row or not cards else x
        _last_play(b, play, team, callout, callout_w, (left, grid.tops[-1], area[2]), h)


def _last_play(b: _Builder, play: LastPlay, team: int, callout: str, callout_w: int,
               place: tuple[int, int, int], h: int) -> None:
    """The last play at ``place`` (left, top of its cards, right limit), cards ``h`` tall, its callout above
    the frame."""
    left, top, limit = place
    i = play.seat
    pad = FRAME_PAD
    w = card_width(h)
    captured = [Card.parse(c).code for c in play.captured]
    fixed = (w + 6 if play.card else 0) + (34 if captured or play.card else 0)
    room = max(0, limit - left - 2 * pad - fixed)
    step, fanned = _captured_row(len(captured), h, room)
    cards_w = fixed + ((len(captured) - 1) * step + w if captured else 0)
    width = max(cards_w, callout_w, 60) + 2 * pad
    box = (left, top - 4, min(limit, left + width), top + h + 4)
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
        b.pill((box[0] + box[2]) // 2, _badge_centre(box[1] - 1), callout, MIN_TEXT, fill=TURN,
               color=BADGE_INK, role="callout", align="center", max_width=box[2] - box[0])


def _badge_centre(bottom: int) -> int:
    """The centre a label badge is drawn at so that its bottom edge is at ``bottom`` (its top then
    `LABEL_ROOM` - 5 above the cards' top: clear of the row above)."""
    height = pill_height(MIN_TEXT)
    return bottom - height + height // 2


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


@lru_cache(maxsize=1024)
def _band_part(words: _Words, sides: tuple[SideScene, SideScene]) -> tuple[Shape, ...]:
    return _shapes(_band, words, sides)


@lru_cache(maxsize=1024)
def _felt_part(words: _Words, cards: tuple[str, ...], trail: str | None, trail_label: str, play: LastPlay | None,
               team: int, area: tuple[int, int, int, int]) -> tuple[Shape, ...]:
    return _shapes(_felt, words, cards, trail, trail_label, play, team, area)


@lru_cache(maxsize=2048)
def _plaque_part(words: _Words, seat: SeatScene, i: int, box: tuple[int, int, int, int]) -> tuple[Shape, ...]:
    return _shapes(_plaque, words, seat, i, box)


@lru_cache(maxsize=64)
def _glow_part(box: tuple[int, int, int, int], i: int) -> tuple[Shape, ...]:
    """The gold glow around the plaque of the seat to play (drawn before everything else, so that it shows
    only around the plaque)."""
    left, top, right, bottom = box
    return (Shape("glow", (left - 10, top - 10, right + 10, bottom + 10), role=f"turn:{i}", color=TURN, radius=14),)


@lru_cache(maxsize=1024)
def _plaque_boxes(words: _Words, seats: tuple[SeatScene, ...]) -> tuple[tuple[int, int, int, int], ...]:
    """The plaques' boxes: two to a row in turn order (seat 0 | seat 1, then seat 2 | seat 3), so side 0
    is the left column and side 1 the right one; a row is as tall as its taller plaque. Depends on what
    each plaque shows but not on whose turn it is."""
    boxes: list[tuple[int, int, int, int]] = []
    y = PLAQUES_TOP
    for r in range(0, len(seats), 2):
        pair = seats[r:r + 2]
        height = max(_plaque_plan(words, seat, COLUMNS[k][1] - COLUMNS[k][0]).height for k, seat in enumerate(pair))
        boxes.extend((COLUMNS[k][0], y, COLUMNS[k][1], y + height) for k in range(len(pair)))
        y += height + ROW_GAP
    return tuple(boxes)


def parts(scene: TableScene) -> tuple[tuple[Shape, ...], ...]:
    """The shapes of ``scene`` by part of the picture, in drawing order: the turn glow, the score band, the
    felt (table cards and the last play), and each seat's plaque. Each part is cached by what it shows, so
    the parts that did not change since a recent picture are the same objects (and cost nothing to lay out
    again). ``scene.title`` is not drawn (the table message says it).

    Raises:
        SceneError, CardError: as `layout`.
    """
    _check(scene)
    words = _words(scene)
    boxes = _plaque_boxes(words, tuple(replace(s, to_play=False) for s in scene.seats))
    out = [_glow_part(boxes[i], i) for i, seat in enumerate(scene.seats) if seat.to_play]
    out.append(_band_part(words, scene.sides))
    area = (FELT_BOX[0] + 8, max(b[3] for b in boxes) + 2, FELT_BOX[2] - 8, FELT_BOX[3] - 2)
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
        size: the font size asked for, in pixels of the picture. box: (left, top, right, bottom) of the
            pixels the text inks (`text.ink_box`; a badge's whole box for a badge). clipped: drawn with
            ``…`` in place of its end.
    """

    role: str
    text: str
    size: int
    box: tuple[int, int, int, int]
    clipped: bool


def text_items(plan: Layout) -> tuple[TextItem, ...]:
    """Every text and badge of ``plan``, with its font size and box, in drawing order (for checking the
    sizes against the picture's width: `MIN_TEXT`)."""
    return tuple(TextItem(s.role, s.value, s.size, _ink(s), s.value.endswith("…")) for s in plan.shapes
                 if s.kind in ("text", "pill"))


def _ink(shape: Shape) -> tuple[int, int, int, int]:
    if shape.kind == "pill":
        return shape.box
    return ink_box(shape.value, shape.size, shape.bold, shape.box[0], shape.box[1])


def rank_heights(plan: Layout) -> tuple[tuple[str, str, int], ...]:
    """(role, card code, capital height of its rank in pixels) of every face-up card drawn whole (table
    cards, the card played, captured cards side by side); a fanned card's rank is `FANNED_RANK_CAP` of
    its height."""
    return tuple((s.role, s.value, round((s.box[3] - s.box[1]) * (RANK_CAP if s.kind == "card" else FANNED_RANK_CAP)))
                 for s in plan.shapes if s.kind in ("card", "fanned"))
