"""How a persistent component's click reaches the code that answers it, typed.

Every `discord.ui.DynamicItem` (``bot/ui/items.py``, ``bot/ui/boards.py``, ``bot/competitions/items.py``,
``bot/replays/items.py``, ``bot/learn/items.py``, ``bot/houserules/items.py``,
``bot/privacy/items.py``) holds no logic: its
callback calls one method of an *actions* object, the same method the matching slash command calls (the
``/cuarenta hand`` command and the «My hand» button both end in the tables cog's hand action, say). The
interfaces those callbacks call are the `typing.Protocol` classes below; the objects that implement them
(the cogs) bind themselves into the bot's `Actions` registry when they load, and the items find that
registry through `actions_of` — one typed path, no attribute set on the client by name.

This module imports nothing from ``cogs`` or ``bot.app``: the bot class declares ``actions: Actions``,
and `ActionHost` states that shape for the one cast in `actions_of`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol, TypeVar, cast

import discord


class TableActions(Protocol):
    """What the table components call (`bot.ui.items`; implemented by `cogs.tables.TablesCog`)."""

    async def on_lobby(self, interaction: discord.Interaction, table_id: int, action: str) -> None:
        """A lobby button (action in `bot.ui.items.LOBBY_ACTIONS`)."""

    async def on_card(self, interaction: discord.Interaction, table_id: int, nonce: int, card: str) -> None:
        """A card button of a hand shown at turn ``nonce``."""

    async def on_trail(self, interaction: discord.Interaction, table_id: int, nonce: int, card: str) -> None:
        """The trail control: ``card`` to trail."""

    async def on_capture(self, interaction: discord.Interaction, table_id: int, nonce: int, card: str,
                         value: str) -> None:
        """The capture choice: ``value`` is codes joined by '.', or `bot.ui.items.TRAIL_VALUE`."""

    async def on_my_hand(self, interaction: discord.Interaction, table_id: int) -> None:
        """"Ver mi mano / My hand"."""

    async def on_why(self, interaction: discord.Interaction, table_id: int, newest: int | None = None,
                     back: int | None = None) -> None:
        """«¿Por qué?» (``newest`` None: the button) or a pick in its menu: play ``newest - back``."""

    async def on_plays(self, interaction: discord.Interaction, table_id: int, hand: int) -> None:
        """«Ver jugadas» on a hand's record."""

    async def on_rematch(self, interaction: discord.Interaction, table_id: int) -> None:
        """Rematch."""

    async def on_back(self, interaction: discord.Interaction, table_id: int) -> None:
        """"I'm back": an away player takes their seat back."""

    async def on_level(self, interaction: discord.Interaction, table_id: int, level: str) -> None:
        """The lobby's level select: add a computer player of ``level``."""

    async def on_rematch_vote(self, interaction: discord.Interaction, table_id: int, accept: bool) -> None:
        """A vote in a rematch ready check."""


class BoardActions(Protocol):
    """What the leaderboard buttons call (`bot.ui.boards`; implemented by `cogs.leaderboard`)."""

    async def on_board(self, interaction: discord.Interaction, guild_id: int, season: int | None, mode: str,
                       page: int) -> None:
        """A leaderboard button: page ``page`` of ``mode`` in ``season`` (None: the current one)."""


class QueueActions(Protocol):
    """What the queue and match buttons call (`bot.competitions.items`; implemented by
    `cogs.competitions`)."""

    async def on_queue_button(self, interaction: discord.Interaction, guild_id: int, action: str) -> None:
        """A queue button: a/b wait for 1 v 1 / 2 v 2, x leave, s "still here"."""

    async def on_match_button(self, interaction: discord.Interaction, match_id: int, accept: bool) -> None:
        """Accept or decline a proposed match."""


class LeagueActions(Protocol):
    """What the league buttons call (implemented by `cogs.leagues`)."""

    async def on_league_button(self, interaction: discord.Interaction, league_id: int, action: str) -> None:
        """j sign up, c close the sign-up, p «Jugar»."""


class TournamentActions(Protocol):
    """What the tournament buttons call (implemented by `cogs.tournaments`)."""

    async def on_tournament_button(self, interaction: discord.Interaction, tournament_id: int,
                                   action: str) -> None:
        """j sign up, c close and seed, p «Jugar»."""


class ReplayActions(Protocol):
    """What the replay buttons call (`bot.replays.items`; implemented by `cogs.replays`)."""

    async def on_step(self, interaction: discord.Interaction, table_id: int, step: int) -> None:
        """Show step ``step`` of mesa ``table_id`` in place."""


class LearnActions(Protocol):
    """What the guide's components call (`bot.learn.items`; implemented by `cogs.learn`)."""

    async def on_guide_page(self, interaction: discord.Interaction, page: int) -> None:
        """Show page ``page`` (0-based) of the guide."""


class HouseActions(Protocol):
    """What the house-rules editor calls (`bot.houserules.items`; implemented by `cogs.house`)."""

    async def on_house_button(self, interaction: discord.Interaction, table_id: int, action: str) -> None:
        """o open the editor, x back to the preset, d save as the server's default."""

    async def on_house_rule(self, interaction: discord.Interaction, table_id: int, rule: str) -> None:
        """The rule to change was picked."""

    async def on_house_value(self, interaction: discord.Interaction, table_id: int, rule: str,
                             token: str) -> None:
        """The value of ``rule`` was picked."""


class PrivacyActions(Protocol):
    """What the buttons of a member's data call (`bot.privacy.items`; implemented by `cogs.privacy`)."""

    async def on_privacy_button(self, interaction: discord.Interaction, action: str) -> None:
        """e export, a ask to delete, c confirm the deletion: always of the clicker's own data."""


@dataclass
class Actions:
    """The bot's registry of component actions, one typed slot per family of components; a cog fills its
    slot when it loads and empties it when it unloads. An empty slot means that cog is not loaded."""

    tables: TableActions | None = None
    boards: BoardActions | None = None
    queue: QueueActions | None = None
    leagues: LeagueActions | None = None
    tournaments: TournamentActions | None = None
    replays: ReplayActions | None = None
    learn: LearnActions | None = None
    house: HouseActions | None = None
    privacy: PrivacyActions | None = None


class ActionHost(Protocol):
    """A client that carries an `Actions` registry (`bot.app.CuarentaBot`)."""

    actions: Actions


class ActionsMissingError(RuntimeError):
    """A click reached a family of components whose cog is not loaded."""


_A = TypeVar("_A")


def actions_of(interaction: discord.Interaction) -> Actions:
    """The `Actions` registry of the bot this interaction came to (the one cast from ``interaction.client``)."""
    return cast(ActionHost, interaction.client).actions


def need(action: _A | None, what: str) -> _A:
    """``action`` itself, or raise `ActionsMissingError` naming ``what`` when its slot is empty."""
    if action is None:
        raise ActionsMissingError(f"no {what} actions: their cog is not loaded")
    return action
