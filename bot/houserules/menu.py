"""The house rules a host can change in the lobby, as menu entries over `bot.engine.Rules`.

Each `HouseRule` is one line of the «Reglas de la casa» menu: a name, a one-line explanation, and the
values a group chooses between, each value being the `Rules` fields it sets. The menu never builds a
`Rules` the engine cannot honour: `apply` constructs it (the engine validates every field, `RulesError`)
and `check` refuses combinations that are legal but meaningless, with the reason (a cut-off at or over
the target can never apply). Pure: no Discord, no storage.

Overrides are stored as ``{field: value}`` (JSON values: bool, int, str, None) relative to the table's
preset; `apply` turns preset + overrides into the table's `Rules`.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from bot.engine import CHICA, Rules, RulesError


class HouseRuleError(ValueError):
    """A house-rule choice the menu refuses. ``key`` is the catalog key of the reason, ``params`` its
    parameters."""

    def __init__(self, key: str, **params: object) -> None:
        super().__init__(key)
        self.key = key
        self.params = params


@dataclass(frozen=True)
class Choice:
    """One value of a house rule: ``token`` (short, for the custom_id and the select value) and the
    `Rules` fields it sets."""

    token: str
    fields: Mapping[str, Any]


@dataclass(frozen=True)
class HouseRule:
    """A rule a group changes: ``key`` (catalog stem ``house.<key>``, its explanation
    ``house.<key>.desc``, each value ``house.<key>.<token>``) and its `choices`."""

    key: str
    choices: tuple[Choice, ...]

    def current(self, rules: Rules) -> Choice | None:
        """The choice ``rules`` has now, or None when its fields match none (a preset value the menu does
        not offer)."""
        for choice in self.choices:
            if all(getattr(rules, name) == value for name, value in choice.fields.items()):
                return choice
        return None

    def choice(self, token: str) -> Choice:
        """The choice named ``token``.

        Raises:
            HouseRuleError: no such choice (``err.house_value``).
        """
        for choice in self.choices:
            if choice.token == token:
                return choice
        raise HouseRuleError("err.house_value")


def _flag(key: str) -> HouseRule:
    return HouseRule(key, (Choice("0", {key: False}), Choice("1", {key: True})))


def _engine_has(field: str) -> bool:
    return any(f.name == field for f in dataclasses.fields(Rules))


HOUSE_RULES: tuple[HouseRule, ...] = tuple(rule for rule in (
    _flag("caida_by_sum"),                                                                  # R22 variant
    HouseRule("caida_limpia", (Choice("2", {"caida_limpia": 2}), Choice("4", {"caida_limpia": 4}))),  # R24
    HouseRule("ronda", (Choice("1", {"ronda": 2}),                                          # R12, R13: off =
                        Choice("0", {"ronda": 0, "doble_ronda": 0}))),                      # no ronda points
    HouseRule("caida_en_ronda", (                                                           # R25
        Choice("4", {"caida_en_ronda": 4, "caida_en_ronda_limpia": 4}),
        Choice("c", {"caida_en_ronda": CHICA, "caida_en_ronda_limpia": CHICA}),
    )),
    HouseRule("four_caidas", (Choice("0", {"four_caidas": None}), Choice("c", {"four_caidas": CHICA}))),  # R26
    HouseRule("leftovers", (Choice("n", {"leftovers": "none"}), Choice("l", {"leftovers": "last_capturer"}))),  # R27
    HouseRule("carton_cutoff", (Choice("0", {"carton_cutoff": None}), Choice("30", {"carton_cutoff": 30}))),  # R28
    HouseRule("ronda_cutoff", (Choice("0", {"ronda_cutoff": None}), Choice("30", {"ronda_cutoff": 30}))),  # R15
    HouseRule("falla", (Choice("0", {"falla": 0}), Choice("2", {"falla": 2}))),             # R29
    HouseRule("target", (Choice("40", {"target": 40}), Choice("30", {"target": 30}),       # R5, R33
                         Choice("20", {"target": 20}))),
    _flag("rule38"),                                                                        # R30
    _flag("zapateria"),                                                                     # R35
    HouseRule("chicas_to_win", (Choice("1", {"chicas_to_win": 1}), Choice("2", {"chicas_to_win": 2}),  # R36
                                Choice("3", {"chicas_to_win": 3}))),
    _flag("comodines"),                                                                     # Part 1 §9
    _flag("periquito"),                                                                     # Part 1 §9
) if all(_engine_has(name) for choice in rule.choices for name in choice.fields))
"""The menu, in the order it is shown (at most 25 entries: one Discord select)."""

BY_KEY: dict[str, HouseRule] = {rule.key: rule for rule in HOUSE_RULES}


def rule(key: str) -> HouseRule:
    """The house rule ``key``.

    Raises:
        HouseRuleError: not a house rule (``err.house_rule``).
    """
    try:
        return BY_KEY[key]
    except KeyError:
        raise HouseRuleError("err.house_rule") from None


def check(rules: Rules) -> None:
    """Refuse a combination the engine accepts but that could never apply.

    Raises:
        HouseRuleError: a cut-off at or over the target (``err.house_cutoff``; R15, R28: a side reaching
            the target wins the chica before any count).
    """
    for name in ("carton_cutoff", "ronda_cutoff"):
        cutoff = getattr(rules, name)
        if cutoff is not None and cutoff >= rules.target:
            raise HouseRuleError("err.house_cutoff", cutoff=cutoff, target=rules.target)


def apply(preset: str, overrides: Mapping[str, Any]) -> Rules:
    """The `Rules` of ``preset`` with ``overrides`` (``{field: value}``) on top.

    Raises:
        HouseRuleError: an override names no field (``err.house_rule``), the engine refuses a value
            (``err.house_invalid``, with the engine's reason) or `check` refuses the combination.
        RulesError: ``preset`` is unknown.
    """
    base = Rules.preset(preset)
    names = {f.name for f in dataclasses.fields(Rules)}
    if set(overrides) - names:
        raise HouseRuleError("err.house_rule")
    try:
        rules = dataclasses.replace(base, **overrides)
    except RulesError as error:
        raise HouseRuleError("err.house_invalid", reason=str(error)) from None
    check(rules)
    return rules


def choose(preset: str, overrides: Mapping[str, Any], key: str, token: str) -> dict[str, Any]:
    """The overrides after choosing ``token`` for the house rule ``key``: the fields of the rule's other
    choices go back to the preset's, and fields equal to the preset's are dropped, so the overrides always
    list exactly what differs.

    Raises:
        HouseRuleError: unknown rule or value, or a combination `apply` refuses.
    """
    house_rule = rule(key)
    picked = house_rule.choice(token)
    base = Rules.preset(preset)
    touched = {name for choice in house_rule.choices for name in choice.fields}  # the rule's other
    merged = {**{k: v for k, v in overrides.items() if k not in touched}, **picked.fields}  # choices go
    cleaned = {name: value for name, value in merged.items() if getattr(base, name) != value}
    apply(preset, cleaned)
    return cleaned


__all__ = ["BY_KEY", "HOUSE_RULES", "Choice", "HouseRule", "HouseRuleError", "apply", "check", "choose", "rule"]
