"""Persistent components of the house-rules editor. custom_id formats (under 100 characters):

    ``c4:u:<table>:o``          the lobby's «Reglas de la casa» button: open the editor (host only)
    ``c4:u:<table>:r``          the editor's select of rules (value: a `HOUSE_RULES` key)
    ``c4:u:<table>:v:<rule>``   the editor's select of values for ``<rule>`` (value: a choice token)
    ``c4:u:<table>:x``          back to the preset: drop every house rule
    ``c4:u:<table>:d``          save this table's house rules as the server's default (Manage Server)

Callbacks call the bot's house-rules actions (`bot.ui.actions.HouseActions`, the house cog): no logic here.
"""

from __future__ import annotations

import re
from typing import Any

import discord

from bot.ui.actions import HouseActions, actions_of, need
from bot.ui.items import button_of, chosen_value


def _handler(interaction: discord.Interaction) -> HouseActions:
    """The house-rules actions of the bot this click came to (`bot.ui.actions`)."""
    return need(actions_of(interaction).house, "house rules")


class HouseButton(discord.ui.DynamicItem[discord.ui.Button], template=r"c4:u:(?P<table>\d+):(?P<action>[oxd])"):
    """Open the editor (``o``), back to the preset (``x``), save as the server's default (``d``)."""

    def __init__(self, table_id: int, action: str, *, label: str = "·",
                 style: discord.ButtonStyle = discord.ButtonStyle.secondary) -> None:
        super().__init__(discord.ui.Button(label=label, style=style, custom_id=f"c4:u:{table_id}:{action}"))
        self.table_id = table_id
        self.action = action

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str]) -> HouseButton:
        """Rebuild the item from the custom_id of a click (also after a restart)."""
        button = button_of(item)
        return cls(int(match["table"]), match["action"], label=button.label or "·")

    async def callback(self, interaction: discord.Interaction) -> None:
        """Hand the click to the house handler."""
        await _handler(interaction).on_house_button(interaction, self.table_id, self.action)


class HouseRuleSelect(discord.ui.DynamicItem[discord.ui.Select], template=r"c4:u:(?P<table>\d+):r"):
    """Pick the rule to change."""

    def __init__(self, table_id: int, *, options: list[discord.SelectOption] | None = None,
                 placeholder: str | None = None) -> None:
        super().__init__(discord.ui.Select(custom_id=f"c4:u:{table_id}:r", options=options or [],
                                           placeholder=placeholder))
        self.table_id = table_id

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str]) -> HouseRuleSelect:
        """Rebuild the item from the custom_id of a click (also after a restart)."""
        return cls(int(match["table"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        """Hand the chosen rule to the house handler."""
        await _handler(interaction).on_house_rule(interaction, self.table_id, chosen_value(interaction))


class HouseValueSelect(discord.ui.DynamicItem[discord.ui.Select],
                       template=r"c4:u:(?P<table>\d+):v:(?P<rule>[a-z0-9_]{1,40})"):
    """Pick the value of one rule."""

    def __init__(self, table_id: int, rule: str, *, options: list[discord.SelectOption] | None = None,
                 placeholder: str | None = None) -> None:
        super().__init__(discord.ui.Select(custom_id=f"c4:u:{table_id}:v:{rule}", options=options or [],
                                           placeholder=placeholder))
        self.table_id = table_id
        self.rule = rule

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str]) -> HouseValueSelect:
        """Rebuild the item from the custom_id of a click (also after a restart)."""
        return cls(int(match["table"]), match["rule"])

    async def callback(self, interaction: discord.Interaction) -> None:
        """Hand the chosen value to the house handler."""
        await _handler(interaction).on_house_value(interaction, self.table_id, self.rule, chosen_value(interaction))


HOUSE_ITEMS = (HouseButton, HouseRuleSelect, HouseValueSelect)
"""Registered by the house cog."""
