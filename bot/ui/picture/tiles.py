"""The table picture's pixels, drawn in cached tiles, and its PNG by Pillow's own encoder (see
`render_table`)."""

from __future__ import annotations

import io
import threading
from collections import OrderedDict
from collections.abc import Hashable
from functools import lru_cache
from typing import Any

from PIL import Image

from .arrange import _band_part, _felt_part, _glow_part, _plaque_boxes, _plaque_part, _plaque_plan, parts
from .draw import _arrow, _background, _draw, _glow, _palette, _pastes, _quantize, _robot, _rounded, _shadow
from .shapes import H, Shape, TableScene, W
from .text import (
    _advance,
    _baseline,
    _cap_height,
    _covered,
    _line_height,
    _notdef,
    _text_mask,
    clean,
    fit_text,
    ink_box,
    text_width,
)

PNG_LEVEL = 1
"""zlib level of Pillow's PNG encoder (``Image.save(format="PNG", compress_level=...)``; 1 fastest … 9
smallest). Measured on the next play's picture at 50 tables in turn (``python bench/render.py``): see
docs/SCALING.md, "Speed devices kept and removed"."""

TILE_BYTES = 48 << 20
"""Bytes of the tiles kept (`_TILES`, a byte a pixel): 48 MB. With 50 tables played in turn (``python
bench/render.py``), a picture draws ~1.4 tiles afresh with 48 MB, ~2.5 with 16 MB (the tiles of a table's
last picture were dropped before its next play), ~1.2 with no bound."""

_Box = tuple[int, int, int, int]


class _LRU:
    """A least-recently-used map bounded by the total size of its values (given with each), safe to share
    between threads."""

    def __init__(self, budget: int) -> None:
        self.budget = budget
        self.used = 0
        self._items: OrderedDict[Hashable, tuple[Any, int]] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: Hashable) -> Any:
        """The value of ``key`` (now the most recently used), or None."""
        with self._lock:
            item = self._items.get(key)
            if item is None:
                return None
            self._items.move_to_end(key)
            return item[0]

    def put(self, key: Hashable, value: Any, size: int) -> None:
        """Keep ``value`` (``size`` bytes) for ``key``, dropping the least recently used values over budget."""
        with self._lock:
            old = self._items.pop(key, None)
            if old is not None:
                self.used -= old[1]
            self._items[key] = (value, size)
            self.used += size
            while self.used > self.budget and len(self._items) > 1:
                _, (_, dropped) = self._items.popitem(last=False)
                self.used -= dropped

    def clear(self) -> None:
        with self._lock:
            self._items.clear()
            self.used = 0

    def __len__(self) -> int:
        return len(self._items)


@lru_cache(maxsize=4096)
def _extent(shape: Shape) -> _Box | None:
    """The box of the pixels ``shape`` can change, cut to the picture; None when it draws nothing on it."""
    boxes = [(x, y, x + part.width, y + part.height) for part, x, y, _ in _pastes(shape)]
    box = (max(0, min(b[0] for b in boxes)), max(0, min(b[1] for b in boxes)),
           min(W, max(b[2] for b in boxes)), min(H, max(b[3] for b in boxes)))
    return box if box[0] < box[2] and box[1] < box[3] else None


_Unit = tuple[_Box, Any, tuple[Shape, ...]]
"""Something to place in a tile: (box, order, shapes), the order a sort key of its place in drawing order."""


def _group(units: list[_Unit]) -> list[tuple[_Box, tuple[Shape, ...]]]:
    """``units`` grouped into tiles: boxes that do not overlap, each with the shapes of the units in it, in
    drawing order. Units whose boxes overlap share a tile, and so do tiles whose boxes would overlap; shapes
    of different tiles touch different pixels, so drawing tile by tile paints exactly what drawing every
    shape in order on the whole picture does. A tile of one unit keeps that unit's tuple of shapes."""
    boxes: list[_Box] = []
    members: list[list[tuple[Any, tuple[Shape, ...]]]] = []
    for box, order, shapes in units:
        left, top, right, bottom = box
        if boxes:  # most units lie inside the tile before them (the texts of a panel): nothing to merge
            l2, t2, r2, b2 = boxes[-1]
            if l2 <= left and t2 <= top and right <= r2 and bottom <= b2:
                members[-1].append((order, shapes))
                continue
        group = [(order, shapes)]
        merged = True
        while merged:  # a grown box may reach tiles it did not touch before
            merged = False
            for g in range(len(boxes) - 1, -1, -1):
                l2, t2, r2, b2 = boxes[g]
                if left < r2 and l2 < right and top < b2 and t2 < bottom:
                    left, top, right, bottom = min(left, l2), min(top, t2), max(right, r2), max(bottom, b2)
                    group += members[g]
                    del boxes[g], members[g]
                    merged = True
        boxes.append((left, top, right, bottom))
        members.append(group)
    out = []
    for box, group in zip(boxes, members, strict=True):
        if len(group) == 1:
            out.append((box, group[0][1]))
        else:
            group.sort(key=lambda member: member[0])
            out.append((box, tuple(shape for _, shapes in group for shape in shapes)))
    return out


def _tiles(shapes: tuple[Shape, ...]) -> list[tuple[_Box, tuple[Shape, ...]]]:
    """The shapes grouped into tiles (`_group`), each shape's box its `_extent`."""
    return _group([(box, i, (shape,)) for i, shape in enumerate(shapes) if (box := _extent(shape)) is not None])


@lru_cache(maxsize=4096)
def _part_tiles(part: tuple[Shape, ...]) -> tuple[tuple[_Box, tuple[Shape, ...]], ...]:
    """The tiles of one part of the layout (`bot.ui.picture.layout.parts`), cached with the part."""
    return tuple(_tiles(part))


def _picture_tiles(scene: TableScene) -> list[tuple[_Box, tuple[Shape, ...]]]:
    """The tiles of the whole picture: each part's own tiles (cached), grouped again where tiles of different
    parts overlap (a plaque's glow over a table card's)."""
    return _group([(box, (p, k), shapes) for p, part in enumerate(parts(scene))
                   for k, (box, shapes) in enumerate(_part_tiles(part))])


_TILES = _LRU(TILE_BYTES)
"""Tiles by (seats, box, shapes): the image in the palette; see `_tile`."""


def _tile(seats: int, box: _Box, shapes: tuple[Shape, ...]) -> Image.Image:
    """One tile: the background of ``seats`` seats in ``box`` with ``shapes`` painted on it, in the palette.
    Cached (`_TILES`): from one play to the next most tiles (the title, a score panel, a card that stayed
    put) are the same shapes in the same place."""
    key = (seats, box, shapes)
    tile = _TILES.get(key)
    if tile is None:
        part = _background(seats).crop(box)
        for shape in shapes:
            _draw(part, shape, box[0], box[1])
        tile = _quantize(part)
        _TILES.put(key, tile, part.width * part.height + 1024)  # a byte per pixel, and the image's own
    return tile


@lru_cache(maxsize=4)
def _base(seats: int) -> Image.Image:
    """The background of ``seats`` seats in the palette (``P`` mode, `_palette`)."""
    return _quantize(_background(seats))


def render_table(scene: TableScene) -> bytes:
    """The table picture of ``scene``: PNG bytes, `SIZE` pixels, 256 colours (a fixed palette), about
    30–40 KB. The first call draws the card art and the palette (a fraction of a second).

    Draws exactly ``layout(scene).shapes``, pixel for pixel as drawing them in order on the whole picture
    and quantizing it (`_render_rgb`) would, only faster: the shapes are grouped into tiles that do not
    overlap (`_tiles`); each tile, drawn on the background and turned into palette indices, is cached by its
    shapes and place (`_tile`). So a picture costs its layout, the tiles that changed since a recent
    picture, pasting the tiles and Pillow's PNG encoder (`PNG_LEVEL`). Pure: the cache is bounded
    (`TILE_BYTES`) and keyed by everything a tile depends on, so any thread or process may call it.

    Raises:
        SceneError, CardError: as `layout`.
    """
    seats = len(scene.seats)
    canvas = _base(seats).copy()
    for box, shapes in _picture_tiles(scene):
        canvas.paste(_tile(seats, box, shapes), box[:2])
    out = io.BytesIO()
    canvas.save(out, format="PNG", compress_level=PNG_LEVEL)
    return out.getvalue()


def _clear_caches() -> None:
    """Forget every cached tile, measure and piece of art of this module (tests; memory)."""
    _TILES.clear()
    for cached in (_notdef, _covered, clean, _line_height, _baseline, _cap_height, _advance, text_width, fit_text,
                   _text_mask, _rounded, _glow, _shadow, _arrow, _robot, _background, _extent,
                   _base, _palette, _part_tiles, _band_part, _glow_part, _felt_part, _plaque_part, _plaque_boxes,
                   _plaque_plan, ink_box):
        cached.cache_clear()
