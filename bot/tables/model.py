"""The table: seats, teams, the lobby state and the game in play. Plain data, JSON round-trip.

Seats are the engine's seats (0…n-1 in play order); team A is the engine's team 0 (seats 0 and 2),
team B is team 1 (seats 1 and 3). A computer player is a seat with ``ai`` set and no user.
"""

from __future__ import annotations

import asyncio
import functools
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from bot.engine import Game, Rules
from bot.houserules.menu import apply as apply_house_rules

TEAMS: tuple[str, str] = ("A", "B")
"""Team letters by engine team index."""

LOBBY, PLAYING, FINISHED, CLOSED = "lobby", "playing", "finished", "closed"
OPEN_STATUSES = (LOBBY, PLAYING)


@dataclass
class Seat:
    """Who sits in a seat.

    Attributes:
        user_id: the Discord user, or None for a computer player.
        name: display name when seated (computer players are named at render time).
        ai: the computer player's level (``"greedy"``), None for a person.
        ai_number: 1, 2, 3 … to tell computer players apart.
        locale: ``"es"`` or ``"en"``, the language of this player's DMs.
        away: a person whose seat a computer player plays until they come back (two turn timeouts in a
            row); they keep the seat, their DMs and their hand.
        stands_for: for a computer player that replaced a person who left or was removed mid-game,
            that person's name (shown as "Computer 3 (for ana)").
    """

    user_id: int | None
    name: str = ""
    ai: str | None = None
    ai_number: int = 0
    locale: str = "es"
    away: bool = False
    stands_for: str = ""

    @property
    def is_ai(self) -> bool:
        """True for a computer player."""
        return self.ai is not None

    @property
    def autoplays(self) -> bool:
        """True when a computer player makes this seat's moves (a computer player, or a person away)."""
        return self.ai is not None or self.away

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready data."""
        out: dict[str, Any] = {"user_id": self.user_id, "name": self.name, "ai": self.ai,
                               "ai_number": self.ai_number, "locale": self.locale}
        if self.away:
            out["away"] = True
        if self.stands_for:
            out["stands_for"] = self.stands_for
        return out

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Seat:
        """Inverse of `to_dict`."""
        return cls(data.get("user_id"), data.get("name", ""), data.get("ai"), data.get("ai_number", 0),
                   data.get("locale", "es"), bool(data.get("away", False)), data.get("stands_for", ""))


@dataclass
class Messages:
    """Discord message ids the presenter keeps for a table: its in-memory copy on `Table.messages`.

    The presenter alone changes and persists them, in its own store (``table_messages``,
    `bot.store.messages.TableMessages`); the service never saves them, and reads them only with a
    table's stored row (a restart, or a reload after another process's change).

    Attributes:
        lobby: the lobby message id.
        public: the current public table message id; public_hand: the hand it was posted for;
            public_layout: whether it was sent as a Components V2 layout (a message keeps its kind: one
            posted as an embed, before the layout, is edited as an embed).
        dms: per seat (as a string key): ``{"channel": id, "message": id, "hand": n}``.
        dm_closed: seats whose DMs failed (403, code 50007).
    """

    lobby: int | None = None
    public: int | None = None
    public_hand: int = 0
    public_layout: bool = False
    dms: dict[str, dict[str, int]] = field(default_factory=dict)
    dm_closed: list[int] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready data."""
        data: dict[str, Any] = {"lobby": self.lobby, "public": self.public, "public_hand": self.public_hand,
                                "dms": self.dms, "dm_closed": self.dm_closed}
        if self.public_layout:
            data["public_layout"] = True
        return data

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Messages:
        """Inverse of `to_dict`."""
        return cls(lobby=data.get("lobby"), public=data.get("public"), public_hand=data.get("public_hand", 0),
                   public_layout=bool(data.get("public_layout", False)),
                   dms=dict(data.get("dms") or {}), dm_closed=list(data.get("dm_closed") or []))


@dataclass
class Timers:
    """A table's clocks, persisted with it (``tables.timers``) so they resume after a restart.

    All instants are absolute UTC seconds from the service's clock.

    Attributes:
        turn_timer: seconds per turn for this table (30–300).
        deadline: when the current turn expires, or None (no person to wait for).
        nonce: the turn nonce ``deadline`` belongs to; seat: the seat it waits for.
        reminded: the 2/3 reminder for this deadline was sent.
        strikes: per seat (string key), consecutive turns that expired.
        lobby_deadline: when an unstarted lobby closes itself, or None.
        started: when the mesa was dealt, or None (a lobby; a mesa dealt before this was kept): the
            duration said when it ends.
    """

    turn_timer: int = 90
    deadline: float | None = None
    nonce: int = -1
    seat: int = -1
    reminded: bool = False
    strikes: dict[str, int] = field(default_factory=dict)
    lobby_deadline: float | None = None
    started: float | None = None

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready data."""
        return {"turn_timer": self.turn_timer, "deadline": self.deadline, "nonce": self.nonce, "seat": self.seat,
                "reminded": self.reminded, "strikes": dict(self.strikes), "lobby_deadline": self.lobby_deadline,
                "started": self.started}

    @classmethod
    def from_dict(cls, data: dict[str, Any] | None) -> Timers:
        """Inverse of `to_dict` (missing keys take their defaults)."""
        data = data or {}
        return cls(turn_timer=int(data.get("turn_timer", 90)), deadline=data.get("deadline"),
                   nonce=int(data.get("nonce", -1)), seat=int(data.get("seat", -1)),
                   reminded=bool(data.get("reminded", False)),
                   strikes={str(k): int(v) for k, v in (data.get("strikes") or {}).items()},
                   lobby_deadline=data.get("lobby_deadline"), started=data.get("started"))


@dataclass(frozen=True)
class TableOptions:
    """How a table was opened: what the lobby, the competitions and the house rules decided. Immutable:
    a change is a new value (``dataclasses.replace``). Stored as the JSON of ``tables.meta`` together with
    the table's `Table.casual` flag and `Table.seat_history` (`Table.meta_json`); rows saved before this
    class existed load the same (`from_dict`).

    Attributes:
        guild_name, channel_name: the server's and the channel's names when the table was opened (DM
            headers); None when unknown.
        hints: a practice table (each hand marks the plays that capture; never rated).
        refereed: the competition that opened the table (``"queue"``, ``"league"``, ``"tournament"``), or
            None for a casual table.
        house: the house rules, ``{Rules field: value}`` where they differ from the preset; empty for a
            named preset. Not changed in place.
        house_rated: with house rules, whether the server rates such mesas (decided at the start).
        rematch_of: the id of the finished table this one is the rematch of, or None.
        queue_match: the id of the queue match that opened the table, or None.
        extra: keys of the stored JSON this class does not know, kept as they were. Not changed in place.
    """

    guild_name: str | None = None
    channel_name: str | None = None
    hints: bool = False
    refereed: str | None = None
    house: Mapping[str, Any] = field(default_factory=dict)
    house_rated: bool = False
    rematch_of: int | None = None
    queue_match: int | None = None
    extra: Mapping[str, Any] = field(default_factory=dict)

    _KEYS = frozenset({"guild_name", "channel_name", "hints", "refereed", "house", "house_rated", "rematch_of",
                       "queue_match", "casual", "seat_history"})
    """The keys of ``tables.meta`` that are not `extra` (``casual`` and ``seat_history`` belong to `Table`)."""

    def to_dict(self) -> dict[str, Any]:
        """The JSON of the options: a key only when it says something (``house_rated`` only with house
        rules), as the lobby has always written them."""
        out: dict[str, Any] = dict(self.extra)
        if self.guild_name is not None:
            out["guild_name"] = self.guild_name
        if self.channel_name is not None:
            out["channel_name"] = self.channel_name
        if self.hints:
            out["hints"] = True
        if self.refereed:
            out["refereed"] = self.refereed
        if self.house:
            out["house"] = dict(self.house)
            out["house_rated"] = self.house_rated
        if self.rematch_of is not None:
            out["rematch_of"] = self.rematch_of
        if self.queue_match is not None:
            out["queue_match"] = self.queue_match
        return out

    @classmethod
    def from_dict(cls, data: Mapping[str, Any] | None) -> TableOptions:
        """The options of a stored ``tables.meta`` (missing keys take their defaults; ``casual`` and
        ``seat_history`` are read by `Table.meta_parts`)."""
        data = data or {}
        return cls(
            guild_name=data.get("guild_name"), channel_name=data.get("channel_name"),
            hints=bool(data.get("hints")), refereed=data.get("refereed") or None,
            house=dict(data.get("house") or {}), house_rated=bool(data.get("house_rated", False)),
            rematch_of=data.get("rematch_of"), queue_match=data.get("queue_match"),
            extra={k: v for k, v in data.items() if k not in cls._KEYS},
        )


@dataclass(frozen=True)
class SeatSpell:
    """One holder of a seat before it changed hands mid-mesa (`Table.hand_over`).

    Attributes:
        seat: the seat (0…n-1).
        until: the index in ``game.plays`` of the first play no longer theirs: plays below it were theirs.
        held_by: who held the seat until then.
    """

    seat: int
    until: int
    held_by: Seat

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready data: ``{"seat": n, "until": play index, "held_by": Seat.to_dict()}``."""
        return {"seat": self.seat, "until": self.until, "held_by": self.held_by.to_dict()}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> SeatSpell:
        """Inverse of `to_dict`."""
        seat = data.get("seat")
        return cls(int(seat) if seat is not None else -1, int(data.get("until", 0)),
                   Seat.from_dict(data.get("held_by") or {"user_id": None}))


@dataclass(eq=False)
class Table:
    """A table in a channel: its lobby, its seats and, once started, its `Game`.

    ``lock`` serializes every change to the table (one lock per table).
    """

    id: int
    guild_id: int
    channel_id: int
    host_id: int | None
    players: int
    preset: str
    status: str = LOBBY
    seed: str | None = None
    seats: list[Seat | None] = field(default_factory=list)
    game: Game | None = None
    messages: Messages = field(default_factory=Messages)
    options: TableOptions = field(default_factory=TableOptions)
    """How the table was opened (`TableOptions`; a change replaces the whole value)."""
    timers: Timers = field(default_factory=Timers)
    version: int = 0
    """The `bot.store.TableRow.version` this object was loaded or last saved at; another process saved
    the table when the stored one differs (`bot.tables.shared`)."""
    casual: bool = False
    """Casual (unrated) from now on: a person left, was removed or kicked, or a computer player took an
    away person's seat. Persisted as ``tables.casual`` (and ``"casual": true`` in ``tables.meta``); the
    ratings hook must not rate such a mesa."""
    seat_history: list[SeatSpell] = field(default_factory=list)
    """Who held each seat before it changed hands mid-mesa, in the order the seats changed hands
    (`hand_over`, `held_by`); empty until a seat changes hands (tables saved before it existed load with
    none: every play is named after the seat's holder now). Persisted in ``tables.meta``."""
    seen: dict[int, float] = field(default_factory=dict, repr=False)
    """When each seat's person last acted at the table (service clock, UTC seconds; in memory only): the
    presenter sends no turn alert to someone plainly at the table."""
    timed_out: dict[int, str] = field(default_factory=dict, repr=False)
    """Seat → code of the card the turn timer last played for its person, until they play themselves (in
    memory): a late click on that card is told the time ran out, not silently acknowledged."""
    channel_gone: bool = field(default=False, repr=False)
    """The table's channel or thread no longer exists (deleted, or the bot lost it): the presenter
    writes nothing more to it (in memory: a table that ends this way is closed for good)."""
    lock: asyncio.Lock = field(default_factory=asyncio.Lock, repr=False)
    notify_lock: asyncio.Lock = field(default_factory=asyncio.Lock, repr=False)

    @property
    def hints(self) -> bool:
        """A practice table: each hand marks the plays that capture and what they score (`TableOptions.hints`;
        such a mesa is never rated)."""
        return self.options.hints

    @property
    def house(self) -> dict[str, Any]:
        """The table's house rules: ``{Rules field: value}`` where they differ from its preset
        (`TableOptions.house`; empty for a named preset). Fixed once the table starts."""
        return dict(self.options.house)

    @property
    def rules(self) -> Rules:
        """The table's `Rules`: its preset with its house rules on top (`bot.houserules.menu.apply`)."""
        house = self.options.house
        if not house:
            return Rules.preset(self.preset)
        return _house_rules(self.preset, tuple(sorted(house.items())))

    @property
    def nonce(self) -> int:
        """The turn nonce: the number of plays accepted so far. Buttons carry it; a click whose nonce
        differs is from an earlier turn (stale)."""
        return len(self.game.plays) if self.game is not None else 0

    @property
    def refereed(self) -> str | None:
        """The competition that opened this table (``"queue"``, ``"league"``, ``"tournament"``), or None
        for a casual table. Its players cannot remove each other. (Queue tables from before the mark have
        ``queue_match``.)"""
        refereed = self.options.refereed
        if refereed is None and self.options.queue_match is not None:
            return "queue"
        return refereed

    @property
    def rematch_allowed(self) -> bool:
        """Whether «Revancha» may deal another mesa after this one: not at a league's or a tournament's
        table, whose competition deals the next mesa and counts only its own (a queue match's players may
        play on, casually)."""
        return self.refereed not in ("league", "tournament")

    @property
    def is_open(self) -> bool:
        """In the lobby or in play."""
        return self.status in OPEN_STATUSES

    def seat_of(self, user_id: int) -> int | None:
        """The seat of a user, or None."""
        for i, seat in enumerate(self.seats):
            if seat is not None and seat.user_id == user_id:
                return i
        return None

    def team_seats(self, team: int) -> list[int]:
        """The seats of a team (0 = A, 1 = B)."""
        return [s for s in range(self.players) if s % 2 == team]

    def free_seats(self, team: int) -> list[int]:
        """Empty seats of a team, in order."""
        return [s for s in self.team_seats(team) if self.seats[s] is None]

    @property
    def is_full(self) -> bool:
        """Every seat is taken."""
        return all(s is not None for s in self.seats)

    def humans(self) -> list[tuple[int, Seat]]:
        """``(seat, Seat)`` for each person at the table."""
        return [(i, s) for i, s in enumerate(self.seats) if s is not None and not s.is_ai]

    def present_humans(self) -> list[tuple[int, Seat]]:
        """``(seat, Seat)`` for each person at the table who is not away."""
        return [(i, s) for i, s in self.humans() if not s.away]

    SEAT_HISTORY = "seat_history"
    """The ``tables.meta`` key of the seat history (`seat_history`): a list of `SeatSpell.to_dict`; absent
    until a seat changes hands."""

    def meta_json(self) -> dict[str, Any]:
        """The JSON stored as ``tables.meta``: the options (`TableOptions.to_dict`), ``"casual": true`` when
        `casual`, and the seat history under `SEAT_HISTORY` when a seat changed hands."""
        out = self.options.to_dict()
        if self.casual:
            out["casual"] = True
        if self.seat_history:
            out[self.SEAT_HISTORY] = [spell.to_dict() for spell in self.seat_history]
        return out

    @classmethod
    def meta_parts(cls, meta: Mapping[str, Any] | None) -> tuple[TableOptions, list[SeatSpell], bool]:
        """The inverse of `meta_json`: ``(options, seat_history, casual)`` of a stored ``tables.meta``
        (a row's ``tables.casual`` column also makes the table casual: see `bot.tables.persistence`)."""
        meta = meta or {}
        history = [SeatSpell.from_dict(spell) for spell in meta.get(cls.SEAT_HISTORY) or ()]
        return TableOptions.from_dict(meta), history, bool(meta.get("casual", False))

    def hand_over(self, seat: int, new: Seat) -> None:
        """Seat ``new`` in ``seat`` mid-mesa (a computer player for a person who left or was removed),
        keeping who held it until now in the seat history (`seat_history`, persisted): the plays of index
        below the current `nonce` stay theirs (`held_by`)."""
        old = self.seats[seat]
        if old is not None and self.game is not None:
            self.seat_history.append(SeatSpell(seat, self.nonce, Seat.from_dict(old.to_dict())))
        self.seats[seat] = new

    def held_by(self, seat: int | None, at: int | None = None) -> Seat | None:
        """Who held ``seat`` when play number ``at`` (its index in ``game.plays``) was made: the person or
        computer player who made that play, or in whose name what it caused was sung or counted. ``at``
        None (or a seat that never changed hands) is whoever holds the seat now; a negative ``at`` is
        before the first play. None for an empty or unknown seat."""
        if seat is None or not 0 <= seat < len(self.seats):
            return None
        if at is not None:
            for spell in self.seat_history:
                if spell.seat == seat and at < spell.until:
                    return Seat.from_dict(spell.held_by.to_dict())
        return self.seats[seat]

    def dm_closed(self, seat: int) -> bool:
        """True when DMs to this seat failed with 50007."""
        return seat in self.messages.dm_closed


@functools.lru_cache(maxsize=256)
def _house_rules(preset: str, house: tuple[tuple[str, Any], ...]) -> Rules:
    return apply_house_rules(preset, dict(house))


@dataclass(frozen=True)
class LeaveResult:
    """The outcome of leaving a lobby: the table closed, or the host passed to ``new_host``."""

    closed: bool
    new_host: Seat | None


def link(table: Table) -> str:
    """A jump link to the table's current message (its table message, else its lobby), or the channel
    mention when it has none yet."""
    message = table.messages.public or table.messages.lobby
    if message:
        return f"https://discord.com/channels/{table.guild_id}/{table.channel_id}/{message}"
    return f"<#{table.channel_id}>"
