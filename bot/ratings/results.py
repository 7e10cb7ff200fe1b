"""`ChicaResult`: one finished chica as the ratings repository records it, and `chica_results`, which
builds them from an engine event log and the seats."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from bot.engine import Event, EventKind


@dataclass(frozen=True, slots=True)
class SeatStats:
    """What one seat did in a chica (counted from engine events).

    Attributes:
        caidas: CAIDA events by this seat (a caída limpia counts here and in ``limpias``).
        limpias: tables cleared by this seat: LIMPIA events plus caídas with the limpia flag.
        rondas: RONDA events (three of a kind dealt), blocked or not.
        doble_rondas: DOBLE_RONDA events (four of a kind dealt).
    """

    caidas: int = 0
    limpias: int = 0
    rondas: int = 0
    doble_rondas: int = 0


def _now() -> datetime:
    return datetime.now(UTC).replace(microsecond=0)


@dataclass(frozen=True)
class ChicaResult:
    """A finished chica, the input of `Ratings.record_chica`.

    Seats follow the engine: team ``t`` holds seats ``t`` and ``t + 2``, so ``teams[t][i]`` sits in seat
    ``t + 2·i``.

    Attributes:
        guild_id: the Discord server.
        table_id: ``tables.id`` of the mesa (with ``chica_number``, the idempotency key).
        chica_number: 1-based number of the chica in its mesa.
        teams: ``((seat0,), (seat1,))`` for 1v1 or ``((seat0, seat2), (seat1, seat3))`` for 2v2; Discord
            user ids, None for a computer player.
        winner: 0 or 1.
        scores: both teams' points at the end of the chica.
        zapatero: the loser ended under the zapatero threshold (winners gave, losers suffered one).
        reason: why it was won (``"target"``, ``"doble_ronda"``, ``"caida_en_ronda"``, ``"four_caidas"``).
        stats: per-seat counts, same shape as ``teams``; empty means all zero.
        finished_at: aware datetime (stored in UTC, to the second); defaults to now.
        casual: never rate this chica (it is still stored and counted in stats), e.g. a table where a
            player left mid-game. Default False: the server's rules decide.

    Raises:
        ValueError: teams not 1+1 or 2+2, winner not 0/1, a user in two seats, or stats of another shape.
    """

    guild_id: int
    table_id: int
    chica_number: int
    teams: tuple[tuple[int | None, ...], tuple[int | None, ...]]
    winner: int
    scores: tuple[int, int] = (0, 0)
    zapatero: bool = False
    reason: str = "target"
    stats: tuple[tuple[SeatStats, ...], ...] = ()
    finished_at: datetime = field(default_factory=_now)
    casual: bool = False

    def __post_init__(self) -> None:
        teams = tuple(tuple(t) for t in self.teams)
        object.__setattr__(self, "teams", teams)
        if len(teams) != 2 or len(teams[0]) != len(teams[1]) or len(teams[0]) not in (1, 2):
            raise ValueError("a chica has two teams of one or two players")
        if self.winner not in (0, 1):
            raise ValueError("winner must be 0 or 1")
        users = [u for t in teams for u in t if u is not None]
        if len(users) != len(set(users)):
            raise ValueError("a user cannot hold two seats")
        if self.stats:
            stats = tuple(tuple(t) for t in self.stats)
            if [len(t) for t in stats] != [len(t) for t in teams]:
                raise ValueError("stats must have the shape of teams")
            object.__setattr__(self, "stats", stats)
        if self.finished_at.tzinfo is None:
            raise ValueError("finished_at must be timezone-aware")

    @property
    def mode(self) -> str:
        """``"1v1"`` or ``"2v2"``."""
        return "1v1" if len(self.teams[0]) == 1 else "2v2"

    @property
    def has_computer(self) -> bool:
        """True when any seat is a computer player."""
        return any(u is None for t in self.teams for u in t)

    def seats(self) -> list[tuple[int, int, int | None, SeatStats]]:
        """Every seat as ``(seat, team, user_id or None, stats)``, in seat order."""
        out = []
        for team, members in enumerate(self.teams):
            for i, user in enumerate(members):
                st = self.stats[team][i] if self.stats else SeatStats()
                out.append((team + 2 * i, team, user, st))
        out.sort()
        return out


def chica_results(
    events: Iterable[Event | dict[str, Any]], seats: Sequence[int | None], *, guild_id: int,
    table_id: int, finished_at: datetime | None = None, casual: bool = False,
) -> list[ChicaResult]:
    """The finished chicas in an engine event log (each CHICA_START … CHICA_WON span).

    Args:
        events: ``Game.events`` (or their ``to_dict()`` forms), from the start of the mesa.
        seats: the user id in each seat (None for a computer player), 2 or 4 entries.
        guild_id, table_id: where the mesa was played.
        finished_at: the time given to every result (default: now). The engine keeps no clock, so pass
            the real time when a chica has just ended.
        casual: mark every result casual (stored, never rated).

    Returns:
        One `ChicaResult` per CHICA_WON, in order; an unfinished chica gives nothing.

    Raises:
        ValueError: seats is not 2 or 4 long, or an event names a seat outside it.
    """
    n = len(seats)
    if n not in (2, 4):
        raise ValueError("a mesa has 2 or 4 seats")
    when = finished_at or _now()
    counts = [[0, 0, 0, 0] for _ in range(n)]  # caidas, limpias, rondas, doble_rondas
    number = 0
    out: list[ChicaResult] = []
    for raw in events:
        e = Event.from_dict(raw) if isinstance(raw, dict) else raw
        kind = e.kind
        if kind == EventKind.CHICA_START:
            counts = [[0, 0, 0, 0] for _ in range(n)]
            number = e.number or number + 1
        elif kind == EventKind.CAIDA:
            counts[e.seat][0] += 1  # type: ignore[index]
            if e.limpia:
                counts[e.seat][1] += 1  # type: ignore[index]
        elif kind == EventKind.LIMPIA:
            counts[e.seat][1] += 1  # type: ignore[index]
        elif kind == EventKind.RONDA:
            counts[e.seat][2] += 1  # type: ignore[index]
        elif kind == EventKind.DOBLE_RONDA:
            counts[e.seat][3] += 1  # type: ignore[index]
        elif kind == EventKind.CHICA_WON:
            per_seat = [SeatStats(*c) for c in counts]
            teams = (tuple(seats[0::2]), tuple(seats[1::2]))
            stats = (tuple(per_seat[0::2]), tuple(per_seat[1::2]))
            out.append(ChicaResult(
                guild_id=guild_id, table_id=table_id, chica_number=e.number or number, teams=teams,
                winner=int(e.team), scores=tuple(e.scores or (0, 0)),  # type: ignore[arg-type]
                zapatero=bool(e.zapatero), reason=e.reason or "target", stats=stats, finished_at=when,
                casual=casual,
            ))
    return out


__all__ = ["ChicaResult", "SeatStats", "chica_results"]
