"""The replay's buttons: persistent `discord.ui.DynamicItem` components whose custom_id carries the mesa
and the step they lead to, so a click works after a restart (nothing about a replay is kept in memory).

custom_id format (under 100 characters; the letter ``w`` is used by no other ``c4:`` component)::

    c4:w:<table>:<step>:<k>     <table> the mesa's table id; <step> the 0-based step the button shows;
                                k = b (⏮ previous hand), p (◀ previous play), n (▶ next play),
                                f (⏭ next hand), so the four ids of one message always differ.

A step past the end (a forged or stale id) is clamped by the handler. The callback hands the click to
the bot's replay actions (`bot.ui.actions.ReplayActions`, the replays cog), so this module holds no logic.
"""

from __future__ import annotations

import re
from typing import Any

import discord

from bot.ui.actions import ReplayActions, actions_of, need

KINDS = {"b": "⏮", "p": "◀", "n": "▶", "f": "⏭"}
"""Button kind → its label, in the order they are shown."""


def _handler(interaction: discord.Interaction) -> ReplayActions:
    """The replay actions of the bot this click came to (`bot.ui.actions`)."""
    return need(actions_of(interaction).replays, "replay")


class ReplayButton(discord.ui.DynamicItem[discord.ui.Button],
                   template=r"c4:w:(?P<table>\d+):(?P<step>\d+):(?P<k>[bpnf])"):
    """One of ⏮ ◀ ▶ ⏭ on a replay: shows step ``step`` of mesa ``table_id`` in place."""

    def __init__(self, table_id: int, step: int, kind: str, *, disabled: bool = False) -> None:
        super().__init__(discord.ui.Button(label=KINDS.get(kind, "·"), style=discord.ButtonStyle.secondary,
                                           disabled=disabled, custom_id=f"c4:w:{table_id}:{step}:{kind}"))
        self.table_id = table_id
        self.step = step
        self.kind = kind

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str]) -> ReplayButton:
        """Rebuild the item from the custom_id of a click (also after a restart)."""
        return cls(int(match["table"]), int(match["step"]), match["k"])

    async def callback(self, interaction: discord.Interaction) -> None:
        """Hand the click to the replay handler (the replays cog)."""
        await _handler(interaction).on_step(interaction, self.table_id, self.step)


REPLAY_ITEMS = (ReplayButton,)
"""Register with ``bot.add_dynamic_items(*REPLAY_ITEMS)`` (the replays cog does)."""

__all__ = ["KINDS", "REPLAY_ITEMS", "ReplayButton"]
