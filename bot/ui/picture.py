"""The table picture: a `TableScene` (public state only, with translated words) → a PNG.

Pure drawing: Pillow and `bot.ui.cardart`, no Discord, no table service. The scene carries no hand, so
the picture can only show what every player sees: the table cards, cards left per seat (as face-down
backs), scores, and the last play.

Layout (``SIZE`` = 800 × 500 pixels, 1.6 : 1, made for a phone, where Discord shows it ~390 px wide):

- a title strip, then a score bar with one panel per side (side 0 left, side 1 right), each in its team
  colour (blue for team 0, orange for team 1, the same colours as the seats): label, chicas, the
  "only a caída counts" mark at 38, big perros and tantos, cards captured this hand;
- the green felt below, with the table cards as large as fit, in play order (oldest first), in rows
  that wrap (1 to 4 rows); the card a caída can take is ringed in red with the trail label on it;
- one plaque per seat, in turn order. Two players: seat 0 at the bottom, seat 1 at the top. Four
  players: seat 0 bottom, 1 right, 2 top, 3 left, i.e. counter-clockwise seen from above, like the play
  (R6): partners face each other. A plaque shows the name, the computer icon and level, cards left as
  small backs and a number, the dealer and mano badges; the seat to play has a gold glow, a gold ring and
  the "turn" badge;
- the last play beside the seat that made it: the card played, an arrow and the captured cards (small,
  fanned when many), and the callout (bold gold, wrapped to two lines when long). The top and bottom
  plaques sit left of centre so that this fits to their right; a side seat's goes below its plaque. A
  trail shows the card with an arrow towards the table.

The PNG uses one fixed 256-colour palette (chosen once from sample pictures): 30–40 KB. Drawing is
cached without any state that could go stale: the shapes are grouped into tiles that do not overlap, each
tile is drawn, turned into palette indices and kept by its shapes and place, and the PNG is compressed in
bands of rows, each kept by the tiles it shows. Drawing a scene again takes ~0.5 ms
(``python bench/render.py``), the next play's picture (a few tiles and most bands changed) ~2–3 ms, a
picture from nothing ~3–4 ms (all took ~5 ms before these caches). Tiles and bands are kept within ~20 MB.

Text uses Pillow's embedded font, which covers ASCII and a few signs only. Accented letters (á é í ó ú
ü ñ …) are drawn as their base letter with the accent added, ``¡`` and ``¿`` as turned ``!`` and ``?``;
anything else the font lacks (emoji, other scripts) is dropped, and long texts end with ``…``. A name
with nothing drawable left is shown as ``?``.

`layout` returns every shape to draw, with what it means (`Shape.role`), and `render_table` draws
exactly those shapes, so tests assert on content, not pixels.
"""

from __future__ import annotations

import itertools
import math
import struct
import threading
import unicodedata
import zlib
from collections import OrderedDict
from collections.abc import Hashable, Mapping
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from PIL import Image, ImageChops, ImageDraw, ImageFilter

from bot.engine.cards import DECK, Card

from .cardart import FAN_SHOW, card_back, card_fanned, card_image, card_width, font

__all__ = [
    "SIZE",
    "LastPlay",
    "Layout",
    "SceneError",
    "SeatScene",
    "Shape",
    "SideScene",
    "TableScene",
    "fit_text",
    "layout",
    "render_table",
    "text_width",
]

SIZE = (800, 500)
"""Width and height of the picture, in pixels."""

PNG_LEVEL = 2
"""zlib level of the PNG (1 fastest … 9 smallest): on these pictures 2 is as fast as 1 and ~7 % faster than
3, for ~3 % more bytes than 3 (~32 KB)."""

BAND_ROWS = 25
"""Rows of the picture per band of the PNG, compressed on its own (and cached, `_BANDS`)."""

TILE_BYTES = 16 << 20
"""Bytes of the tiles kept (`_TILES`, a byte a pixel): ~16 MB, the tiles of the latest pictures of ~50 tables."""

BAND_BYTES = 4 << 20
"""Bytes of the compressed bands kept (`_BANDS`): ~4 MB (a band is ~1.5 KB)."""

DEFAULT_LABELS: Mapping[str, str] = {
    "perros": "perros", "tantos": "tantos", "chicas": "chicas", "cards": "cartas", "dealer": "da",
    "mano": "mano", "turn": "juega", "only_caida": "solo caída", "empty": "mesa limpia",
}
"""Words used when ``TableScene.labels`` lacks a key (Spanish, the game's own language)."""


class SceneError(ValueError):
    """A `TableScene` that cannot be drawn: not 2 or 4 seats, a team or last-play seat out of range."""


# --------------------------------------------------------------------------- the scene


@dataclass(frozen=True)
class SeatScene:
    """One seat, as the picture shows it.

    Attributes:
        name: plain-text display name (no markdown); drawn as far as the font allows, clipped with ``…``.
        cards_left: cards in hand (0–5 in play).
        team: 0 or 1; colours the plaque like ``TableScene.sides[team]``.
        dealer, mano: badges.
        to_play: whose turn it is (at most one seat).
        level: translated computer level ("medio"), None for a person.
        away: a computer plays for this absent person.
    """

    name: str
    cards_left: int
    team: int
    dealer: bool
    mano: bool
    to_play: bool
    level: str | None
    away: bool


@dataclass(frozen=True)
class SideScene:
    """One side's score.

    Attributes:
        label: "Equipo A", or in 1 v 1 the player's name.
        perros: points // 10. tantos: (points % 10) // 2. chicas: chicas won.
        at38: the side is at the blocking score, where only a caída counts (drawn as a red badge).
        captured: cards captured this hand (a count).
    """

    label: str
    perros: int
    tantos: int
    chicas: int
    at38: bool
    captured: int


@dataclass(frozen=True)
class LastPlay:
    """The play just made.

    Attributes:
        seat: index into ``TableScene.seats``.
        card: code of the card played ("7D"); "" when unknown (then only the callout is drawn).
        captured: codes taken, in the order to show them (empty for a trail).
        callout: translated short drama text ("¡Caída!"), "" for a plain play.
    """

    seat: int
    card: str
    captured: tuple[str, ...]
    callout: str


@dataclass(frozen=True)
class TableScene:
    """Everything the picture shows, already translated.

    Attributes:
        title: e.g. "Mesa #3 · quito · chica 1 · mano 2".
        table_cards: codes in play order, oldest first (0 to about 16).
        trail: the card just trailed that a caída can take, or None; ignored when not on the table.
        trail_label: the word on that mark ("¡cae!").
        seats: 2 or 4 `SeatScene`, in turn order.
        sides: the two `SideScene`, team 0 then team 1.
        last_play: the play just made, or None.
        labels: translated small words, keys ``perros tantos chicas cards dealer mano turn only_caida
            empty``; a missing key falls back to `DEFAULT_LABELS`.
    """

    title: str
    table_cards: tuple[str, ...]
    trail: str | None
    trail_label: str
    seats: tuple[SeatScene, ...]
    sides: tuple[SideScene, SideScene]
    last_play: LastPlay | None
    labels: Mapping[str, str]


# --------------------------------------------------------------------------- what is drawn


@dataclass(frozen=True)
class Shape:
    """One thing drawn, in drawing order.

    Attributes:
        kind: ``"panel"`` (rounded rectangle), ``"glow"`` (soft halo), ``"shadow"`` (under a card), ``"text"``, ``"pill"`` (text on a
            rounded badge), ``"card"`` (a face), ``"fanned"`` (a face for an overlapping row, rank in the
            corner), ``"back"`` (a face-down card), ``"ring"`` (an outline
            around a card), ``"arrow"`` (value: the way it points, right, left, up or down) or ``"robot"`` (the computer icon).
        box: (left, top, right, bottom) in pixels; for text, the box of its line.
        value: the card code (card), the text as drawn (text, pill), else "".
        role: what it shows: ``"title"``; ``"score:<side>"``, ``"only_caida:<side>"``; ``"table"``,
            ``"trail"``, ``"trail_label"``, ``"empty"``; per seat ``"plaque:<seat>"``, ``"name:<seat>"``,
            ``"turn:<seat>"``, ``"hand:<seat>"``, ``"level:<seat>"``, ``"computer:<seat>"``,
            ``"away:<seat>"``, ``"dealer:<seat>"``, ``"mano:<seat>"``; the last play ``"last:<seat>"``,
            ``"played"``, ``"captured"``, ``"callout"``; "" for decoration.
        color: main colour (text, outline, icon), RGB. fill: background colour, or the shadow of a text.
        width: outline width. radius: corner radius. size: font size in pixels. bold: heavier text.
    """

    kind: str
    box: tuple[int, int, int, int]
    value: str = ""
    role: str = ""
    color: tuple[int, int, int] = (0, 0, 0)
    fill: tuple[int, int, int] | None = None
    width: int = 0
    radius: int = 0
    size: int = 0
    bold: bool = False


_HIGHLIGHTS = frozenset({"turn", "only_caida", "trail", "trail_label", "last", "callout", "dealer", "mano",
                         "computer", "away", "level", "empty"})


@dataclass(frozen=True)
class Layout:
    """The picture as a list of shapes (`Shape`), plus summaries of what they show.

    Attributes:
        size: (width, height) in pixels.
        shapes: everything `render_table` draws, in order.
    """

    size: tuple[int, int]
    shapes: tuple[Shape, ...]

    def role(self, role: str) -> tuple[Shape, ...]:
        """The shapes of one role (``"table"``, ``"name:0"`` …), in drawing order."""
        return tuple(s for s in self.shapes if s.role == role)

    @property
    def cards(self) -> tuple[str, ...]:
        """Codes of the table cards drawn, in order (row by row, oldest first)."""
        return tuple(s.value for s in self.shapes if s.role == "table")

    @property
    def trail(self) -> str | None:
        """The code of the card marked as the trail a caída can take, or None."""
        marks = self.role("trail")
        return marks[0].value if marks else None

    @property
    def seats(self) -> tuple[str, ...]:
        """Seat names as drawn, in turn order."""
        names = {}
        for s in self.shapes:
            if s.role.startswith("name:"):
                names[int(s.role[5:])] = s.value
        return tuple(names[i] for i in sorted(names))

    @property
    def hands(self) -> tuple[int, ...]:
        """Face-down cards drawn per seat, in turn order."""
        seats = len(self.role_prefix("plaque:"))
        return tuple(sum(1 for s in self.role(f"hand:{i}") if s.kind == "back") for i in range(seats))

    @property
    def scores(self) -> tuple[str, ...]:
        """Per side, the texts of its score panel joined by spaces: ``"Equipo A 1 chicas 2 perros 3 tantos
        12 cartas"`` (label, then number-word pairs)."""
        return tuple(" ".join(s.value for s in self.role(f"score:{side}")) for side in (0, 1))

    @property
    def highlights(self) -> tuple[str, ...]:
        """Roles of the marks drawn, once each in drawing order: ``"turn:1"``, ``"only_caida:0"``,
        ``"trail"``, ``"last:2"``, ``"callout"``, ``"dealer:0"``, ``"mano:1"``, ``"computer:1"``,
        ``"away:3"``, ``"level:1"``, ``"empty"`` …"""
        seen: dict[str, None] = {}
        for s in self.shapes:
            if s.role.split(":")[0] in _HIGHLIGHTS:
                seen.setdefault(s.role, None)
        return tuple(seen)

    @property
    def faces(self) -> tuple[str, ...]:
        """Codes of every face-up card drawn (table, card played, captured), in drawing order."""
        return tuple(s.value for s in self.shapes if s.kind in ("card", "fanned"))

    @property
    def texts(self) -> tuple[str, ...]:
        """Every text drawn (texts and badges), in drawing order."""
        return tuple(s.value for s in self.shapes if s.kind in ("text", "pill"))

    def role_prefix(self, prefix: str) -> tuple[Shape, ...]:
        """The shapes whose role starts with ``prefix``."""
        return tuple(s for s in self.shapes if s.role.startswith(prefix))


# --------------------------------------------------------------------------- colours and geometry

W, H = SIZE
INK = (244, 246, 248)
DIM = (170, 188, 180)
DARK = (17, 21, 26)
BAR = (25, 31, 38)
FELT = (22, 104, 64)
FELT_DEEP = (14, 74, 45)
RIM = (10, 48, 30)
PLAQUE = (12, 38, 26)
PLAQUE_TURN = (52, 44, 12)
TEAM = ((77, 171, 247), (255, 146, 43))
TURN = (255, 212, 59)
TRAIL = (255, 72, 72)
AT38 = (224, 49, 49)
SHADOW = (6, 22, 14)
BADGE = (232, 236, 240)
BADGE_INK = (24, 28, 34)
LEVEL = (92, 104, 120)

TITLE_BOX = (0, 0, W, 30)
SCORE_BOXES = ((8, 36, 396, 102), (404, 36, 792, 102))
FELT_BOX = (4, 108, W - 4, H - 4)
PLAQUE_H = 64
TOP_PLAQUE = (190, 116, 460, 116 + PLAQUE_H)
BOTTOM_PLAQUE = (190, H - 10 - PLAQUE_H, 460, H - 10)
SIDE_PLAQUES = ((10, 194, 184, 290), (W - 184, 194, W - 10, 290))  # left, right (4 players)
AREA_2 = (20, 194, W - 20, 416)
AREA_4 = (194, 194, W - 194, 416)
MAX_CARD = 140
MIN_TABLE = 24
GAP = 10

# --------------------------------------------------------------------------- text


_ACUTE, _GRAVE, _CIRC, _TILDE, _DIAER, _RING, _CARON = "\u0301", "\u0300", "\u0302", "\u0303", "\u0308", "\u030a", "\u030c"
_MARKS = frozenset({_ACUTE, _GRAVE, _CIRC, _TILDE, _DIAER, _RING, _CARON})
_FLIPPED = {"¡": "!", "¿": "?"}
_REPLACE = {"ß": "ss", "Æ": "AE", "æ": "ae", "Œ": "OE", "œ": "oe", "Ø": "O", "ø": "o", "Ł": "L", "ł": "l",
            "Đ": "D", "đ": "d", "ı": "i", "–": "-", "—": "-", "−": "-", "‐": "-", "•": "·"}


@lru_cache(maxsize=1)
def _notdef() -> bytes:
    return bytes(font(48).getmask("\ue000"))


@lru_cache(maxsize=4096)
def _covered(ch: str) -> bool:
    """True when Pillow's embedded font has a glyph for ``ch``."""
    return ch == " " or (ch.isprintable() and bytes(font(48).getmask(ch)) != _notdef())


@dataclass(frozen=True)
class _Unit:
    shown: str  # what the unit stands for in the drawn text
    base: str  # the glyph drawn
    marks: tuple[str, ...] = ()
    flip: bool = False


def _units_of(ch: str) -> tuple[_Unit, ...]:
    if ch.isspace():
        return (_Unit(" ", " "),)
    if _covered(ch):
        return (_Unit(ch, ch),)
    if ch in _FLIPPED:
        return (_Unit(ch, _FLIPPED[ch], flip=True),)
    if ch in _REPLACE:
        return tuple(_Unit(c, c) for c in _REPLACE[ch])
    parts = unicodedata.normalize("NFD", ch)
    if len(parts) > 1 and _covered(parts[0]) and not unicodedata.combining(parts[0]):
        return (_Unit(ch, parts[0], tuple(m for m in parts[1:] if m in _MARKS)),)
    compat = "".join(c for c in unicodedata.normalize("NFKD", ch) if not unicodedata.combining(c))
    if compat and compat != ch and all(_covered(c) for c in compat):
        return tuple(_Unit(c, c) for c in compat)
    return ()


@lru_cache(maxsize=2048)
def _units(text: str) -> tuple[_Unit, ...]:
    out: list[_Unit] = []
    for ch in text:
        for unit in _units_of(ch):
            if unit.base == " " and (not out or out[-1].base == " "):
                continue
            out.append(unit)
    while out and out[-1].base == " ":
        out.pop()
    return tuple(out)


def _shown(units: tuple[_Unit, ...]) -> str:
    return "".join(u.shown for u in units)


def _embolden(size: int, bold: bool) -> int:
    """Extra pixels a bold text is struck over to the right (bold is faked by striking the text
    several times side by side: the embedded font has no bold, and a stroke would fill ``!`` and ``i``)."""
    return max(1, round(size / 18)) if bold else 0


def _pad(size: int) -> int:
    return max(2, round(size * 0.12))


@lru_cache(maxsize=64)
def _line_height(size: int) -> int:
    ascent, descent = font(size).getmetrics()
    return _pad(size) + ascent + descent + 1


@lru_cache(maxsize=64)
def _baseline(size: int) -> int:
    """Distance from the top of a text line box to its baseline."""
    return _pad(size) + font(size).getmetrics()[0]


@lru_cache(maxsize=64)
def _cap_height(size: int) -> int:
    """Height of the ink of ``H`` at ``size`` (centres the text of a badge)."""
    return font(size).getmask("H").size[1]


@lru_cache(maxsize=4096)
def _advance(glyphs: str, size: int) -> int:
    """``font(size).getlength(glyphs)`` rounded up (cached: a picture measures ~40 texts, mostly the same)."""
    return math.ceil(font(size).getlength(glyphs))


def _width_units(units: tuple[_Unit, ...], size: int, bold: bool) -> int:
    if not units:
        return 0
    return _advance("".join(u.base for u in units), size) + _embolden(size, bold) + 2


@lru_cache(maxsize=4096)
def text_width(text: str, size: int, bold: bool = False) -> int:
    """Width in pixels of ``text`` as drawn at ``size`` (after `fit_text`'s cleaning, without clipping)."""
    return _width_units(_units(text), size, bold)


@lru_cache(maxsize=2048)
def fit_text(text: str, size: int, max_width: int, bold: bool = False) -> str:
    """``text`` as the picture draws it at ``size`` pixels: characters the font lacks dropped (accented
    letters and ``¡ ¿`` kept, see the module docstring), spaces collapsed, and cut with ``…`` to fit
    ``max_width`` pixels. May return "" (nothing drawable, or no room even for ``…``)."""
    units = _units(text)
    if _width_units(units, size, bold) <= max_width:
        return _shown(units)
    ellipsis = _Unit("…", "…")
    keep = list(units)
    while keep:
        keep.pop()
        while keep and keep[-1].base == " ":
            keep.pop()
        if _width_units((*keep, ellipsis), size, bold) <= max_width:
            return _shown((*keep, ellipsis))
    return "…" if _width_units((ellipsis,), size, bold) <= max_width else ""


@lru_cache(maxsize=256)
def _mark_mask(mark: str, size: int, bold: bool) -> Image.Image:
    """An L image of one accent, drawn as vector strokes (the font has no usable accents), cropped to
    its ink."""
    ss = 4
    em = size * ss
    thick = em * (0.095 if bold else 0.07)
    w, h = round(em * 0.36), round(em * 0.22)
    img = Image.new("L", (w + 2 * round(thick), h + 2 * round(thick)), 0)
    draw = ImageDraw.Draw(img)
    o = round(thick)

    def line(points: list[tuple[float, float]]) -> None:
        pts = [(o + x * w, o + y * h) for x, y in points]
        draw.line(pts, fill=255, width=max(1, round(thick)), joint="curve")
        r = thick / 2
        for x, y in (pts[0], pts[-1]):
            draw.ellipse((x - r, y - r, x + r, y + r), fill=255)

    if mark == _ACUTE:
        line([(0.3, 0.95), (0.72, 0.1)])
    elif mark == _GRAVE:
        line([(0.7, 0.95), (0.28, 0.1)])
    elif mark == _CIRC:
        line([(0.12, 0.9), (0.5, 0.2), (0.88, 0.9)])
    elif mark == _CARON:
        line([(0.12, 0.2), (0.5, 0.9), (0.88, 0.2)])
    elif mark == _TILDE:
        line([(i / 12, 0.55 - 0.38 * math.sin(i / 12 * 2 * math.pi)) for i in range(13)])
    elif mark == _DIAER:
        r = thick * 0.8
        for x in (0.25, 0.75):
            cx, cy = o + x * w, o + 0.6 * h
            draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=255)
    elif mark == _RING:
        r = h * 0.42
        cx, cy = o + 0.5 * w, o + 0.5 * h
        draw.ellipse((cx - r, cy - r, cx + r, cy + r), outline=255, width=max(1, round(thick * 0.8)))
    img = img.crop(img.getbbox() or (0, 0, 1, 1))
    return img.resize((max(1, round(img.width / ss)), max(1, round(img.height / ss))), Image.Resampling.LANCZOS)


@lru_cache(maxsize=1024)
def _text_mask(text: str, size: int, bold: bool) -> Image.Image:
    """An L mask of ``text`` (already fitted) on a line box of `_line_height` (baseline at `_baseline`)."""
    units = _units(text)
    f = font(size)
    k = _embolden(size, bold)
    base = "".join(u.base for u in units)
    height = _line_height(size)
    baseline = _baseline(size)
    top = baseline - f.getmetrics()[0]
    mask = Image.new("L", (max(1, _width_units(units, size, bold)), height), 0)
    draw = ImageDraw.Draw(mask)

    def strike(target: ImageDraw.ImageDraw, x: int, text: str) -> None:
        for dx in range(k + 1):
            target.text((x + dx, top), text, font=f, fill=255)

    x0 = 1
    strike(draw, x0, base)
    x_top = baseline - f.getmask("x").size[1]  # top of the x-height
    gap = max(1, round(size * 0.07))
    for i, unit in enumerate(units):
        if not unit.marks and not unit.flip:
            continue
        left = x0 + round(f.getlength(base[:i]))
        adv = round(f.getlength(unit.base))
        if unit.flip:  # ¡ ¿: the glyph turned upside down, hanging below the baseline
            cell = Image.new("L", (adv + k + 2, height), 0)
            strike(ImageDraw.Draw(cell), 1, unit.base)
            ink = cell.getbbox()
            draw.rectangle((left, 0, left + adv + k, height), fill=0)
            if ink:
                turned = cell.crop(ink).rotate(180)
                bottom = baseline + round(f.getmetrics()[1] * 0.75)
                mask.paste(turned, (left - 1 + ink[0], bottom - turned.height), turned)
            continue
        glyph_box = f.getbbox(unit.base)
        ink_left, ink_right = left + glyph_box[0], left + glyph_box[2] + k
        if unit.base in "ij":  # the accent replaces the dot
            draw.rectangle((ink_left, 0, ink_right, x_top - 1), fill=0)
            glyph_top = x_top
        else:
            glyph_top = top + glyph_box[1]
        y = glyph_top - gap
        for mark in unit.marks:
            m = _mark_mask(mark, size, bold)
            mx, my = (ink_left + ink_right) // 2 - m.width // 2, max(0, y - m.height)
            mask.paste(ImageChops.lighter(mask.crop((mx, my, mx + m.width, my + m.height)), m), (mx, my))
            y = my - 1
    return mask


# --------------------------------------------------------------------------- cached decorations


@lru_cache(maxsize=256)
def _rounded(w: int, h: int, radius: int, fill: tuple[int, int, int] | None, outline: tuple[int, int, int] | None,
             width: int) -> Image.Image:
    """An antialiased rounded rectangle, RGBA."""
    ss = 3
    img = Image.new("RGBA", (w * ss, h * ss), (0, 0, 0, 0))
    draw = ImageDraw.Draw(img)
    box = (0, 0, w * ss - 1, h * ss - 1)
    if outline is not None and width > 0:
        draw.rounded_rectangle(box, radius=radius * ss, fill=outline)
        inner = (width * ss, width * ss, w * ss - 1 - width * ss, h * ss - 1 - width * ss)
        if fill is not None:
            draw.rounded_rectangle(inner, radius=max(0, (radius - width) * ss), fill=fill)
        else:
            hole = Image.new("L", img.size, 0)
            ImageDraw.Draw(hole).rounded_rectangle(inner, radius=max(0, (radius - width) * ss), fill=255)
            img.putalpha(ImageChops.subtract(img.getchannel("A"), hole))
    else:
        draw.rounded_rectangle(box, radius=radius * ss, fill=fill)
    return img.resize((w, h), Image.Resampling.LANCZOS)


@lru_cache(maxsize=32)
def _glow(w: int, h: int, radius: int, color: tuple[int, int, int], spread: int) -> Image.Image:
    """A soft halo ``spread`` pixels around a ``w`` × ``h`` box, RGBA of size (w + 2 spread, h + 2 spread)."""
    img = Image.new("L", (w + 2 * spread, h + 2 * spread), 0)
    ImageDraw.Draw(img).rounded_rectangle((spread // 2, spread // 2, w + spread * 3 // 2, h + spread * 3 // 2),
                                          radius=radius + spread // 2, fill=200)
    alpha = img.filter(ImageFilter.GaussianBlur(spread / 2.5))
    out = Image.new("RGBA", img.size, (*color, 255))
    out.putalpha(alpha)
    return out


@lru_cache(maxsize=64)
def _shadow(w: int, h: int, radius: int) -> Image.Image:
    """A soft dark shadow filling ``w`` × ``h`` (a card's box grown by a few pixels, offset down)."""
    alpha = Image.new("L", (w, h), 0)
    ImageDraw.Draw(alpha).rounded_rectangle((3, 4, w - 4, h - 3), radius=radius, fill=120)
    out = Image.new("RGBA", (w, h), (*SHADOW, 255))
    out.putalpha(alpha.filter(ImageFilter.GaussianBlur(2.2)))
    return out


@lru_cache(maxsize=32)
def _arrow(w: int, h: int, color: tuple[int, int, int], direction: str) -> Image.Image:
    """An arrow filling ``w`` × ``h``, pointing ``direction`` (right, left, up, down)."""
    if direction in ("up", "down"):
        turned = _arrow(h, w, color, "right")
        return turned.rotate(90 if direction == "up" else -90, expand=True)
    if direction == "left":
        return _arrow(w, h, color, "right").transpose(Image.Transpose.FLIP_LEFT_RIGHT)
    ss = 4
    img = Image.new("RGBA", (w * ss, h * ss), (0, 0, 0, 0))
    draw = ImageDraw.Draw(img)
    shaft = h * ss * 0.34
    head = w * ss * 0.45
    mid = h * ss / 2
    draw.rectangle((0, mid - shaft / 2, w * ss - head + 2, mid + shaft / 2), fill=color)
    draw.polygon([(w * ss - head, 0), (w * ss - 1, mid), (w * ss - head, h * ss - 1)], fill=color)
    return img.resize((w, h), Image.Resampling.LANCZOS)


@lru_cache(maxsize=32)
def _robot(size: int, color: tuple[int, int, int]) -> Image.Image:
    """The computer-player icon: a robot head."""
    ss = 4
    s = size * ss
    img = Image.new("RGBA", (s, s), (0, 0, 0, 0))
    draw = ImageDraw.Draw(img)
    draw.line((s * 0.5, s * 0.08, s * 0.5, s * 0.28), fill=color, width=max(1, round(s * 0.08)))
    draw.ellipse((s * 0.41, s * 0.0, s * 0.59, s * 0.18), fill=color)
    draw.rounded_rectangle((s * 0.1, s * 0.26, s * 0.9, s * 0.92), radius=round(s * 0.18), fill=color)
    draw.rectangle((s * 0.0, s * 0.5, s * 0.1, s * 0.7), fill=color)
    draw.rectangle((s * 0.9, s * 0.5, s * 1.0, s * 0.7), fill=color)
    eye = (18, 24, 30, 255)
    draw.ellipse((s * 0.24, s * 0.44, s * 0.42, s * 0.62), fill=eye)
    draw.ellipse((s * 0.58, s * 0.44, s * 0.76, s * 0.62), fill=eye)
    draw.rounded_rectangle((s * 0.3, s * 0.72, s * 0.7, s * 0.8), radius=round(s * 0.03), fill=eye)
    return img.resize((size, size), Image.Resampling.LANCZOS)


@lru_cache(maxsize=4)
def _background(seats: int) -> Image.Image:
    """The fixed part of the picture: dark strips and the felt with a soft light in the middle."""
    img = Image.new("RGB", SIZE, DARK)
    draw = ImageDraw.Draw(img)
    draw.rectangle((0, TITLE_BOX[3], W, FELT_BOX[1]), fill=DARK)
    fw, fh = FELT_BOX[2] - FELT_BOX[0], FELT_BOX[3] - FELT_BOX[1]
    light = Image.radial_gradient("L").resize((fw, fh), Image.Resampling.BILINEAR)
    light = light.point(lambda v: min(255, int(v * 1.25)))
    felt = Image.composite(Image.new("RGB", (fw, fh), FELT_DEEP), Image.new("RGB", (fw, fh), FELT), light)
    # quantize the light into flat bands: smooth to the eye, small in the PNG
    felt = felt.quantize(colors=12, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE).convert("RGB")
    shape = Image.new("L", (fw * 3, fh * 3), 0)
    ImageDraw.Draw(shape).rounded_rectangle((0, 0, fw * 3 - 1, fh * 3 - 1), radius=54, fill=255)
    shape = shape.resize((fw, fh), Image.Resampling.LANCZOS)
    rim = _rounded(fw, fh, 18, None, RIM, 4)
    img.paste(felt, FELT_BOX[:2], shape)
    img.paste(rim, FELT_BOX[:2], rim)
    return img


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


def _label(scene: TableScene, key: str) -> str:
    value = scene.labels.get(key) if scene.labels is not None else None
    return value if value else DEFAULT_LABELS[key]


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


def _score_panel(b: _Builder, scene: TableScene, side: int) -> None:
    data = scene.sides[side]
    left, top, right, bottom = SCORE_BOXES[side]
    team = TEAM[side]
    b.add(Shape("panel", (left, top, right, bottom), color=team, fill=BAR, width=2, radius=12))
    b.add(Shape("panel", (left + 2, top + 2, left + 9, bottom - 2), color=team, fill=team, radius=3))
    x0, x1 = left + 18, right - 12
    row1, row2 = top + 26, bottom - 9
    role = f"score:{side}"
    # row 1: the label, the 38 mark, chicas at the right
    word = fit_text(_label(scene, "chicas"), 20, 120)
    number = str(data.chicas)
    chicas_x = x1 - text_width(word, 20) - 6 - text_width(number, 24, True)
    mark = _label(scene, "only_caida")
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
        x += b.text(x, row2, _label(scene, key), 20, role=role, max_width=110) + 16
    word = fit_text(_label(scene, "cards"), 20, max(30, x1 - x - 40))
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



def _table(b: _Builder, scene: TableScene, area: tuple[int, int, int, int]) -> None:
    cards = scene.table_cards
    if not cards:
        cx, cy = (area[0] + area[2]) // 2, (area[1] + area[3]) // 2
        b.text(cx, cy + 10, _label(scene, "empty"), 28, color=DIM, role="empty", align="center",
               max_width=area[2] - area[0] - 20, shadow=SHADOW)
        return
    trail_at = None
    if scene.trail is not None:
        want = Card.parse(scene.trail)
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
                pb.pill(x + w // 2, y - 2, scene.trail_label, 17, fill=TRAIL, color=INK, role="trail_label",
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


def _badges(b: _Builder, scene: TableScene, i: int, x: int, cy: int, limit: int) -> int:
    seat = scene.seats[i]
    start = x
    if seat.level:
        x += b.pill(x, cy, seat.level, 16, fill=LEVEL, color=INK, role=f"level:{i}", bold=False,
                    max_width=max(30, limit - x)) + 5
    for flag, key in ((seat.dealer, "dealer"), (seat.mano, "mano")):
        if flag:
            x += b.pill(x, cy, _label(scene, key), 16, fill=BADGE, color=BADGE_INK, role=f"{key}:{i}",
                        max_width=max(30, limit - x)) + 5
    return x - start


def _plaque(b: _Builder, scene: TableScene, i: int, box: tuple[int, int, int, int], tall: bool) -> None:
    seat = scene.seats[i]
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
        limit -= b.pill(right - 10, row1 - 8, _label(scene, "turn"), 18, fill=TURN, color=BADGE_INK,
                        role=f"turn:{i}", align="right", max_width=110) + 8
    elif seat.to_play:  # a tab on the top edge
        b.pill(right - 12, top, _label(scene, "turn"), 17, fill=TURN, color=BADGE_INK, role=f"turn:{i}",
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
        _badges(b, scene, i, x, row3, right - 8)
    else:
        row2 = top + 47
        used = _hand(b, x, row2, seat.cards_left, f"hand:{i}")
        _badges(b, scene, i, x + used + 10, row2, right - 8)


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


def _last_play(b: _Builder, scene: TableScene, where: str, plaque: tuple[int, int, int, int]) -> None:
    """The last play beside the plaque of its seat. Top and bottom seats: one row to the right of the
    plaque (card played, arrow, captured cards, callout in one or two lines). Side seats (4 players): a box
    below the plaque (the column is free down to the felt's edge): the cards (the captured ones on a row
    of their own when many), then the callout. A trail gets an arrow pointing to the table."""
    play = scene.last_play
    assert play is not None
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
    size, lines = 0, ()
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
    b.add(Shape("panel", box, role=f"last:{i}", color=TEAM[scene.seats[i].team], fill=PLAQUE, width=2, radius=12))
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


def layout(scene: TableScene) -> Layout:
    """What the picture of ``scene`` shows: every shape `render_table` draws, in order.

    Raises:
        SceneError: not 2 or 4 seats, a team not 0 or 1, a last-play seat out of range.
        CardError: a card code names no card.
    """
    _check(scene)
    b = _Builder()
    b.text(W // 2, 21, scene.title, 19, color=DIM, role="title", align="center", max_width=W - 20)
    for side in (0, 1):
        _score_panel(b, scene, side)
    four = len(scene.seats) == 4
    _table(b, scene, AREA_4 if four else AREA_2)
    places = ("bottom", "right", "top", "left") if four else ("bottom", "top")
    boxes = {"bottom": BOTTOM_PLAQUE, "top": TOP_PLAQUE, "left": SIDE_PLAQUES[0], "right": SIDE_PLAQUES[1]}
    for i, where in enumerate(places):
        _plaque(b, scene, i, boxes[where], where in ("left", "right"))
    if scene.last_play is not None:
        where = places[scene.last_play.seat]
        _last_play(b, scene, where, boxes[where])
    return Layout(SIZE, tuple(b.shapes))


# --------------------------------------------------------------------------- drawing


_Paste = tuple[Image.Image, int, int, "tuple[int, int, int] | None"]
"""One paste of a shape: (image, left, top, colour). Without a colour the image is RGBA, pasted through its
own alpha; with one, it is an L mask through which the colour is painted."""


def _pastes(shape: Shape) -> tuple[_Paste, ...]:
    """The pastes that draw ``shape``, in order: what it paints and exactly where (no pixel outside them)."""
    left, top, right, bottom = shape.box
    kind = shape.kind
    if kind == "text":
        mask = _text_mask(shape.value, shape.size, shape.bold)
        ink = (mask, left, top, shape.color)
        return ((mask, left + 1, top + 2, shape.fill), ink) if shape.fill is not None else (ink,)
    if kind == "card":
        return ((card_image(shape.value, bottom - top), left, top, None),)
    if kind == "fanned":
        return ((card_fanned(shape.value, bottom - top), left, top, None),)
    if kind == "back":
        return ((card_back(bottom - top), left, top, None),)
    if kind == "panel":
        part = _rounded(right - left, bottom - top, shape.radius, shape.fill,
                        shape.color if shape.width else None, shape.width)
        return ((part, left, top, None),)
    if kind == "ring":
        return ((_rounded(right - left, bottom - top, shape.radius, None, shape.color, shape.width), left, top, None),)
    if kind == "shadow":
        return ((_shadow(right - left, bottom - top, shape.radius), left, top, None),)
    if kind == "glow":
        spread = 10
        part = _glow(right - left - 2 * spread, bottom - top - 2 * spread, shape.radius, shape.color, spread)
        return ((part, left, top, None),)
    if kind == "pill":
        badge = _rounded(right - left, bottom - top, shape.radius, shape.fill, None, 0)
        mask = _text_mask(shape.value, shape.size, shape.bold)
        tx = left + (right - left - mask.width) // 2
        ty = (top + bottom) // 2 + _cap_height(shape.size) // 2 - _baseline(shape.size)
        return ((badge, left, top, None), (mask, tx, ty, shape.color))
    if kind == "arrow":
        return ((_arrow(right - left, bottom - top, shape.color, shape.value or "right"), left, top, None),)
    if kind == "robot":
        return ((_robot(right - left, shape.color), left, top, None),)
    raise ValueError(f"unknown shape kind {kind!r}")  # pragma: no cover - layout only makes the kinds above


def _draw(img: Image.Image, shape: Shape, dx: int = 0, dy: int = 0) -> None:
    """Paint ``shape`` on ``img`` (RGB), the part of the picture whose top-left corner is at (``dx``, ``dy``)."""
    for part, x, y, colour in _pastes(shape):
        x, y = x - dx, y - dy
        if colour is None:
            img.paste(part, (x, y), part)
        else:
            img.paste(colour, (x, y, x + part.width, y + part.height), part)


_Box = tuple[int, int, int, int]


class _LRU:
    """A least-recently-used map bounded by the total size of its values (given with each), safe to share
    between threads."""

    def __init__(self, budget: int) -> None:
        self.budget = budget
        self.used = 0
        self._items: OrderedDict[Hashable, tuple[Any, int]] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: Hashable) -> Any:
        """The value of ``key`` (now the most recently used), or None."""
        with self._lock:
            item = self._items.get(key)
            if item is None:
                return None
            self._items.move_to_end(key)
            return item[0]

    def put(self, key: Hashable, value: Any, size: int) -> None:
        """Keep ``value`` (``size`` bytes) for ``key``, dropping the least recently used values over budget."""
        with self._lock:
            old = self._items.pop(key, None)
            if old is not None:
                self.used -= old[1]
            self._items[key] = (value, size)
            self.used += size
            while self.used > self.budget and len(self._items) > 1:
                _, (_, dropped) = self._items.popitem(last=False)
                self.used -= dropped

    def clear(self) -> None:
        with self._lock:
            self._items.clear()
            self.used = 0

    def __len__(self) -> int:
        return len(self._items)


@lru_cache(maxsize=4096)
def _extent(shape: Shape) -> _Box | None:
    """The box of the pixels ``shape`` can change, cut to the picture; None when it draws nothing on it."""
    boxes = [(x, y, x + part.width, y + part.height) for part, x, y, _ in _pastes(shape)]
    box = (max(0, min(b[0] for b in boxes)), max(0, min(b[1] for b in boxes)),
           min(W, max(b[2] for b in boxes)), min(H, max(b[3] for b in boxes)))
    return box if box[0] < box[2] and box[1] < box[3] else None


def _tiles(shapes: tuple[Shape, ...]) -> list[tuple[_Box, tuple[Shape, ...]]]:
    """The shapes grouped into tiles: boxes that do not overlap, each with the shapes that paint in it, in
    drawing order. Shapes whose boxes overlap (a card and its shadow, a plaque and its texts) share a tile,
    and so do tiles whose boxes would overlap; shapes of different tiles touch different pixels, so drawing
    tile by tile paints exactly what drawing every shape in order on the whole picture does."""
    boxes: list[_Box] = []
    members: list[list[int]] = []
    for i, shape in enumerate(shapes):
        box = _extent(shape)
        if box is None:
            continue
        left, top, right, bottom = box
        if boxes:  # most shapes lie inside the tile before them (the texts of a panel): nothing to merge
            l2, t2, r2, b2 = boxes[-1]
            if l2 <= left and t2 <= top and right <= r2 and bottom <= b2:
                members[-1].append(i)
                continue
        group = [i]
        merged = True
        while merged:  # a grown box may reach tiles it did not touch before
            merged = False
            for g in range(len(boxes) - 1, -1, -1):
                l2, t2, r2, b2 = boxes[g]
                if left < r2 and l2 < right and top < b2 and t2 < bottom:
                    left, top, right, bottom = min(left, l2), min(top, t2), max(right, r2), max(bottom, b2)
                    group += members[g]
                    del boxes[g], members[g]
                    merged = True
        boxes.append((left, top, right, bottom))
        members.append(group)
    return [(box, tuple(shapes[i] for i in sorted(group))) for box, group in zip(boxes, members, strict=True)]


def _quantize(img: Image.Image) -> Image.Image:
    """``img`` (RGB) in the fixed palette, each pixel its nearest colour (no dithering: a pixel's index
    depends on its colour alone, so a part of the picture quantizes as it does within the whole)."""
    return img.quantize(palette=_palette(), dither=Image.Dither.NONE)


_TILES = _LRU(TILE_BYTES)
"""Tiles by (seats, box, shapes): (number, image in the palette); see `_tile`."""

_BANDS = _LRU(BAND_BYTES)
"""Compressed bands of PNG rows by what they show: (seats, band, numbers of the tiles in it)."""

_TILE_NUMBERS = itertools.count(1)


def _tile(seats: int, box: _Box, shapes: tuple[Shape, ...]) -> tuple[int, Image.Image]:
    """(number, image) of one tile: the background of ``seats`` seats in ``box`` with ``shapes`` painted on
    it, in the palette. Cached (`_TILES`): from one play to the next most tiles (the title, a score panel, a
    card that stayed put) are the same shapes in the same place. The number is new for every tile drawn
    (never reused), so it stands for the tile's pixels in the keys of `_BANDS`."""
    key = (seats, box, shapes)
    tile = _TILES.get(key)
    if tile is None:
        part = _background(seats).crop(box)
        for shape in shapes:
            _draw(part, shape, box[0], box[1])
        tile = (next(_TILE_NUMBERS), _quantize(part))
        _TILES.put(key, tile, part.width * part.height + 1024)  # a byte per pixel, and the image's own
    return tile


@lru_cache(maxsize=4)
def _base(seats: int) -> Image.Image:
    """The background in the palette, one column wider on the left: that column (index 0) is the filter
    byte of each PNG row (0, none), so the pixel bytes of a picture are its PNG rows as they are."""
    base = Image.new("P", (W + 1, H), 0)
    base.paste(_quantize(_background(seats)), (1, 0))
    return base


def _render_rgb(scene: TableScene) -> Image.Image:
    """The picture of ``scene`` in RGB, every shape drawn in order on the whole background (the plain way:
    it chooses the palette, and tests check the tiled picture against it)."""
    plan = layout(scene)
    img = _background(len(scene.seats)).copy()
    for shape in plan.shapes:
        _draw(img, shape)
    return img


def _sample_scenes() -> tuple[TableScene, ...]:
    """Scenes that show every kind of shape and colour, to choose the PNG palette from."""
    def seat(name: str, team: int, **flags) -> SeatScene:
        base = {"cards_left": 5, "team": team, "dealer": False, "mano": False, "to_play": False, "level": None,
                "away": False}
        return SeatScene(name=name, **{**base, **flags})

    def side(label: str, at38: bool) -> SideScene:
        return SideScene(label=label, perros=3, tantos=4, chicas=1, at38=at38, captured=12)

    cards = tuple(c.code for c in DECK)
    return (
        TableScene("Mesa · quito", cards[:8], cards[7], "¡cae!", (
            seat("Aa", 0, to_play=True, dealer=True), seat("Bb", 1, level="medio", mano=True),
            seat("Cc", 0, away=True), seat("Dd", 1, to_play=True)), (side("A", True), side("B", True)),
            LastPlay(1, cards[20], cards[21:24], "¡Caída!"), DEFAULT_LABELS),
        TableScene("Mesa · quito", cards[8:24], None, "", (
            seat("Aa", 0, level="fácil"), seat("Bb", 1, to_play=True, away=True)),
            (side("A", False), side("B", False)), LastPlay(0, cards[24], cards[25:28], "¡Limpia!"),
            DEFAULT_LABELS),
        TableScene("Mesa", cards[24:], cards[-1], "¡cae!", (
            seat("Aa", 0, to_play=True), seat("Bb", 1), seat("Cc", 0), seat("Dd", 1)),
            (side("A", False), side("B", True)), LastPlay(2, cards[0], (), "¡Caída!"), DEFAULT_LABELS),
    )


@lru_cache(maxsize=1)
def _palette() -> Image.Image:
    """The 256 colours of every picture, chosen once (so quantizing is a fast nearest-colour lookup, the same
    for a tile as within the whole picture, and the PNG a third of the RGB one). The colours of the
    background and of the named colours are kept exactly; the rest (antialiased edges, card art) come from
    sample pictures, where each colour weighs the log of its pixel count, so that thin details (the gold
    frame of a court card) get their colours next to large areas."""
    from . import cardart

    samples = [_render_rgb(s) for s in _sample_scenes()]
    named = [INK, DIM, DARK, BAR, FELT, FELT_DEEP, RIM, PLAQUE, PLAQUE_TURN, *TEAM, TURN, TRAIL, AT38, SHADOW,
             BADGE, BADGE_INK, LEVEL, cardart.RED, cardart.BLACK, cardart.FACE, cardart.EDGE, cardart.GOLD,
             cardart.BACK, cardart.BACK_LINE]
    reserved: dict[tuple[int, int, int], None] = {}
    for seats in (2, 4):
        for _, colour in sorted(_background(seats).getcolors(1 << 16), reverse=True):
            reserved.setdefault(colour, None)
    for colour in named:
        reserved.setdefault(tuple(colour[:3]), None)
    kept = list(reserved)[:128]
    counts: dict[tuple[int, int, int], int] = {}
    for img in samples:
        for n, colour in img.getcolors(1 << 20):
            counts[colour] = counts.get(colour, 0) + n
    pixels = [c for c, n in sorted(counts.items()) if c not in reserved for _ in range(1 + int(math.log2(n)))]
    rest: list[int] = []
    if pixels:
        strip = Image.new("RGB", (len(pixels), 1))
        strip.putdata(pixels)
        quantized = strip.quantize(colors=256 - len(kept), method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE)
        values = (quantized.getpalette() or [])[: 3 * (256 - len(kept))]
        for k in range(0, len(values) - 2, 3):  # leave the named colours alone in their neighbourhood
            colour = tuple(values[k:k + 3])
            if all(sum((a - b) ** 2 for a, b in zip(colour, c, strict=True)) > 100 for c in kept[-len(named):]):
                rest.extend(colour)
    flat = [v for colour in kept for v in colour] + rest
    palette = Image.new("P", (1, 1))
    palette.putpalette(flat + [0] * (768 - len(flat)))
    # Pillow keeps its colour → index lookup table in the palette, filled as colours are met (each entry
    # depends only on its colour); make the table now, before threads share the palette.
    Image.new("RGB", (1, 1)).quantize(palette=palette, dither=Image.Dither.NONE)
    return palette


_ADLER = 65521


def _adler32_combine(first: int, second: int, length: int) -> int:
    """The Adler-32 of two byte strings joined, from their checksums and the second's length (zlib's
    ``adler32_combine``)."""
    rem = length % _ADLER
    sum1 = (first & 0xFFFF) + (second & 0xFFFF) + _ADLER - 1
    sum2 = rem * (first & 0xFFFF) + (first >> 16) + (second >> 16) + _ADLER - rem
    return sum1 % _ADLER | (sum2 % _ADLER) << 16


def _deflate(rows: bytes) -> tuple[bytes, int, int]:
    """(raw deflate blocks, Adler-32, length) of a band of PNG rows. Each band is compressed on its own and
    ends byte-aligned and not final (a sync flush), so bands join into one valid zlib stream."""
    packer = zlib.compressobj(PNG_LEVEL, zlib.DEFLATED, -15)
    return packer.compress(rows) + packer.flush(zlib.Z_SYNC_FLUSH), zlib.adler32(rows), len(rows)


def _chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(data, zlib.crc32(kind)))


@lru_cache(maxsize=1)
def _png_head() -> bytes:
    """PNG signature, header (8-bit palette) and the palette."""
    header = struct.pack(">IIBBBBB", W, H, 8, 3, 0, 0, 0)
    colours = bytes((_palette().getpalette() or [])[:768])
    return b"\x89PNG\r\n\x1a\n" + _chunk(b"IHDR", header) + _chunk(b"PLTE", colours.ljust(768, b"\0"))


_ZLIB_HEAD = zlib.compress(b"", PNG_LEVEL)[:2]  # the header zlib writes: deflate, 32 KB window, level
_LAST_BLOCK = zlib.compressobj(PNG_LEVEL, zlib.DEFLATED, -15).flush()  # an empty final block
_PNG_END = _chunk(b"IEND", b"")


def _png(blocks: list[tuple[bytes, int, int]]) -> bytes:
    """The PNG of a picture from its compressed bands of PNG rows (top to bottom)."""
    check = 1
    for _, adler, length in blocks:
        check = _adler32_combine(check, adler, length)
    stream = b"".join((_ZLIB_HEAD, *(data for data, _, _ in blocks), _LAST_BLOCK, struct.pack(">I", check)))
    return b"".join((_png_head(), _chunk(b"IDAT", stream), _PNG_END))


def render_table(scene: TableScene) -> bytes:
    """The table picture of ``scene``: PNG bytes, `SIZE` pixels, 256 colours (a fixed palette), about
    20–40 KB. The first call draws the card art and the palette (a fraction of a second).

    Draws exactly ``layout(scene).shapes``, pixel for pixel as drawing them in order on the whole picture
    and quantizing it (`_render_rgb`) would, only faster: the shapes are grouped into tiles that do not
    overlap (`_tiles`); each tile, drawn on the background and turned into palette indices, is cached by its
    shapes and place (`_tile`), and each band of `BAND_ROWS` rows, compressed, by the tiles it shows
    (`_BANDS`). So a picture costs its layout, the tiles and bands that changed since a recent picture, and
    joining the rest. Pure: the caches are bounded (`TILE_BYTES`, `BAND_BYTES`) and keyed by everything
    their values depend on, so any thread or process may call it.

    Raises:
        SceneError, CardError: as `layout`.
    """
    plan = layout(scene)
    seats = len(scene.seats)
    canvas = _base(seats).copy()
    bands: list[list[int]] = [[] for _ in range(-(-H // BAND_ROWS))]
    for box, shapes in _tiles(plan.shapes):
        number, image = _tile(seats, box, shapes)
        canvas.paste(image, (box[0] + 1, box[1]))
        for band in range(box[1] // BAND_ROWS, (box[3] - 1) // BAND_ROWS + 1):
            bands[band].append(number)
    rows = b""
    step = BAND_ROWS * (W + 1)
    blocks = []
    for band, numbers in enumerate(bands):
        key = (seats, band, tuple(sorted(numbers)))
        block = _BANDS.get(key)
        if block is None:
            rows = rows or canvas.tobytes()
            block = _deflate(rows[band * step:(band + 1) * step])
            _BANDS.put(key, block, len(block[0]) + 100)
        blocks.append(block)
    return _png(blocks)


def _clear_caches() -> None:
    """Forget every cached tile, band, measure and piece of art of this module (tests; memory)."""
    _TILES.clear()
    _BANDS.clear()
    for cached in (_notdef, _covered, _units, _line_height, _baseline, _cap_height, _advance, text_width, fit_text,
                   _mark_mask, _text_mask, _rounded, _glow, _shadow, _arrow, _robot, _background, _extent,
                   _base, _palette, _png_head):
        cached.cache_clear()
