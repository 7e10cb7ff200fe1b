"""Drawing the shapes of a layout: the cached decorations (rounded panels, glows, shadows, arrows, the
computer icon), the background, each shape's pastes, and the fixed 256-colour palette of the PNG."""

from __future__ import annotations

import math
from functools import lru_cache
from typing import cast

from PIL import Image, ImageChops, ImageDraw, ImageFilter

from bot.engine.cards import DECK

from ..cardart import card_back, card_fanned, card_image
from .arrange import layout
from .shapes import (
    AT38,
    BADGE,
    BADGE_INK,
    BAR,
    DARK,
    DEFAULT_LABELS,
    DIM,
    FELT,
    FELT_BOX,
    FELT_DEEP,
    INK,
    LEVEL,
    PLAQUE,
    PLAQUE_TURN,
    RIM,
    SHADOW,
    SIZE,
    TEAM,
    TRAIL,
    TURN,
    LastPlay,
    SeatScene,
    Shape,
    SideScene,
    TableScene,
)
from .text import _baseline, _cap_height, _text_mask

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
    """The fixed part of the picture: the dark band and the felt with a soft light in the middle (the same
    for 2 and 4 seats)."""
    img = Image.new("RGB", SIZE, DARK)
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
        ty = (top + bottom) // 2 + _cap_height(shape.size) // 2 - _baseline(shape.size) + 1
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


def _quantize(img: Image.Image) -> Image.Image:
    """``img`` (RGB) in the fixed palette, each pixel its nearest colour (no dithering: a pixel's index
    depends on its colour alone, so a part of the picture quantizes as it does within the whole)."""
    return img.quantize(palette=_palette(), dither=Image.Dither.NONE)

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
    from .. import cardart

    samples = [_render_rgb(s) for s in _sample_scenes()]
    named = [INK, DIM, DARK, BAR, FELT, FELT_DEEP, RIM, PLAQUE, PLAQUE_TURN, *TEAM, TURN, TRAIL, AT38, SHADOW,
             BADGE, BADGE_INK, LEVEL, cardart.RED, cardart.BLACK, cardart.FACE, cardart.EDGE, cardart.GOLD,
             cardart.BACK, cardart.BACK_LINE]
    reserved: dict[tuple[int, int, int], None] = {}
    for seats in (2, 4):
        colours = cast("list[tuple[int, tuple[int, int, int]]]", _background(seats).getcolors(1 << 16))
        for _, colour in sorted(colours, reverse=True):
            reserved.setdefault(colour, None)
    for colour in named:
        reserved.setdefault((colour[0], colour[1], colour[2]), None)
    kept = list(reserved)[:128]
    counts: dict[tuple[int, int, int], int] = {}
    for img in samples:
        for n, colour in cast("list[tuple[int, tuple[int, int, int]]]", img.getcolors(1 << 20)):
            counts[colour] = counts.get(colour, 0) + n
    pixels = [c for c, n in sorted(counts.items()) if c not in reserved for _ in range(1 + int(math.log2(n)))]
    rest: list[int] = []
    if pixels:
        strip = Image.new("RGB", (len(pixels), 1))
        strip.putdata(pixels)
        quantized = strip.quantize(colors=256 - len(kept), method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE)
        values = (quantized.getpalette() or [])[: 3 * (256 - len(kept))]
        for k in range(0, len(values) - 2, 3):  # leave the named colours alone in their neighbourhood
            candidate = tuple(values[k:k + 3])
            if all(sum((a - b) ** 2 for a, b in zip(candidate, c, strict=True)) > 100 for c in kept[-len(named):]):
                rest.extend(candidate)
    flat = [v for colour in kept for v in colour] + rest
    palette = Image.new("P", (1, 1))
    palette.putpalette(flat + [0] * (768 - len(flat)))
    # Pillow keeps its colour → index lookup table in the palette, filled as colours are met (each entry
    # depends only on its colour); make the table now, before threads share the palette.
    Image.new("RGB", (1, 1)).quantize(palette=palette, dither=Image.Dither.NONE)
    return palette

