"""Text in the picture: Pillow's embedded font, with accents drawn on and what the font lacks dropped
(see `bot.ui.picture`): fitting, measuring and the masks drawn."""

from __future__ import annotations

import math
import unicodedata
from dataclasses import dataclass
from functools import lru_cache

from PIL import Image, ImageChops, ImageDraw

from ..cardart import font

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
            mx, my = int((ink_left + ink_right) // 2 - m.width // 2), int(max(0, y - m.height))
            mask.paste(ImageChops.lighter(mask.crop((mx, my, mx + m.width, my + m.height)), m), (mx, my))
            y = my - 1
    return mask

