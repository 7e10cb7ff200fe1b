"""Command options checked against what the command declares, before its body runs.

Discord's clients offer only a command's choices and keep numbers within its ranges, but the interaction
that reaches the bot is whatever was sent: discord.py checks neither. `OptionCheckedTree` refuses, with one
ephemeral answer in the user's language (``err.bad_option``), an option the command does not have, a value
outside its choices and a number outside its range; nothing runs and nothing is stored.
"""

from __future__ import annotations

import logging
from collections.abc import Iterator
from typing import Any

import discord
from discord import app_commands

from bot.i18n import t

from . import answer

log = logging.getLogger(__name__)

SUBCOMMAND_TYPES = (1, 2)
"""Option types that hold options: a subcommand and a subcommand group."""


def leaf_options(options: list[dict[str, Any]]) -> Iterator[dict[str, Any]]:
    """The value options of an interaction's ``data.options``, below its subcommand (group)."""
    for option in options:
        if int(option.get("type", 0)) in SUBCOMMAND_TYPES:
            yield from leaf_options(list(option.get("options") or []))
        else:
            yield option


def bad_option(command: app_commands.Command[Any, ..., Any], options: list[dict[str, Any]]) -> str | None:
    """The name of the first option of ``options`` that ``command`` does not accept as sent (an unknown
    option, a value outside its choices, a number outside its range); None when all are acceptable.
    Autocompleted options are not checked here (their command checks them)."""
    declared = {parameter.display_name: parameter for parameter in command.parameters}
    for option in leaf_options(options):
        name = str(option.get("name"))
        parameter = declared.get(name)
        if parameter is None:
            return name
        value = option.get("value")
        if parameter.choices and value not in {choice.value for choice in parameter.choices}:
            return name
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            if parameter.min_value is not None and value < parameter.min_value:
                return name
            if parameter.max_value is not None and value > parameter.max_value:
                return name
    return None


class OptionCheckedTree(app_commands.CommandTree[Any]):
    """The bot's command tree: every slash command's options are checked (`bad_option`) before it runs."""

    async def interaction_check(self, interaction: discord.Interaction[Any], /) -> bool:
        """False, after answering ``err.bad_option`` ephemerally, when an option is not acceptable."""
        command = interaction.command
        data: dict[str, Any] = dict(interaction.data or {})
        if interaction.type is not discord.InteractionType.application_command:
            return True
        if not isinstance(command, app_commands.Command):
            return True
        name = bad_option(command, list(data.get("options") or []))
        if name is None:
            return True
        log.info("interaction %s: option %r refused", interaction.id, name)
        async with answer.watchdog(interaction):
            lang = await answer.language(interaction)
            await answer.reply(interaction, t("err.bad_option", lang))
        return False

    async def on_error(self, interaction: discord.Interaction[Any], error: app_commands.AppCommandError, /) -> None:
        """An option discord.py could not convert (`TransformerError`: say, a Member option naming someone
        who is not in the server) was already answered ``err.bad_option`` by the cog's error handler: it is
        logged as a refusal, not as a traceback. Any other error is logged as discord.py does."""
        if isinstance(error, app_commands.TransformerError) and interaction.response.is_done():
            log.info("interaction %s: option refused (%s)", interaction.id, error)
            return
        await super().on_error(interaction, error)
