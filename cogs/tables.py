"""``/cuarenta …`` commands and the table components' callbacks. Thin: read the interaction, call the
table service, answer (ephemeral errors in the user's language). No game logic, no SQL. The play
controls of a hand (card, trail, capture menu) are `cogs.table_play.TablePlayMixin`, mixed into the cog."""

from __future__ import annotations

import logging
from collections.abc import Awaitable
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.i18n import t
from bot.replays.present import replay_command
from bot.tables import LOBBY, PLAYING, Table, TableError, TableService
from bot.tables.errors import (
    BadOptionError,
    ForeignObjectError,
    NotPlayingError,
    SeatError,
    WrongStateError,
)
from bot.tables.rematch import READY_TIMEOUT
from bot.ui import answer, hand_layout, places, records, render, why
from bot.ui.items import COMPUTER_LEVELS
from bot.ui.notifier import DiscordNotifier
from cogs.common import LANGUAGE_CHOICES, PRESET_CHOICES, Action, command_error_text, command_text, guard, say
from cogs.table_play import TablePlayMixin

if TYPE_CHECKING:
    from bot.app import CuarentaBot

log = logging.getLogger(__name__)


PLAYER_CHOICES = [
    app_commands.Choice(name=command_text("2 v 2", "choice.players.4"), value=4),
    app_commands.Choice(name=command_text("1 v 1", "choice.players.2"), value=2),
]
TEAM_CHOICES = [
    app_commands.Choice(name=command_text("Team A", "choice.team.A"), value="A"),
    app_commands.Choice(name=command_text("Team B", "choice.team.B"), value="B"),
]


def _team_index(value: str | None) -> int | None:
    return None if value is None else (0 if value == "A" else 1)


class TablesCog(TablePlayMixin, commands.Cog):
    """The ``/cuarenta`` command group and the table buttons (lobby, hand, capture choice, rematch)."""

    cuarenta = app_commands.Group(
        name=command_text("cuarenta", "cmd.cuarenta.name"),
        description=command_text("Play Cuarenta, Ecuador's card game", "cmd.cuarenta.desc"),
        guild_only=True,
    )

    def __init__(self, bot: CuarentaBot) -> None:
        self.bot = bot

    @property
    def service(self) -> TableService:
        """The bot's table service."""
        return self.bot.tables

    @property
    def notifier(self) -> DiscordNotifier:
        """The bot's Discord presenter."""
        return self.bot.notifier

    async def cog_load(self) -> None:
        """Answer the table components' clicks (the bot's `bot.ui.actions.Actions`)."""
        self.bot.actions.tables = self

    async def cog_unload(self) -> None:
        """Stop answering them."""
        self.bot.actions.tables = None

    async def cog_app_command_error(self, interaction: discord.Interaction,
                                    error: app_commands.AppCommandError) -> None:
        """Errors raised before a command body runs (checks, conversions): an ephemeral message."""
        try:
            await self._say(interaction, command_error_text(interaction, error))
        except discord.HTTPException:
            pass

    # ------------------------------------------------------------------ helpers

    @staticmethod
    async def _say(interaction: discord.Interaction, text: str, **kwargs: Any) -> None:
        """Answer ephemerally (or follow up if already answered)."""
        await say(interaction, text, **kwargs)

    async def _guard(self, interaction: discord.Interaction, action: Action, table: Table | None = None) -> None:
        """`cogs.common.guard` for the tables: a refusal names the table it is about when this channel's
        table is not the user's own (or the seat when a seat is named); a host whose table's channel lacks
        a permission, and who could not be told by DM, is told after the answer (ephemeral, once)."""

        def refusal_text(error: TableError, lang: str) -> str:
            shown = table
            if shown is None and error.params.get("seat") is not None:
                shown = self.service.table_in_channel(interaction.channel_id or 0)
            text = render.error_text(error, lang, shown)
            here = self.service.table_in_channel(interaction.channel_id or 0)
            mine = self.service.table_of_user(interaction.user.id)
            if (here is not None and mine is not None and here is not mine and "table" not in error.params
                    and mine.guild_id == here.guild_id  # a table on another server is not "yours" here
                    and not isinstance(error, ForeignObjectError)):  # a forged id's click is about no table here
                text = f"{text} {t('err.about_table', lang, table=here.id, mine=mine.id)}"
            return text

        async def host_notice(lang: str) -> None:
            notice = self.notifier.host_notice(interaction.user.id)
            if notice is not None:  # a table this person hosts lacks a permission, and their DMs are closed
                try:
                    await self._say(interaction, notice)
                except discord.HTTPException:
                    pass

        await guard(interaction, action, refusal_text=refusal_text, after=host_notice)

    async def _welcome(self, interaction: discord.Interaction, table: Table, lang: str) -> None:
        """DM the new player; if their DMs are closed, tell them here, ephemerally."""
        if not await self.notifier.welcome(table, interaction.user, lang):
            await interaction.followup.send(t("ok.dm_closed", lang), ephemeral=True)

    async def _scoped(self, interaction: discord.Interaction, table_id: int, *, channel: bool = False) -> Table:
        """The table a component names, when it is this interaction's to act on: in a server, a table of
        that server (and, with ``channel``, of this very channel: lobby controls); in a DM, a table the
        user is seated at. The custom_id only names the table; the server, channel and user come from the
        interaction.

        Raises:
            UnknownTableError: no table has that id.
            ForeignObjectError: the table is another server's or channel's, or not the user's (in a DM).
        """
        table = await self.service.fetch(table_id)
        if interaction.guild_id is None:
            if table.seat_of(interaction.user.id) is None:
                raise ForeignObjectError()
        elif table.guild_id != interaction.guild_id or (channel and table.channel_id != interaction.channel_id):
            raise ForeignObjectError()
        return table

    def _channel_table(self, interaction: discord.Interaction) -> Table:
        return self.service.require_table_in_channel(interaction.channel_id or 0)

    def _own_table(self, interaction: discord.Interaction) -> Table:
        """The caller's own table on this server, from any channel (the answer names it); else this
        channel's table. Raises `NoTableHereError` when there is neither."""
        mine = self.service.table_of_user(interaction.user.id)
        if mine is not None and mine.guild_id == (interaction.guild_id or 0):
            return mine
        return self._channel_table(interaction)

    # ------------------------------------------------------------------ commands

    @cuarenta.command(name=command_text("new", "cmd.new.name"), description=command_text("Open a Cuarenta table in this channel", "cmd.new.desc"))
    @app_commands.rename(players=command_text("players", "opt.players.name"), rules=command_text("rules", "opt.rules.name"),
                         turn_timer=command_text("turn_timer", "opt.turn_timer.name"), hints=command_text("hints", "opt.hints.name"))
    @app_commands.describe(players=command_text("2 (1 v 1) or 4 (2 v 2)", "opt.players.desc"),
                           rules=command_text("The table's rules preset", "opt.rules.desc"),
                           turn_timer=command_text("Seconds per turn, 30 to 300 (default: the server's, 90)", "opt.turn_timer.desc"),
                           hints=command_text("Practice table: hands show which plays capture (unrated)", "opt.hints.desc"))
    @app_commands.choices(rules=PRESET_CHOICES)
    @app_commands.choices(players=PLAYER_CHOICES)  # int choices: one call per value type, for mypy
    async def new(self, interaction: discord.Interaction, players: int = 4, rules: str | None = None,
                  turn_timer: app_commands.Range[int, 30, 300] | None = None, hints: bool = False) -> None:
        """Open a table in this channel, or in a thread of it opened for the table when the server plays
        its tables in threads (`bot.ui.places`); the host sits on team A. Without ``rules``, the server's
        default preset (`/cuarenta settings`)."""

        async def run(lang: str) -> None:
            guild_id = interaction.guild_id or 0
            place = await places.open_place(interaction, await self.service.table_place(guild_id),
                                            host=interaction.user.display_name, players=players, lang=lang,
                                            public_lang=await self.service.public_language(guild_id),
                                            before_thread=lambda: self.service.check_host(interaction.user.id))
            try:
                table = await self.service.create(
                    guild_id=guild_id, channel_id=place.channel_id, user_id=interaction.user.id,
                    name=interaction.user.display_name, locale=lang, players=players, preset=rules,
                    guild_name=interaction.guild.name if interaction.guild else "", channel_name=place.name,
                    turn_timer=turn_timer, hints=hints,
                )
            except Exception:
                await places.drop_unused(place)
                raise
            await self._say(interaction, places.created_text(table.id, place, lang))
            await self._welcome(interaction, table, lang)

        await self._guard(interaction, run)

    @cuarenta.command(name=command_text("join", "cmd.join.name"), description=command_text("Take a seat at this channel's open table", "cmd.join.desc"))
    @app_commands.rename(team=command_text("team", "opt.team.name"))
    @app_commands.describe(team=command_text("Team A or B (default: the emptier team)", "opt.team.desc"))
    @app_commands.choices(team=TEAM_CHOICES)
    async def join(self, interaction: discord.Interaction, team: str | None = None) -> None:
        """Sit at this channel's table."""
        await self._guard(interaction, lambda lang: self._join(interaction, self._channel_table(interaction),
                                                               _team_index(team), lang))

    async def _join(self, interaction: discord.Interaction, table: Table, team: int | None, lang: str) -> None:
        got = await self.service.join(table.id, user_id=interaction.user.id, name=interaction.user.display_name,
                                      locale=lang, team=team)
        key = "ok.joined_1v1" if table.players == 2 else "ok.joined"
        await self._say(interaction, t(key, lang, team="AB"[got], table=table.id))
        await self._welcome(interaction, table, lang)

    @cuarenta.command(name=command_text("leave", "cmd.leave.name"), description=command_text("Leave your table, from any channel (mid-game, a computer player takes your seat)", "cmd.leave.desc"))
    async def leave(self, interaction: discord.Interaction) -> None:
        """Leave this channel's table; mid-game a computer player takes the seat (the mesa goes on, casual)."""
        await self._guard(interaction, lambda lang: self._leave(interaction, self._own_table(interaction), lang))

    async def _leave(self, interaction: discord.Interaction, table: Table, lang: str) -> None:
        in_play = table.status == PLAYING
        result = await self.service.leave(table.id, user_id=interaction.user.id)
        if in_play:
            text = t("ok.left_game_ended" if result.closed else "ok.left_game", lang, table=table.id)
        elif result.closed:
            text = t("ok.closed_by_leave", lang, table=table.id)
        elif result.new_host is not None:
            text = t("ok.host_passed", lang, table=table.id,
                     name=discord.utils.escape_markdown(result.new_host.name))
        else:
            text = t("ok.left", lang, table=table.id)
        await self._say(interaction, text)

    @cuarenta.command(name=command_text("start", "cmd.start.name"), description=command_text("Start the table (host only)", "cmd.start.desc"))
    async def start(self, interaction: discord.Interaction) -> None:
        """The host starts the table; computer players fill empty seats."""
        await self._guard(interaction, lambda lang: self._start(interaction, self._channel_table(interaction), lang))

    async def _start(self, interaction: discord.Interaction, table: Table, lang: str) -> None:
        await self.service.start(table.id, user_id=interaction.user.id)
        await self._say(interaction, t("ok.started", lang, table=table.id))

    @cuarenta.command(name=command_text("hand", "cmd.hand.name"), description=command_text("Show your hand (only you see it)", "cmd.hand.desc"))
    async def hand(self, interaction: discord.Interaction) -> None:
        """Your hand, ephemerally, with the play buttons."""

        async def run(lang: str) -> None:
            await self._show_hand(interaction, self._own_table(interaction), lang)

        await self._guard(interaction, run)

    async def _show_hand(self, interaction: discord.Interaction, table: Table, lang: str) -> None:
        seat, view = self.service.hand_view(table, interaction.user.id)
        final = records.mesa_result(table, lang) if table.status != PLAYING else None
        payload = hand_layout.hand_layout(table, seat, view, lang, final=final, faces=self.bot.faces,
                                          picture=self.notifier.hands.pictures)
        await answer.reply(interaction, **payload.send_kwargs())

    @cuarenta.command(name=command_text("table", "cmd.table.name"), description=command_text("Post the table again at the bottom of the channel", "cmd.table.desc"))
    async def table(self, interaction: discord.Interaction) -> None:
        """Re-post the table message at the bottom of the channel."""

        async def run(lang: str) -> None:
            table = self._channel_table(interaction)
            self.service.request_repost(table)
            await self._say(interaction, t("ok.reposted", lang))

        await self._guard(interaction, run)

    @cuarenta.command(name=command_text("kick", "cmd.kick.name"), description=command_text("Replace a player with a computer player (host or Manage Server)", "cmd.kick.desc"))
    @app_commands.rename(player=command_text("player", "opt.member.name"))
    @app_commands.describe(player=command_text("The player to replace", "opt.member.desc"))
    async def kick(self, interaction: discord.Interaction, player: discord.User) -> None:
        """The host, or a member with Manage Server, replaces a player with a computer player (in a lobby,
        frees their seat)."""

        async def run(lang: str) -> None:
            table = self._channel_table(interaction)
            can_manage = bool(interaction.permissions and interaction.permissions.manage_guild)
            result = await self.service.kick(table.id, user_id=interaction.user.id, target_id=player.id,
                                             can_manage=can_manage)
            name = discord.utils.escape_mentions(discord.utils.escape_markdown(player.display_name))
            await self._say(interaction, t("ok.kicked_ended" if result.closed else "ok.kicked", lang, name=name,
                                           table=table.id))

        await self._guard(interaction, run)

    @cuarenta.command(name=command_text("back", "cmd.back.name"), description=command_text("Take your seat back from the computer player", "cmd.back.desc"))
    async def back(self, interaction: discord.Interaction) -> None:
        """An away player takes their seat back."""
        await self._guard(interaction, lambda lang: self._back(interaction, lang, here_only=True))

    async def _back(self, interaction: discord.Interaction, lang: str, *, here_only: bool = False) -> None:
        table = self.service.table_of_user(interaction.user.id)
        if here_only and table is not None and table.guild_id != (interaction.guild_id or 0):
            raise SeatError("err.not_seated")  # a seat on another server is taken back there, not here
        seat = table.seat_of(interaction.user.id) if table is not None else None
        was_away = table is not None and seat is not None and bool(table.seats[seat].away)  # type: ignore[union-attr]  # seat_of names an occupied seat
        table = await self.service.back(interaction.user.id)
        await self._say(interaction, t("ok.back" if was_away else "ok.not_away", lang, table=table.id))

    @cuarenta.command(name=command_text("end", "cmd.end.name"), description=command_text("End this channel's table", "cmd.end.desc"))
    async def end(self, interaction: discord.Interaction) -> None:
        """The host, or a member with Manage Server, ends the table."""

        async def run(lang: str) -> None:
            here = self.service.table_in_channel(interaction.channel_id or 0)
            table = here or self._own_table(interaction)
            can_manage = bool(interaction.permissions and interaction.permissions.manage_guild)
            await self.service.end(table.id, user_id=interaction.user.id, can_manage=can_manage)
            await self._say(interaction, t("ok.ended", lang, table=table.id))

        await self._guard(interaction, run)

    @cuarenta.command(name=command_text("language", "cmd.language.name"), description=command_text("Change the language of this server's public messages", "cmd.language.desc"))
    @app_commands.rename(language=command_text("language", "opt.language.name"))
    @app_commands.describe(language=command_text("Spanish, English or Portuguese", "opt.language.desc"))
    @app_commands.choices(language=LANGUAGE_CHOICES)
    async def language(self, interaction: discord.Interaction, language: str) -> None:
        """Members with Manage Server choose the guild's public language."""

        async def run(lang: str) -> None:
            if not (interaction.permissions and interaction.permissions.manage_guild):
                raise TableError("err.need_manage_guild")
            await self.service.set_public_language(interaction.guild_id or 0, language)
            await self._say(interaction, t("ok.language_set", lang, language=t(f"language.{language}", lang)))

        await self._guard(interaction, run)

    # ------------------------------------------------------------------ components (bot.ui.items)

    async def on_lobby(self, interaction: discord.Interaction, table_id: int, action: str) -> None:
        """Lobby buttons: a/b join a team, c adds a computer player, x leaves, s starts."""

        async def run(lang: str) -> None:
            table = await self._scoped(interaction, table_id, channel=True)  # a lobby's buttons live in its channel
            if action in ("a", "b"):  # in 1 v 1 the one join button ("a") takes the free seat
                team = None if table.players == 2 else (0 if action == "a" else 1)
                await self._join(interaction, table, team, lang)
            elif action == "c":  # a lobby posted by an earlier version: the level menu is the one way now
                await self._say(interaction, t("ok.use_level_menu", lang))
            elif action == "x":  # the lobby's Leave never takes a seat out of a game that started
                if table.status != LOBBY:
                    raise WrongStateError("err.not_lobby" if table.is_open else "err.finished")
                await self._leave(interaction, table, lang)
            else:
                await self._start(interaction, table, lang)

        await self._guard(interaction, run)

    async def on_my_hand(self, interaction: discord.Interaction, table_id: int) -> None:
        """"My hand": the hand for a player; "you are not playing at this table" for anyone else."""

        async def run(lang: str) -> None:
            table = await self._scoped(interaction, table_id)
            await self._show_hand(interaction, table, lang)

        await self._guard(interaction, run)

    async def on_why(self, interaction: discord.Interaction, table_id: int, newest: int | None = None,
                     back: int | None = None) -> None:
        """«¿Por qué?», to anyone (it says only what was public when the play was made): the button
        (``newest`` None) answers with a new ephemeral message, the last play explained and a menu of the
        hand's last plays; a pick in that menu (play ``newest - back``) shows that play's explanation in
        place of the menu's own ephemeral message (`bot.ui.why.why_message`)."""

        async def run(lang: str) -> None:
            table = await self._scoped(interaction, table_id)
            pick = None if newest is None or back is None else newest - back
            text, view = why.why_message(table, lang, faces=self.bot.faces, newest=newest, pick=pick)
            own = interaction.message is not None and interaction.message.flags.ephemeral
            if newest is not None and own:
                await answer.edit(interaction, content=text, view=view)
            else:  # the button; or a forged menu on a public message: nobody else's message changes
                extra: dict[str, Any] = {"view": view} if view is not None else {}
                await self._say(interaction, text, **extra)

        await self._guard(interaction, run)

    async def on_plays(self, interaction: discord.Interaction, table_id: int, hand: int) -> None:
        """«Ver jugadas» on a hand's record, to anyone on the table's server: that hand's plays, in the
        clicker's language, ephemerally, and the command that replays the mesa (`bot.ui.records.plays_embed`:
        only what was public)."""

        async def run(lang: str) -> None:
            table = await self._scoped(interaction, table_id)
            if table.game is None:
                raise WrongStateError("err.not_started")
            embed = records.plays_embed(table, hand, lang)
            await self._say(interaction, t("sum.replay", lang, command=replay_command(table.id, lang)), embed=embed)

        await self._guard(interaction, run)

    async def on_rematch(self, interaction: discord.Interaction, table_id: int) -> None:
        """«Revancha»: open the ready check (every person must accept; computers do)."""

        async def run(lang: str) -> None:
            await self._scoped(interaction, table_id)
            check = await self.service.ask_rematch(table_id, user_id=interaction.user.id)
            if check.status == "accepted":
                await self._say(interaction, t("ok.rematch", lang, table=check.new_table))
            elif check.status == "failed" and check.error is not None:
                await self._say(interaction, render.error_text(check.error, lang))
            else:
                await self._say(interaction, t("ok.rematch_asked", lang, seconds=int(READY_TIMEOUT)))

        await self._guard(interaction, run)

    async def on_rematch_vote(self, interaction: discord.Interaction, table_id: int, accept: bool) -> None:
        """A vote in a rematch ready check: accept, or decline (which cancels it)."""

        async def run(lang: str) -> None:
            await self._scoped(interaction, table_id)
            check = await self.service.vote_rematch(table_id, user_id=interaction.user.id, accept=accept)
            if check.status == "accepted":
                text = t("ok.rematch", lang, table=check.new_table)
            elif check.status == "failed" and check.error is not None:
                text = render.error_text(check.error, lang)
            elif not accept:
                text = t("ok.rematch_declined", lang)
            else:
                text = t("ok.rematch_accepted", lang)
            await self._say(interaction, text)

        await self._guard(interaction, run)

    async def on_back(self, interaction: discord.Interaction, table_id: int) -> None:
        """"I'm back" on an away player's hand: only for a seat at the table it names."""

        async def run(lang: str) -> None:
            table = await self._scoped(interaction, table_id)
            if table.seat_of(interaction.user.id) is None:
                raise NotPlayingError()
            await self._back(interaction, lang)

        await self._guard(interaction, run)

    async def on_level(self, interaction: discord.Interaction, table_id: int, level: str) -> None:
        """The lobby's level select: add a computer player of that level."""

        async def run(lang: str) -> None:
            table = await self._scoped(interaction, table_id, channel=True)
            if level not in COMPUTER_LEVELS:
                raise BadOptionError()
            team = await self.service.add_computer(table_id, user_id=interaction.user.id, level=level)
            await self._say(interaction, render.computer_seated_text(table, team, lang))

        await self._guard(interaction, run)

    # ------------------------------------------------------------------ people and channels going away

    @commands.Cog.listener()
    async def on_raw_member_remove(self, payload: discord.RawMemberRemoveEvent) -> None:
        """A member left the server or was removed: a computer player takes their seat (needs the
        members intent, see `bot.config`)."""
        await self._quietly("member removed", self.service.member_gone(payload.guild_id, payload.user.id))

    @commands.Cog.listener()
    async def on_guild_channel_delete(self, channel: discord.abc.GuildChannel) -> None:
        """The table's channel was deleted: the table ends at once and frees its players."""
        await self._quietly("channel deleted", self.service.channel_gone(channel.id))

    @commands.Cog.listener()
    async def on_raw_thread_delete(self, payload: discord.RawThreadDeleteEvent) -> None:
        """The table's thread was deleted: the table ends at once and frees its players."""
        await self._quietly("thread deleted", self.service.channel_gone(payload.thread_id))

    @commands.Cog.listener()
    async def on_guild_available(self, guild: discord.Guild) -> None:
        """A server became available (at start, after an outage): end its tables whose channel is gone
        (deleted while the bot was down, so no CHANNEL_DELETE will come)."""
        await self._reconcile(guild)

    @commands.Cog.listener()
    async def on_ready(self) -> None:
        """Connected (at start, and after a new session): reconcile every server's tables."""
        for guild in self.bot.guilds:
            await self._reconcile(guild)

    async def _reconcile(self, guild: discord.Guild) -> None:
        async def exists(channel_id: int) -> bool:
            return await self.notifier.channel_exists(guild, channel_id)

        await self._quietly("reconcile", self.service.reconcile_guild(guild.id, exists))

    @commands.Cog.listener()
    async def on_guild_remove(self, guild: discord.Guild) -> None:
        """The bot left or was removed from a server: its tables end."""
        await self._quietly("guild removed", self.service.guild_gone(guild.id))

    @staticmethod
    async def _quietly(what: str, work: Awaitable[Any]) -> None:
        try:
            await work
        except Exception:
            log.exception("handling %s failed", what)


async def setup(bot: CuarentaBot) -> None:
    """Extension entry point."""
    await bot.add_cog(TablesCog(bot))
