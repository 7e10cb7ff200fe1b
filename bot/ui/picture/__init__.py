"""The table picture: a `TableScene` (public state only, with translated words) → a PNG.

Pure drawing: Pillow and `bot.ui.cardart`, no Discord, no table service. The scene carries no hand, so
the picture can only show what every player sees: the table cards, cards left per seat (as face-down
backs), scores, and the last play.

Layout (``SIZE`` = 600 × 600 pixels, square), drawn for its real size: a phone shows it about 300 px
wide (`PHONE_WIDTH`), so no text is smaller than `MIN_TEXT` (4 % of the width, 12 px on a phone) and a
table card's rank is at least `MIN_RANK` tall (8 %, 24 px on a phone):

- the title, then one score panel per side (side 0 left, side 1 right), in its team colour (blue for team
  0, orange for team 1, the colours of the seats): label and the "only a caída counts" mark at 38, big
  perros and tantos, then chicas and the cards captured this hand;
- the seats, one plaque per row in turn order (so the order of play reads from the top): the computer
  icon, the name (shrunk to fit, down to `MIN_TEXT`, then on two lines: a name of 16 characters is never
  cut), then at the right the computer's level, the cards left (backs and a number), the dealer or mano
  badge, and for the seat to play a gold glow and the "turn" badge;
- the green felt below, with the table cards as large as fit, in play order (oldest first), in rows; the
  card a caída can take is ringed in red with the trail label on it; then the last play, framed in the
  colour of the side that made it: the card played, an arrow and the captured cards (fanned when many),
  its callout on the frame; a trail's arrow points to the table.

The PNG uses one fixed 256-colour palette (chosen once from sample pictures): 30–40 KB, written by Pillow's
own PNG encoder (`tiles.PNG_LEVEL`). Drawing is cached without any state that could go stale: the layout by
part (title, score panels, felt, plaques: `arrange.parts`); the shapes grouped into tiles that do not
overlap, each tile drawn, turned into palette indices and kept by its shapes and place
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
