"""The bracket's two renderers, both from one layout (`bracket.BracketLayout` or `bracket.SwissLayout`):
`bracket_picture`, a PNG drawn with Pillow in the table picture's colours, font (Open Sans) and card art,
posted in Discord; and `bracket_svg`, the same drawing as an SVG string for the web page.

Colours: the table picture's dark band and felt greens (`bot.ui.picture.shapes`); a match in play is framed
in the turn's yellow, a winner's row is on felt with white text, a loser's text dimmed, a player not known
yet in grey. The champion's bar is gold with a king of hearts from the card art (`bot.ui.cardart`)."""

from __future__ import annotations

import html
import io

from PIL import Image, ImageDraw

from bot.ui.cardart import card_image
from bot.ui.picture.shapes import BAR, DARK, DIM, FELT, INK, LEVEL, PLAQUE, PLAQUE_TURN, RIM, TURN
from bot.ui.picture.text import text_font

from .bracket import (
    BOX_H,
    CHAMPION_H,
    LINE_H,
    MIN_TEXT,
    NAME_ROOM_PAD,
    PAD,
    SCORE_W,
    SWISS_LINE,
    TITLE_H,
    Box,
    BracketLayout,
    Side,
    SwissLayout,
)

TEXT_OF = {"winner": INK, "loser": DIM, "open": INK, "bye": LEVEL, "tbd": LEVEL, "empty": LEVEL}
"""Text colour of a side by its state."""
CHAMPION_CARD = "KH"
"""The card drawn beside the champion's name."""


def _hex(rgb: tuple[int, int, int]) -> str:
    return "#" + "".join(f"{c:02x}" for c in rgb)


# --------------------------------------------------------------------------- PNG


def _png(image: Image.Image) -> bytes:
    out = io.BytesIO()
    image.save(out, format="PNG", optimize=True)
    return out.getvalue()


def _text(draw: ImageDraw.ImageDraw, xy: tuple[float, float], text: str, size: int, colour: tuple[int, int, int],
          *, bold: bool = False, anchor: str = "lm") -> None:
    if text:
        draw.text(xy, text, font=text_font(size, bold), fill=colour, anchor=anchor)


def _title_band(draw: ImageDraw.ImageDraw, width: int, title: str) -> None:
    draw.rounded_rectangle((4, 4, width - 4, TITLE_H - 6), radius=10, fill=BAR)
    _text(draw, (PAD, TITLE_H // 2 - 1), title, 30, INK, bold=True)


def _champion(image: Image.Image, draw: ImageDraw.ImageDraw, width: int, y: int, text: str) -> None:
    draw.rounded_rectangle((PAD, y - CHAMPION_H // 2, width - PAD, y + CHAMPION_H // 2), radius=12,
                           fill=PLAQUE_TURN, outline=TURN, width=3)
    card = card_image(CHAMPION_CARD, CHAMPION_H - 14)
    image.paste(card, (PAD + 12, y - card.height // 2), card if card.mode == "RGBA" else None)
    _text(draw, (PAD + 60, y), text, 28, TURN, bold=True)


def _side_row(draw: ImageDraw.ImageDraw, box: Box, side: Side, top: int) -> None:
    if side.state == "winner":
        draw.rectangle((box.x + 3, top + 2, box.x + box.w - SCORE_W - 1, top + LINE_H - 2), fill=FELT)
    _text(draw, (box.x + NAME_ROOM_PAD // 2 + 2, top + LINE_H // 2), side.shown or "—", MIN_TEXT,
          TEXT_OF[side.state])
    _text(draw, (box.x + box.w - SCORE_W // 2, top + LINE_H // 2), side.score, MIN_TEXT,
          TURN if side.state == "winner" else DIM, bold=True, anchor="mm")


def _draw_bracket(layout: BracketLayout) -> Image.Image:
    image = Image.new("RGB", (layout.width, layout.height), DARK)
    draw = ImageDraw.Draw(image)
    for points in layout.lines:
        draw.line(points, fill=LEVEL, width=3, joint="curve")
    for label in layout.labels:
        if label.role == "title":
            _title_band(draw, layout.width, label.text)
        elif label.role == "header":
            _text(draw, (label.x, label.y), label.text, label.size, DIM, bold=True, anchor="mm")
    for box in layout.boxes:
        frame = TURN if box.status == "playing" else RIM
        draw.rounded_rectangle((box.x, box.y, box.x + box.w, box.y + box.h), radius=8, fill=PLAQUE, outline=frame,
                               width=3 if box.status == "playing" else 2)
        draw.rectangle((box.x + box.w - SCORE_W, box.y + 2, box.x + box.w - 2, box.y + box.h - 2), fill=BAR)
        _side_row(draw, box, box.a, box.y)
        _side_row(draw, box, box.b, box.y + LINE_H)
        draw.line((box.x + 2, box.y + LINE_H, box.x + box.w - 2, box.y + LINE_H), fill=RIM, width=2)
    for label in layout.labels:
        if label.role == "champion":
            _champion(image, draw, layout.width, label.y, label.text)
    return image


def _swiss_columns(width: int) -> tuple[int, int, int, int]:
    """x of the rank, the name, the points (centre) and Buchholz (centre)."""
    return PAD + 8, PAD + 56, width - PAD - 170, width - PAD - 62


def _draw_swiss(layout: SwissLayout) -> Image.Image:
    image = Image.new("RGB", (layout.width, layout.height), DARK)
    draw = ImageDraw.Draw(image)
    _title_band(draw, layout.width, layout.title)
    xs = _swiss_columns(layout.width)
    for x, text, anchor in zip(xs, layout.header, ("lm", "lm", "mm", "mm"), strict=False):
        _text(draw, (x, layout.header_y), text, MIN_TEXT, DIM, bold=True, anchor=anchor)
    for i, line in enumerate(layout.lines):
        band = (PAD, line.y - SWISS_LINE // 2 + 2, layout.width - PAD, line.y + SWISS_LINE // 2 - 2)
        if i == 0:
            draw.rounded_rectangle(band, radius=6, fill=PLAQUE_TURN)
        elif i % 2:
            draw.rounded_rectangle(band, radius=6, fill=PLAQUE)
        _text(draw, (xs[0], line.y), str(line.rank), MIN_TEXT, DIM, bold=True)
        _text(draw, (xs[1], line.y), line.shown, MIN_TEXT, TURN if i == 0 else INK, bold=i == 0)
        _text(draw, (xs[2], line.y), line.points, MIN_TEXT, INK, bold=True, anchor="mm")
        _text(draw, (xs[3], line.y), line.buchholz, MIN_TEXT, DIM, anchor="mm")
    centre = layout.width // 2
    for label, label_y, games in layout.rounds:
        _text(draw, (centre, label_y), label, MIN_TEXT, DIM, bold=True, anchor="mm")
        for game in games:
            draw.rounded_rectangle((PAD, game.y - SWISS_LINE // 2 + 2, layout.width - PAD, game.y + SWISS_LINE // 2 - 2),
                                   radius=6, fill=PLAQUE, outline=TURN if game.status == "playing" else RIM, width=2)
            _text(draw, (centre - SCORE_W - 4, game.y), game.a.shown or "—", MIN_TEXT, TEXT_OF[game.a.state],
                  anchor="rm")
            score = f"{game.a.score or ' '} – {game.b.score or ' '}" if game.status != "bye" else ""
            _text(draw, (centre, game.y), score, MIN_TEXT, TURN, bold=True, anchor="mm")
            _text(draw, (centre + SCORE_W + 4, game.y), game.b.shown or "—", MIN_TEXT, TEXT_OF[game.b.state])
    if layout.champion is not None:
        _champion(image, draw, layout.width, layout.champion_y, layout.champion_text)
    return image


def bracket_pictures(layout: BracketLayout | SwissLayout) -> list[bytes]:
    """The pictures posted in Discord: `bracket_picture` cut at the layout's ``cuts`` into one PNG per
    section (top to bottom, the title on the first, the champion on the last), a section joined to the one
    above while the two are no taller than wide: each 600 px wide and short enough for Discord to show it
    whole at phone width (an embed's image fits 300 px of height). One PNG when the bracket has three
    rounds or fewer, or is Swiss. Pure: may run in a thread."""
    image = _draw_bracket(layout) if isinstance(layout, BracketLayout) else _draw_swiss(layout)
    edges = [0]
    for cut in (*(layout.cuts if isinstance(layout, BracketLayout) else ()), image.height):
        if len(edges) > 1 and cut - edges[-2] <= image.width:
            edges[-1] = cut  # this section joins the one above: together still no taller than wide
        else:
            edges.append(cut)
    return [_png(image.crop((0, top, image.width, bottom))) for top, bottom in zip(edges, edges[1:], strict=False)]


def bracket_picture(layout: BracketLayout | SwissLayout) -> bytes:
    """The PNG of a bracket or Swiss layout, ``layout.width`` × ``layout.height`` pixels (600 px wide; an
    8-player bracket 600 × 468, so a phone showing it 290 px wide draws its smallest text at 11.6 px).
    Pure and picklable in and out: may run in a thread or a worker process."""
    return _png(_draw_bracket(layout) if isinstance(layout, BracketLayout) else _draw_swiss(layout))


# --------------------------------------------------------------------------- SVG

_FONT = "'Open Sans', 'Segoe UI', Roboto, Helvetica, Arial, sans-serif"


def _svg_text(x: float, y: float, text: str, size: int, colour: tuple[int, int, int], *, bold: bool = False,
              anchor: str = "start", cls: str = "") -> str:
    if not text:
        return ""
    weight = 700 if bold else 600
    klass = f' class="{cls}"' if cls else ""
    return (f'<text x="{x}" y="{y}" font-size="{size}" font-weight="{weight}" fill="{_hex(colour)}"'
            f' text-anchor="{anchor}" dominant-baseline="central"{klass}>{html.escape(text)}</text>')


def _svg_rect(x0: float, y0: float, x1: float, y1: float, fill: tuple[int, int, int], *, radius: int = 0,
              stroke: tuple[int, int, int] | None = None, width: int = 0) -> str:
    line = f' stroke="{_hex(stroke)}" stroke-width="{width}"' if stroke is not None else ""
    return (f'<rect x="{x0}" y="{y0}" width="{x1 - x0}" height="{y1 - y0}" rx="{radius}" fill="{_hex(fill)}"'
            f'{line}/>')


def _svg_side(box: Box, side: Side, top: int, which: str) -> list[str]:
    out = []
    if side.state == "winner":
        out.append(_svg_rect(box.x + 3, top + 2, box.x + box.w - SCORE_W - 1, top + LINE_H - 2, FELT))
    out.append(_svg_text(box.x + NAME_ROOM_PAD // 2 + 2, top + LINE_H // 2, side.shown or "—", MIN_TEXT,
                         TEXT_OF[side.state], cls=f"name {which} {side.state}"))
    out.append(_svg_text(box.x + box.w - SCORE_W // 2, top + LINE_H // 2, side.score, MIN_TEXT,
                         TURN if side.state == "winner" else DIM, bold=True, anchor="middle", cls=f"score {which}"))
    return out


def _svg_champion(width: int, y: int, text: str) -> list[str]:
    return [_svg_rect(PAD, y - CHAMPION_H // 2, width - PAD, y + CHAMPION_H // 2, PLAQUE_TURN, radius=12,
                      stroke=TURN, width=3),
            _svg_text(PAD + 24, y, "♔", 34, TURN, bold=True),
            _svg_text(PAD + 60, y, text, 28, TURN, bold=True, cls="champion")]


def _svg_bracket(layout: BracketLayout) -> list[str]:
    out = [f'<polyline points="{" ".join(f"{x},{y}" for x, y in points)}" fill="none" stroke="{_hex(LEVEL)}"'
           f' stroke-width="3"/>' for points in layout.lines]
    for label in layout.labels:
        if label.role == "title":
            out += [_svg_rect(4, 4, layout.width - 4, TITLE_H - 6, BAR, radius=10),
                    _svg_text(PAD, TITLE_H // 2 - 1, label.text, 30, INK, bold=True, cls="title")]
        elif label.role == "header":
            out.append(_svg_text(label.x, label.y, label.text, label.size, DIM, bold=True, anchor="middle",
                                 cls="round"))
        elif label.role == "champion":
            out += _svg_champion(layout.width, label.y, label.text)
    for box in layout.boxes:
        playing = box.status == "playing"
        tip = f"{box.a.name or '—'} {box.a.score or ''} – {box.b.score or ''} {box.b.name or '—'}"
        out.append(f'<g class="match {box.status}" data-round="{box.round}" data-slot="{box.slot}">'
                   f'<title>{html.escape(" ".join(tip.split()))}</title>')
        out.append(_svg_rect(box.x, box.y, box.x + box.w, box.y + box.h, PLAQUE, radius=8,
                             stroke=TURN if playing else RIM, width=3 if playing else 2))
        out.append(_svg_rect(box.x + box.w - SCORE_W, box.y + 2, box.x + box.w - 2, box.y + BOX_H - 2, BAR))
        out += _svg_side(box, box.a, box.y, "a")
        out += _svg_side(box, box.b, box.y + LINE_H, "b")
        out.append(f'<line x1="{box.x + 2}" y1="{box.y + LINE_H}" x2="{box.x + box.w - 2}" y2="{box.y + LINE_H}"'
                   f' stroke="{_hex(RIM)}" stroke-width="2"/></g>')
    return out


def _svg_swiss(layout: SwissLayout) -> list[str]:
    out = [_svg_rect(4, 4, layout.width - 4, TITLE_H - 6, BAR, radius=10),
           _svg_text(PAD, TITLE_H // 2 - 1, layout.title, 30, INK, bold=True, cls="title")]
    xs = _swiss_columns(layout.width)
    for x, text, anchor in zip(xs, layout.header, ("start", "start", "middle", "middle"), strict=False):
        out.append(_svg_text(x, layout.header_y, text, MIN_TEXT, DIM, bold=True, anchor=anchor))
    for i, line in enumerate(layout.lines):
        if i == 0 or i % 2:
            out.append(_svg_rect(PAD, line.y - SWISS_LINE // 2 + 2, layout.width - PAD, line.y + SWISS_LINE // 2 - 2,
                                 PLAQUE_TURN if i == 0 else PLAQUE, radius=6))
        out.append(f'<g class="standing" data-rank="{line.rank}"><title>{html.escape(line.name)}</title>')
        out.append(_svg_text(xs[0], line.y, str(line.rank), MIN_TEXT, DIM, bold=True))
        out.append(_svg_text(xs[1], line.y, line.shown, MIN_TEXT, TURN if i == 0 else INK, bold=i == 0, cls="name"))
        out.append(_svg_text(xs[2], line.y, line.points, MIN_TEXT, INK, bold=True, anchor="middle", cls="points"))
        out.append(_svg_text(xs[3], line.y, line.buchholz, MIN_TEXT, DIM, anchor="middle", cls="buchholz") + "</g>")
    centre = layout.width // 2
    for label, label_y, games in layout.rounds:
        out.append(_svg_text(centre, label_y, label, MIN_TEXT, DIM, bold=True, anchor="middle", cls="round"))
        for game in games:
            tip = f"{game.a.name or '—'} {game.a.score or ''} – {game.b.score or ''} {game.b.name or '—'}"
            out.append(f'<g class="match {game.status}" data-round="{game.round}" data-slot="{game.slot}">'
                       f'<title>{html.escape(" ".join(tip.split()))}</title>')
            out.append(_svg_rect(PAD, game.y - SWISS_LINE // 2 + 2, layout.width - PAD, game.y + SWISS_LINE // 2 - 2,
                                 PLAQUE, radius=6, stroke=TURN if game.status == "playing" else RIM, width=2))
            out.append(_svg_text(centre - SCORE_W - 4, game.y, game.a.shown or "—", MIN_TEXT, TEXT_OF[game.a.state],
                                 anchor="end", cls="name a"))
            if game.status != "bye":
                out.append(_svg_text(centre, game.y, f"{game.a.score or ' '} – {game.b.score or ' '}", MIN_TEXT, TURN,
                                     bold=True, anchor="middle", cls="score"))
            out.append(_svg_text(centre + SCORE_W + 4, game.y, game.b.shown or "—", MIN_TEXT, TEXT_OF[game.b.state],
                                 cls="name b") + "</g>")
    if layout.champion is not None:
        out += _svg_champion(layout.width, layout.champion_y, layout.champion_text)
    return out


def bracket_svg(layout: BracketLayout | SwissLayout, *, label: str = "") -> str:
    """The SVG (a standalone ``<svg>`` element) of a bracket or Swiss layout: the same drawing as
    `bracket_picture`, scaled to its container's width (``viewBox`` in design pixels). Every match is a
    ``<g class="match …" data-round data-slot>`` whose ``<title>`` holds both full names and the score;
    ``label`` is its accessible name."""
    body = _svg_bracket(layout) if isinstance(layout, BracketLayout) else _svg_swiss(layout)
    aria = html.escape(label or layout.title, quote=True)
    return (f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {layout.width} {layout.height}" width="100%"'
            f' role="img" aria-label="{aria}" font-family="{_FONT}" style="max-width:{layout.width}px;'
            f'height:auto;display:block">'
            f'{_svg_rect(0, 0, layout.width, layout.height, DARK, radius=8)}{"".join(body)}</svg>')
