"""Every component click gets exactly one answer.

discord.py runs a `discord.ui.DynamicItem`'s callback only when the click's custom_id matches a registered
template *and* the message, as Discord sends it with the interaction, still carries a component with that
custom_id. A click on a hand that was edited in the meantime (a double click, a copy of the hand from an
earlier turn, a button of an earlier version of a message) fails that second test; discord.py then drops
it silently and the user sees "This interaction failed".

`ComponentRouter.on_interaction` (a listener on every interaction) answers exactly the clicks that
discord.py will not dispatch:

- a custom_id of ours (any registered template, today's or an earlier version's, since the templates are
  kept) goes to the same callback as a live button, rebuilt from the custom_id alone. The table service
  then decides as for any click: the play is made if it is still valid, else the refusal says why (a
  stale hand is answered with the current hand, `cogs.tables`);
- any other custom_id (malformed, unknown, foreign) gets an ephemeral "this button is no longer in use"
  in the user's language.

The two paths are exclusive by construction (`is_dispatched` is the same test discord.py applies), so no
click is answered twice.
"""

from __future__ import annotations

import logging
import re
import typing
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import Any

import discord

from bot.i18n import t

from . import answer

log = logging.getLogger(__name__)

DynamicFactory = type[discord.ui.DynamicItem[Any]]


def template_of(factory: DynamicFactory) -> re.Pattern[str]:
    """The compiled custom_id template of an item class (what discord.py matches a click against)."""
    return factory.__discord_ui_compiled_template__


_component_types: dict[DynamicFactory, int | None] = {}
"""`component_type_of` per item class, computed once (a dict, not ``functools.cache``: typeshed does not
see a ``DynamicItem`` class as hashable)."""


def component_type_of(factory: DynamicFactory) -> int | None:
    """The Discord component type an item class wraps (2 a button, 3 a string select), from its
    ``DynamicItem[...]`` base; None when it declares neither."""
    if factory not in _component_types:
        _component_types[factory] = _declared_component_type(factory)
    return _component_types[factory]


def _declared_component_type(factory: DynamicFactory) -> int | None:
    """`component_type_of`, uncached."""
    for base in getattr(factory, "__orig_bases__", ()):
        for arg in typing.get_args(base):
            if isinstance(arg, type) and issubclass(arg, discord.ui.Button):
                return 2
            if isinstance(arg, type) and issubclass(arg, discord.ui.Select):
                return 3
    return None


def message_components(message: discord.Message | None) -> Iterator[tuple[int, str]]:
    """The ``(component type, custom_id)`` of every interactive component of a message (rows and their
    children), as Discord sent the message with the interaction."""
    if message is None:
        return
    stack: list[Any] = list(message.components)
    while stack:
        component = stack.pop()
        custom_id = getattr(component, "custom_id", None)
        if custom_id:
            yield int(component.type.value), str(custom_id)
        stack.extend(getattr(component, "children", ()) or ())


def is_dispatched(factories: Iterable[DynamicFactory], component_type: int, custom_id: str,
                  message: discord.Message | None) -> bool:
    """True when discord.py's DynamicItem dispatch will run a callback for this click: a registered
    template fully matches ``custom_id`` and ``message`` still carries ``(component_type, custom_id)``."""
    if not any(template_of(f).fullmatch(custom_id) for f in factories):
        return False
    return (component_type, custom_id) in set(message_components(message))


HAND_PREFIXES = ("c4:p:", "c4:t:", "c4:c:", "c4:h:", "c4:b:")
"""Hand controls: a gone one is answered with how to open the hand again."""


class ComponentRouter:
    """The fallback for component clicks that discord.py drops.

    Args:
        factories: returns every `DynamicItem` class registered with the client at the time of a click
            (`bot.app.CuarentaBot.dynamic_factories`).
    """

    def __init__(self, factories: Callable[[], Sequence[DynamicFactory]]) -> None:
        self._factories = factories

    @property
    def factories(self) -> tuple[DynamicFactory, ...]:
        """The registered item classes, now."""
        return tuple(self._factories())

    def route(self, custom_id: str) -> tuple[DynamicFactory, re.Match[str]] | None:
        """The item class whose template matches ``custom_id``, with the match; None for an id that is
        not ours (or malformed)."""
        for factory in self.factories:
            match = template_of(factory).fullmatch(custom_id)
            if match is not None:
                return factory, match
        return None

    async def on_interaction(self, interaction: discord.Interaction) -> None:
        """Answer a component click that discord.py will not dispatch (see the module docstring)."""
        if interaction.type is not discord.InteractionType.component:
            return
        data: dict[str, Any] = dict(interaction.data or {})
        custom_id = str(data.get("custom_id", ""))
        component_type = int(data.get("component_type", 0))
        if is_dispatched(self.factories, component_type, custom_id, interaction.message):
            return
        found = self.route(custom_id)
        if found is None or component_type not in (2, 3):
            await self.gone(interaction)
            return
        factory, match = found
        if component_type_of(factory) not in (None, component_type):  # a select's id sent as a button …
            log.info("interaction %s: a component of type %d sent an id of another type; answered as gone",
                     interaction.id, component_type)
            await self.gone(interaction)
            return
        base: discord.ui.Item[Any]
        if component_type == 2:
            base = discord.ui.Button(custom_id=custom_id)
        else:
            base = discord.ui.Select(custom_id=custom_id, options=[discord.SelectOption(label="·", value="·")])
        try:
            item = await factory.from_custom_id(interaction, base, match)
        except Exception:
            log.exception("interaction %s: rebuilding a component failed", interaction.id)
            await self.gone(interaction)
            return
        log.debug("interaction %s: answered a click that is no longer on its message", interaction.id)
        await item.callback(interaction)

    @staticmethod
    async def gone(interaction: discord.Interaction) -> None:
        """Answer ephemerally that this button is no longer in use (in the user's language)."""
        if interaction.response.is_done():
            return
        try:
            data: dict[str, Any] = dict(interaction.data or {})
            custom_id = str(data.get("custom_id", ""))
            key = "err.button_gone" if custom_id.startswith(HAND_PREFIXES) else "err.button_gone_other"
            async with answer.watchdog(interaction):
                lang = await answer.language(interaction)  # may read the store: under the 3-second guard
                await answer.reply(interaction, t(key, lang))
        except discord.HTTPException as exc:
            log.info("interaction %s: could not answer (%s %s)", interaction.id, exc.status, exc.code)
