"""``/cuarenta ayuda`` (the paged guide, ephemeral) and ``/cuarenta reglas`` (a preset explained), with the
guide's ◀ ▶ buttons and topic select. Thin: the texts and payloads come from `bot.learn`; no game logic,
no SQL."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.app_commands import locale_str
from discord.ext import commands

from bot.engine import PRESET_NAMES
from bot.i18n import message
from bot.learn.items import LEARN_ITEMS
from bot.learn.present import guide_payload, preset_choice_key, preset_choice_name, rules_payload
from bot.ui import answer
from cogs.grouped import GroupedCog


def _text(default: str, key: str) -> locale_str:
    """A translatable command string; locales without a localization see the English catalog's text."""
    return locale_str(message(key, "en") or default, key=key)


PRESET_CHOICES = [app_commands.Choice(name=_text(preset_choice_name(p), preset_choice_key(p)), value=p)
                  for p in PRESET_NAMES]
"""The presets in the command picker, each with a short localized description (``quito — …``)."""


class LearnCog(GroupedCog):
    """Learning the game: ``/cuarenta ayuda`` and ``/cuarenta reglas``; the handler of the guide's
    components (``bot.learn_handler``)."""

    ITEMS = LEARN_ITEMS
    HANDLER = "learn_handler"

    async def _public(self, interaction: discord.Interaction) -> str | None:
        """The server's public language, in which its table messages are written (None in a DM)."""
        if interaction.guild_id is None:
            return None
        return await self.bot.tables.public_language(interaction.guild_id)  # type: ignore[attr-defined,no-any-return]

    @app_commands.command(name=_text("help", "cmd.help.name"),
                          description=_text("Learn to play Cuarenta with a short guide", "cmd.help.desc"))
    async def help(self, interaction: discord.Interaction) -> None:
        """The guide's first page, ephemerally, in the user's language."""

        async def run(lang: str) -> None:
            await answer.reply(interaction, **guide_payload(0, lang, await self._public(interaction)).send_kwargs())

        await self._guard(interaction, run)

    async def on_guide_page(self, interaction: discord.Interaction, page: int) -> None:
        """◀, ▶ or the topic select on the guide: the same message shows page ``page`` (also after a
        restart: the page travels in the custom_id or the select's value)."""

        async def run(lang: str) -> None:
            await answer.edit_own(interaction, guide_payload(page, lang, await self._public(interaction)))

        await self._guard(interaction, run)

    @app_commands.command(name=_text("rules", "cmd.rules.name"),
                          description=_text("Explain a rules preset", "cmd.rules.desc"))
    @app_commands.rename(preset=_text("preset", "opt.preset.name"))
    @app_commands.describe(preset=_text("The preset to explain", "opt.preset.desc"))
    @app_commands.choices(preset=PRESET_CHOICES)
    async def rules(self, interaction: discord.Interaction, preset: str | None = None) -> None:
        """Explain a preset (default: this channel's table's, else quito) in the user's language."""

        async def run(lang: str) -> None:
            chosen, rules = preset, None
            if chosen is None:
                here = self.bot.tables.table_in_channel(interaction.channel_id or 0)  # type: ignore[attr-defined]
                chosen = here.preset if here else await self.bot.tables.default_preset(  # type: ignore[attr-defined]
                    interaction.guild_id or 0)
                rules = here.rules if here else None
            await answer.reply(interaction, **rules_payload(chosen, lang, rules).send_kwargs())

        await self._guard(interaction, run)


async def setup(bot: commands.Bot) -> None:
    """Load the cog (after ``cogs.tables``, which owns ``/cuarenta``)."""
    await bot.add_cog(LearnCog(bot))
