"""The lobby's «Reglas de la casa» (house rules) editor: its buttons and selects. Thin: read the
interaction, call `bot.houserules.HouseRules`, answer ephemerally in the user's language. No game logic,
no SQL. The editor is an ephemeral message of the host's; each choice edits it in place and re-renders
the lobby, which lists what differs from the preset."""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord

from bot.houserules.items import HOUSE_ITEMS
from bot.houserules.present import editor_payload
from bot.houserules.service import HouseRules
from bot.i18n import t
from bot.tables import LOBBY, ForeignObjectError, Table, TableError, TableService, WrongStateError
from bot.ui import answer
from bot.ui.actions import Actions
from cogs.common import GroupedCog

if TYPE_CHECKING:
    from bot.app import CuarentaBot


class HouseCog(GroupedCog):
    """House rules in the lobby, for its host; saving them as the server's default (Manage Server)."""

    ITEMS = HOUSE_ITEMS

    def bind(self, actions: Actions, bound: bool) -> None:
        """Answer (``bound``) or stop answering the house-rules editor."""
        actions.house = self if bound else None

    @property
    def house(self) -> HouseRules:
        """House rules over the bot's table service."""
        return HouseRules(self.tables)

    @property
    def tables(self) -> TableService:
        """The bot's table service."""
        return self.bot.tables

    async def _hosted_lobby(self, interaction: discord.Interaction, table_id: int) -> Table:
        table = await self.tables.fetch(table_id)
        if table.guild_id != interaction.guild_id:  # the editor lives in the lobby's server only
            raise ForeignObjectError()
        if not table.is_open:
            raise WrongStateError("err.finished")
        if table.status != LOBBY:
            raise WrongStateError("err.not_lobby")
        if table.host_id != interaction.user.id:
            raise TableError("err.host_only_house")
        return table

    @staticmethod
    def _can_manage(interaction: discord.Interaction) -> bool:
        return bool(interaction.permissions.manage_guild)

    async def on_house_button(self, interaction: discord.Interaction, table_id: int, action: str) -> None:
        """«Reglas de la casa» (open the editor), «Volver al reglamento» (drop them) or «Guardar para el
        servidor» (the server's default)."""

        async def run(lang: str) -> None:
            table = await self._hosted_lobby(interaction, table_id)
            if action == "o":
                payload = editor_payload(table, lang, can_save=self._can_manage(interaction))
                await answer.reply(interaction, **payload.send_kwargs())
            elif action == "x":
                table = await self.house.reset(table_id, user_id=interaction.user.id)
                payload = editor_payload(table, lang, can_save=self._can_manage(interaction))
                await answer.edit_own(interaction, payload)
            else:
                if not self._can_manage(interaction):
                    raise TableError("err.need_manage_guild")
                await self.house.save_default(interaction.guild_id or 0, table)
                await answer.reply(interaction, t("ok.house_default_saved", lang))

        await self._guard(interaction, run)

    async def on_house_rule(self, interaction: discord.Interaction, table_id: int, rule: str) -> None:
        """A rule picked in the editor: show its values."""

        async def run(lang: str) -> None:
            table = await self._hosted_lobby(interaction, table_id)
            try:
                payload = editor_payload(table, lang, rule=rule, can_save=self._can_manage(interaction))
            except ValueError:
                raise TableError("err.house_rule") from None
            await answer.edit_own(interaction, payload)

        await self._guard(interaction, run)

    async def on_house_value(self, interaction: discord.Interaction, table_id: int, rule: str, token: str) -> None:
        """A value picked: set it (refused, with the reason, when the engine cannot honour the
        combination), then show the editor again."""

        async def run(lang: str) -> None:
            await self._hosted_lobby(interaction, table_id)
            table = await self.house.choose(table_id, user_id=interaction.user.id, rule=rule, token=token)
            payload = editor_payload(table, lang, rule=rule, can_save=self._can_manage(interaction))
            await answer.edit_own(interaction, payload)

        await self._guard(interaction, run)


async def setup(bot: CuarentaBot) -> None:
    """Extension entry point (after ``cogs.tables``)."""
    await bot.add_cog(HouseCog(bot))
