"""Text in the picture: Open Sans (a TrueType font covering Latin, Greek and Cyrillic, so every Spanish and
Portuguese letter and sign, á é í ó ú ñ ü ç ã õ ¡ ¿, is the font's own glyph), measuring, fitting and the
masks drawn. A character the font lacks (emoji, other scripts) is dropped; long texts end with ``…``."""

from __future__ import annotations

import math
import unicodedata
from functools import lru_cache
from importlib import resources

from PIL import Image, ImageDraw, ImageFont

FONT_FILES = {False: "OpenSans-SemiBold", True: "OpenSans-Bold"}
"""The font files of the picture's text, regular and bold, from the ``ttf-opensans`` package (Apache 2.0;
a dependency in pyproject.toml, so ``pip install -e .`` installs it). Semi-bold for the plain text: at
the 11–13 px a phone shows it, a regular stroke is too thin on a dark background."""


@lru_cache(maxsize=2)
def _font_path(bold: bool) -> str:
    return str(resources.files("ttf_opensans") / "ttf" / f"{FONT_FILES[bold]}.ttf")


@lru_cache(maxsize=128)
def text_font(size: int, bold: bool = False) -> ImageFont.FreeTypeFont:
    """Open Sans at ``size`` pixels (`FONT_FILES`), cached and shared: do not modify.

    Raises:
        OSError: the font file is missing (the ``ttf-opensans`` package is not installed).
    """
    return ImageFont.truetype(_font_path(bold), max(1, size))


@lru_cache(maxsize=2)
def _notdef(bold: bool) -> bytes:
    return bytes(text_font(48, bold).getmask("\ue000"))


@lru_cache(maxsize=4096)
def _covered(ch: str) -> bool:
    """True when the font has a glyph for ``ch`` (both weights share one character set)."""
    return ch == " " or (ch.isprintable() and bytes(text_font(48).getmask(ch)) != _notdef(False))


def _clean_char(ch: str) -> str:
    if ch.isspace():
        return " "
    if _covered(ch):
        return ch
    compat = "".join(c for c in unicodedata.normalize("NFKC", ch) if not unicodedata.combining(c))
    if compat and compat != ch and all(_covered(c) for c in compat):
        return compat
    return ""


@lru_cache(maxsize=4096)
def clean(text: str) -> str:
    """``text`` as the picture can draw it: characters the font lacks dropped, spaces collapsed and
    trimmed."""
    return " ".join("".join(_clean_char(ch) for ch in unicodedata.normalize("NFC", text)).split())


def _pad(size: int) -> int:
    return max(2, round(size * 0.08))


@lru_cache(maxsize=64)
def _line_height(size: int) -> int:
    """Height of a text line box at ``size`` (both weights have the same metrics)."""
    ascent, descent = text_font(size).getmetrics()
    return _pad(size) + ascent + descent + 1


@lru_cache(maxsize=64)
def _baseline(size: int) -> int:
    """Distance from the top of a text line box to its baseline."""
    return _pad(size) + text_font(size).getmetrics()[0]


@lru_cache(maxsize=64)
def _cap_height(size: int) -> int:
    """Height of the ink of ``H`` at ``size`` (centres the text of a badge)."""
    box = text_font(size).getbbox("H")
    return round(box[3] - box[1])


@lru_cache(maxsize=4096)
def _advance(text: str, size: int, bold: bool) -> int:
    return math.ceil(text_font(size, bold).getlength(text))


def _width_clean(text: str, size: int, bold: bool) -> int:
    return _advance(text, size, bold) + 2 if text else 0


@lru_cache(maxsize=4096)
def text_width(text: str, size: int, bold: bool = False) -> int:
    """Width in pixels of ``text`` as drawn at ``size`` (after `fit_text`'s cleaning, without clipping)."""
    return _width_clean(clean(text), size, bold)


@lru_cache(maxsize=2048)
def fit_text(text: str, size: int, max_width: int, bold: bool = False) -> str:
    """``text`` as the picture draws it at ``size`` pixels: characters the font lacks dropped, spaces
    collapsed, and cut with ``…`` to fit ``max_width`` pixels. May return "" (nothing drawable, or no room
    even for ``…``)."""
    shown = clean(text)
    if _width_clean(shown, size, bold) <= max_width:
        return shown
    keep = shown
    while keep:
        keep = keep[:-1].rstrip()
        if _width_clean(keep + "…", size, bold) <= max_width:
            return keep + "…"
    return "…" if _width_clean("…", size, bold) <= max_width else ""


@lru_cache(maxsize=4096)
def ink_box(text: str, size: int, bold: bool, left: int, top: int) -> tuple[int, int, int, int]:
    """(left, top, right, bottom) of the pixels ``text`` (already fitted) inks when its line box's top-left
    corner is at (``left``, ``top``): the glyphs' own extent, accents and descenders included, as
    `_text_mask` draws them (for checking that no text covers another text or a card)."""
    x0, y0, x1, y1 = (round(v) for v in text_font(size, bold).getbbox(text, anchor="ls"))
    return (left + 1 + x0, top + _baseline(size) + y0, left + 1 + x1, top + _baseline(size) + y1)


@lru_cache(maxsize=1024)
def _text_mask(text: str, size: int, bold: bool) -> Image.Image:
    """An L mask of ``text`` (already fitted) on a line box of `_line_height` (baseline at `_baseline`)."""
    f = text_font(size, bold)
    mask = Image.new("L", (max(1, _width_clean(text, size, bold)), _line_height(size)), 0)
    ImageDraw.Draw(mask).text((1, _baseline(size)), text, font=f, fill=255, anchor="ls")
    return mask
