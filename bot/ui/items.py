"""Persistent components (`discord.ui.DynamicItem`): their custom_id carries the table id, and for hand
controls the turn nonce and the card, so clicks route after a restart and stale clicks are refused.

custom_id formats (all under 100 characters):
    ``c4:l:<table>:<action>``            lobby button; action a (join A), b (join B), x (leave), s (start);
                                         c (computer) is only on lobbies posted by earlier versions
    ``c4:p:<table>:<nonce>:<card>``      play a card from the hand shown at turn <nonce>
    ``c4:t:<table>:<nonce>``             select: trail a card that could capture (values: card codes)
    ``c4:c:<table>:<nonce>:<card>``      select: which capture to make with <card> (values: codes joined by '.', '-' = trail)
    ``c4:h:<table>``                     the "my hand" button on the public table message
    ``c4:y:<table>``                     "¿Por qué?": the table's last play explained, ephemerally
    ``c4:e:<table>:<newest>``            "¿Por qué?"'s menu: explain the play <value> back from play <newest>
    ``c4:r:<table>``                     rematch
    ``c4:b:<table>``                     "I'm back": take your seat back from the computer player
    ``c4:v:<table>``                     lobby select: add a computer player of the chosen level (facil/medio/dificil)
    ``c4:k:<table>:<vote>``              rematch ready check: vote y (accept) or n (decline)
    ``c4:j:<table>:<hand>``              «Ver jugadas» on a hand's record: that hand's plays, ephemerally

Callbacks call the bot's table actions (`bot.ui.actions.TableActions`, the tables cog), the same methods
its slash commands call, so this module holds no game logic.
"""

from __future__ import annotations

import re
from typing import Any

import discord

from .actions import TableActions, actions_of, need

LOBBY_ACTIONS = ("a", "b", "c", "x", "s")
TRAIL_VALUE = "-"


def _handler(interaction: discord.Interaction) -> TableActions:
    """The table actions of the bot this click came to (`bot.ui.actions`)."""
    return need(actions_of(interaction).tables, "table")


def chosen_value(interaction: discord.Interaction) -> str:
    """The first value chosen in a select, from the interaction's own data ("" when none). Read from the
    payload, not the rebuilt item, so that `bot.ui.router` can answer a click on a select that is no
    longer on its message the same way."""
    data: dict[str, Any] = dict(interaction.data or {})
    values = data.get("values") or []
    return str(values[0]) if values else ""


def button_of(item: discord.ui.Item[Any]) -> discord.ui.Button[Any]:
    """The button discord.py hands to a button item's ``from_custom_id`` (the component clicked, or the
    one `bot.ui.router` rebuilds).

    Raises:
        TypeError: ``item`` is not a button (a button's custom_id sent with another component).
    """
    if not isinstance(item, discord.ui.Button):
        raise TypeError(f"a button's custom_id came with a {type(item).__name__}")
    return item


def select_of(item: discord.ui.Item[Any]) -> discord.ui.Select[Any]:
    """The string select discord.py hands to a select item's ``from_custom_id`` (see `button_of`).

    Raises:
        TypeError: ``item`` is not a string select.
    """
    if not isinstance(item, discord.ui.Select):
        raise TypeError(f"a select's custom_id came with a {type(item).__name__}")
    return item


class LobbyButton(discord.ui.DynamicItem[discord.ui.Button], template=r"c4:l:(?P<table>\d+):(?P<action>[abcxs])"):
    """A lobby button: join team A or B, add a computer player, leave, start."""

    def __init__(self, table_id: int, action: str, *, label: str = "·",
                 style: discord.ButtonStyle = discord.ButtonStyle.secondary) -> None:
        super().__init__(discord.ui.Button(label=label, style=style, custom_id=f"c4:l:{table_id}:{action}"))
        self.table_id = table_id
        self.action = action

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str]) -> LobbyButton:
        """Rebuild the item from the custom_id of a click (also after a restart)."""
        button = button_of(item)
        return cls(int(match["table"]), match["action"], label=button.label or "·", style=button.style)

    async def callback(self, interaction: discord.Interaction) -> None:
        """Hand the click to the component handler."""
        await _handler(interaction).on_lobby(interaction, self.table_id, self.action)


class _HandItem:
    """A control of a hand (a card, the trail menu, a capture menu): its repr, which discord.py logs when a
    callback raises ("Ignoring exception in dynamic item callback for …"), names the class and the table
    only, never a card of the hand."""

    table_id: int

    def __repr__(self) -> str:
        return f"<{type(self).__name__} table={getattr(self, 'table_id', '?')}>"


class CardButton(_HandItem, discord.ui.DynamicItem[discord.ui.Button],
                 template=r"c4:p:(?P<table>\d+):(?P<nonce>\d+):(?P<card>[A2-7JQK][SHDC]|W[12])"):
    """One card of a hand; a click plays it (or asks which capture when there are several)."""

    def __init__(self, table_id: int, nonce: int, card: str, *, label: str = "·", disabled: bool = False,
                 style: discord.ButtonStyle = discord.ButtonStyle.secondary,
                 emoji: discord.PartialEmoji | None = None) -> None:
        super().__init__(discord.ui.Button(label=label, style=style, disabled=disabled, emoji=emoji,
                                           custom_id=self.id_for(table_id, nonce, card)))
        self.table_id = table_id
        self.nonce = nonce
        self.card = card

    @staticmethod
    def id_for(table_id: int, nonce: int, card: str) -> str:
        """``c4:p:<table>:<nonce>:<card>``."""
        return f"c4:p:{table_id}:{nonce}:{card}"

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str]) -> CardButton:
        """Rebuild the item from the custom_id of a click (also after a restart)."""
        button = button_of(item)
        return cls(int(match["table"]), int(match["nonce"]), match["card"], label=button.label or "·",
                   emoji=button.emoji if isinstance(button.emoji, discord.PartialEmoji) else None)

    async def callback(self, interaction: discord.Interaction) -> None:
        """Hand the click to the component handler."""
        await _handler(interaction).on_card(interaction, self.table_id, self.nonce, self.card)


class TrailSelect(_HandItem, discord.ui.DynamicItem[discord.ui.Select], template=r"c4:t:(?P<table>\d+):(?P<nonce>\d+)"):
    """The explicit control to trail a card that could capture."""

    def __init__(self, table_id: int, nonce: int, *, options: list[discord.SelectOption] | None = None,
                 placeholder: str | None = None) -> None:
        super().__init__(discord.ui.Select(custom_id=self.id_for(table_id, nonce), placeholder=placeholder,
                                           options=options or [discord.SelectOption(label="·", value="·")]))
        self.table_id = table_id
        self.nonce = nonce

    @staticmethod
    def id_for(table_id: int, nonce: int) -> str:
        """``c4:t:<table>:<nonce>``."""
        return f"c4:t:{table_id}:{nonce}"

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str]) -> TrailSelect:
        """Rebuild the item from the custom_id of a click (also after a restart)."""
        select = select_of(item)
        return cls(int(match["table"]), int(match["nonce"]), options=select.options or None)

    async def callback(self, interaction: discord.Interaction) -> None:
        """Hand the click to the component handler."""
        await _handler(interaction).on_trail(interaction, self.table_id, self.nonce, chosen_value(interaction))


class CaptureSelect(_HandItem, discord.ui.DynamicItem[discord.ui.Select],
                    template=r"c4:c:(?P<table>\d+):(?P<nonce>\d+):(?P<card>[A2-7JQK][SHDC]|W[12])"):
    """The second step of an ambiguous play: which capture to make (or trail)."""

    def __init__(self, table_id: int, nonce: int, card: str, *,
                 options: list[discord.SelectOption] | None = None, placeholder: str | None = None) -> None:
        super().__init__(discord.ui.Select(custom_id=self.id_for(table_id, nonce, card), placeholder=placeholder,
                                           options=options or [discord.SelectOption(label="·", value="·")]))
        self.table_id = table_id
        self.nonce = nonce
        self.card = card

    @staticmethod
    def id_for(table_id: int, nonce: int, card: str) -> str:
        """``c4:c:<table>:<nonce>:<card>``."""
        return f"c4:c:{table_id}:{nonce}:{card}"

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str]) -> CaptureSelect:
        """Rebuild the item from the custom_id of a click (also after a restart)."""
        select = select_of(item)
        return cls(int(match["table"]), int(match["nonce"]), match["card"], options=select.options or None)

    async def callback(self, interaction: discord.Interaction) -> None:
        """Hand the click to the component handler."""
        await _handler(interaction).on_capture(interaction, self.table_id, self.nonce, self.card,
                                               chosen_value(interaction))


class HandButton(discord.ui.DynamicItem[discord.ui.Button], template=r"c4:h:(?P<table>\d+)"):
    """"Ver mi mano / My hand": the hand, ephemerally, for a player; a refusal for anyone else."""

    def __init__(self, table_id: int, *, label: str) -> None:
        super().__init__(discord.ui.Button(label=label, style=discord.ButtonStyle.primary,
                                           custom_id=self.id_for(table_id)))
        self.table_id = table_id

    @staticmethod
    def id_for(table_id: int) -> str:
        """``c4:h:<table>``."""
        return f"c4:h:{table_id}"

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str]) -> HandButton:
        """Rebuild the item from the custom_id of a click (also after a restart)."""
        button = button_of(item)
        return cls(int(match["table"]), label=button.label or "·")

    async def callback(self, interaction: discord.Interaction) -> None:
        """Hand the click to the component handler."""
        await _handler(interaction).on_my_hand(interaction, self.table_id)


class WhyButton(discord.ui.DynamicItem[discord.ui.Button], template=r"c4:y:(?P<table>\d+)"):
    """"¿Por qué?": the last play of the table explained, ephemerally, to whoever clicks, with a menu of
    the hand's last plays (`WhySelect`)."""

    def __init__(self, table_id: int, *, label: str) -> None:
        super().__init__(discord.ui.Button(label=label, style=discord.ButtonStyle.secondary,
                                           custom_id=self.id_for(table_id)))
        self.table_id = table_id

    @staticmethod
    def id_for(table_id: int) -> str:
        """``c4:y:<table>``."""
        return f"c4:y:{table_id}"

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str]) -> WhyButton:
        """Rebuild the item from the custom_id of a click (also after a restart)."""
        button = button_of(item)
        return cls(int(match["table"]), label=button.label or "·")

    async def callback(self, interaction: discord.Interaction) -> None:
        """Hand the click to the component handler (the last play explained, with the menu of the hand's
        last plays: `bot.ui.why`)."""
        await _handler(interaction).on_why(interaction, self.table_id)


class WhySelect(discord.ui.DynamicItem[discord.ui.Select], template=r"c4:e:(?P<table>\d+):(?P<step>\d+)"):
    """«¿Por qué?»'s menu of the hand's last plays (on its ephemeral answer): pick one to have it explained.
    The custom_id carries the table and the newest play listed (its index in the mesa); each value is a
    play's distance back from it."""

    def __init__(self, table_id: int, newest: int, *, options: list[discord.SelectOption] | None = None,
                 placeholder: str | None = None) -> None:
        super().__init__(discord.ui.Select(custom_id=self.id_for(table_id, newest), placeholder=placeholder,
                                           options=options or [discord.SelectOption(label="·", value="0")]))
        self.table_id = table_id
        self.newest = newest

    @staticmethod
    def id_for(table_id: int, newest: int) -> str:
        """``c4:e:<table>:<newest>``."""
        return f"c4:e:{table_id}:{newest}"

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str]) -> WhySelect:
        """Rebuild the item from the custom_id of a pick (also after a restart)."""
        select = select_of(item)
        return cls(int(match["table"]), int(match["step"]), options=select.options or None)

    async def callback(self, interaction: discord.Interaction) -> None:
        """Hand the pick to the component handler, which explains that play in place; a value that is no
        distance back (forged) explains the newest play."""
        value = chosen_value(interaction)
        await _handler(interaction).on_why(interaction, self.table_id, self.newest,
                                           int(value) if value.isdigit() else 0)


class RematchButton(discord.ui.DynamicItem[discord.ui.Button], template=r"c4:r:(?P<table>\d+)"):
    """Start a new mesa with the same seats."""

    def __init__(self, table_id: int, *, label: str) -> None:
        super().__init__(discord.ui.Button(label=label, style=discord.ButtonStyle.success,
                                           custom_id=f"c4:r:{table_id}"))
        self.table_id = table_id

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str]) -> RematchButton:
        """Rebuild the item from the custom_id of a click (also after a restart)."""
        button = button_of(item)
        return cls(int(match["table"]), label=button.label or "·")

    async def callback(self, interaction: discord.Interaction) -> None:
        """Hand the click to the component handler."""
        await _handler(interaction).on_rematch(interaction, self.table_id)


class PlaysButton(discord.ui.DynamicItem[discord.ui.Button], template=r"c4:j:(?P<table>\d+):(?P<hand>\d{1,4})"):
    """«Ver jugadas» on a hand's record: the hand's play-by-play, ephemerally, to whoever clicks (what was
    public only). The custom_id names the table and the hand, and grants nothing."""

    def __init__(self, table_id: int, hand: int, *, label: str) -> None:
        super().__init__(discord.ui.Button(label=label, style=discord.ButtonStyle.secondary,
                                           custom_id=self.id_for(table_id, hand)))
        self.table_id = table_id
        self.hand = hand

    @staticmethod
    def id_for(table_id: int, hand: int) -> str:
        """``c4:j:<table>:<hand>``."""
        return f"c4:j:{table_id}:{hand}"

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str]) -> PlaysButton:
        """Rebuild the item from the custom_id of a click (also after a restart)."""
        button = button_of(item)
        return cls(int(match["table"]), int(match["hand"]), label=button.label or "·")

    async def callback(self, interaction: discord.Interaction) -> None:
        """Hand the click to the component handler."""
        await _handler(interaction).on_plays(interaction, self.table_id, self.hand)


class BackButton(discord.ui.DynamicItem[discord.ui.Button], template=r"c4:b:(?P<table>\d+)"):
    """"I'm back" on an away player's hand: the computer player gives the seat back."""

    def __init__(self, table_id: int, *, label: str) -> None:
        super().__init__(discord.ui.Button(label=label, style=discord.ButtonStyle.success,
                                           custom_id=self.id_for(table_id)))
        self.table_id = table_id

    @staticmethod
    def id_for(table_id: int) -> str:
        """``c4:b:<table>``."""
        return f"c4:b:{table_id}"

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str]) -> BackButton:
        """Rebuild the item from the custom_id of a click (also after a restart)."""
        button = button_of(item)
        return cls(int(match["table"]), label=button.label or "·")

    async def callback(self, interaction: discord.Interaction) -> None:
        """Hand the click to the component handler."""
        await _handler(interaction).on_back(interaction, self.table_id)


class LevelSelect(discord.ui.DynamicItem[discord.ui.Select], template=r"c4:v:(?P<table>\d+)"):
    """In a lobby: add a computer player of the chosen level."""

    def __init__(self, table_id: int, *, options: list[discord.SelectOption] | None = None,
                 placeholder: str | None = None) -> None:
        super().__init__(discord.ui.Select(custom_id=f"c4:v:{table_id}", placeholder=placeholder,
                                           options=options or [discord.SelectOption(label="·", value="·")]))
        self.table_id = table_id

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str]) -> LevelSelect:
        """Rebuild the item from the custom_id of a click (also after a restart)."""
        select = select_of(item)
        return cls(int(match["table"]), options=select.options or None)

    async def callback(self, interaction: discord.Interaction) -> None:
        """Hand the choice to the component handler."""
        await _handler(interaction).on_level(interaction, self.table_id, chosen_value(interaction))


class RematchVoteButton(discord.ui.DynamicItem[discord.ui.Button], template=r"c4:k:(?P<table>\d+):(?P<vote>[yn])"):
    """Accept or decline the rematch of a finished table (its ready check)."""

    def __init__(self, table_id: int, accept: bool, *, label: str) -> None:
        style = discord.ButtonStyle.success if accept else discord.ButtonStyle.danger
        super().__init__(discord.ui.Button(label=label, style=style,
                                           custom_id=f"c4:k:{table_id}:{'y' if accept else 'n'}"))
        self.table_id = table_id
        self.accept = accept

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str]) -> RematchVoteButton:
        """Rebuild the item from the custom_id of a click (also after a restart)."""
        button = button_of(item)
        return cls(int(match["table"]), match["vote"] == "y", label=button.label or "·")

    async def callback(self, interaction: discord.Interaction) -> None:
        """Hand the vote to the component handler."""
        await _handler(interaction).on_rematch_vote(interaction, self.table_id, self.accept)


COMPUTER_LEVELS = ("facil", "medio", "dificil")
"""The levels a host can pick for a computer player (the lobby's select)."""

DYNAMIC_ITEMS = (LobbyButton, CardButton, TrailSelect, CaptureSelect, HandButton, RematchButton, BackButton,
                 LevelSelect, RematchVoteButton, WhyButton, WhySelect, PlaysButton)
"""Register these in ``setup_hook`` with ``bot.add_dynamic_items(*DYNAMIC_ITEMS)``."""
