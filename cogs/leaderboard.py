"""``/cuarenta leaderboard | stats | history | season start | season end | settings`` and the leaderboard
buttons. Thin: read the interaction, ask the ratings repository (through the table service), render with
`bot.ui.boards`, answer. No SQL, no game logic.

The commands join the ``/cuarenta`` group of the tables cog: they are declared here as usual (so
discord.py binds them to this cog and routes errors here), and `LeaderboardCog.cog_load` moves them
into that group instead of the tree's top level; `cog_unload` takes them out again.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable
from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from bot.houserules.present import settings_lines
from bot.houserules.service import HouseRules
from bot.i18n import t
from bot.ratings import NoCurrentSeasonError, Ratings, RatingsError, Season, SeasonClose, UnknownSeasonError
from bot.tables import TableError, TableService
from bot.ui import answer, boards
from bot.ui.render import Payload
from bot.web.links import add_link, settings_field
from cogs.common import LANGUAGE_CHOICES, PRESET_CHOICES, Action, command_error_text, command_text, guard

if TYPE_CHECKING:
    from bot.app import CuarentaBot

log = logging.getLogger(__name__)


MODE_CHOICES = [app_commands.Choice(name="2v2", value="2v2"), app_commands.Choice(name="1v1", value="1v1")]
HOUSE_CHOICES = [
    app_commands.Choice(name=command_text("Save the ones of this channel's table", "choice.house.save"), value="save"),
    app_commands.Choice(name=command_text("Clear the server's", "choice.house.clear"), value="clear"),
]
PLACE_CHOICES = [
    app_commands.Choice(name=command_text("the channel (everyone sees the table)", "choice.table_place.channel"),
                        value="channel"),
    app_commands.Choice(name=command_text("a thread of the channel per table", "choice.table_place.thread"),
                        value="thread"),
]
RESET_CHOICES = [
    app_commands.Choice(name=command_text("none (keep ratings)", "choice.reset.none"), value="none"),
    app_commands.Choice(name=command_text("soft (halfway back)", "choice.reset.soft"), value="soft"),
    app_commands.Choice(name=command_text("hard (start fresh)", "choice.reset.hard"), value="hard"),
]


async def _refusal(error: Exception) -> Exception:
    """A ratings error as the refusal to show (house-rules refusals keep their own reason)."""
    if isinstance(error, UnknownSeasonError):
        return TableError("err.unknown_season")
    if isinstance(error, NoCurrentSeasonError):
        return TableError("err.no_season")
    if isinstance(error, RatingsError):
        return TableError("err.bad_setting")
    return error


class LeaderboardCog(commands.Cog):
    """Ratings on Discord: leaderboard pages, stats, history, seasons and server settings."""

    season = app_commands.Group(name=command_text("season", "cmd.season.name"),
                                description=command_text("Start or end a rating season (Manage Server)", "cmd.season.desc"))

    def __init__(self, bot: CuarentaBot) -> None:
        self.bot = bot
        self._moved: list[app_commands.Command | app_commands.Group] = []

    @property
    def service(self) -> TableService:
        """The bot's table service."""
        return self.bot.tables

    @property
    def ratings(self) -> Ratings:
        """The ratings repository (shares the store's connection)."""
        return self.service.ratings

    async def cog_load(self) -> None:
        """Put this cog's commands under ``/cuarenta`` and become the leaderboard buttons' handler."""
        group = self.bot.tree.get_command("cuarenta")
        if not isinstance(group, app_commands.Group):
            raise RuntimeError("load cogs.tables (the /cuarenta group) before cogs.leaderboard")
        for command in self.__cog_app_commands__:
            group.add_command(command)
            self._moved.append(command)
        self.__cog_app_commands__ = []  # not top-level commands: the group holds them
        self.bot.actions.boards = self
        self.bot.add_dynamic_items(*boards.BOARD_ITEMS)

    async def cog_unload(self) -> None:
        """Take the commands out of ``/cuarenta`` again."""
        group = self.bot.tree.get_command("cuarenta")
        if isinstance(group, app_commands.Group):
            for command in self._moved:
                group.remove_command(command.name)
        self._moved.clear()
        self.bot.actions.boards = None
        self.bot.remove_dynamic_items(*boards.BOARD_ITEMS)

    async def cog_app_command_error(self, interaction: discord.Interaction,
                                    error: app_commands.AppCommandError) -> None:
        """Errors raised before a command body runs (checks, conversions): an ephemeral message."""
        try:
            await self._send(interaction, Payload(content=command_error_text(interaction, error)), ephemeral=True)
        except discord.HTTPException:
            pass

    # ------------------------------------------------------------------ helpers

    @staticmethod
    async def _send(interaction: discord.Interaction, payload: Payload, *, ephemeral: bool) -> None:
        """Answer with ``payload``: the initial response, or a follow-up once answered or acknowledged
        (`bot.ui.answer.reply`, under the interaction's answer lock)."""
        await answer.reply(interaction, ephemeral=ephemeral, **payload.send_kwargs())

    async def _guard(self, interaction: discord.Interaction, action: Action, *, public: bool = False) -> None:
        """`cogs.common.guard` (``public``: a command whose answer is public, acknowledged publicly if the
        guard acts, so the answer stays public); a ratings error is refused with its own reason."""
        await guard(interaction, action, explain=_refusal, public=public)

    @staticmethod
    def _require_manager(interaction: discord.Interaction) -> None:
        if not (interaction.permissions and interaction.permissions.manage_guild):
            raise TableError("err.need_manage_guild")

    async def _names(self, interaction: discord.Interaction, users: Iterable[int | None],
                     extra: Iterable[discord.abc.User] = ()) -> dict[int, str]:
        """Display names: the members at hand, then the guild's member cache, then the name a user had at
        their last seat here. Users still missing are shown as mentions by the renderer."""
        known: dict[int, str] = {u.id: u.display_name for u in (interaction.user, *extra)}
        guild = interaction.guild
        out: dict[int, str] = {}
        missing: list[int] = []
        for user in users:
            if user is None or user in out:
                continue
            if user in known:
                out[user] = known[user]
            elif guild is not None and (member := guild.get_member(user)) is not None:
                out[user] = member.display_name
            else:
                missing.append(user)
        if missing:
            out.update(await self.service.seat_names(interaction.guild_id or 0, missing))
        return out

    async def _board(self, interaction: discord.Interaction, guild_id: int, mode: str, season: int | None,
                     page: int, lang: str) -> Payload:
        board = await self.ratings.leaderboard(guild_id, mode, season=season, page=page, viewer=interaction.user.id)
        names = await self._names(interaction, [r.user_id for r in board.rows])
        url = await self.bot.web_links.leaderboard(guild_id, board.mode, season)
        return add_link(boards.leaderboard_payload(board, guild_id, names, lang), url, t("web.link", lang))

    # ------------------------------------------------------------------ commands

    @app_commands.command(name=command_text("leaderboard", "cmd.leaderboard.name"),
                          description=command_text("This server's rating leaderboard", "cmd.leaderboard.desc"))
    @app_commands.rename(mode=command_text("mode", "opt.mode.name"), season=command_text("season", "opt.season.name"),
                         pinned=command_text("pinned", "opt.pinned.name"))
    @app_commands.describe(mode=command_text("1v1 or 2v2 (default: the one played most here)", "opt.mode.desc"),
                           season=command_text("A season number (default: the current one)", "opt.season.desc"),
                           pinned=command_text("Post a leaderboard the bot keeps current here, or remove it "
                                               "(Manage Server)", "opt.pinned.desc"))
    @app_commands.choices(mode=MODE_CHOICES)
    async def leaderboard(self, interaction: discord.Interaction, mode: str | None = None,
                          season: app_commands.Range[int, 1, 100000] | None = None,
                          pinned: bool | None = None) -> None:
        """Post a leaderboard page (public, in the server's language) with ◀ ▶ and the 1v1/2v2 switch;
        without ``mode``, on the mode with the most rated chicas this season (`Ratings.busiest_mode`).
        With ``pinned`` (Manage Server): post the live leaderboard of the mode in this channel, which the
        bot keeps current (`bot.ratings.live`), or, ``pinned`` false, remove the server's live one of the
        mode (of both without ``mode``); answered ephemerally."""

        async def run(lang: str) -> None:
            guild_id = interaction.guild_id or 0
            if pinned is not None:
                await self._live(interaction, guild_id, mode, pinned, lang)
                return
            public = await self.service.public_language(guild_id)
            shown = mode or await self.ratings.busiest_mode(guild_id)
            payload = await self._board(interaction, guild_id, shown, season, 0, public)
            await self._send(interaction, payload, ephemeral=False)

        await self._guard(interaction, run, public=pinned is None)

    def _standings_changed(self, guild_id: int) -> None:
        """A season started or ended, or a leaderboard setting changed: the server's live boards are due an
        edit."""
        for choice in MODE_CHOICES:
            self.bot.live_boards.changed(guild_id, choice.value)

    async def _live(self, interaction: discord.Interaction, guild_id: int, mode: str | None, pinned: bool,
                    lang: str) -> None:
        """Pin or remove a live leaderboard (Manage Server, from the interaction's permissions)."""
        self._require_manager(interaction)
        live = self.bot.live_boards
        if pinned:
            shown = mode or await self.ratings.busiest_mode(guild_id)
            if await live.pin(guild_id, shown, interaction.channel_id or 0) is None:
                raise TableError("err.live_board_failed")
            text = t("board.live_posted", lang, mode=shown)
        else:
            removed = await live.unpin(guild_id, [mode] if mode else [c.value for c in MODE_CHOICES])
            text = (t("board.live_removed", lang, modes=", ".join(b.mode for b in removed)) if removed
                    else t("board.live_none", lang))
        await self._send(interaction, Payload(content=text), ephemeral=True)

    async def on_board(self, interaction: discord.Interaction, guild_id: int, season: int | None, mode: str,
                       page: int) -> None:
        """A leaderboard button. The person who asked for the board turns its pages; anyone else gets
        their own copy, ephemerally, with their own place in the footer, and so does a board button's id
        pressed on a message that is not a board (`boards.is_board`)."""

        async def run(lang: str) -> None:
            if guild_id != interaction.guild_id:  # a board never shows another server's data
                raise TableError("err.button_gone_other")
            message = interaction.message
            meta = getattr(message, "interaction_metadata", None) if message is not None else None
            owner = meta.user.id if meta is not None and meta.user is not None else None
            if message is not None and not message.flags.ephemeral and (owner not in (None, interaction.user.id)
                                                                        or not boards.is_board(message)):
                payload = await self._board(interaction, guild_id, mode, season, page, lang)
                await self._send(interaction, payload, ephemeral=True)
                return
            shown = lang if message is not None and message.flags.ephemeral else \
                await self.service.public_language(guild_id)
            payload = await self._board(interaction, guild_id, mode, season, page, shown)
            await answer.edit(interaction, **payload.edit_kwargs())

        await self._guard(interaction, run)

    @app_commands.command(name=command_text("stats", "cmd.stats.name"),
                          description=command_text("A player's record on this server", "cmd.stats.desc"))
    @app_commands.rename(user=command_text("user", "opt.user.name"))
    @app_commands.describe(user=command_text("The player (default: you)", "opt.user.desc"))
    async def stats(self, interaction: discord.Interaction, user: discord.User | None = None) -> None:
        """Mesas, chicas, win rate per mode, caídas, limpias, rondas, zapateros, streak, rating, last 10,
        partner (ephemeral, in the caller's language)."""

        async def run(lang: str) -> None:
            who = user or interaction.user
            stats = await self.ratings.stats(interaction.guild_id or 0, who.id)
            users = [who.id, *(stats.partner[:1] if stats.partner else ())]
            payload = boards.stats_payload(stats, await self._names(interaction, users, [who]), lang)
            url = await self.bot.web_links.player(interaction.guild_id or 0, who.id)
            await self._send(interaction, add_link(payload, url, t("web.link", lang)), ephemeral=True)

        await self._guard(interaction, run)

    @app_commands.command(name=command_text("history", "cmd.history.name"),
                          description=command_text("A player's recent mesas on this server", "cmd.history.desc"))
    @app_commands.rename(user=command_text("user", "opt.user.name"))
    @app_commands.describe(user=command_text("The player (default: you)", "opt.user.desc"))
    async def history(self, interaction: discord.Interaction, user: discord.User | None = None) -> None:
        """Recent finished mesas with score, partners and opponents (ephemeral)."""

        async def run(lang: str) -> None:
            who = user or interaction.user
            lines = await self.ratings.history(interaction.guild_id or 0, who.id, limit=10)
            users = [who.id] + [u for line in lines for u in (*line.partners, *line.opponents)]
            payload = boards.history_payload(who.id, lines, await self._names(interaction, users, [who]), lang)
            url = await self.bot.web_links.player(interaction.guild_id or 0, who.id)
            await self._send(interaction, add_link(payload, url, t("web.link", lang)), ephemeral=True)

        await self._guard(interaction, run)

    @season.command(name=command_text("start", "cmd.season_start.name"),
                    description=command_text("Close the current season and start a new one (Manage Server)",
                                             "cmd.season_start.desc"))
    @app_commands.rename(name=command_text("name", "opt.season_name.name"))
    @app_commands.describe(name=command_text("The new season's name", "opt.season_name.desc"))
    async def season_start(self, interaction: discord.Interaction,
                           name: app_commands.Range[str, 1, 64]) -> None:
        """Close the open season (freeze it, post its top 10) and start ``name`` with the server's reset."""

        async def run(lang: str) -> None:
            self._require_manager(interaction)
            public = await self.service.public_language(interaction.guild_id or 0)
            result = await self.ratings.start_season(interaction.guild_id or 0, name)
            self._standings_changed(interaction.guild_id or 0)
            if isinstance(result, Season):
                payload = boards.season_started_payload(result, public)
            else:
                payload = await self._closed_payload(interaction, result, public)
            await self._send(interaction, payload, ephemeral=False)

        await self._guard(interaction, run)

    @season.command(name=command_text("end", "cmd.season_end.name"),
                    description=command_text("Close the current season and post its top 10 (Manage Server)",
                                             "cmd.season_end.desc"))
    async def season_end(self, interaction: discord.Interaction) -> None:
        """Close the open season: freeze its standings, post the top 10, start the next one."""

        async def run(lang: str) -> None:
            self._require_manager(interaction)
            public = await self.service.public_language(interaction.guild_id or 0)
            result = await self.ratings.end_season(interaction.guild_id or 0)
            self._standings_changed(interaction.guild_id or 0)
            await self._send(interaction, await self._closed_payload(interaction, result, public), ephemeral=False)

        await self._guard(interaction, run)

    async def _closed_payload(self, interaction: discord.Interaction, result: SeasonClose, lang: str) -> Payload:
        users = [r.user_id for rows in result.top.values() for r in rows]
        return boards.season_close_payload(result, await self._names(interaction, users), lang)

    @app_commands.command(name=command_text("settings", "cmd.settings.name"),
                          description=command_text("This server's Cuarenta settings (Manage Server)", "cmd.settings.desc"))
    @app_commands.rename(language=command_text("language", "opt.language.name"),
                         rated_bots=command_text("rated_bots", "opt.rated_bots.name"),
                         min_games=command_text("min_games", "opt.min_games.name"),
                         active_days=command_text("active_days", "opt.active_days.name"),
                         reset=command_text("reset", "opt.reset.name"), preset=command_text("preset", "opt.default_preset.name"),
                         house=command_text("house_rules", "opt.house.name"), house_rated=command_text("house_rated", "opt.house_rated.name"),
                         tables_in=command_text("tables_in", "opt.table_place.name"),
                         web=command_text("web", "opt.web.name"))
    @app_commands.describe(language=command_text("Language of public messages", "opt.settings_language.desc"),
                           rated_bots=command_text("Rate games with computer players", "opt.rated_bots.desc"),
                           min_games=command_text("Rated chicas needed for a rank on the leaderboard", "opt.min_games.desc"),
                           active_days=command_text("Days since the last rated chica to stay on it (0: no limit)",
                                                    "opt.active_days.desc"),
                           reset=command_text("What a new season does to ratings", "opt.reset.desc"),
                           preset=command_text("Default rules preset of new tables", "opt.default_preset.desc"),
                           house=command_text("Save this channel's table's house rules as the server's, or clear them",
                                              "opt.house.desc"),
                           house_rated=command_text("Whether tables with house rules are rated (default: no)",
                                                    "opt.house_rated.desc"),
                           tables_in=command_text("Where /cuarenta new opens a table (default: the channel)",
                                                  "opt.table_place.desc"),
                           web=command_text("The server's public web pages: leaderboard, profiles, replays",
                                            "opt.web.desc"))
    @app_commands.choices(language=LANGUAGE_CHOICES, reset=RESET_CHOICES, preset=PRESET_CHOICES, house=HOUSE_CHOICES,
                          tables_in=PLACE_CHOICES)
    async def settings(self, interaction: discord.Interaction, language: str | None = None,
                       rated_bots: bool | None = None, min_games: app_commands.Range[int, 0, 1000] | None = None,
                       active_days: app_commands.Range[int, 0, 3650] | None = None, reset: str | None = None,
                       preset: str | None = None, house: str | None = None,
                       house_rated: bool | None = None, tables_in: str | None = None,
                       web: bool | None = None) -> None:
        """Show the settings, or change the ones given (Manage Server). ``house``: ``save`` this channel's
        table's house rules as the server's default, or ``clear`` them; ``house_rated``: whether mesas
        under house rules are rated; ``tables_in``: where ``/cuarenta new`` opens a table, ``channel`` or
        ``thread`` (`bot.ratings.Settings.table_place`); ``web``: the server's public web pages on or off
        (`bot.web`)."""

        async def run(lang: str) -> None:
            self._require_manager(interaction)
            guild_id = interaction.guild_id or 0
            changes: dict[str, object] = {}
            if rated_bots is not None:
                changes["rate_bots"] = rated_bots
            if min_games is not None:
                changes["min_games"] = min_games
            if active_days is not None:
                changes["active_days"] = active_days
            if reset is not None:
                changes["reset_policy"] = reset
            if preset is not None:
                changes["default_preset"] = preset
            if tables_in is not None:
                changes["table_place"] = tables_in
            houses = HouseRules(self.service)
            if house == "save":  # checked before any change: a refusal changes nothing
                await houses.save_default(guild_id, self.service.table_in_channel(interaction.channel_id or 0))
            current = await self.ratings.set_settings(guild_id, **changes)  # validates first: a refusal changes nothing
            if language is not None:
                await self.service.set_public_language(guild_id, language)
            if house == "clear":
                await houses.clear_default(guild_id)
            if house_rated is not None:
                await houses.set_rated(guild_id, house_rated)
            links = self.bot.web_links
            if web is not None:
                await links.set_pages(guild_id, web)
            changed = (bool(changes) or language is not None or house is not None or house_rated is not None
                       or web is not None)
            if changes or language is not None:
                self._standings_changed(guild_id)
            setting = await self.service.house.get(guild_id)
            words = settings_lines(setting.house, setting.rated, current.default_preset, lang)
            payload = boards.settings_payload(current, lang, changed=changed, house=words)
            payload = settings_field(payload, await links.pages_on(guild_id), await links.leaderboard(guild_id), lang)
            await self._send(interaction, payload, ephemeral=True)

        await self._guard(interaction, run)


async def setup(bot: CuarentaBot) -> None:
    """Extension entry point (after ``cogs.tables``, which owns the ``/cuarenta`` group)."""
    await bot.add_cog(LeaderboardCog(bot))
