"""Standings as a picture: a dark table 800 px wide, drawn with Pillow and the card art's
embedded font, readable on a phone: the leader's row in gold, the others striped. The text version of
the same standings always goes with it (`league_present.standings_text`)."""

from __future__ import annotations

import io
from collections.abc import Sequence

from PIL import Image, ImageDraw

from bot.ui.cardart import font

WIDTH = 800
ROW = 46
PAD = 24
BG = (30, 31, 34)
STRIPE = (43, 45, 49)
GOLD = (241, 196, 15)
TEXT = (235, 236, 238)
MUTED = (160, 164, 171)


def table_picture(title: str, header: Sequence[str], rows: Sequence[Sequence[str]],
                  widths: Sequence[float]) -> bytes:
    """A PNG of a table.

    Args:
        title: the line above the table. header: the column names. rows: the cells, best first.
        widths: each column's share of the width (they are normalised; the second column is the name).

    Returns:
        PNG bytes, 800 px wide, ``ROW`` px per row.
    """
    height = PAD * 2 + ROW * (len(rows) + 2)
    image = Image.new("RGB", (WIDTH, height), BG)
    draw = ImageDraw.Draw(image)
    draw.text((PAD, PAD), title, font=font(30), fill=TEXT)
    total = sum(widths)
    xs: list[float] = [PAD]
    for w in widths[:-1]:
        xs.append(xs[-1] + (WIDTH - 2 * PAD) * w / total)
    y = PAD + ROW
    small, big = font(20), font(24)
    for x, name in zip(xs, header, strict=True):
        draw.text((x + 6, y + 12), name, font=small, fill=MUTED)
    for i, row in enumerate(rows):
        y += ROW
        if i == 0:
            draw.rectangle((PAD, y, WIDTH - PAD, y + ROW - 4), fill=(70, 60, 20))
        elif i % 2:
            draw.rectangle((PAD, y, WIDTH - PAD, y + ROW - 4), fill=STRIPE)
        for j, (x, cell) in enumerate(zip(xs, row, strict=True)):
            limit = int((WIDTH - 2 * PAD) * widths[j] / total / 13)
            text = cell if len(cell) <= limit else cell[:max(1, limit - 1)] + "…"
            draw.text((x + 6, y + 9), text, font=big, fill=GOLD if i == 0 and j == 1 else TEXT)
    out = io.BytesIO()
    image.save(out, format="PNG", optimize=True)
    return out.getvalue()
