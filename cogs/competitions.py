"""``/cuarenta find [mode]`` and ``/cuarenta queue``, the queue buttons and the match ready check.
Thin: read the interaction, call the queue service, answer ephemerally in the user's language. No SQL,
no game logic. The commands join the ``/cuarenta`` group of the tables cog (as the leaderboard's do)."""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from bot.competitions import QUEUE_ITEMS, QueueButton, QueueDiscord, QueueService, queue_payload
from bot.competitions.present import cancelled_text
from bot.competitions.queue import ACCEPT_TIMEOUT
from bot.i18n import t
from bot.tables import ForeignObjectError, TableError
from bot.ui import answer
from bot.ui.actions import Actions
from bot.ui.render import make_view
from cogs.common import GroupedCog, command_text, require_thread_permissions

if TYPE_CHECKING:
    from bot.app import CuarentaBot

log = logging.getLogger(__name__)

MODE_CHOICES = [app_commands.Choice(name="1v1", value="1v1"), app_commands.Choice(name="2v2", value="2v2")]
BUTTON_MODES = {"a": "1v1", "b": "2v2"}


class CompetitionsCog(GroupedCog):
    """The matchmaking queue on Discord."""

    ITEMS = QUEUE_ITEMS

    def bind(self, actions: Actions, bound: bool) -> None:
        """Answer (``bound``) or stop answering the queue and match buttons."""
        actions.queue = self if bound else None

    @property
    def queue(self) -> QueueService:
        """The bot's queue service."""
        return self.bot.queue

    @property
    def presenter(self) -> QueueDiscord:
        """The queue's Discord presenter."""
        return self.bot.queue_presenter

    def refusal_params(self, params: dict[str, object], lang: str) -> dict[str, object]:
        """A queue mode in words."""
        return _mode_words(params, lang)

    # ------------------------------------------------------------------ commands

    @app_commands.command(name=command_text("find", "cmd.find.name"),
                          description=command_text("Wait in this server's queue for a match", "cmd.find.desc"))
    @app_commands.rename(mode=command_text("mode", "opt.mode.name"))
    @app_commands.describe(mode=command_text("1 v 1 or 2 v 2 (default 1 v 1)", "opt.queue_mode.desc"))
    @app_commands.choices(mode=MODE_CHOICES)
    @app_commands.guild_only()
    async def find(self, interaction: discord.Interaction, mode: str = "1v1") -> None:
        """Join the queue of this server."""
        await self._guard(interaction, lambda lang: self._join(interaction, interaction.guild_id or 0, mode, lang))

    @app_commands.command(name=command_text("queue", "cmd.queue.name"),
                          description=command_text("Make this channel the match queue and post its buttons (Manage Server)",
                                                   "cmd.queue.desc"))
    @app_commands.guild_only()
    async def queue_here(self, interaction: discord.Interaction) -> None:
        """Make this channel the server's queue channel and post the queue message (pin it)."""

        async def run(lang: str) -> None:
            if not (interaction.permissions and interaction.permissions.manage_guild):
                raise TableError("err.need_manage_guild")
            if not isinstance(interaction.channel, discord.TextChannel):
                raise TableError("err.queue_text_channel")
            require_thread_permissions(interaction, lang)
            guild_id = interaction.guild_id or 0
            public = await self.bot.tables.public_language(guild_id)
            message = await interaction.channel.send(**queue_payload(guild_id, self.queue.counts(guild_id),
                                                                     public).send_kwargs())
            await self.queue.set_channel(guild_id, interaction.channel.id, message.id)
            await answer.reply(interaction, t("ok.queue_channel_set", lang))

        await self._guard(interaction, run)

    @app_commands.command(name=command_text("organizers", "cmd.organizers.name"),
                          description=command_text("Let a role organize leagues and tournaments (Manage Server)",
                                                   "cmd.organizers.desc"))
    @app_commands.rename(role=command_text("role", "opt.role.name"))
    @app_commands.describe(role=command_text("The organizer role (leave empty: Manage Server only)", "opt.role.desc"))
    @app_commands.guild_only()
    async def organizers(self, interaction: discord.Interaction, role: discord.Role | None = None) -> None:
        """Set the server's league-organizer role."""

        async def run(lang: str) -> None:
            if not (interaction.permissions and interaction.permissions.manage_guild):
                raise TableError("err.need_manage_guild")
            settings = self.bot.competition_settings
            await settings.set_organizer_role(interaction.guild_id or 0, role.id if role else None)
            text = (t("ok.organizers_set", lang, role=f"<@&{role.id}>") if role else t("ok.organizers_cleared", lang))
            await answer.reply(interaction, text)

        await self._guard(interaction, run)

    # ------------------------------------------------------------------ components (bot.competitions.items)

    async def _join(self, interaction: discord.Interaction, guild_id: int, mode: str, lang: str) -> None:
        count = await self.queue.join(guild_id=guild_id, user_id=interaction.user.id,
                                      name=interaction.user.display_name, locale=lang, mode=mode)
        entry = self.queue.entries.get(interaction.user.id)
        view = None
        if entry is not None:
            view = make_view([QueueButton(guild_id, "x", label=t("queue.leave", lang))])
            text = t("ok.queue_joined", lang, mode=t(f"queue.mode.{mode}", lang), count=count)
        else:  # matched at once
            text = t("ok.queue_matched", lang, seconds=int(ACCEPT_TIMEOUT))
        if view is not None:
            await answer.reply(interaction, text, view=view)
        else:
            await answer.reply(interaction, text)

    async def on_queue_button(self, interaction: discord.Interaction, guild_id: int, action: str) -> None:
        """The queue message's buttons and the "still here" DM."""

        async def run(lang: str) -> None:
            # the custom_id names a server only to be checked: the queue joined is the interaction's server's
            # (the "still here" and "leave" buttons of a DM act on the user's own entry)
            if interaction.guild_id is not None and guild_id != interaction.guild_id:
                raise ForeignObjectError()
            if interaction.guild_id is None:  # a DM's buttons name the server of the user's own entry
                entry = self.queue.entries.get(interaction.user.id)
                if entry is None or entry.guild_id != guild_id:
                    raise ForeignObjectError()
            if action in BUTTON_MODES:
                if interaction.guild_id is None:
                    raise ForeignObjectError()
                await self._join(interaction, interaction.guild_id, BUTTON_MODES[action], lang)
            elif action == "x":
                entry = await self.queue.leave(interaction.user.id)
                await answer.reply(interaction, t("ok.queue_left", lang, mode=t(f"queue.mode.{entry.mode}", lang)))
            else:
                await self.queue.still_here(interaction.user.id)
                await answer.reply(interaction, t("ok.queue_still", lang))

        await self._guard(interaction, run)

    @commands.Cog.listener()
    async def on_raw_member_remove(self, payload: discord.RawMemberRemoveEvent) -> None:
        """A member left the server or was removed: they leave its queue (needs the members intent, see
        `bot.config`; their table seat is handled by ``cogs.tables``)."""
        try:
            await self.queue.member_gone(payload.guild_id, payload.user.id)
        except Exception:
            log.exception("queue: member removed: failed")

    async def on_match_button(self, interaction: discord.Interaction, match_id: int, accept: bool) -> None:
        """Accept or decline a proposed match."""

        async def run(lang: str) -> None:
            guild_id = self.queue.match_guild(match_id)
            if interaction.guild_id is not None and guild_id not in (None, interaction.guild_id):
                raise ForeignObjectError()  # a match of another server, whoever it names
            proposal = await self.queue.answer(match_id, interaction.user.id, accept)
            if not accept:
                text = t("ok.match_declined", lang)
            elif proposal.status == "started":
                text = t("ok.match_started", lang, table=proposal.table_id, link=f"<#{proposal.channel_id}>")
            elif proposal.status == "cancelled" and proposal.seated:  # someone sat down elsewhere
                text = cancelled_text(proposal, lang)
            elif proposal.status == "cancelled":
                text = t("err.match_gone", lang)
            else:
                text = t("ok.match_accepted", lang)
            await answer.reply(interaction, text)

        await self._guard(interaction, run)


def _mode_words(params: dict[str, object], lang: str) -> dict[str, object]:
    out = dict(params)
    if isinstance(out.get("mode"), str):
        out["mode"] = t(f"queue.mode.{out['mode']}", lang)
    return out


async def setup(bot: CuarentaBot) -> None:
    """Extension entry point (after ``cogs.tables``)."""
    await bot.add_cog(CompetitionsCog(bot))
