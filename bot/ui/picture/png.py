"""The PNG of a picture, fast: tiles drawn once and cached, bands of rows compressed once and cached,
joined into one zlib stream (see `render_table`)."""

from __future__ import annotations

import itertools
import struct
import threading
import zlib
from collections import OrderedDict
from collections.abc import Hashable
from functools import lru_cache
from typing import Any

from PIL import Image

try:
    from isal import isal_zlib as _isal
except ImportError:  # pragma: no cover - isal is a dependency; zlib does the same, slower
    _isal = None

from .arrange import _last_play_part, _plaque_part, _score_part, _table_part, _title, parts
from .draw import _arrow, _background, _draw, _glow, _palette, _pastes, _quantize, _robot, _rounded, _shadow
from .scene import H, Shape, TableScene, W
from .text import (
    _advance,
    _baseline,
    _cap_height,
    _covered,
    _line_height,
    _mark_mask,
    _notdef,
    _text_mask,
    _units,
    fit_text,
    text_width,
)

PNG_LEVEL = 2
"""zlib level of the PNG without ISA-L (1 fastest … 9 smallest): on these pictures 2 is as fast as 1 and ~7 %
faster than 3, for ~3 % more bytes than 3 (~32 KB)."""

ISAL_LEVEL = 1
"""ISA-L level of the PNG (0 … 3): on these pictures 1 gives ~28 KB (zlib's level 2: ~29 KB) in ~0.4 ms for a
whole picture (zlib: ~1 ms); 0 is twice as fast but ~30 % bigger."""

BAND_ROWS = 25
"""Rows of the picture per band of the PNG, compressed on its own (and cached, `_BANDS`)."""

TILE_BYTES = 48 << 20
"""Bytes of the tiles kept (`_TILES`, a byte a pixel): 48 MB. With 50 tables played in turn (``python
bench/render.py``), a picture draws ~1.4 tiles afresh with 48 MB, ~2.5 with 16 MB (the tiles of a table's
last picture were dropped before its next play), ~1.2 with no bound."""

BAND_BYTES = 12 << 20
"""Bytes of the compressed bands kept (`_BANDS`): 12 MB (a band is ~1.5 KB), in step with `TILE_BYTES`."""

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
"""Tiles by (seats, box, shapes): (number, image in the palette); see `_tile`."""

_BANDS = _LRU(BAND_BYTES)
"""Compressed bands of PNG rows by what they show: (seats, band, numbers of the tiles in it)."""

_TILE_NUMBERS = itertools.count(1)


def _tile(seats: int, box: _Box, shapes: tuple[Shape, ...]) -> tuple[int, Image.Image]:
    """(number, image) of one tile: the background of ``seats`` seats in ``box`` with ``shapes`` painted on
    it, in the palette. Cached (`_TILES`): from one play to the next most tiles (the title, a score panel, a
    card that stayed put) are the same shapes in the same place. The number is new for every tile drawn
    (never reused), so it stands for the tile's pixels in the keys of `_BANDS`."""
    key = (seats, box, shapes)
    tile = _TILES.get(key)
    if tile is None:
        part = _background(seats).crop(box)
        for shape in shapes:
            _draw(part, shape, box[0], box[1])
        tile = (next(_TILE_NUMBERS), _quantize(part))
        _TILES.put(key, tile, part.width * part.height + 1024)  # a byte per pixel, and the image's own
    return tile


@lru_cache(maxsize=4)
def _base(seats: int) -> Image.Image:
    """The background in the palette, one column wider on the left: that column (index 0) is the filter
    byte of each PNG row (0, none), so the pixel bytes of a picture are its PNG rows as they are."""
    base = Image.new("P", (W + 1, H), 0)
    base.paste(_quantize(_background(seats)), (1, 0))
    return base


_ADLER = 65521


def _adler32_combine(first: int, second: int, length: int) -> int:
    """The Adler-32 of two byte strings joined, from their checksums and the second's length (zlib's
    ``adler32_combine``)."""
    rem = length % _ADLER
    sum1 = (first & 0xFFFF) + (second & 0xFFFF) + _ADLER - 1
    sum2 = rem * (first & 0xFFFF) + (first >> 16) + (second >> 16) + _ADLER - rem
    return sum1 % _ADLER | (sum2 % _ADLER) << 16


def _deflate(rows: bytes) -> tuple[bytes, int, int]:
    """(raw deflate blocks, Adler-32, length) of a band of PNG rows. Each band is compressed on its own and
    ends byte-aligned and not final (a sync flush), so bands join into one valid zlib stream. ISA-L's
    deflate (`isal`) when it is installed: the same size as zlib's level 2 on these pictures, in about a
    third of the time; else zlib."""
    if _isal is not None:
        packer = _isal.compressobj(ISAL_LEVEL, _isal.DEFLATED, -15)
        return packer.compress(rows) + packer.flush(_isal.Z_SYNC_FLUSH), zlib.adler32(rows), len(rows)
    packer = zlib.compressobj(PNG_LEVEL, zlib.DEFLATED, -15)
    return packer.compress(rows) + packer.flush(zlib.Z_SYNC_FLUSH), zlib.adler32(rows), len(rows)


def _chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(data, zlib.crc32(kind)))


@lru_cache(maxsize=1)
def _png_head() -> bytes:
    """PNG signature, header (8-bit palette) and the palette."""
    header = struct.pack(">IIBBBBB", W, H, 8, 3, 0, 0, 0)
    colours = bytes((_palette().getpalette() or [])[:768])
    return b"\x89PNG\r\n\x1a\n" + _chunk(b"IHDR", header) + _chunk(b"PLTE", colours.ljust(768, b"\0"))


_ZLIB_HEAD = zlib.compress(b"", PNG_LEVEL)[:2]  # the header zlib writes: deflate, 32 KB window, level
_LAST_BLOCK = zlib.compressobj(PNG_LEVEL, zlib.DEFLATED, -15).flush()  # an empty final block
_PNG_END = _chunk(b"IEND", b"")


def _png(blocks: list[tuple[bytes, int, int]]) -> bytes:
    """The PNG of a picture from its compressed bands of PNG rows (top to bottom)."""
    check = 1
    for _, adler, length in blocks:
        check = _adler32_combine(check, adler, length)
    stream = b"".join((_ZLIB_HEAD, *(data for data, _, _ in blocks), _LAST_BLOCK, struct.pack(">I", check)))
    return b"".join((_png_head(), _chunk(b"IDAT", stream), _PNG_END))


def render_table(scene: TableScene) -> bytes:
    """The table picture of ``scene``: PNG bytes, `SIZE` pixels, 256 colours (a fixed palette), about
    20–40 KB. The first call draws the card art and the palette (a fraction of a second).

    Draws exactly ``layout(scene).shapes``, pixel for pixel as drawing them in order on the whole picture
    and quantizing it (`_render_rgb`) would, only faster: the shapes are grouped into tiles that do not
    overlap (`_tiles`); each tile, drawn on the background and turned into palette indices, is cached by its
    shapes and place (`_tile`), and each band of `BAND_ROWS` rows, compressed, by the tiles it shows
    (`_BANDS`). So a picture costs its layout, the tiles and bands that changed since a recent picture, and
    joining the rest. Pure: the caches are bounded (`TILE_BYTES`, `BAND_BYTES`) and keyed by everything
    their values depend on, so any thread or process may call it.

    Raises:
        SceneError, CardError: as `layout`.
    """
    seats = len(scene.seats)
    tiles = []
    bands: list[list[int]] = [[] for _ in range(-(-H // BAND_ROWS))]
    for box, shapes in _picture_tiles(scene):
        number, image = _tile(seats, box, shapes)
        tiles.append((box, image))
        for band in range(box[1] // BAND_ROWS, (box[3] - 1) // BAND_ROWS + 1):
            bands[band].append(number)
    keys = [(seats, band, tuple(sorted(numbers))) for band, numbers in enumerate(bands)]
    blocks = [_BANDS.get(key) for key in keys]
    missing = [band for band, block in enumerate(blocks) if block is None]
    if missing:  # draw the rows of the bands not seen lately (and only those) to compress them
        top, bottom = missing[0] * BAND_ROWS, min(H, (missing[-1] + 1) * BAND_ROWS)
        canvas = _base(seats).crop((0, top, W + 1, bottom))
        for box, image in tiles:
            if box[1] < bottom and top < box[3]:
                canvas.paste(image, (box[0] + 1, box[1] - top))
        rows = canvas.tobytes()
        step = BAND_ROWS * (W + 1)
        for band in missing:
            start = (band - missing[0]) * step
            block = blocks[band] = _deflate(rows[start:start + step])
            _BANDS.put(keys[band], block, len(block[0]) + 100)
    return _png(blocks)  # type: ignore[arg-type]


def _clear_caches() -> None:
    """Forget every cached tile, band, measure and piece of art of this module (tests; memory)."""
    _TILES.clear()
    _BANDS.clear()
    for cached in (_notdef, _covered, _units, _line_height, _baseline, _cap_height, _advance, text_width, fit_text,
                   _mark_mask, _text_mask, _rounded, _glow, _shadow, _arrow, _robot, _background, _extent,
                   _base, _palette, _png_head, _part_tiles, _title, _score_part, _table_part, _plaque_part,
                   _last_play_part):
        cached.cache_clear()
