"""The table: seats, teams, the lobby state and the game in play. Plain data, JSON round-trip.

Seats are the engine's seats (0…n-1 in play order); team A is the engine's team 0 (seats 0 and 2),
team B is team 1 (seats 1 and 3). A computer player is a seat with ``ai`` set and no user.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from typing import Any

from bot.engine import Game, Rules

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
    """

    user_id: int | None
    name: str = ""
    ai: str | None = None
    ai_number: int = 0
    locale: str = "es"

    @property
    def is_ai(self) -> bool:
        """True for a computer player."""
        return self.ai is not None

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready data."""
        return {"user_id": self.user_id, "name": self.name, "ai": self.ai, "ai_number": self.ai_number,
                "locale": self.locale}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Seat:
        """Inverse of `to_dict`."""
        return cls(data.get("user_id"), data.get("name", ""), data.get("ai"), data.get("ai_number", 0),
                   data.get("locale", "es"))


@dataclass
class Messages:
    """Discord message ids the presenter keeps for a table (persisted with it).

    Attributes:
        lobby: the lobby message id.
        public: the current public table message id; public_hand: the hand it was posted for.
        dms: per seat (as a string key): ``{"channel": id, "message": id, "hand": n}``.
        dm_closed: seats whose DMs failed (403, code 50007).
    """

    lobby: int | None = None
    public: int | None = None
    public_hand: int = 0
    dms: dict[str, dict[str, int]] = field(default_factory=dict)
    dm_closed: list[int] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready data."""
        return {"lobby": self.lobby, "public": self.public, "public_hand": self.public_hand,
                "dms": self.dms, "dm_closed": self.dm_closed}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Messages:
        """Inverse of `to_dict`."""
        return cls(data.get("lobby"), data.get("public"), data.get("public_hand", 0),
                   dict(data.get("dms") or {}), list(data.get("dm_closed") or []))


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
    meta: dict[str, Any] = field(default_factory=dict)
    lock: asyncio.Lock = field(default_factory=asyncio.Lock, repr=False)
    notify_lock: asyncio.Lock = field(default_factory=asyncio.Lock, repr=False)

    @property
    def rules(self) -> Rules:
        """The table's `Rules` (its preset)."""
        return Rules.preset(self.preset)

    @property
    def nonce(self) -> int:
        """The turn nonce: the number of plays accepted so far. Buttons carry it; a click whose nonce
        differs is from an earlier turn (stale)."""
        return len(self.game.plays) if self.game is not None else 0

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

    def dm_closed(self, seat: int) -> bool:
        """True when DMs to this seat failed with 50007."""
        return seat in self.messages.dm_closed
