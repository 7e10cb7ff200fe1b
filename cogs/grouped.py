"""The shared frame of the competition cogs: their commands join the ``/cuarenta`` group of the tables cog,
they handle their own persistent components, and every command or click runs under one guard that
answers exactly once (`bot.ui.answer`) with refusals in the user's language. No game logic, no SQL."""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from typing import Any, ClassVar

import discord
from discord import app_commands
from discord.ext import commands

from bot.i18n import t
from bot.tables import TableError
from bot.ui import answer
from cogs.tables import command_error_text

log = logging.getLogger(__name__)


class GroupedCog(commands.Cog):
    """A cog whose commands live under ``/cuarenta``.

    Subclasses set ``ITEMS`` (their `DynamicItem` classes) and ``HANDLER`` (the bot attribute through
    which those items reach the cog)."""

    ITEMS: ClassVar[tuple[type[discord.ui.DynamicItem[Any]], ...]] = ()
    HANDLER: ClassVar[str] = ""

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot
        self._moved: list[app_commands.Command[Any, ..., Any] | app_commands.Group] = []

    async def cog_load(self) -> None:
        """Put the commands under ``/cuarenta``, become the items' handler, register the items."""
        group = self.bot.tree.get_command("cuarenta")
        if not isinstance(group, app_commands.Group):
            raise RuntimeError(f"load cogs.tables (the /cuarenta group) before {type(self).__name__}")
        for command in self.__cog_app_commands__:
            group.add_command(command)
            self._moved.append(command)
        self.__cog_app_commands__ = []
        if self.HANDLER:
            setattr(self.bot, self.HANDLER, self)
        self.bot.add_dynamic_items(*self.ITEMS)

    async def cog_unload(self) -> None:
        """Take the commands out of ``/cuarenta`` again."""
        group = self.bot.tree.get_command("cuarenta")
        if isinstance(group, app_commands.Group):
            for command in self._moved:
                group.remove_command(command.name)
        self._moved.clear()
        self.bot.remove_dynamic_items(*self.ITEMS)

    async def cog_app_command_error(self, interaction: discord.Interaction,
                                    error: app_commands.AppCommandError) -> None:
        """Errors raised before a command body runs: an ephemeral message."""
        try:
            await answer.reply(interaction, command_error_text(interaction, error))
        except discord.HTTPException:
            pass

    def refusal_params(self, params: dict[str, object], lang: str) -> dict[str, object]:
        """Turn a refusal's parameters into words (subclasses translate their own)."""
        return params

    async def explain(self, error: TableError, interaction: discord.Interaction) -> TableError:
        """A refusal made more precise before it is shown (subclasses: an ended league or tournament rather
        than an unknown one); by default ``error`` itself."""
        return error

    async def _guard(self, interaction: discord.Interaction, action: Callable[[str], Awaitable[None]]) -> None:
        """Run ``action(lang)`` under the 3-second guard; a `TableError` (made precise by `explain`) becomes
        an ephemeral message in the user's language, anything else is logged and answered with a generic
        error."""
        async with answer.watchdog(interaction):
            lang = await answer.language(interaction)  # may read the store: under the 3-second guard
            try:
                try:
                    await action(lang)
                except TableError as refused:
                    raise await self.explain(refused, interaction) from None
            except TableError as error:
                log.info("interaction %s refused: %s", interaction.id, error.key)
                await answer.reply(interaction, t(error.key, lang, **self.refusal_params(dict(error.params), lang)))
            except Exception:
                log.exception("interaction %s failed", interaction.id)
                try:
                    await answer.reply(interaction, t("err.generic", lang))
                except discord.HTTPException:
                    pass


def league_words(params: dict[str, object], lang: str) -> dict[str, object]:
    """A refusal's ``what`` (which league or tournament field was wrong), in words."""
    if "what" in params:
        params["what"] = t(f"league.what.{params['what']}", lang)
    return params
