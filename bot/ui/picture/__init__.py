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

The PNG uses one fixed 256-colour palette (chosen once from sample pictures): 30–40 KB, written by Pillow's
own PNG encoder (`tiles.PNG_LEVEL`). Drawing is cached without any state that could go stale: the layout by
part (title, score panels, table, plaques, last play: `arrange.parts`); the shapes grouped into tiles that
do not overlap, each tile drawn, turned into palette indices and kept by its shapes and place
(`tiles.render_table`). With 50 tables played in turn, the next play's picture costs ~3 ms of CPU
(``python bench/render.py``; figures in docs/SCALING.md, "Speed devices kept and removed"). Tiles are kept
within 48 MB. The bot draws its pictures in worker processes (`bot.ui.picture_workers`), so these caches live there.

Text uses Pillow's embedded font, which covers ASCII and a few signs only. Accented letters (á é í ó ú
ü ñ …) are drawn as their base letter with the accent added, ``¡`` and ``¿`` as turned ``!`` and ``?``;
anything else the font lacks (emoji, other scripts) is dropped, and long texts end with ``…``. A name
with nothing drawable left is shown as ``?``.

`layout` returns every shape to draw, with what it means (`Shape.role`), and `render_table` draws
exactly those shapes, so tests assert on content, not pixels.
"""

from __future__ import annotations

from .arrange import layout
from .shapes import SIZE, LastPlay, Layout, SceneError, SeatScene, Shape, SideScene, TableScene
from .text import fit_text, text_width
from .tiles import render_table

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
