"""The guide's persistent components. custom_id formats (under 100 characters)::

    ``c4:a:<page>:<k>``   a paging button: go to page <page> (0-based); k = p (◀) or n (▶), so the two
                          buttons of one message never share an id
    ``c4:a:s``            the select that jumps to a page (its values are page numbers)

The page travels in the custom_id (the select's in its value), so a click works after a restart. Callbacks
hand the click to the bot's guide actions (`bot.ui.actions.LearnActions`, `cogs.learn.LearnCog`): no logic here.
"""

from __future__ import annotations

import re
from typing import Any

import discord

from bot.ui.actions import LearnActions, actions_of, need
from bot.ui.items import button_of, select_of

GUIDE_SELECT_ID = "c4:a:s"


def _handler(interaction: discord.Interaction) -> LearnActions:
    """The guide actions of the bot this click came to (`bot.ui.actions`)."""
    return need(actions_of(interaction).learn, "guide")


def _chosen_page(interaction: discord.Interaction) -> int:
    """The page chosen in the select, read from the interaction's own data (also for a rebuilt item)."""
    data: dict[str, Any] = dict(interaction.data or {})
    values = data.get("values") or []
    text = str(values[0]) if values else ""
    return int(text) if text.isascii() and text.isdigit() else 0


class GuideButton(discord.ui.DynamicItem[discord.ui.Button], template=r"c4:a:(?P<page>\d{1,3}):(?P<k>[pn])"):
    """◀ or ▶ on the guide: show page ``page``."""

    def __init__(self, page: int, kind: str, *, label: str = "·", disabled: bool = False) -> None:
        super().__init__(discord.ui.Button(label=label, style=discord.ButtonStyle.secondary, disabled=disabled,
                                           custom_id=f"c4:a:{page}:{kind}"))
        self.page = page
        self.kind = kind

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str]) -> GuideButton:
        """Rebuild the item from the custom_id of a click (also after a restart)."""
        button = button_of(item)
        return cls(int(match["page"]), match["k"], label=button.label or "·")

    async def callback(self, interaction: discord.Interaction) -> None:
        """Hand the click to the learn handler."""
        await _handler(interaction).on_guide_page(interaction, self.page)


class GuideSelect(discord.ui.DynamicItem[discord.ui.Select], template=r"c4:a:s"):
    """The guide's table of contents: choosing a topic shows its page."""

    def __init__(self, *, options: list[discord.SelectOption] | None = None, placeholder: str | None = None) -> None:
        super().__init__(discord.ui.Select(custom_id=GUIDE_SELECT_ID, placeholder=placeholder,
                                           options=options or [discord.SelectOption(label="·", value="0")]))

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str]) -> GuideSelect:
        """Rebuild the item from the custom_id of a click (also after a restart)."""
        select = select_of(item)
        return cls(options=select.options or None)

    async def callback(self, interaction: discord.Interaction) -> None:
        """Hand the chosen page to the learn handler."""
        await _handler(interaction).on_guide_page(interaction, _chosen_page(interaction))


LEARN_ITEMS = (GuideButton, GuideSelect)
"""Register with ``bot.add_dynamic_items(*LEARN_ITEMS)`` (`cogs.learn` does)."""
