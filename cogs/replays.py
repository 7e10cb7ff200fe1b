"""``/cuarenta repetir mesa:<id>`` (English ``replay``) and the replay's ⏮ ◀ ▶ ⏭ buttons. Thin: read the
interaction, ask `bot.replays` for the finished mesa (rebuilt from its seed and plays), answer
ephemerally in the caller's language. No SQL, no game logic.

The buttons are `bot.replays.ReplayButton` (custom_id ``c4:w:<table>:<step>:<k>``): a click rebuilds the
mesa from the store and edits the ephemeral message in place, so they work after a restart. Refusals
(unknown mesa, another server's, still in play, closed unfinished) are `bot.replays.ReplayError`, which
the `GroupedCog` guard answers ephemerally; a refusal never shows a card.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands

from bot.i18n import t
from bot.replays import REPLAY_ITEMS, load, step_payload
from bot.replays.source import UnknownMesaError
from bot.store import Store
from bot.tables import ForeignObjectError, Table
from bot.ui import answer
from bot.ui.actions import Actions
from bot.ui.render import Payload
from bot.web.links import add_link
from cogs.common import GroupedCog, command_text

if TYPE_CHECKING:
    from bot.app import CuarentaBot

MAX_TABLE_ID = 2**53 - 1
"""The largest integer a Discord integer option carries."""


class ReplaysCog(GroupedCog):
    """Replays of finished mesas."""

    ITEMS = REPLAY_ITEMS

    def bind(self, actions: Actions, bound: bool) -> None:
        """Answer (``bound``) or stop answering the replay buttons."""
        actions.replays = self if bound else None

    @property
    def store(self) -> Store:
        """The bot's database."""
        return self.bot.store

    async def _linked(self, payload: Payload, table: Table, lang: str) -> Payload:
        """``payload`` with a link to the mesa's replay page when its server has pages (`bot.web`)."""
        url = await self.bot.web_links.mesa(table.guild_id, table.id)
        return add_link(payload, url, t("web.link", lang))

    @app_commands.command(name=command_text("replay", "cmd.replay.name"),
                          description=command_text("Replay a finished mesa from this server, play by play",
                                                   "cmd.replay.desc"))
    @app_commands.rename(mesa=command_text("mesa", "opt.mesa.name"))
    @app_commands.describe(mesa=command_text("The mesa's number (shown in /cuarenta history)", "opt.mesa.desc"))
    @app_commands.guild_only()
    async def replay(self, interaction: discord.Interaction,
                     mesa: app_commands.Range[int, 1, MAX_TABLE_ID]) -> None:
        """Show the first play of finished mesa ``mesa`` of this server, ephemerally, with its buttons."""

        async def run(lang: str) -> None:
            shown = await load(self.store, interaction.guild_id or 0, mesa)
            payload = await self._linked(step_payload(shown, 0, lang, faces=self.bot.faces), shown.table, lang)
            await answer.reply(interaction, **payload.send_kwargs())

        await self._guard(interaction, run)

    async def on_step(self, interaction: discord.Interaction, table_id: int, step: int) -> None:
        """A replay button: show step ``step`` (clamped) of mesa ``table_id`` in the same message."""

        async def run(lang: str) -> None:
            try:
                shown = await load(self.store, interaction.guild_id or 0, table_id)
            except UnknownMesaError:  # a replay's buttons name a mesa of this server only
                raise ForeignObjectError() from None
            payload = await self._linked(step_payload(shown, step, lang, faces=self.bot.faces), shown.table, lang)
            await answer.edit_own(interaction, payload)

        await self._guard(interaction, run)


async def setup(bot: CuarentaBot) -> None:
    """Extension entry point (after ``cogs.tables``, which owns the ``/cuarenta`` group)."""
    await bot.add_cog(ReplaysCog(bot))
