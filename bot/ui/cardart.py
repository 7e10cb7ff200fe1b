"""The project's own card art, drawn with Pillow: no third-party artwork, no font files shipped.

In Cuarenta only the rank matters (suits never count, R1), so each face shows a very large rank glyph
(``A 2 3 4 5 6 7 J Q K``) and, below it, a smaller suit symbol. The two jokers of the comodines variant
(RULES.md Part 1 §9) have neither: a big star over a jester's cap, in a double gold frame (red for 🃏1,
near-black for 🃏2), drawn from shapes as well. The four suits (♠ ♥ ♦ ♣) are vector
shapes drawn here, not font glyphs; hearts and diamonds are red, spades and clubs near-black, and the
rank takes the colour of its suit. Faces are white with a thin dark border, so they read on Discord's
dark and light themes alike; the court cards (J, Q, K) add a thin gold inner frame.

The rank text comes from `PIL.ImageFont.load_default` (Pillow's embedded copy of Aileron, FreeType),
so nothing depends on the fonts of the machine. Everything is drawn at 4× and scaled down (smooth edges)
and cached: `card_image` and `card_back` return shared images that callers paste and must not modify.

Sizes: a card of height ``h`` pixels is ``round(0.7 * h)`` wide. Colours are RGB(A) tuples of 0–255.
"""

from __future__ import annotations

import io
import math
from functools import lru_cache

from PIL import Image, ImageChops, ImageDraw, ImageFont

from bot.engine.cards import Card

__all__ = ["ASPECT", "EMOJI_SIZE", "FAN_SHOW", "card_back", "card_fanned", "card_image", "card_width", "emoji_png",
           "font"]

ASPECT = 0.7
"""Card width / height."""

EMOJI_SIZE = 128
"""Side of an emoji image, in pixels."""

MIN_HEIGHT = 12
"""Smallest card height drawn, in pixels."""

RED = (209, 45, 45)
BLACK = (28, 29, 34)
FACE = (255, 255, 255)
EDGE = (38, 40, 46)
GOLD = (201, 162, 39)
BACK = (28, 64, 140)
BACK_LINE = (66, 110, 196)

_SS = 4  # supersampling factor

RANK_CAP = 0.56
"""Capital height of the rank on `card_image`, as a share of the card's height: a table card ``h`` pixels
tall shows its rank ``RANK_CAP * h`` pixels tall (the picture's `MIN_RANK` sets the smallest card)."""

FANNED_RANK_CAP = 0.36
"""Capital height of the rank on `card_fanned` (in the top-left corner), as a share of the card's height."""


def card_width(height: int) -> int:
    """Width in pixels of a card ``height`` pixels tall."""
    return max(1, round(height * ASPECT))


@lru_cache(maxsize=64)
def font(size: int) -> ImageFont.FreeTypeFont:
    """Pillow's embedded Aileron Regular at ``size`` pixels (cached; shared, do not modify).

    Raises:
        RuntimeError: this Pillow was built without FreeType, so the default font cannot be scaled.
    """
    loaded = ImageFont.load_default(size=max(1, size))
    if not isinstance(loaded, ImageFont.FreeTypeFont):  # pragma: no cover - Pillow wheels have FreeType
        raise RuntimeError("Pillow was built without FreeType: the card art needs ImageFont.load_default(size=…)")
    return loaded


def _check_height(height: int) -> None:
    if not isinstance(height, int) or height < MIN_HEIGHT:
        raise ValueError(f"card height must be an int of at least {MIN_HEIGHT} pixels, not {height!r}")


# --------------------------------------------------------------------------- suit shapes


def _heart_points(n: int = 72) -> list[tuple[float, float]]:
    """The classic heart curve, scaled to the unit square (y down, point at the bottom)."""
    raw = []
    for i in range(n):
        t = 2 * math.pi * i / n
        x = 16 * math.sin(t) ** 3
        y = 13 * math.cos(t) - 5 * math.cos(2 * t) - 2 * math.cos(3 * t) - math.cos(4 * t)
        raw.append((x, -y))
    xs = [p[0] for p in raw]
    ys = [p[1] for p in raw]
    x0, x1, y0, y1 = min(xs), max(xs), min(ys), max(ys)
    return [((x - x0) / (x1 - x0), (y - y0) / (y1 - y0)) for x, y in raw]


_HEART = _heart_points()


def _draw_suit(draw: ImageDraw.ImageDraw, suit: str, box: tuple[float, float, float, float],
               color: tuple[int, ...]) -> None:
    """Draw suit ``suit`` (S H D C) filling ``box`` (left, top, right, bottom), as vector shapes."""
    left, top, right, bottom = box
    w, h = right - left, bottom - top

    def at(u: float, v: float) -> tuple[float, float]:
        return (left + u * w, top + v * h)

    def circle(u: float, v: float, r: float) -> None:
        cx, cy = at(u, v)
        draw.ellipse((cx - r * w, cy - r * w, cx + r * w, cy + r * w), fill=color)

    if suit == "D":
        draw.polygon([at(0.5, 0.0), at(0.86, 0.5), at(0.5, 1.0), at(0.14, 0.5)], fill=color)
    elif suit == "H":
        draw.polygon([at(0.02 + 0.96 * u, 0.04 + 0.94 * v) for u, v in _HEART], fill=color)
    elif suit == "S":
        # an upside-down heart for the blade, over a flared stem
        draw.polygon([at(0.04 + 0.92 * u, 0.80 - 0.78 * v) for u, v in _HEART], fill=color)
        draw.polygon([at(0.5, 0.55), at(0.64, 1.0), at(0.36, 1.0)], fill=color)
    elif suit == "C":
        r = 0.235
        circle(0.5, 0.27, r)
        circle(0.25, 0.58, r)
        circle(0.75, 0.58, r)
        draw.polygon([at(0.5, 0.32), at(0.36, 0.6), at(0.64, 0.6)], fill=color)
        draw.polygon([at(0.5, 0.5), at(0.65, 1.0), at(0.35, 1.0)], fill=color)
    else:  # pragma: no cover - Card.parse guarantees the suit
        raise ValueError(f"unknown suit {suit!r}")


# --------------------------------------------------------------------------- faces


def _rank_glyph(rank: str, cap: int, color: tuple[int, ...], stroke: int) -> Image.Image:
    """The rank text as an RGBA image cropped to its ink, with caps ``cap`` pixels tall."""
    probe = font(200)
    h_box = probe.getmask("H").getbbox() or (0, 0, 1, 140)
    size = max(4, round(200 * cap / max(1, h_box[3] - h_box[1])))
    f = font(size)
    ascent, descent = f.getmetrics()
    width = round(f.getlength(rank)) + 4 * stroke + 8
    canvas = Image.new("L", (width, ascent + descent + 4 * stroke + 8), 0)
    ImageDraw.Draw(canvas).text((2 * stroke + 4, 2 * stroke + 4), rank, font=f, fill=255,
                                stroke_width=stroke, stroke_fill=255)
    ink = canvas.getbbox() or (0, 0, 1, 1)
    mask = canvas.crop(ink)
    glyph = Image.new("RGBA", mask.size, (*color[:3], 255))
    glyph.putalpha(mask)
    return glyph


# --------------------------------------------------------------------------- the jokers (comodines, §9)


def _star_points(cx: float, cy: float, outer: float, inner: float, n: int = 5) -> list[tuple[float, float]]:
    """A star of ``n`` points centred on (cx, cy), one point straight up."""
    points = []
    for k in range(2 * n):
        r = outer if k % 2 == 0 else inner
        a = -math.pi / 2 + k * math.pi / n
        points.append((cx + r * math.cos(a), cy + r * math.sin(a)))
    return points


def _draw_star(draw: ImageDraw.ImageDraw, box: tuple[float, float, float, float], color: tuple[int, ...]) -> None:
    """A five-pointed star filling ``box``, in ``color`` with a gold rim (the joker's mark)."""
    left, top, right, bottom = box
    cx, cy = (left + right) / 2, (top + bottom) / 2 + (bottom - top) * 0.04
    outer = min(right - left, bottom - top) / 2
    draw.polygon(_star_points(cx, cy, outer, outer * 0.45), fill=GOLD)
    draw.polygon(_star_points(cx, cy, outer * 0.78, outer * 0.35), fill=color)


def _draw_jester(draw: ImageDraw.ImageDraw, box: tuple[float, float, float, float], color: tuple[int, ...]) -> None:
    """A jester's cap filling ``box``: a band and three horns in ``color``, a gold bell on each tip."""
    left, top, right, bottom = box
    w, h = right - left, bottom - top

    def at(u: float, v: float) -> tuple[float, float]:
        return (left + u * w, top + v * h)

    def curve(p0: tuple[float, float], p1: tuple[float, float], p2: tuple[float, float]) -> list[tuple[float, float]]:
        """A quadratic Bézier curve in unit coordinates."""
        return [((1 - k) ** 2 * p0[0] + 2 * (1 - k) * k * p1[0] + k * k * p2[0],
                 (1 - k) ** 2 * p0[1] + 2 * (1 - k) * k * p1[1] + k * k * p2[1]) for k in (i / 12 for i in range(13))]

    # the left horn rises and flops outward; the middle one stands up; the right one mirrors the left
    horn = [*curve((0.14, 0.74), (0.1, -0.05), (0.04, 0.5)), *curve((0.04, 0.5), (0.26, 0.22), (0.37, 0.64))]
    middle = [*curve((0.37, 0.64), (0.44, 0.3), (0.5, 0.04)), *curve((0.5, 0.04), (0.56, 0.3), (0.63, 0.64))]
    outline = horn + middle + [(1 - u, v) for u, v in reversed(horn)]
    draw.polygon([at(u, v) for u, v in outline], fill=color)
    draw.rounded_rectangle((*at(0.12, 0.7), *at(0.88, 0.96)), radius=max(1, round(h * 0.08)), fill=GOLD)
    r = w * 0.08
    for u, v in ((0.04, 0.5), (0.5, 0.04), (0.96, 0.5)):
        x, y = at(u, v)
        draw.ellipse((x - r, y - r, x + r, y + r), fill=GOLD)


def _joker_face(card: Card, height: int, *, emoji: bool, fanned: bool) -> Image.Image:
    """A joker (comodín, §9): no rank and no suit, so no text at all. A big star over a jester's cap in
    the middle, a double gold frame (unlike the single one of J, Q, K) and small stars in the corners;
    🃏1 is red, 🃏2 near-black, as in a real deck. Fanned: a star and a small cap down the left edge."""
    color = RED if card.index == 40 else BLACK
    width = card_width(height)
    H, W = height * _SS, width * _SS
    img = Image.new("RGBA", (W, H), (0, 0, 0, 0))
    draw = ImageDraw.Draw(img)
    edge = max(_SS, round(H * (0.032 if emoji else 0.016)))
    radius = round(W * 0.11)
    draw.rounded_rectangle((0, 0, W - 1, H - 1), radius=radius, fill=EDGE)
    draw.rounded_rectangle((edge, edge, W - 1 - edge, H - 1 - edge), radius=max(1, radius - edge), fill=FACE)
    line = max(_SS, round(H * (0.018 if emoji else 0.009)))
    for inset in ((0.075,) if emoji else (0.06, 0.1)):
        d = round(W * inset)
        draw.rounded_rectangle((d, d, W - 1 - d, H - 1 - d), radius=max(1, radius - d // 2), outline=GOLD, width=line)
    if fanned:
        s = W * 0.36
        x0, y0 = W * 0.1, H * 0.1
        _draw_star(draw, (x0, y0, x0 + s, y0 + s), color)
        _draw_jester(draw, (x0, y0 + s + H * 0.04, x0 + s, y0 + s + H * 0.04 + s * 0.7), color)
        return img.resize((width, height), Image.Resampling.LANCZOS)
    if emoji:
        star, star_mid, cap, cap_mid = 0.86, 0.40, 0.52, 0.8
    else:
        star, star_mid, cap, cap_mid = 0.74, 0.40, 0.5, 0.76
    s = W * star
    _draw_star(draw, (W / 2 - s / 2, H * star_mid - s / 2, W / 2 + s / 2, H * star_mid + s / 2), color)
    c = W * cap
    _draw_jester(draw, (W / 2 - c / 2, H * cap_mid - c * 0.35, W / 2 + c / 2, H * cap_mid + c * 0.35), color)
    if not emoji:
        p = H * 0.085  # small corner stars, top-left and bottom-right
        _draw_star(draw, (W * 0.14, H * 0.05, W * 0.14 + p, H * 0.05 + p), color)
        _draw_star(draw, (W * 0.86 - p, H * 0.95 - p, W * 0.86, H * 0.95), color)
    return img.resize((width, height), Image.Resampling.LANCZOS)


def _face(code: str, height: int, *, emoji: bool, fanned: bool = False) -> Image.Image:
    card = Card.parse(code)
    if card.is_joker:
        return _joker_face(card, height, emoji=emoji, fanned=fanned)
    color = RED if card.suit in ("H", "D") else BLACK
    width = card_width(height)
    H, W = height * _SS, width * _SS
    img = Image.new("RGBA", (W, H), (0, 0, 0, 0))
    draw = ImageDraw.Draw(img)
    edge = max(_SS, round(H * (0.032 if emoji else 0.016)))
    radius = round(W * 0.11)
    draw.rounded_rectangle((0, 0, W - 1, H - 1), radius=radius, fill=EDGE)
    draw.rounded_rectangle((edge, edge, W - 1 - edge, H - 1 - edge), radius=max(1, radius - edge), fill=FACE)
    if card.rank >= 7 and not emoji:  # J Q K: a thin gold inner frame
        inset = round(W * 0.075)
        line = max(_SS, round(H * 0.009))
        draw.rounded_rectangle((inset, inset, W - 1 - inset, H - 1 - inset), radius=max(1, radius - inset // 2),
                               outline=GOLD, width=line)
    rank = card.rank_symbol
    if fanned:  # rank and suit down the left edge, so they show when the next card covers the rest
        glyph = _rank_glyph(rank, round(H * FANNED_RANK_CAP), color, stroke=max(1, round(H * 0.02)))
        gx, gy = round(W * 0.1), round(H * 0.1)
        img.alpha_composite(glyph, (gx, gy))
        s = H * 0.17
        cx = gx + glyph.width / 2
        cy = gy + glyph.height + H * 0.05 + s / 2
        _draw_suit(draw, card.suit, (cx - s / 2, cy - s / 2, cx + s / 2, cy + s / 2), color)
        return img.resize((width, height), Image.Resampling.LANCZOS)
    if emoji:
        cap, rank_mid, suit_size, suit_mid = 0.6, 0.39, 0.165, 0.855
    else:
        cap, rank_mid, suit_size, suit_mid = RANK_CAP, 0.40, 0.17, 0.82
    glyph = _rank_glyph(rank, round(H * cap), color, stroke=max(1, round(H * (0.03 if emoji else 0.016))))
    if glyph.width > W * 0.86:  # never wider than the face
        scale = W * 0.86 / glyph.width
        glyph = glyph.resize((round(glyph.width * scale), round(glyph.height * scale)), Image.Resampling.LANCZOS)
    gx = (W - glyph.width) // 2
    gy = round(H * rank_mid - glyph.height / 2)
    img.alpha_composite(glyph, (gx, gy))
    s = H * suit_size
    cx, cy = W / 2, H * suit_mid
    _draw_suit(draw, card.suit, (cx - s * 0.5, cy - s * 0.5, cx + s * 0.5, cy + s * 0.5), color)
    if not emoji:
        p = H * 0.085  # small corner pips, top-left and bottom-right
        _draw_suit(draw, card.suit, (W * 0.09, H * 0.05, W * 0.09 + p, H * 0.05 + p), color)
        _draw_suit(draw, card.suit, (W * 0.91 - p, H * 0.95 - p, W * 0.91, H * 0.95), color)
    return img.resize((width, height), Image.Resampling.LANCZOS)


@lru_cache(maxsize=512)
def card_image(code: str, height: int) -> Image.Image:
    """An RGBA image of one card face, ``card_width(height)`` × ``height`` pixels (portrait, rounded
    corners, transparent outside them). Cached and shared: paste it, do not modify it.

    Args:
        code: a card code such as ``"7D"`` (or any form `Card.parse` accepts).
        height: in pixels, at least `MIN_HEIGHT`.

    Raises:
        CardError: ``code`` names no card of the 40-card deck nor a joker (``W1``, ``W2``).
        ValueError: ``height`` is not an int of at least `MIN_HEIGHT`.
    """
    _check_height(height)
    return _face(Card.parse(code).code, height, emoji=False)


@lru_cache(maxsize=256)
def card_fanned(code: str, height: int) -> Image.Image:
    """Like `card_image`, for cards drawn overlapping in a row (a fan): the rank and suit sit in the top-left
    corner, so a card still reads when the next one covers all but its left half (`FAN_SHOW`). Cached and shared.

    Raises:
        CardError: ``code`` names no card of the 40-card deck.
        ValueError: ``height`` is not an int of at least `MIN_HEIGHT`.
    """
    _check_height(height)
    return _face(Card.parse(code).code, height, emoji=False, fanned=True)


FAN_SHOW = 0.52
"""Share of a fanned card's width that must stay visible for its rank to read."""


@lru_cache(maxsize=32)
def card_back(height: int) -> Image.Image:
    """An RGBA image of a face-down card, the same size as ``card_image(code, height)``: a blue back with
    a diamond lattice inside a white margin. Cached and shared: paste it, do not modify it.

    Raises:
        ValueError: ``height`` is not an int of at least `MIN_HEIGHT`.
    """
    _check_height(height)
    width = card_width(height)
    H, W = height * _SS, width * _SS
    img = Image.new("RGBA", (W, H), (0, 0, 0, 0))
    draw = ImageDraw.Draw(img)
    edge = max(_SS, round(H * 0.02))
    radius = round(W * 0.11)
    draw.rounded_rectangle((0, 0, W - 1, H - 1), radius=radius, fill=EDGE)
    draw.rounded_rectangle((edge, edge, W - 1 - edge, H - 1 - edge), radius=max(1, radius - edge), fill=FACE)
    inset = round(W * 0.1)
    inner = (inset, inset, W - 1 - inset, H - 1 - inset)
    draw.rounded_rectangle(inner, radius=max(1, radius - inset // 2), fill=BACK)
    pattern = Image.new("RGBA", (W, H), (0, 0, 0, 0))
    pd = ImageDraw.Draw(pattern)
    step = max(2 * _SS, round(W * 0.16))
    line = max(_SS, round(W * 0.025))
    for k in range(-H, W + H, step):
        pd.line((k, 0, k + H, H), fill=BACK_LINE, width=line)
        pd.line((k, 0, k - H, H), fill=BACK_LINE, width=line)
    clip = Image.new("L", (W, H), 0)
    ImageDraw.Draw(clip).rounded_rectangle(inner, radius=max(1, radius - inset // 2), fill=255)
    img.paste(pattern, (0, 0), ImageChops.darker(pattern.getchannel("A"), clip))
    d = W * 0.16  # a white diamond in the middle
    cx, cy = W / 2, H / 2
    draw.polygon([(cx, cy - d * 1.3), (cx + d, cy), (cx, cy + d * 1.3), (cx - d, cy)], fill=FACE)
    draw.polygon([(cx, cy - d * 0.8), (cx + d * 0.6, cy), (cx, cy + d * 0.8), (cx - d * 0.6, cy)], fill=BACK)
    return img.resize((width, height), Image.Resampling.LANCZOS)


@lru_cache(maxsize=42)
def emoji_png(code: str) -> bytes:
    """A 128 × 128 PNG (RGBA, transparent around the card) of one card or joker, for a Discord application
    emoji.

    The card fills the height; its rank is larger than on `card_image` and the border thicker, so that it
    stays legible at the 22 px of an emoji on a button. A few KiB, well under Discord's 256 KiB.

    Raises:
        CardError: ``code`` names no card of the 40-card deck.
    """
    face = _face(Card.parse(code).code, EMOJI_SIZE, emoji=True)
    out = Image.new("RGBA", (EMOJI_SIZE, EMOJI_SIZE), (0, 0, 0, 0))
    out.alpha_composite(face, ((EMOJI_SIZE - face.width) // 2, 0))
    buf = io.BytesIO()
    out.save(buf, "PNG", optimize=True)
    return buf.getvalue()
