"""``/cuarenta league result`` (enter or correct a fixture's result, with a reason) and
``/cuarenta league export`` (CSV files of the league and the server's leaderboard): the organizer's tools.
Thin: read the interaction, call `bot.organizer`, answer ephemerally in the user's language. The commands
join the ``league`` group of `cogs.leagues` (loaded before this cog). Who may use them comes from the
interaction (the caller and their permissions), never from a custom_id."""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

import discord
from discord import app_commands

from bot.competitions.league_present import fixture_line
from bot.competitions.league_repo import League
from bot.i18n import t
from bot.organizer import OrganizerService
from bot.organizer.corrections import REASON_MAX
from bot.organizer.export import leaderboard_csv, league_fixtures_csv, league_standings_csv
from bot.organizer.service import leaderboard_rows
from bot.tables import TableError
from bot.ui import answer
from bot.ui.render import Payload
from cogs.common import GroupedCog, bot_of, command_text, league_words

if TYPE_CHECKING:
    from bot.app import CuarentaBot

log = logging.getLogger(__name__)

LEAGUE_OPTION = command_text("league", "opt.league.name")
LEAGUE_DESC = command_text("The league's number (default: yours, or the server's only one)", "opt.league.desc")
OUTCOME_CHOICES = [app_commands.Choice(name=command_text(word, f"choice.outcome.{value}"), value=value)
                   for word, value in (("wins", "win"), ("loses", "loss"), ("double loss", "double_loss"))]


async def may_organize(interaction: discord.Interaction) -> bool:
    """Manage Server, or the server's organizers' role (`bot.competitions.settings`), from the interaction."""
    settings = bot_of(interaction).competition_settings
    roles = [r.id for r in getattr(interaction.user, "roles", [])]
    return await settings.may_organize(interaction.guild_id or 0, can_manage=bool(
        interaction.permissions and interaction.permissions.manage_guild), role_ids=roles)


class OrganizerCog(GroupedCog):
    """The organizer's tools of leagues."""

    @property
    def organizer(self) -> OrganizerService:
        """The bot's organizer service."""
        return self.bot.organizer

    async def cog_load(self) -> None:
        """Put the commands under ``/cuarenta league``."""
        group = self._league_group()
        for command in self.__cog_app_commands__:
            group.add_command(command)
            self._moved.append(command)
        self.__cog_app_commands__ = []

    async def cog_unload(self) -> None:
        """Take the commands out of ``/cuarenta league`` again."""
        group = self._league_group()
        for command in self._moved:
            group.remove_command(command.name)
        self._moved.clear()

    def _league_group(self) -> app_commands.Group:
        root = self.bot.tree.get_command("cuarenta")
        group = root.get_command("league") if isinstance(root, app_commands.Group) else None
        if not isinstance(group, app_commands.Group):
            raise RuntimeError("load cogs.leagues (the /cuarenta league group) before OrganizerCog")
        return group

    def refusal_params(self, params: dict[str, object], lang: str) -> dict[str, object]:
        """Which field was wrong, in words."""
        return league_words(params, lang)

    async def explain(self, error: TableError, interaction: discord.Interaction) -> TableError:
        """A command naming a league that ended says so."""
        if error.key == "err.league_unknown":
            league_id = int(str(error.params["league"]))  # the params are objects; this one holds the id
            return await self.bot.leagues.why_not_open(league_id, interaction.guild_id or 0)
        return error

    @app_commands.command(name=command_text("result", "cmd.league_result.name"),
                          description=command_text("Enter or correct a fixture's result, with a reason (organizer)",
                                                   "cmd.league_result.desc"))
    @app_commands.rename(round=command_text("round", "opt.fixture_round.name"),
                         player=command_text("player", "opt.member.name"),
                         outcome=command_text("outcome", "opt.outcome.name"),
                         reason=command_text("reason", "opt.reason.name"),
                         player_chicas=command_text("player_chicas", "opt.chicas_player.name"),
                         opponent_chicas=command_text("opponent_chicas", "opt.chicas_rival.name"),
                         league=LEAGUE_OPTION)
    @app_commands.describe(round=command_text("The fixture's round", "opt.fixture_round.desc"),
                           player=command_text("A player of the fixture", "opt.fixture_player.desc"),
                           outcome=command_text("That player's result", "opt.outcome.desc"),
                           reason=command_text("Why (shown in the channel; up to 200 characters)", "opt.reason.desc"),
                           player_chicas=command_text("That player's chicas (no score: a walkover)",
                                                      "opt.chicas_player.desc"),
                           opponent_chicas=command_text("The opponent's chicas", "opt.chicas_rival.desc"),
                           league=LEAGUE_DESC)
    @app_commands.choices(outcome=OUTCOME_CHOICES)
    async def result(self, interaction: discord.Interaction, round: app_commands.Range[int, 1, 200],
                     player: discord.User, outcome: str, reason: app_commands.Range[str, 1, REASON_MAX],
                     player_chicas: app_commands.Range[int, 0, 99] | None = None,
                     opponent_chicas: app_commands.Range[int, 0, 99] | None = None,
                     league: int | None = None) -> None:
        """Set a fixture's result by hand; the standings follow and the channel hears why."""

        async def run(lang: str) -> None:
            found = self.bot.leagues.pick(interaction.guild_id or 0, league, interaction.user.id)
            score = None
            if player_chicas is not None or opponent_chicas is not None:
                if player_chicas is None or opponent_chicas is None:
                    raise TableError("err.correct_score")
                score = (player_chicas, opponent_chicas)
            fixture, _ = await self.organizer.corrections.correct(
                found, user_id=interaction.user.id, can_manage=await may_organize(interaction), round_no=round,
                player_id=player.id, outcome=outcome, reason=reason, score=score)
            await answer.reply(interaction, t("ok.league_corrected", lang, line=fixture_line(found, fixture, lang)))

        await self._guard(interaction, run)

    @app_commands.command(name=command_text("export", "cmd.league_export.name"),
                          description=command_text("Fixtures, standings and the server's leaderboard as CSV files "
                                                   "(organizer)", "cmd.league_export.desc"))
    @app_commands.rename(league=LEAGUE_OPTION)
    @app_commands.describe(league=LEAGUE_DESC)
    async def export(self, interaction: discord.Interaction, league: int | None = None) -> None:
        """Send the league's fixtures and standings and the server's leaderboard (both modes) as CSV files,
        to the organizer only (an ephemeral answer)."""

        async def run(lang: str) -> None:
            guild_id = interaction.guild_id or 0
            found = await self._any_league(guild_id, league, interaction.user.id)
            if not self.bot.leagues.can_organize(found, interaction.user.id, await may_organize(interaction)):
                raise TableError("err.league_not_organizer")
            async with answer.answer_lock(interaction):  # files go in a follow-up (Discord's schema)
                if not interaction.response.is_done():
                    await interaction.response.defer(ephemeral=True, thinking=True)
            files = [(f"league-{found.id}-fixtures.csv", league_fixtures_csv(found, lang)),
                     (f"league-{found.id}-standings.csv", league_standings_csv(self.bot.leagues, found, lang))]
            for mode in ("1v1", "2v2"):
                rows = await leaderboard_rows(self.bot.tables.ratings, guild_id, mode)
                names = await self._names(interaction, [r.user_id for r in rows])
                files.append((f"leaderboard-{mode}.csv", leaderboard_csv(rows, names, lang)))
            payload = Payload(content=t("organizer.exported", lang, league=found.id, name=found.name), files=files)
            await answer.reply(interaction, **payload.send_kwargs())

        await self._guard(interaction, run)

    async def _any_league(self, guild_id: int, league_id: int | None, user_id: int) -> League:
        """The league named (open or ended), else the one `LeagueService.pick` finds, else the server's
        latest ended one."""
        if league_id is not None:
            found = await self.organizer.league(guild_id, league_id)
            if found is None:
                raise TableError("err.league_unknown", league=league_id)
            return found
        try:
            return self.bot.leagues.pick(guild_id, None, user_id)
        except TableError as error:
            if error.key != "err.league_none":
                raise
            ended = await self.organizer.ended_leagues(guild_id)
            if not ended:
                raise
            return ended[0]

    async def _names(self, interaction: discord.Interaction, users: list[int]) -> dict[int, str]:
        """Display names: the server's members, then the name a user had at their last seat here."""
        out: dict[int, str] = {}
        guild = interaction.guild
        for user in users:
            member = guild.get_member(user) if guild is not None else None
            if member is not None:
                out[user] = member.display_name
        missing = [u for u in users if u not in out]
        if missing:
            out.update(await self.bot.tables.seat_names(interaction.guild_id or 0, missing))
        return out


async def setup(bot: CuarentaBot) -> None:
    """Extension entry point (after ``cogs.leagues``)."""
    await bot.add_cog(OrganizerCog(bot))
