"""Events: what a play, a deal or the end of a hand caused, in the order it happened.

`Game.play` returns a list of `Event`; the game keeps the whole log (`Game.events`). Events are plain,
immutable values that round-trip through `to_dict`/`from_dict`.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Any, NamedTuple

from .cards import Card


class EventKind(StrEnum):
    """What happened. The rule each kind implements is given beside it."""

    CHICA_START = "chica_start"  # number = chica number (1-based)           R34
    HAND_START = "hand_start"  # number = hand number in the mesa; seat = dealer   R10
    DEAL = "deal"  # number = deal number in the hand (1-based); seat = mano      R8, R9
    RONDA = "ronda"  # seat's 5 dealt cards hold three of a kind; rank hidden     R12, R15, R30
    DOBLE_RONDA = "doble_ronda"  # four of a kind; rank hidden                    R13
    PLAYED = "played"  # seat played card (a trail when no CAPTURED follows)      R16, R21
    CAPTURED = "captured"  # cards = the table cards taken (base + escalera)       R17–R19
    CAIDA = "caida"  # card = the trailed card fallen on; limpia/en_ronda flags   R22, R24, R25
    LIMPIA = "limpia"  # a limpia without caída                                 R23
    FOUR_CAIDAS = "four_caidas"  # number = length of the streak (4)              R26
    PERIQUITO = "periquito"  # all four cards of rank taken at once; points = the bonus  §9, R30
    RONDA_REVEALED = "ronda_revealed"  # a ronda's rank, shown at the end of the hand  R12
    LEFTOVERS = "leftovers"  # cards left on the table; team None = counted for nobody  R27
    CARTON = "carton"  # number = cards counted by team                           R28
    DOS_POR_DARLAS = "dos_por_darlas"  # tie in the count: the non-dealing side   R28
    MAS_CARTAS = "mas_cartas"  # neither side reached the minimum: more cards +2   R28
    FALLA = "falla"  # the team's opponents captured nothing                      R29
    HAND_END = "hand_end"  # counts = cards captured per team; number = hand number R28
    CHICA_WON = "chica_won"  # reason: target, doble_ronda, caida_en_ronda, four_caidas; zapatero  R33, R35
    MESA_WON = "mesa_won"  # counts = chicas per team; zapatero = won by zapatería   R35, R36


class Event(NamedTuple):
    """One thing that happened (an immutable named tuple).

    Attributes:
        kind: an `EventKind`.
        seat: the seat that acted or is concerned (0-based, in play order), if any.
        team: the side concerned, 0 or 1 (``seat % 2``), if any.
        card: the card played (PLAYED) or fallen on (CAIDA).
        cards: cards moved (CAPTURED, LEFTOVERS); the four cards of the rank (PERIQUITO).
        points: points actually added to ``team`` (0 when blocked).
        blocked: why points were not added: ``"38"`` (R30) or ``"cutoff"`` (R15, R28), else None.

    A PERIQUITO event (§9, ``Rules.periquito``) follows the play's CAPTURED and its CAIDA / FOUR_CAIDAS or
    LIMPIA, one per rank of which all four cards were taken: seat, team, rank, cards (the four), points
    (``Rules.periquito_points``, or 0 when blocked), blocked (``"38"`` when the side was on 38 before the
    play, R30) and scores.
        scores: both teams' points after this event, for events that can score.
        rank: a ronda's rank index 0–9. Hidden from other seats until revealed (`Game.view`). The rank of
            the four cards taken (PERIQUITO; never hidden).
        number: deal, hand or chica number; cards counted (CARTON); streak length (FOUR_CAIDAS).
        counts: per-team pair: cards captured (HAND_END) or chicas won (CHICA_WON, MESA_WON).
        reason: why a chica was won (CHICA_WON: ``"target"``, ``"doble_ronda"``, ``"caida_en_ronda"``,
            ``"four_caidas"``); ``"chica"`` on the CAIDA, DOBLE_RONDA or FOUR_CAIDAS event that wins the
            chica at once (R13, R25, R26).
        limpia: the capture left the table empty (CAIDA).
        en_ronda: the caída fell on a card of the trailer's ronda (CAIDA, R25).
        zapatero: the loser ended under the zapatero threshold (CHICA_WON) / the mesa was won by
            zapatería (MESA_WON) (R35).
    """

    kind: EventKind
    seat: int | None = None
    team: int | None = None
    card: Card | None = None
    cards: tuple[Card, ...] = ()
    points: int = 0
    blocked: str | None = None
    scores: tuple[int, ...] | None = None
    rank: int | None = None
    number: int | None = None
    counts: tuple[int, ...] | None = None
    reason: str | None = None
    limpia: bool = False
    en_ronda: bool = False
    zapatero: bool = False

    def hidden(self) -> Event:
        """This event with any ronda rank removed, as another seat sees it before the reveal."""
        return self._replace(rank=None) if self.rank is not None else self

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready data; fields at their default are left out, cards become codes."""
        out: dict[str, Any] = {"kind": self.kind.value}
        defaults = Event._field_defaults
        value: Any  # one field after another, of each field's own type
        for name, value in zip(Event._fields[1:], self[1:], strict=True):
            if value == defaults[name]:
                continue
            if name == "card":
                value = value.code
            elif name == "cards":
                value = [c.code for c in value]
            elif isinstance(value, tuple):
                value = list(value)
            out[name] = value
        return out

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Event:
        """Inverse of `to_dict`.

        Raises:
            KeyError, ValueError: the data is not an event.
        """
        kw: dict[str, Any] = dict(data)
        kw["kind"] = EventKind(kw["kind"])
        if "card" in kw:
            kw["card"] = Card.parse(kw["card"])
        if "cards" in kw:
            kw["cards"] = tuple(Card.parse(c) for c in kw["cards"])
        for name in ("scores", "counts"):
            if name in kw:
                kw[name] = tuple(kw[name])
        return cls(**kw)
