"""What the table picture shows: the scene (`TableScene`, public state only, already translated), the
shapes a layout is made of (`Shape`, `Layout`), and the picture's size, colours and fixed boxes."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

SIZE = (600, 450)
"""Width and height of the picture, in pixels. Landscape 4 : 3: a phone shows the picture 280–320 px wide,
so it is 210–240 px tall there, which leaves room in a 450 px table message for a short text line and the
buttons."""

PHONE_WIDTH = 280
"""The smallest width, in pixels, a phone shows the picture at (Discord on a 390 px phone: 280–320 px); the
minimums below hold at this width."""

MIN_TEXT = 24
"""Smallest font size (pixels) of any text in the picture: 4 % of its width, 11.2 px at `PHONE_WIDTH`."""

MIN_RANK = 52
"""Smallest height (pixels) of a card's rank, capital height, on a face drawn whole (`card_image`): 8.7 %
of the width, 24.3 px at `PHONE_WIDTH`."""


DEFAULT_LABELS: Mapping[str, str] = {
    "perros": "perros", "tantos": "tantos", "chicas": "chicas", "cards": "cartas", "dealer": "da",
    "mano": "mano", "turn": "juega", "only_caida": "solo caída", "empty": "mesa limpia",
    "perros_one": "perro", "tantos_one": "tanto", "chicas_one": "chica", "cards_one": "carta",
}
"""Words used when ``TableScene.labels`` lacks a key (Spanish, the game's own language). A count's word
has a ``_one`` form, used beside the number 1."""


class SceneError(ValueError):
    """A `TableScene` that cannot be drawn: not 2 or 4 seats, a team or last-play seat out of range."""


# --------------------------------------------------------------------------- the scene


@dataclass(frozen=True)
class SeatScene:
    """One seat, as the picture shows it.

    Attributes:
        name: plain-text display name (no markdown); drawn whole, shrunk down to `MIN_TEXT` or on two
            lines, and cut with ``…`` only when two lines cannot hold it; characters the font lacks dropped.
        cards_left: cards in hand (0–5 in play).
        team: 0 or 1; colours the plaque like ``TableScene.sides[team]``.
        dealer, mano: badges.
        to_play: whose turn it is (at most one seat).
        level: translated computer level ("medio"), None for a person.
        away: a computer plays for this absent person.
    """

    name: str
    cards_left: int
    team: int
    dealer: bool
    mano: bool
    to_play: bool
    level: str | None
    away: bool


@dataclass(frozen=True)
class SideScene:
    """One side's score.

    Attributes:
        label: "Equipo A", or in 1 v 1 the player's name; not drawn (the band is in the side's colour,
            under which its plaques stand).
        perros: points // 10. tantos: (points % 10) // 2. chicas: chicas won.
        at38: the side is at the blocking score, where only a caída counts (drawn as a red badge).
        captured: cards captured this hand (a count); not drawn (the hand's record counts the cartón).
    """

    label: str
    perros: int
    tantos: int
    chicas: int
    at38: bool
    captured: int


@dataclass(frozen=True)
class LastPlay:
    """The play just made.

    Attributes:
        seat: index into ``TableScene.seats``.
        card: code of the card played ("7D"); "" when unknown (then only the callout is drawn).
        captured: codes taken, in the order to show them (empty for a trail).
        callout: translated short drama text ("¡Caída!"), "" for a plain play.
    """

    seat: int
    card: str
    captured: tuple[str, ...]
    callout: str


@dataclass(frozen=True)
class TableScene:
    """Everything the picture shows, already translated.

    Attributes:
        title: e.g. "Mesa #3 · quito · chica 1 · mano 2"; not drawn (the table message has it, and its
            alt text).
        table_cards: codes in play order, oldest first (0 to about 16).
        trail: the card just trailed that a caída can take, or None; ignored when not on the table.
        trail_label: the word on that mark ("¡cae!").
        seats: 2 or 4 `SeatScene`, in turn order.
        sides: the two `SideScene`, team 0 then team 1.
        last_play: the play just made, or None.
        labels: translated small words, keys ``perros tantos chicas cards dealer mano turn only_caida
            empty``; a missing key falls back to `DEFAULT_LABELS`.
    """

    title: str
    table_cards: tuple[str, ...]
    trail: str | None
    trail_label: str
    seats: tuple[SeatScene, ...]
    sides: tuple[SideScene, SideScene]
    last_play: LastPlay | None
    labels: Mapping[str, str]


# --------------------------------------------------------------------------- what is drawn


@dataclass(frozen=True, eq=False)
class Shape:
    """One thing drawn, in drawing order.

    Attributes:
        kind: ``"panel"`` (rounded rectangle), ``"glow"`` (soft halo), ``"shadow"`` (under a card), ``"text"``, ``"pill"`` (text on a
            rounded badge), ``"card"`` (a face), ``"fanned"`` (a face for an overlapping row, rank in the
            corner), ``"back"`` (a face-down card), ``"ring"`` (an outline
            around a card), ``"arrow"`` (value: the way it points, right, left, up or down) or ``"robot"`` (the computer icon).
        box: (left, top, right, bottom) in pixels; for text, the box of its line.
        value: the card code (card), the text as drawn (text, pill), else "".
        role: what it shows: ``"score:<side>"``, ``"only_caida:<side>"``, ``"chicas:<side>"``, ``"chicas"``
            (the word between the two counts); ``"table"``,
            ``"trail"``, ``"trail_label"``, ``"empty"``; per seat ``"plaque:<seat>"``, ``"name:<seat>"``,
            ``"turn:<seat>"``, ``"hand:<seat>"``, ``"level:<seat>"``, ``"computer:<seat>"``,
            ``"away:<seat>"``, ``"dealer:<seat>"``, ``"mano:<seat>"``; the last play ``"last:<seat>"``,
            ``"played"``, ``"captured"``, ``"callout"``; "" for decoration.
        color: main colour (text, outline, icon), RGB. fill: background colour, or the shadow of a text.
        width: outline width. radius: corner radius. size: font size in pixels. bold: heavier text.
    """

    kind: str
    box: tuple[int, int, int, int]
    value: str = ""
    role: str = ""
    color: tuple[int, int, int] = (0, 0, 0)
    fill: tuple[int, int, int] | None = None
    width: int = 0
    radius: int = 0
    size: int = 0
    bold: bool = False
    _key: tuple[object, ...] = field(init=False, repr=False, compare=False)
    _hash: int = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        # Shapes are keys of the picture's caches, hashed and compared many times a picture: the fields
        # are read once, and the hash kept.
        key = (self.kind, self.box, self.value, self.role, self.color, self.fill, self.width, self.radius,
               self.size, self.bold)
        object.__setattr__(self, "_key", key)
        object.__setattr__(self, "_hash", hash(key))

    def __eq__(self, other: object) -> bool:
        if self is other:
            return True
        if not isinstance(other, Shape):
            return NotImplemented
        return self._hash == other._hash and self._key == other._key

    def __hash__(self) -> int:
        return self._hash


_HIGHLIGHTS = frozenset({"turn", "only_caida", "trail", "trail_label", "last", "callout", "dealer", "mano",
                         "computer", "away", "level", "empty"})


@dataclass(frozen=True)
class Layout:
    """The picture as a list of shapes (`Shape`), plus summaries of what they show.

    Attributes:
        size: (width, height) in pixels.
        shapes: everything `render_table` draws, in order.
    """

    size: tuple[int, int]
    shapes: tuple[Shape, ...]

    def role(self, role: str) -> tuple[Shape, ...]:
        """The shapes of one role (``"table"``, ``"name:0"`` …), in drawing order."""
        return tuple(s for s in self.shapes if s.role == role)

    @property
    def cards(self) -> tuple[str, ...]:
        """Codes of the table cards drawn, in order (row by row, oldest first)."""
        return tuple(s.value for s in self.shapes if s.role == "table")

    @property
    def trail(self) -> str | None:
        """The code of the card marked as the trail a caída can take, or None."""
        marks = self.role("trail")
        return marks[0].value if marks else None

    @property
    def seats(self) -> tuple[str, ...]:
        """Seat names as drawn, in turn order (a name on two lines joined by a space)."""
        names: dict[int, list[str]] = {}
        for s in self.shapes:
            if s.role.startswith("name:"):
                names.setdefault(int(s.role[5:]), []).append(s.value)
        return tuple(" ".join(names[i]) for i in sorted(names))

    @property
    def hands(self) -> tuple[int, ...]:
        """Cards left per seat as drawn (the count beside the back), in turn order."""
        seats = len(self.role_prefix("plaque:"))
        return tuple(int(next(s.value for s in self.role(f"hand:{i}") if s.kind == "text")) for i in range(seats))

    @property
    def scores(self) -> tuple[str, ...]:
        """Per side, the texts of its score in the band joined by spaces: ``"2 perros 3 tantos"`` ("" for a
        side at the blocking score, whose badge, ``only_caida:<side>``, stands in their place)."""
        return tuple(" ".join(s.value for s in self.role(f"score:{side}")) for side in (0, 1))

    @property
    def chicas(self) -> tuple[int, ...]:
        """Chicas won per side, as the band shows them."""
        return tuple(int(self.role(f"chicas:{side}")[0].value) for side in (0, 1))

    @property
    def highlights(self) -> tuple[str, ...]:
        """Roles of the marks drawn, once each in drawing order: ``"turn:1"``, ``"only_caida:0"``,
        ``"trail"``, ``"last:2"``, ``"callout"``, ``"dealer:0"``, ``"mano:1"``, ``"computer:1"``,
        ``"away:3"``, ``"level:1"``, ``"empty"`` …"""
        seen: dict[str, None] = {}
        for s in self.shapes:
            if s.role.split(":")[0] in _HIGHLIGHTS:
                seen.setdefault(s.role, None)
        return tuple(seen)

    @property
    def faces(self) -> tuple[str, ...]:
        """Codes of every face-up card drawn (table, card played, captured), in drawing order."""
        return tuple(s.value for s in self.shapes if s.kind in ("card", "fanned"))

    @property
    def texts(self) -> tuple[str, ...]:
        """Every text drawn (texts and badges), in drawing order."""
        return tuple(s.value for s in self.shapes if s.kind in ("text", "pill"))

    def role_prefix(self, prefix: str) -> tuple[Shape, ...]:
        """The shapes whose role starts with ``prefix``."""
        return tuple(s for s in self.shapes if s.role.startswith(prefix))


# --------------------------------------------------------------------------- colours and geometry

W, H = SIZE
INK = (244, 246, 248)
DIM = (170, 188, 180)
DARK = (17, 21, 26)
BAR = (25, 31, 38)
FELT = (22, 104, 64)
FELT_DEEP = (14, 74, 45)
RIM = (10, 48, 30)
PLAQUE = (12, 38, 26)
PLAQUE_TURN = (52, 44, 12)
TEAM = ((77, 171, 247), (255, 146, 43))
TURN = (255, 212, 59)
TRAIL = (255, 72, 72)
AT38 = (224, 49, 49)
SHADOW = (6, 22, 14)
BADGE = (232, 236, 240)
BADGE_INK = (24, 28, 34)
LEVEL = (92, 104, 120)

BAND = (4, 4, W - 4, 42)
"""The score band: side 0's score at the left, the chicas in the middle, side 1's at the right."""
FELT_BOX = (4, BAND[3] + 4, W - 4, H - 4)
"""The felt: the seats' plaques at its top, the table cards and the last play below them."""
PLAQUES_TOP = FELT_BOX[1]
COLUMNS = ((4, W // 2 - 2), (W // 2 + 2, W - 4))
"""Left and right of the plaques of each side: side 0 at the left, side 1 at the right, so that seats read
in turn order row by row (seat 0 | seat 1, then seat 2 | seat 3)."""
ROW_GAP = 2
MAX_CARD = 130
GAP = 8
ROW_GAP_CARDS = 8
"""Space between two rows of cards; a row with a label (`LABEL_ROOM`) has that much more above it."""
LABEL_ROOM = 34
"""Space above a row of cards whose trail or last play carries a label: the badge stands whole above the
cards, over no card."""
