"""The table picture: a `TableScene` (public state only, with translated words) → a PNG.

Pure drawing: Pillow and `bot.ui.cardart`, no Discord, no table service. The scene carries no hand, so
the picture can only show what every player sees: the table cards, cards left per seat (as face-down
backs), scores, and the last play.

Layout (``SIZE`` = 600 × 450 pixels, landscape 4 : 3), drawn for its real size: a phone shows it 280–320 px
wide (`PHONE_WIDTH` = 280, the smallest), so no text is smaller than `MIN_TEXT` (4 % of the width, 11.2 px
there) and a face-up card's rank is at least `MIN_RANK` tall (24.3 px there). No text or badge covers
another text or a card (tests check the boxes of the layout):

- the score band, one line: side 0's perros and tantos at the left in a panel of its colour (blue), side
  1's at the right (orange), the chicas won between them; a side at the blocking score shows its "only a
  caída counts" badge in place of its numbers. No side is named: the colours are the plaques' colours, so
  a 1 v 1 player's name is drawn once, on the plaque;
- the seats' plaques, two to a row in turn order (seat 0 | seat 1, then seat 2 | seat 3): side 0 at the
  left, side 1 at the right. A plaque holds the computer icon and the name (at 26 px, else 24, else on two
  lines: a name of 16 characters is never cut), the cards left (one back and the count), then a badge line:
  the computer's level, the dealer or mano badge and, for the seat to play, the turn badge on a gold frame
  with a gold glow;
- the felt below, with the table cards as large as fit, in play order (oldest first), in rows; the card a
  caída can take is ringed in red with the trail label above it; then the last play, framed in the
  colour of the side that made it: the card played, an arrow and the captured cards (fanned when many),
  its callout above the frame; a trail's arrow points to the table. A row whose card carries a label has
  room above it for the label, so a label covers no card.

What a table message says in words is not drawn again: the table's title (``TableScene.title``) and the
cards each side captured this hand (``SideScene.captured``, which counts only at the hand's end, in its
record) are left out.

The PNG uses one fixed 256-colour palette (chosen once from sample pictures): 30–40 KB, written by Pillow's
own PNG encoder (`tiles.PNG_LEVEL`). Drawing is cached without any state that could go stale: the layout
by part (the turn glow, the score band, the felt, the plaques: `arrange.parts`); the shapes grouped into
tiles that do not overlap, each tile drawn, turned into palette indices and kept by its shapes and place
(`tiles.render_table`). ``python bench/render.py`` prints the cost. Tiles are kept within 48 MB. The bot
draws its pictures in worker processes (`bot.ui.picture_workers`), so these caches live there.

Text is drawn with Open Sans (`text.FONT_FILES`, the ``ttf-opensans`` package), which covers every
Spanish and Portuguese letter and sign; a character it lacks (emoji, other scripts) is dropped, and a
name with nothing drawable left is shown as ``?``. `text_items` lists every text with its font size and
box, and `rank_heights` every card's rank height, so tests check the sizes against the width.

`layout` returns every shape to draw, with what it means (`Shape.role`), and `render_table` draws
exactly those shapes, so tests assert on content, not pixels.
"""

from __future__ import annotations

from .arrange import TextItem, layout, rank_heights, text_items
from .shapes import (
    MIN_RANK,
    MIN_TEXT,
    PHONE_WIDTH,
    SIZE,
    LastPlay,
    Layout,
    SceneError,
    SeatScene,
    Shape,
    SideScene,
    TableScene,
)
from .text import fit_text, text_font, text_width
from .tiles import render_table

__all__ = [
    "MIN_RANK",
    "MIN_TEXT",
    "PHONE_WIDTH",
    "SIZE",
    "TextItem",
    "LastPlay",
    "Layout",
    "SceneError",
    "SeatScene",
    "Shape",
    "SideScene",
    "TableScene",
    "fit_text",
    "layout",
    "rank_heights",
    "render_table",
    "text_font",
    "text_items",
    "text_width",
]
