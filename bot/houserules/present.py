"""House rules as Discord components: the editor (an ephemeral message with a select of rules
and a select of values) and the server setting's lines (the lobby's lines are in `bot.houserules.words`).
Every value is written by the same words `/cuarenta reglas` uses (`bot.learn.presets`)."""

from __future__ import annotations

import dataclasses

import discord

from bot.engine import Rules
from bot.i18n import t
from bot.learn.presets import ASPECTS, Aspect, difference_lines
from bot.tables import Table
from bot.ui import limits
from bot.ui.render import COLOR, Payload, make_view

from .items import HouseButton, HouseRuleSelect, HouseValueSelect
from .menu import HOUSE_RULES, Choice, HouseRule, HouseRuleError, apply
from .menu import rule as house_rule

_ASPECTS: dict[str, Aspect] = {aspect.key: aspect for aspect in ASPECTS}


def value_words(key: str, rules: Rules, lang: str) -> str:
    """The value of house rule ``key`` in ``rules``, in words: ``"+4"``, ``"gana la chica"``, ``"sí"``."""
    aspect = _ASPECTS[key]
    return aspect.words(aspect.value(rules), lang)


def choice_words(rule: HouseRule, choice: Choice, base: Rules, lang: str) -> str:
    """What a choice would make the rule, in words (read from ``base`` with the choice applied)."""
    return value_words(rule.key, dataclasses.replace(base, **choice.fields), lang)


def editor_payload(table: Table, lang: str, *, rule: str | None = None, can_save: bool = False) -> Payload:
    """The editor, for the host: what differs from the preset now, the select of rules (each with its
    current value and its one-line explanation) and, with ``rule``, the select of that rule's values;
    «Volver al reglamento» and, for Manage Server, «Guardar para el servidor».

    Raises:
        HouseRuleError: ``rule`` is not a house rule.
    """
    rules = table.rules
    base = Rules.preset(table.preset)
    changed = difference_lines(rules, lang, base, table.preset)
    lines = [t("house.intro", lang, preset=table.preset), ""]
    lines += [t("house.changed", lang, preset=table.preset), *("• " + line for line in changed)] if changed \
        else [t("house.none", lang)]
    embed = discord.Embed(title=limits.clip(t("house.title", lang, table=table.id), limits.EMBED_TITLE),
                          description=limits.clip("\n".join(lines), limits.EMBED_DESCRIPTION), colour=COLOR)
    options = [
        discord.SelectOption(
            label=limits.clip(f"{_ASPECTS[r.key].name(lang)}: {value_words(r.key, rules, lang)}", limits.OPTION_TEXT),
            value=r.key, description=limits.clip(t(f"house.{r.key}.desc", lang), limits.OPTION_TEXT),
            default=r.key == rule)
        for r in HOUSE_RULES
    ]
    rows: list[list[discord.ui.Item]] = [[HouseRuleSelect(table.id, options=options, placeholder=limits.clip(
        t("house.pick_rule", lang), limits.PLACEHOLDER))]]
    if rule is not None:
        picked = house_rule(rule)
        current = picked.current(rules)
        values = [discord.SelectOption(label=limits.clip(choice_words(picked, c, base, lang), limits.OPTION_TEXT),
                                       value=c.token, default=current is not None and c.token == current.token)
                  for c in picked.choices]
        rows.append([HouseValueSelect(table.id, rule, options=values, placeholder=limits.clip(
            t("house.pick_value", lang, rule=_ASPECTS[rule].name(lang)), limits.PLACEHOLDER))])
    buttons: list[discord.ui.Item] = [HouseButton(table.id, "x", label=t("btn.house_reset", lang), style=discord.ButtonStyle.secondary)]
    if can_save:
        buttons.append(HouseButton(table.id, "d", label=t("btn.house_default", lang), style=discord.ButtonStyle.primary))
    rows.append(buttons)
    return Payload(embed=embed, view=make_view(*rows))


def settings_lines(house: dict[str, object], rated: bool, preset: str, lang: str) -> tuple[str, str]:
    """The server setting in words: its default house rules (on top of ``preset``, one per line, or
    "ninguna") and whether mesas under house rules are rated."""
    text = t("settings.house_none", lang)
    if house:
        try:
            rules = apply(preset, house)
            text = "\n".join(difference_lines(rules, lang, Rules.preset(preset), preset)) or text
        except HouseRuleError:  # saved from a table of another preset: name what it changes
            text = ", ".join(_ASPECTS[a.key].name(lang) for a in ASPECTS if set(a.fields) & set(house))
    return text, t(f"settings.house_rated.{int(rated)}", lang)
