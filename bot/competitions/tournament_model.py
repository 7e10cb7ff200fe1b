"""The tournaments' model: a tournament, its players and matches, the refusal error, and the
bracket's seeding order. Pure data: `bot.competitions.tournaments.TournamentService` runs them."""

from __future__ import annotations

from dataclasses import dataclass, field

from bot.tables import TableError

from .swiss import SwissRow, standings


class TournamentError(TableError):
    """A refused tournament action (an i18n key and its parameters)."""


@dataclass
class Player:
    """A signed-up player; ``seed`` 1 is the best (0 before the draw)."""

    user_id: int
    name: str
    locale: str = "es"
    seed: int = 0


@dataclass
class Match:
    """A match of a round: ``b_user`` None is a bye; ``winner`` a user id (None: none yet, or double loss)."""

    id: int
    round: int
    slot: int
    a_user: int | None
    b_user: int | None
    status: str = "pending"
    wins_a: int = 0
    wins_b: int = 0
    winner: int | None = None
    table_id: int | None = None
    ready_a: float | None = None
    ready_b: float | None = None

    @property
    def resolved(self) -> bool:
        """It has its result."""
        return self.status in ("done", "walkover", "double_loss")


@dataclass
class Tournament:
    """A tournament and everything it holds."""

    id: int
    guild_id: int
    channel_id: int
    name: str
    format: str
    swiss_rounds: int
    best_of: int
    preset: str
    round_days: int
    policy: str
    status: str
    organizer_id: int
    signup_message_id: int | None = None
    current_round: int = 0
    round_deadline: float | None = None
    reminded: bool = False
    players: list[Player] = field(default_factory=list)
    matches: list[Match] = field(default_factory=list)

    @property
    def total_rounds(self) -> int:
        """Rounds in all: the Swiss rounds, or log2 of the bracket."""
        if self.format == "swiss":
            return self.swiss_rounds
        size = 1
        while size < len(self.players):
            size *= 2
        return max(1, size.bit_length() - 1)

    def player(self, user_id: int | None) -> Player | None:
        """The signed-up player with this id."""
        return next((p for p in self.players if p.user_id == user_id), None)

    def name_of(self, user_id: int | None) -> str:
        """A player's name ("—" for a bye)."""
        p = self.player(user_id)
        return p.name if p is not None else "—"


def bracket_order(size: int) -> list[int]:
    """The seeds in bracket order for a power-of-two ``size``: [1, 8, 4, 5, 2, 7, 3, 6] for 8, so seed 1
    meets seed 8 first and the top two seeds can only meet in the final."""
    order = [1]
    while len(order) < size:
        n = len(order) * 2
        order = [x for s in order for x in (s, n + 1 - s)]
    return order


def swiss_table(t: Tournament) -> list[SwissRow[int]]:
    """A Swiss tournament's standings from its own matches: points (a win 1, a bye 1), then Buchholz, then
    seed (`swiss.standings`); the service's, the bracket message's and the web page's one table."""
    seeds = [p.user_id for p in sorted(t.players, key=lambda p: p.seed)]
    games = [(m.a_user, m.b_user, m.winner) for m in t.matches
             if m.resolved and m.a_user is not None and m.b_user is not None]
    byes = [m.a_user for m in t.matches if m.b_user is None and m.a_user is not None]
    return standings(seeds, games, byes)


def champion_of(t: Tournament) -> int | None:
    """The winner's user id: the final's winner, or the top of the Swiss standings (None: no final yet, or
    a double loss in it). Whether the tournament has ended is the caller's to check."""
    if t.format == "swiss":
        rows = swiss_table(t)
        return rows[0].player if rows else None
    final = [m for m in t.matches if m.round == t.total_rounds]
    return final[0].winner if final else None
