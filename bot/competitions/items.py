"""Persistent components of the queue. custom_id formats (under 100 characters):

    ``c4:q:<guild>:<action>``   the queue message and DMs: a (wait for 1 v 1), b (wait for 2 v 2),
                                x (leave the queue), s ("still here")
    ``c4:g:<league>:<action>``  a league: j (sign up), c (close the sign-up), p («Jugar»: my fixture)
    ``c4:o:<tournament>:<action>``  a tournament: j (sign up), c (close and seed), p («Jugar»: my match)
    ``c4:m:<match>:<vote>``     a proposed match: y (accept) or n (decline); the match id lives in memory
                                only, so after a restart the click is told the match is no longer open

Callbacks call the bot's queue, league and tournament actions (`bot.ui.actions`, the cogs): no logic here.
"""

from __future__ import annotations

import re
from typing import Any

import discord

from bot.ui.actions import QueueActions, actions_of, need
from bot.ui.items import button_of

QUEUE_ACTIONS = {"a": "1v1", "b": "2v2"}


def _handler(interaction: discord.Interaction) -> QueueActions:
    """The queue actions of the bot this click came to (`bot.ui.actions`)."""
    return need(actions_of(interaction).queue, "queue")


class QueueButton(discord.ui.DynamicItem[discord.ui.Button], template=r"c4:q:(?P<guild>\d+):(?P<action>[abxs])"):
    """Join (1 v 1 / 2 v 2), leave, or "still here"."""

    def __init__(self, guild_id: int, action: str, *, label: str = "·",
                 style: discord.ButtonStyle = discord.ButtonStyle.secondary) -> None:
        super().__init__(discord.ui.Button(label=label, style=style, custom_id=f"c4:q:{guild_id}:{action}"))
        self.guild_id = guild_id
        self.action = action

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str]) -> QueueButton:
        """Rebuild the item from the custom_id of a click (also after a restart)."""
        button = button_of(item)
        return cls(int(match["guild"]), match["action"], label=button.label or "·")

    async def callback(self, interaction: discord.Interaction) -> None:
        """Hand the click to the queue handler."""
        await _handler(interaction).on_queue_button(interaction, self.guild_id, self.action)


class MatchButton(discord.ui.DynamicItem[discord.ui.Button], template=r"c4:m:(?P<match>\d+):(?P<vote>[yn])"):
    """Accept or decline a proposed match."""

    def __init__(self, match_id: int, accept: bool, *, label: str = "·") -> None:
        style = discord.ButtonStyle.success if accept else discord.ButtonStyle.secondary
        super().__init__(discord.ui.Button(label=label, style=style,
                                           custom_id=f"c4:m:{match_id}:{'y' if accept else 'n'}"))
        self.match_id = match_id
        self.accept = accept

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str]) -> MatchButton:
        """Rebuild the item from the custom_id of a click (also after a restart)."""
        button = button_of(item)
        return cls(int(match["match"]), match["vote"] == "y", label=button.label or "·")

    async def callback(self, interaction: discord.Interaction) -> None:
        """Hand the answer to the queue handler."""
        await _handler(interaction).on_match_button(interaction, self.match_id, self.accept)


QUEUE_ITEMS = (QueueButton, MatchButton)
"""Register with ``bot.add_dynamic_items(*QUEUE_ITEMS)``."""


class LeagueButton(discord.ui.DynamicItem[discord.ui.Button], template=r"c4:g:(?P<league>\d+):(?P<action>[jcp])"):
    """A league's buttons: j (sign up, on the sign-up message), c (close the sign-up: the organizer),
    p («Jugar»: my fixture of this round, on the round message)."""

    def __init__(self, league_id: int, action: str, *, label: str = "·",
                 style: discord.ButtonStyle = discord.ButtonStyle.secondary) -> None:
        super().__init__(discord.ui.Button(label=label, style=style, custom_id=f"c4:g:{league_id}:{action}"))
        self.league_id = league_id
        self.action = action

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str]) -> LeagueButton:
        """Rebuild the item from the custom_id of a click (also after a restart)."""
        button = button_of(item)
        return cls(int(match["league"]), match["action"], label=button.label or "·")

    async def callback(self, interaction: discord.Interaction) -> None:
        """Hand the click to the league handler."""
        await need(actions_of(interaction).leagues, "league").on_league_button(
            interaction, self.league_id, self.action)


LEAGUE_ITEMS = (LeagueButton,)
"""Register with ``bot.add_dynamic_items(*LEAGUE_ITEMS)``."""


class TournamentButton(discord.ui.DynamicItem[discord.ui.Button],
                       template=r"c4:o:(?P<tournament>\d+):(?P<action>[jcp])"):
    """A tournament's buttons: j (sign up), c (close the sign-up and seed), p («Jugar»: my match)."""

    def __init__(self, tournament_id: int, action: str, *, label: str = "·",
                 style: discord.ButtonStyle = discord.ButtonStyle.secondary) -> None:
        super().__init__(discord.ui.Button(label=label, style=style, custom_id=f"c4:o:{tournament_id}:{action}"))
        self.tournament_id = tournament_id
        self.action = action

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str]) -> TournamentButton:
        """Rebuild the item from the custom_id of a click (also after a restart)."""
        button = button_of(item)
        return cls(int(match["tournament"]), match["action"], label=button.label or "·")

    async def callback(self, interaction: discord.Interaction) -> None:
        """Hand the click to the tournament handler."""
        await need(actions_of(interaction).tournaments, "tournament").on_tournament_button(
            interaction, self.tournament_id, self.action)


TOURNAMENT_ITEMS = (TournamentButton,)
"""Register with ``bot.add_dynamic_items(*TOURNAMENT_ITEMS)``."""
