"""The immutable rules object and the presets played in Ecuador (RULES.md Part 1 §1, §8; Part 2 §3, §7).

Every rule that varies between tables is one field of `Rules`. A preset is a named `Rules` value;
a host may change single fields with `Rules.replace`.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any, Literal

CHICA: Literal["chica"] = "chica"
"""Award value meaning "the event wins the chica at once" (R13, R25, R26)."""

Award = int | Literal["chica"]

PRESET_NAMES: tuple[str, ...] = ("quito", "cuenca", "torneo", "barrio", "rapido")
"""The presets offered to players, the default first (Part 1 §1)."""


class RulesError(ValueError):
    """A rules field has a value the engine does not support, or a preset name is unknown."""


@dataclass(frozen=True, slots=True)
class Rules:
    """Every rule of Cuarenta that varies, as one immutable value. Defaults are the `quito` preset.

    Capture rules:
        sum_mode: ``"any"``: a sum is any set of 2+ numeric table cards (Part 1 §2); ``"pair"``:
            exactly two cards (R17, `barrio`).
        match_takes_all: a match takes every table card of that rank instead of one (R17 variant, A36).
        sequence_mode: ``"auto"``: the escalera is always taken whole (R18); ``"optional"``: the player
            may stop it early (A8).
        forced_capture: the card played must capture if it can (R21 variant, applied card by card).
        caida_by_sum: a sum that takes the just-trailed card is a caída too (R22 variant, A9).

    Points during play (even integers; ``"chica"`` wins the chica at once):
        caida, limpia: 2 each (R22, R23).
        caida_limpia: caída and limpia in one play (R24): 2 "todo dos", 4 "a todo rigor".
        ronda: three of a kind dealt (R12). doble_ronda: four of a kind dealt (R13), points or chica.
        caida_en_ronda, caida_en_ronda_limpia: a caída on a card of the trailer's ronda (R25).
        four_caidas: ``None`` or ``"chica"``: four consecutive caídas by a side (R26).
        four_caidas_across_deals: the caída streak carries from one deal to the next within a hand (A17).
        ronda_cutoff: ``None`` or points from which a side scores no ronda (R15).

    End of hand:
        leftovers: ``"none"``: cards left on the table count for nobody; ``"last_capturer"``: they go to
            the side that captured last, with no limpia (R27).
        carton_min_cards: cards needed to score cartón (20, variant 19; R28).
        carton_tie: what the non-dealing side scores on a tie in the count (2 "dos por darlas"; R28).
        carton_cutoff: ``None`` or points from which a side scores nothing in the count (R28).
        falla: points given to a side whose opponents captured nothing in the hand, 0 for off (R29).

    Seed variants (house rules, off in every preset; Part 1 §9):
        comodines: the deck has 42 cards, the 40 and two jokers (``W1``, ``W2``). A joker played from the
            hand stands for a rank on the table, matches one card of it and takes the escalera from it;
            it never sums and is never a caída; a joker on the table is taken only by a played joker.
            2 cards of each hand stay in the stock, unseen and counted for nobody.
        periquito: when all four cards of a rank lie on the table, the next capture that takes a card of
            that rank takes all four and scores ``periquito_points`` on top (blocked at 38, R30).
        periquito_points: the periquito bonus, even (default 6).

    Winning:
        target: points that win a chica (R5, R33); 40, or 20 in `rapido`.
        rule38: "38 que no juega": at ``target - 2`` only a caída scores for that side (R30).
        zapateria: the first chica won against a side under ``zapateria_below`` wins the mesa (R35).
        zapateria_below: the zapatero threshold, 10 (one perro).
        chicas_to_win: chicas that win the mesa (R36).

    Not modelled (RULES.md): misdeals (the engine deals, R11), the "robar" window (R21, used by no
    preset).

    Raises:
        RulesError: on construction, when a field has an unsupported value.
    """

    sum_mode: Literal["any", "pair"] = "any"
    match_takes_all: bool = False
    sequence_mode: Literal["auto", "optional"] = "auto"
    forced_capture: bool = False
    caida_by_sum: bool = False
    caida: int = 2
    limpia: int = 2
    caida_limpia: int = 2
    ronda: int = 2
    doble_ronda: Award = 4
    caida_en_ronda: Award = 4
    caida_en_ronda_limpia: Award = 4
    four_caidas: Literal["chica"] | None = None
    four_caidas_across_deals: bool = True
    ronda_cutoff: int | None = None
    leftovers: Literal["none", "last_capturer"] = "none"
    carton_min_cards: int = 20
    carton_tie: int = 2
    carton_cutoff: int | None = None
    falla: int = 0
    target: int = 40
    rule38: bool = True
    zapateria: bool = True
    zapateria_below: int = 10
    chicas_to_win: int = 2
    comodines: bool = False
    periquito: bool = False
    periquito_points: int = 6

    def __post_init__(self) -> None:
        def choice(name: str, allowed: tuple[Any, ...]) -> None:
            value = getattr(self, name)
            if not isinstance(value, str) or value not in allowed:
                raise RulesError(f"{name} must be one of {allowed!r}, not {value!r}")

        def flag(name: str) -> None:
            if not isinstance(getattr(self, name), bool):
                raise RulesError(f"{name} must be true or false, not {getattr(self, name)!r}")

        def points(name: str, *, allow_chica: bool = False, allow_zero: bool = True) -> None:
            value = getattr(self, name)
            if allow_chica and value == CHICA:
                return
            if isinstance(value, bool) or not isinstance(value, int):
                kind = "an even number of points" + (" or 'chica'" if allow_chica else "")
                raise RulesError(f"{name} must be {kind}, not {value!r}")
            if value < 0 or value % 2 or (value == 0 and not allow_zero):
                raise RulesError(f"{name} must be an even number of points (R32), not {value!r}")

        def cutoff(name: str) -> None:
            value = getattr(self, name)
            if value is not None:
                points(name, allow_zero=False)

        choice("sum_mode", ("any", "pair"))
        choice("sequence_mode", ("auto", "optional"))
        choice("leftovers", ("none", "last_capturer"))
        for name in ("match_takes_all", "forced_capture", "caida_by_sum", "four_caidas_across_deals",
                     "rule38", "zapateria", "comodines", "periquito"):
            flag(name)
        for name in ("caida", "limpia", "caida_limpia", "ronda", "carton_tie", "falla", "periquito_points"):
            points(name)
        for name in ("doble_ronda", "caida_en_ronda", "caida_en_ronda_limpia"):
            points(name, allow_chica=True)
        if self.four_caidas not in (None, CHICA):
            raise RulesError(f"four_caidas must be None or 'chica', not {self.four_caidas!r}")
        cutoff("ronda_cutoff")
        cutoff("carton_cutoff")
        points("target", allow_zero=False)
        if self.target < 4:
            raise RulesError(f"target must be at least 4 points, not {self.target!r}")
        if self.carton_min_cards not in (19, 20):
            raise RulesError(f"carton_min_cards must be 19 or 20, not {self.carton_min_cards!r}")
        if isinstance(self.zapateria_below, bool) or not isinstance(self.zapateria_below, int) \
                or not 0 <= self.zapateria_below <= self.target:
            raise RulesError(f"zapateria_below must be 0–{self.target}, not {self.zapateria_below!r}")
        if isinstance(self.chicas_to_win, bool) or not isinstance(self.chicas_to_win, int) \
                or not 1 <= self.chicas_to_win <= 5:
            raise RulesError(f"chicas_to_win must be 1–5, not {self.chicas_to_win!r}")

    @property
    def score38(self) -> int | None:
        """The score at which "38 que no juega" applies (``target - 2``), or None when it is off (R30)."""
        return self.target - 2 if self.rule38 else None

    @classmethod
    def preset(cls, name: str) -> Rules:
        """Return a preset by name: ``quito`` (default), ``cuenca``, ``torneo``, ``barrio``, ``rapido``.

        Raises:
            RulesError: the name is not a preset.
        """
        try:
            return _PRESETS[name.strip().lower()]
        except (KeyError, AttributeError):
            raise RulesError(f"unknown preset {name!r}; choose one of {', '.join(PRESET_NAMES)}") from None

    def replace(self, **changes: Any) -> Rules:
        """Return a copy with single fields replaced, e.g. ``Rules.preset("quito").replace(falla=2)``.

        Raises:
            RulesError: an unknown field, or an unsupported value.
        """
        unknown = set(changes) - {f.name for f in dataclasses.fields(self)}
        if unknown:
            raise RulesError(f"unknown rules field(s): {', '.join(sorted(unknown))}")
        return dataclasses.replace(self, **changes)

    def preset_name(self) -> str | None:
        """The name of the preset equal to these rules, or None for a customised set."""
        for name in PRESET_NAMES:
            if _PRESETS[name] == self:
                return name
        return None

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON-ready data: every field by name."""
        return {f.name: getattr(self, f.name) for f in dataclasses.fields(self)}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Rules:
        """Inverse of `to_dict`. Missing fields take the `quito` defaults, so rules stored before a field
        existed (e.g. ``comodines``, ``periquito``) still load, with that rule off.

        Raises:
            RulesError: an unknown field or an unsupported value.
        """
        return cls().replace(**data)


_QUITO = Rules()
_PRESETS: dict[str, Rules] = {
    "quito": _QUITO,
    "cuenca": _QUITO.replace(
        caida_limpia=4, doble_ronda=CHICA, caida_en_ronda=CHICA, caida_en_ronda_limpia=CHICA, four_caidas=CHICA
    ),
    "torneo": _QUITO.replace(doble_ronda=CHICA, caida_en_ronda=CHICA, caida_en_ronda_limpia=CHICA),
    "barrio": _QUITO.replace(
        sum_mode="pair", leftovers="last_capturer", carton_cutoff=30, ronda_cutoff=30, falla=2,
        doble_ronda=CHICA, four_caidas=CHICA,
    ),
    "rapido": _QUITO.replace(target=20, zapateria=False),
}
