"""The buttons under a member's data (``/cuarenta privacidad``): persistent `discord.ui.DynamicItem`
components, so a click works after a restart.

custom_id format (the letter ``d`` is used by no other ``c4:`` component)::

    c4:d:<action>     e: export their data as a JSON file; a: ask to delete it; c: confirm the deletion.

The id names no person and no server: the data exported or deleted is always the clicking user's own
(the interaction's user), so a copied or forged id acts on whoever clicks it, and on nobody else. The
callback hands the click to the privacy actions (`bot.ui.actions.PrivacyActions`, the privacy cog).
"""

from __future__ import annotations

import re
from typing import Any

import discord

from bot.ui.actions import PrivacyActions, actions_of, need

ACTIONS = ("e", "a", "c")
"""Export, ask to delete, confirm the deletion."""


def _handler(interaction: discord.Interaction) -> PrivacyActions:
    """The privacy actions of the bot this click came to (`bot.ui.actions`)."""
    return need(actions_of(interaction).privacy, "privacy")


class PrivacyButton(discord.ui.DynamicItem[discord.ui.Button], template=r"c4:d:(?P<action>[eac])"):
    """«Exportar», «Borrar mis datos» or the confirmation of the deletion, for the clicker's own data."""

    def __init__(self, action: str, label: str = "·", *,
                 style: discord.ButtonStyle = discord.ButtonStyle.secondary) -> None:
        super().__init__(discord.ui.Button(label=label, style=style, custom_id=f"c4:d:{action}"))
        self.action = action

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str]) -> PrivacyButton:
        """Rebuild the item from the custom_id of a click (also after a restart)."""
        return cls(match["action"])

    async def callback(self, interaction: discord.Interaction) -> None:
        """Hand the click to the privacy handler (the privacy cog)."""
        await _handler(interaction).on_privacy_button(interaction, self.action)


PRIVACY_ITEMS = (PrivacyButton,)
"""Register with ``bot.add_dynamic_items(*PRIVACY_ITEMS)`` (the privacy cog does)."""

__all__ = ["ACTIONS", "PRIVACY_ITEMS", "PrivacyButton"]
