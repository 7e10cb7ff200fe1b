"""House rules in words for the lobby: what differs from the preset and whether the mesa will
be rated. Pure text (no Discord), so the lobby renderer can import it."""

from __future__ import annotations

from bot.engine import Rules
from bot.i18n import t
from bot.learn.presets import difference_lines
from bot.tables import Table


def house_lines(table: Table, lang: str) -> list[str]:
    """The lobby's house-rule block: the differences from the preset, in words, and whether the mesa
    will be rated; empty for a named preset."""
    if not table.house:
        return []
    lines = [t("lobby.house_title", lang, preset=table.preset)]
    lines += ["• " + line for line in difference_lines(table.rules, lang, Rules.preset(table.preset), table.preset)]
    lines.append(t("lobby.house_rated" if table.options.house_rated else "lobby.house_unrated", lang))
    return lines


def rules_label(table: Table, lang: str, *, emoji: bool = True) -> str:
    """The table's rules in a word or two, for titles: ``"quito"``, or ``"quito · 🏠 casa"`` under
    house rules (``emoji=False`` for the picture, whose font has no emoji: ``"quito · casa"``)."""
    if not table.house:
        return table.preset
    mark = t("table.house_mark", lang)
    return f"{table.preset} · {mark if emoji else mark.replace('🏠', '').strip()}"
