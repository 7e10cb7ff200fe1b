"""A message's controls as Discord's own JSON (action rows of buttons and selects), for the messages a
play rewrites every time: the hands. Building discord.py's ``View`` and ``Item`` objects for
them, only to turn them into this JSON once, was a fifth of a play's payload work.

`Components` stands where discord.py takes a ``view=`` (``send``, ``edit``, interaction answers and
follow-ups): it gives discord.py the rows as they are, and tells it there is nothing to keep in memory
(the controls are `bot.ui.items` dynamic items: clicks are routed by their custom_id, as for a stopped
view). The custom_ids come from the same formats as the items (``CardButton.id_for`` …), so a click
on them is dispatched exactly like one on the items.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

import discord

JSON = dict[str, Any]


def button(*, label: str, style: discord.ButtonStyle, custom_id: str | None = None, url: str | None = None,
           emoji: discord.PartialEmoji | None = None, disabled: bool = False) -> JSON:
    """A button (``custom_id``) or a link button (``url``), as discord.py's ``Button`` serializes it; the
    emoji's id as a string, as Discord's API schema types snowflakes."""
    data: JSON = {"type": 2, "style": style.value, "disabled": disabled, "label": label}
    if url is not None:
        data["url"] = url
    else:
        data["custom_id"] = custom_id
    if emoji is not None:
        data["emoji"] = emoji_json(emoji)
    return data


def emoji_json(emoji: discord.PartialEmoji) -> JSON:
    """``emoji`` as a component's emoji: name, and the id as a string for a custom emoji."""
    data: JSON = {"name": emoji.name}
    if emoji.id is not None:
        data["id"] = str(emoji.id)
    if emoji.animated:
        data["animated"] = True
    return data


def select(*, custom_id: str, options: Iterable[tuple[str, str]], placeholder: str | None = None) -> JSON:
    """A string select of ``(label, value)`` options, one choice, as discord.py's ``Select`` serializes it."""
    data: JSON = {"type": 3, "custom_id": custom_id, "min_values": 1, "max_values": 1, "disabled": False,
                  "required": True}
    if placeholder is not None:
        data["placeholder"] = placeholder
    data["options"] = [{"label": label, "value": value, "default": False} for label, value in options]
    return data


class Components:
    """Rows of controls (each a list of `button` / `select` JSON), where discord.py takes a ``view=``.

    ``to_components()`` returns the action rows; discord.py keeps nothing in memory for it
    (``is_finished()`` is True, ``is_dispatchable()`` False): clicks reach the dynamic items by custom_id.
    Empty rows are dropped.
    """

    __discord_ui_view__ = True
    timeout = None

    def __init__(self, rows: Sequence[Sequence[JSON]]) -> None:
        self._rows: list[JSON] = [{"type": 1, "components": list(row)} for row in rows if row]

    def to_components(self) -> list[JSON]:
        """The action rows, as sent."""
        return self._rows

    @property
    def items(self) -> list[JSON]:
        """Every control, row by row."""
        return [item for row in self._rows for item in row["components"]]

    def has_components_v2(self) -> bool:
        """Classic action rows only."""
        return False

    def is_finished(self) -> bool:
        """Nothing to wait for: discord.py stores no view for this message."""
        return True

    def is_dispatchable(self) -> bool:
        """Clicks are dispatched by the dynamic items' custom_ids, not by this object."""
        return False

    def __len__(self) -> int:
        return len(self.items)

    def __bool__(self) -> bool:
        return True


class Layout(Components):
    """A Components V2 message's components as Discord's JSON (containers, text displays, media galleries,
    action rows), where discord.py takes a ``view=``: discord.py sets the message's Components V2 flag
    (``has_components_v2``) and keeps nothing in memory, as for `Components`. The DM hand is one
    (`bot.ui.hand_layout`): built as JSON, like the classic hand's rows, not as ``discord.ui`` items."""

    def __init__(self, components: Sequence[JSON]) -> None:
        self._rows = list(components)

    @property
    def items(self) -> list[JSON]:
        """Every component of the tree, depth first (containers, rows and their controls included)."""
        out: list[JSON] = []
        stack = list(reversed(self._rows))
        while stack:
            component = stack.pop()
            out.append(component)
            stack.extend(reversed(component.get("components") or []))
        return out

    def has_components_v2(self) -> bool:
        """A Components V2 layout."""
        return True

