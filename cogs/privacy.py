"""``/cuarenta privacidad`` (English ``privacy``): a member sees what the bot keeps about them, exports it
as a JSON file and deletes it; and the bot's leaving or joining a server, which starts or stops the
countdown to that server's data being deleted. Thin: read the interaction, call `bot.privacy`, answer
ephemerally in the member's language. No SQL.

The buttons are `bot.privacy.items.PrivacyButton` (custom_id ``c4:d:<action>``). Whose data a click exports
or deletes comes from the interaction alone (its user), never from the custom_id.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable
from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from bot.privacy import PrivacyService
from bot.privacy.items import PRIVACY_ITEMS
from bot.privacy.present import confirm_payload, deleted_payload, export_payload, summary_payload
from bot.ui import answer
from bot.ui.actions import Actions
from cogs.common import GroupedCog, command_text

if TYPE_CHECKING:
    from bot.app import CuarentaBot

log = logging.getLogger(__name__)


class PrivacyCog(GroupedCog):
    """A member's data: see, export, delete; a server's data after the bot left it."""

    ITEMS = PRIVACY_ITEMS

    def bind(self, actions: Actions, bound: bool) -> None:
        """Answer (``bound``) or stop answering the privacy buttons."""
        actions.privacy = self if bound else None

    @property
    def service(self) -> PrivacyService:
        """The bot's privacy service."""
        return self.bot.privacy

    @app_commands.command(name=command_text("privacy", "cmd.privacy.name"),
                          description=command_text("See, export or delete what the bot keeps about you",
                                                   "cmd.privacy.desc"))
    async def privacy(self, interaction: discord.Interaction) -> None:
        """Show the member, ephemerally, what is kept about them in every server, with the buttons."""

        async def run(lang: str) -> None:
            summary = await self.service.summary(interaction.user.id)
            await answer.reply(interaction, **summary_payload(summary, lang).send_kwargs())

        await self._guard(interaction, run)

    async def on_privacy_button(self, interaction: discord.Interaction, action: str) -> None:
        """e: the clicker's data as a JSON file (an ephemeral follow-up); a: ask to confirm the deletion;
        c: delete the clicker's data (the confirmation, when it is their ephemeral message, then says it is
        done, without its button). Always the clicker's own data, whatever message the button is on."""
        user_id = interaction.user.id

        async def run(lang: str) -> None:
            if action == "e":
                async with answer.answer_lock(interaction):
                    if not interaction.response.is_done():
                        await interaction.response.defer(ephemeral=True, thinking=True)
                data = await self.service.export(user_id)
                await answer.reply(interaction, **export_payload(data, lang).send_kwargs())
            elif action == "a":
                await answer.reply(interaction, **confirm_payload(lang).send_kwargs())
            else:
                await self.service.delete(user_id)
                await answer.edit_own(interaction, deleted_payload(lang))  # the question gives way to the answer

        await self._guard(interaction, run)

    @commands.Cog.listener()
    async def on_guild_remove(self, guild: discord.Guild) -> None:
        """The bot left or was removed from a server: its data goes in ``PRUNE_DAYS_AFTER_LEAVE`` days."""
        await _quietly("guild removed", self.service.guild_left(guild.id))

    @commands.Cog.listener()
    async def on_guild_join(self, guild: discord.Guild) -> None:
        """The bot joined a server (maybe again): nothing of it is to be pruned."""
        await _quietly("guild joined", self.service.guild_joined(guild.id))

    @commands.Cog.listener()
    async def on_ready(self) -> None:
        """Connected: the servers the bot was removed from while it was down start their countdown."""
        await _quietly("servers left while down",
                       self.service.reconcile({g.id for g in self.bot.guilds}, self.bot.settings.runs_guild))

    @commands.Cog.listener()
    async def on_guild_available(self, guild: discord.Guild) -> None:
        """A server of the bot's is there (at start, after an outage): the bot is in it, so nothing of it is
        to be pruned (a removal missed while the bot was down is undone by its presence)."""
        await _quietly("guild available", self.service.guild_joined(guild.id))


async def _quietly(what: str, work: Awaitable[object]) -> None:
    """Run a gateway event's work; a failure (the database away) is logged, not raised into discord.py."""
    try:
        await work
    except Exception:
        log.exception("privacy: handling %s failed", what)


async def setup(bot: CuarentaBot) -> None:
    """Extension entry point (after ``cogs.tables``, which owns the ``/cuarenta`` group)."""
    await bot.add_cog(PrivacyCog(bot))
