"""A rules preset in words: what each term it uses *is*, with its value, and what sets it apart from the
reference preset, `quito` (RULES.md Part 1 §1, §8; Part 2 §3, §7). Pure text building: no Discord.

The differences are computed, never written by hand: every field of `bot.engine.Rules` belongs to one
`Aspect` (`ASPECTS`), and `differences` lists the aspects whose value differs between two `Rules`. A new
field that no aspect covers is a programming error, caught by the tests (`uncovered_fields`).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from dataclasses import dataclass
from typing import cast

from bot.engine import CHICA, Rules
from bot.i18n import t, tn

REFERENCE = "quito"
"""The preset the others are compared with (the default, Part 1 §1)."""


def award_text(value: object, lang: str) -> str:
    """An award in words: ``"+4"``, or ``"gana la chica"`` for ``"chica"`` (R13, R25, R26)."""
    if value == CHICA:
        return t("learn.value.chica", lang)
    return t("learn.value.points", lang, points=value) if value else t("learn.value.no", lang)


def _yes_no(value: object, lang: str) -> str:
    return t("learn.value.yes" if value else "learn.value.no", lang)


def _points(value: object, lang: str) -> str:
    return t("learn.value.points", lang, points=value)


def _falla(value: object, lang: str) -> str:
    return _points(value, lang) if value else t("learn.value.no", lang)


def _four(value: object, lang: str) -> str:
    return award_text(value, lang) if value else t("learn.value.nothing_extra", lang)


def _cutoff(value: object, lang: str) -> str:
    return t("learn.value.from_points", lang, points=value) if value else t("learn.value.none", lang)


def _number(value: object, lang: str) -> str:
    return str(value)


def _word(stem: str) -> Callable[[object, str], str]:
    return lambda value, lang: t(f"learn.value.{stem}.{value}", lang)


def _score38(value: object, lang: str) -> str:
    return t("learn.value.at_score", lang, score=value) if value is not None else t("learn.value.no", lang)


def _caida_en_ronda(value: object, lang: str) -> str:
    alone, with_limpia = cast(tuple[object, object], value)  # this aspect's value is a pair
    if alone == with_limpia:
        return award_text(alone, lang)
    return t("learn.value.with_limpia", lang, value=award_text(alone, lang), limpia=award_text(with_limpia, lang))


def _periquito(value: object, lang: str) -> str:
    on, points = cast(tuple[object, object], value)  # this aspect's value is a pair
    return _points(points, lang) if on else t("learn.value.no", lang)


def _zapateria(value: object, lang: str) -> str:
    on, below = cast(tuple[object, object], value)  # this aspect's value is a pair
    return t("learn.value.zapateria", lang, below=below) if on else t("learn.value.no", lang)


@dataclass(frozen=True)
class Aspect:
    """One thing a preset decides, as players think of it.

    Attributes:
        key: the catalog stem of its name (``learn.aspect.<key>``).
        fields: the `Rules` fields it stands for (R-number in the field's docstring).
        value: the aspect's value in a `Rules` (what is compared).
        words: that value in words, in a language.
    """

    key: str
    fields: tuple[str, ...]
    value: Callable[[Rules], object]
    words: Callable[[object, str], str]

    def name(self, lang: str) -> str:
        """The aspect's name in ``lang``: ``"Caída con limpia"``."""
        return t(f"learn.aspect.{self.key}", lang)


def _field(name: str, words: Callable[[object, str], str]) -> Aspect:
    return Aspect(name, (name,), lambda rules: getattr(rules, name), words)


ASPECTS: tuple[Aspect, ...] = (
    _field("target", _number),                                  # R5, R33
    _field("chicas_to_win", _number),                           # R36
    _field("sum_mode", _word("sum_mode")),                      # R17
    _field("match_takes_all", _yes_no),                         # R17 variant
    _field("sequence_mode", _word("sequence_mode")),            # R18
    _field("forced_capture", _yes_no),                          # R21 variant
    _field("caida_by_sum", _yes_no),                            # R22 variant
    _field("caida", _points),                                   # R22
    _field("limpia", _points),                                  # R23
    _field("caida_limpia", _points),                            # R24
    _field("ronda", _falla),                                    # R12 (0: off)
    _field("doble_ronda", award_text),                          # R13
    Aspect("caida_en_ronda", ("caida_en_ronda", "caida_en_ronda_limpia"),                 # R25
           lambda rules: (rules.caida_en_ronda, rules.caida_en_ronda_limpia), _caida_en_ronda),
    _field("four_caidas", _four),                               # R26
    _field("four_caidas_across_deals", _yes_no),                # R26, A17
    _field("ronda_cutoff", _cutoff),                            # R15
    _field("leftovers", _word("leftovers")),                    # R27
    _field("carton_min_cards", _number),                        # R28
    _field("carton_tie", _points),                              # R28
    _field("carton_cutoff", _cutoff),                           # R28
    _field("falla", _falla),                                    # R29
    Aspect("rule38", ("rule38",), lambda rules: rules.score38, _score38),          # R30 (moves with target)
    Aspect("zapateria", ("zapateria", "zapateria_below"),                          # R35
           lambda rules: (rules.zapateria, rules.zapateria_below), _zapateria),
    _field("comodines", _yes_no),                               # Part 1 §9
    Aspect("periquito", ("periquito", "periquito_points"),                         # Part 1 §9
           lambda rules: (rules.periquito, rules.periquito_points), _periquito),
)
"""Every `Rules` field, grouped as players name them, in the order a preset is explained."""


def uncovered_fields() -> set[str]:
    """`Rules` fields no aspect stands for (empty when `ASPECTS` is complete)."""
    covered = {name for aspect in ASPECTS for name in aspect.fields}
    return {f.name for f in dataclasses.fields(Rules)} - covered


def differences(rules: Rules, reference: Rules | None = None) -> list[Aspect]:
    """The aspects whose value differs between ``rules`` and ``reference`` (default: `quito`), in
    `ASPECTS` order. The 38 rule is listed when its score moves with the target (``rapido``: 18, R30)."""
    base = reference if reference is not None else Rules.preset(REFERENCE)
    return [a for a in ASPECTS if a.value(rules) != a.value(base)]


def difference_lines(rules: Rules, lang: str, reference: Rules | None = None,
                     reference_name: str = REFERENCE) -> list[str]:
    """Each difference from the reference (default: `quito`; ``reference_name`` names it) as a line:
    ``"Caída con limpia: +4 (en quito: +2)"``."""
    base = reference if reference is not None else Rules.preset(REFERENCE)
    return [t("learn.diff.line", lang, what=a.name(lang), value=a.words(a.value(rules), lang),
              reference=reference_name, was=a.words(a.value(base), lang))
            for a in differences(rules, base)]


def term_lines(rules: Rules, lang: str) -> list[str]:
    """The terms of a preset, each with what it is and its value here (R5 chica and mesa, R17–R18
    captures, R22 caída, R23–R24 limpia, R12–R13 ronda, R25, R26, R28 cartón, R27 leftovers, R29 falla,
    R15/R28 cut-offs, R30 the 38, R35 zapatero)."""
    lines = [
        tn("learn.rules.chica", rules.chicas_to_win, lang, target=rules.target, chicas=rules.chicas_to_win),
        t("learn.rules.capture", lang, sums=t(f"learn.value.sum_mode.{rules.sum_mode}", lang)),
        t("learn.rules.caida", lang, caida=_points(rules.caida, lang)),
        t("learn.rules.limpia", lang, limpia=_points(rules.limpia, lang),
          caida_limpia=_points(rules.caida_limpia, lang)),
        t("learn.rules.ronda", lang, ronda=_falla(rules.ronda, lang), doble=award_text(rules.doble_ronda, lang)),
        t("learn.rules.caida_en_ronda", lang,
          value=_caida_en_ronda((rules.caida_en_ronda, rules.caida_en_ronda_limpia), lang)),
        t("learn.rules.four_caidas", lang, value=_four(rules.four_caidas, lang)),
        t("learn.rules.carton", lang, min=rules.carton_min_cards, tie=rules.carton_tie),
        t("learn.rules.leftovers", lang, value=t(f"learn.value.leftovers.{rules.leftovers}", lang)),
    ]
    if rules.falla:
        lines.append(t("learn.rules.falla", lang, falla=rules.falla))
    if rules.ronda_cutoff and rules.ronda_cutoff == rules.carton_cutoff:
        lines.append(t("learn.rules.cutoff", lang, points=rules.ronda_cutoff))
    else:
        if rules.ronda_cutoff:
            lines.append(t("learn.rules.cutoff_ronda", lang, points=rules.ronda_cutoff))
        if rules.carton_cutoff:
            lines.append(t("learn.rules.cutoff_carton", lang, points=rules.carton_cutoff))
    if rules.score38 is not None:
        lines.append(t("learn.rules.rule38", lang, score=rules.score38))
    else:
        lines.append(t("learn.rules.rule38_off", lang))
    if rules.zapateria:
        lines.append(t("learn.rules.zapatero", lang, below=rules.zapateria_below))
    else:
        lines.append(t("learn.rules.zapatero_off", lang, below=rules.zapateria_below))
    if rules.comodines:
        lines.append(t("learn.rules.comodines", lang))
    if rules.periquito:
        lines.append(t("learn.rules.periquito", lang, points=rules.periquito_points))
    return lines
