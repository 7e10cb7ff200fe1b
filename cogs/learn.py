"""``/cuarenta ayuda`` (the paged guide, ephemeral) and ``/cuarenta reglas`` (a preset explained), with the
guide's ◀ ▶ buttons and topic select. Thin: the texts and payloads come from `bot.learn`; no game logic,
no SQL."""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands

from bot.engine import PRESET_NAMES
from bot.learn.items import LEARN_ITEMS
from bot.learn.present import guide_payload, preset_choice_key, preset_choice_name, rules_payload
from bot.ui import answer
from bot.ui.actions import Actions
from cogs.common import GroupedCog, command_text

if TYPE_CHECKING:
    from bot.app import CuarentaBot


PRESET_CHOICES = [app_commands.Choice(name=command_text(preset_choice_name(p), preset_choice_key(p)), value=p)
                  for p in PRESET_NAMES]
"""The presets in the command picker, each with a short localized description (``quito — …``)."""


class LearnCog(GroupedCog):
    """Learning the game: ``/cuarenta ayuda`` and ``/cuarenta reglas``; the handler of the guide's
    components (its slot of `bot.ui.actions.Actions`)."""

    ITEMS = LEARN_ITEMS

    def bind(self, actions: Actions, bound: bool) -> None:
        """Answer (``bound``) or stop answering the guide's components."""
        actions.learn = self if bound else None

    async def _public(self, interaction: discord.Interaction) -> str | None:
        """The server's public language, in which its table messages are written (None in a DM)."""
        if interaction.guild_id is None:
            return None
        return await self.bot.tables.public_language(interaction.guild_id)

    @app_commands.command(name=command_text("help", "cmd.help.name"),
                          description=command_text("Learn to play Cuarenta with a short guide", "cmd.help.desc"))
    async def help(self, interaction: discord.Interaction) -> None:
        """The guide's first page, ephemerally, in the user's language."""

        async def run(lang: str) -> None:
            await answer.reply(interaction, **guide_payload(0, lang, await self._public(interaction), faces=self.bot.faces).send_kwargs())

        await self._guard(interaction, run)

    async def on_guide_page(self, interaction: discord.Interaction, page: int) -> None:
        """◀, ▶ or the topic select on the guide: the same message shows page ``page`` (also after a
        restart: the page travels in the custom_id or the select's value)."""

        async def run(lang: str) -> None:
            await answer.edit_own(interaction, guide_payload(page, lang, await self._public(interaction), faces=self.bot.faces))

        await self._guard(interaction, run)

    @app_commands.command(name=command_text("rules", "cmd.rules.name"),
                          description=command_text("Explain a rules preset", "cmd.rules.desc"))
    @app_commands.rename(preset=command_text("preset", "opt.preset.name"))
    @app_commands.describe(preset=command_text("The preset to explain", "opt.preset.desc"))
    @app_commands.choices(preset=PRESET_CHOICES)
    async def rules(self, interaction: discord.Interaction, preset: str | None = None) -> None:
        """Explain a preset (default: this channel's table's, else quito) in the user's language."""

        async def run(lang: str) -> None:
            chosen, rules = preset, None
            if chosen is None:
                here = self.bot.tables.table_in_channel(interaction.channel_id or 0)
                chosen = here.preset if here else await self.bot.tables.default_preset(
                    interaction.guild_id or 0)
                rules = here.rules if here else None
            await answer.reply(interaction, **rules_payload(chosen, lang, rules).send_kwargs())

        await self._guard(interaction, run)


async def setup(bot: CuarentaBot) -> None:
    """Load the cog (after ``cogs.tables``, which owns ``/cuarenta``)."""
    await bot.add_cog(LearnCog(bot))
