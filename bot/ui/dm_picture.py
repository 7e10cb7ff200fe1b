"""The DM hand's drawing: the table cards, and the card a caída can take marked, drawn for a phone.

A compact picture, not the table picture (`bot.ui.picture`): the DM hand's text already says the score,
the last play and whose turn it is; what a player needs drawn to choose a card is the table. It holds
public facts only: the table cards in play order and the last trailed card still on the table (the one a
caída takes), never a card of any hand.

Sizes, in pixels of the picture (a JPEG, `JPEG_QUALITY`): `WIDTH` wide (shown about 300 CSS px wide in a phone's DM, so a scale of
about 0.47), cards `CARD_HEIGHT` tall (their rank about 40 CSS px on the phone), at most `PER_ROW` cards
a row, the «¡cae!» label `LABEL_SIZE` tall (about 12 CSS px). An empty table draws nothing (None): the
text says it.
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from functools import lru_cache
from importlib import resources

from PIL import Image, ImageDraw, ImageFont

from . import cardart

WIDTH = 640
CARD_HEIGHT = 128
PER_ROW = 6
GAP = 12
MARGIN = 16
LABEL_SIZE = 26
FELT = (22, 104, 64)
GOLD = (232, 190, 50)
INK = (20, 22, 26)
RING = 5
JPEG_QUALITY = 88
"""JPEG quality, colour at full resolution (``subsampling=0``: the red ranks keep clean edges). A JPEG,
not a PNG: encoding this picture as a PNG (zlib level 1) took 4.3 ms of its 4.9 ms, as a JPEG 0.4 ms, at
about the same size (bench/render.py, "DM picture")."""
FONT_FILE = "OpenSans-Bold.ttf"
"""The label's font, from the ``ttf-opensans`` package (a dependency; it has ¡ ¿ and every accent)."""
PICTURE_NAME = "mano.jpg"
"""The file name of the drawing in the DM hand (``attachment://mano.jpg``)."""


@lru_cache(maxsize=1)
def _font() -> ImageFont.FreeTypeFont:
    return ImageFont.truetype(str(resources.files("ttf_opensans") / "ttf" / FONT_FILE), LABEL_SIZE)


@lru_cache(maxsize=64)
def _on_felt(code: str) -> Image.Image:
    """A card face already laid on the felt (RGB, no transparency left): pasted without a mask, about ten
    times faster than the card's RGBA face with its alpha. Cached and shared: paste it, do not modify it."""
    face = cardart.card_image(code, CARD_HEIGHT)
    tile = Image.new("RGB", face.size, FELT)
    tile.paste(face, (0, 0), face)
    return tile


def rows_of(count: int) -> int:
    """Rows of cards for ``count`` table cards (at most `PER_ROW` a row)."""
    return max(1, -(-count // PER_ROW))


def size_of(count: int) -> tuple[int, int]:
    """``(width, height)`` in pixels of the drawing of ``count`` table cards."""
    rows = rows_of(count)
    return WIDTH, 2 * MARGIN + rows * CARD_HEIGHT + (rows - 1) * GAP + LABEL_SIZE // 2


def draw_table(cards: Sequence[str], trail: str | None, label: str) -> bytes | None:
    """The JPEG of the table cards ``cards`` (codes, in play order), ``trail`` (a code among them, or None)
    ringed in gold with ``label`` («¡cae!») under it. None for an empty table. Cached by its arguments
    (a capture menu, a repeated write and the other hands of the same moment draw nothing again).

    Raises:
        CardError: a code names no card.
    """
    if not cards:
        return None
    return _draw(tuple(cards), trail if trail in cards else None, label)


@lru_cache(maxsize=256)
def _draw(cards: tuple[str, ...], trail: str | None, label: str) -> bytes:
    width, height = size_of(len(cards))
    image = Image.new("RGB", (width, height), FELT)
    draw = ImageDraw.Draw(image)
    card_w = cardart.card_width(CARD_HEIGHT)
    font = _font()
    for index, code in enumerate(cards):
        row, col = divmod(index, PER_ROW)
        in_row = min(PER_ROW, len(cards) - row * PER_ROW)
        left = (width - (in_row * card_w + (in_row - 1) * GAP)) // 2 + col * (card_w + GAP)
        top = MARGIN + row * (CARD_HEIGHT + GAP)
        if code == trail:
            draw.rounded_rectangle((left - RING, top - RING, left + card_w + RING, top + CARD_HEIGHT + RING),
                                   radius=12, fill=GOLD)
        if code == trail:  # on the gold ring: its corners show gold, not felt
            face = cardart.card_image(code, CARD_HEIGHT)
            image.paste(face, (left, top), face)
        else:
            image.paste(_on_felt(code), (left, top))
        if code == trail:
            box = draw.textbbox((0, 0), label, font=font)
            text_w, text_h = box[2] - box[0], box[3] - box[1]
            pad = 6
            x = left + (card_w - text_w) // 2
            y = top + CARD_HEIGHT - text_h // 2 - pad
            draw.rounded_rectangle((x - pad * 2, y - pad, x + text_w + pad * 2, y + text_h + pad * 2),
                                   radius=10, fill=GOLD)
            draw.text((x - box[0], y - box[1] + pad // 2), label, font=font, fill=INK)
    out = io.BytesIO()
    image.save(out, format="JPEG", quality=JPEG_QUALITY, subsampling=0)
    return out.getvalue()


__all__ = ["CARD_HEIGHT", "PICTURE_NAME", "WIDTH", "draw_table", "rows_of", "size_of"]
