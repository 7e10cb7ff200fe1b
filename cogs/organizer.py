"""``/cuarenta league result`` and ``/cuarenta tournament result`` (enter or correct a result, with a
reason) and ``/cuarenta league export`` and ``/cuarenta tournament export`` (CSV files of the competition
and the server's leaderboard): the organizer's tools. Thin: read the interaction, call `bot.organizer`,
answer ephemerally in the user's language. The commands join the ``league`` group of `cogs.leagues` and
the ``tournament`` group of `cogs.tournaments` (both loaded before this cog). Who may use them comes from the
interaction (the caller and their permissions), never from a custom_id."""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands

from bot.competitions.league_present import fixture_line
from bot.competitions.league_repo import League
from bot.competitions.tournament_model import Tournament
from bot.competitions.tournament_present import match_line
from bot.i18n import t
from bot.organizer import OrganizerService
from bot.organizer.corrections import REASON_MAX
from bot.organizer.export import (
    leaderboard_csv,
    league_fixtures_csv,
    league_standings_csv,
    tournament_matches_csv,
)
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
T_OPTION = command_text("tournament", "opt.tournament.name")
T_DESC = command_text("The tournament's number (default: yours, or the server's only one)", "opt.tournament.desc")
OUTCOME_CHOICES = [app_commands.Choice(name=command_text(word, f"choice.outcome.{value}"), value=value)
                   for word, value in (("wins", "win"), ("loses", "loss"), ("double loss", "double_loss"))]


async def may_organize(interaction: discord.Interaction) -> bool:
    """Manage Server, or the server's organizers' role (`bot.competitions.settings`), from the interaction."""
    settings = bot_of(interaction).competition_settings
    roles = [r.id for r in getattr(interaction.user, "roles", [])]
    return await settings.may_organize(interaction.guild_id or 0, can_manage=bool(
        interaction.permissions and interaction.permissions.manage_guild), role_ids=roles)


class OrganizerCog(GroupedCog):
    """The organizer's tools of leagues and tournaments."""

    def __init__(self, bot: CuarentaBot) -> None:
        super().__init__(bot)
        self._placed: list[tuple[app_commands.Group, Any]] = []

    @property
    def organizer(self) -> OrganizerService:
        """The bot's organizer service."""
        return self.bot.organizer

    async def cog_load(self) -> None:
        """Put the commands under ``/cuarenta league`` and ``/cuarenta tournament`` (by their callback's
        name: ``league_…`` or ``tournament_…``)."""
        for command in self.__cog_app_commands__:
            group = self._group_of(command)
            group.add_command(command)
            self._placed.append((group, command))
        self.__cog_app_commands__ = []

    async def cog_unload(self) -> None:
        """Take the commands out of the groups they were put in (those groups may have left ``/cuarenta``
        already: their cogs unload first at shutdown)."""
        for group, command in self._placed:
            group.remove_command(command.name)
        self._placed.clear()

    def _group_of(self, command: Any) -> app_commands.Group:
        name = "league" if command.callback.__name__.startswith("league_") else "tournament"
        root = self.bot.tree.get_command("cuarenta")
        group = root.get_command(name) if isinstance(root, app_commands.Group) else None
        if not isinstance(group, app_commands.Group):
            raise RuntimeError(f"load the /cuarenta {name} group's cog before OrganizerCog")
        return group

    def refusal_params(self, params: dict[str, object], lang: str) -> dict[str, object]:
        """Which field was wrong, in words."""
        return league_words(params, lang)

    async def explain(self, error: TableError, interaction: discord.Interaction) -> TableError:
        """A command naming a league that ended says so."""
        if error.key == "err.league_unknown":
            league_id = int(str(error.params["league"]))  # the params are objects; this one holds the id
            return await self.bot.leagues.why_not_open(league_id, interaction.guild_id or 0)
        if error.key == "err.tournament_unknown":
            tournament_id = int(str(error.params["tournament"]))
            return await self.bot.tournaments.why_not_open(tournament_id, interaction.guild_id or 0)
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
    async def league_result(self, interaction: discord.Interaction, round: app_commands.Range[int, 1, 200],
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
    async def league_export(self, interaction: discord.Interaction, league: int | None = None) -> None:
        """Send the league's fixtures and standings and the server's leaderboard (both modes) as CSV files,
        to the organizer only (an ephemeral answer)."""

        async def run(lang: str) -> None:
            guild_id = interaction.guild_id or 0
            found = await self._any_league(guild_id, league, interaction.user.id)
            if not self.bot.leagues.can_organize(found, interaction.user.id, await may_organize(interaction)):
                raise TableError("err.league_not_organizer")
            await self._defer(interaction)
            files = [(f"league-{found.id}-fixtures.csv", league_fixtures_csv(found, lang)),
                     (f"league-{found.id}-standings.csv", league_standings_csv(self.bot.leagues, found, lang)),
                     *await self._leaderboards(interaction, lang, {u: n for s in found.sides
                                                                   for u, n in ((s.user1, s.name1), (s.user2, s.name2))
                                                                   if u is not None and n is not None})]
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

    @app_commands.command(name=command_text("result", "cmd.tournament_result.name"),
                          description=command_text("Enter or correct a match's result, with a reason (organizer)",
                                                   "cmd.tournament_result.desc"))
    @app_commands.rename(round=command_text("round", "opt.match_round.name"),
                         player=command_text("player", "opt.member.name"),
                         outcome=command_text("outcome", "opt.outcome.name"),
                         reason=command_text("reason", "opt.reason.name"),
                         player_mesas=command_text("player_mesas", "opt.mesas_player.name"),
                         opponent_mesas=command_text("opponent_mesas", "opt.mesas_rival.name"),
                         tournament=T_OPTION)
    @app_commands.describe(round=command_text("The match's round", "opt.match_round.desc"),
                           player=command_text("A player of the match", "opt.match_player.desc"),
                           outcome=command_text("That player's result", "opt.outcome.desc"),
                           reason=command_text("Why (shown in the channel; up to 200 characters)", "opt.reason.desc"),
                           player_mesas=command_text("Mesas that player won (no score: a walkover)",
                                                     "opt.mesas_player.desc"),
                           opponent_mesas=command_text("Mesas the opponent won", "opt.mesas_rival.desc"),
                           tournament=T_DESC)
    @app_commands.choices(outcome=OUTCOME_CHOICES)
    async def tournament_result(self, interaction: discord.Interaction, round: app_commands.Range[int, 1, 20],
                                player: discord.User, outcome: str, reason: app_commands.Range[str, 1, REASON_MAX],
                                player_mesas: app_commands.Range[int, 0, 2] | None = None,
                                opponent_mesas: app_commands.Range[int, 0, 2] | None = None,
                                tournament: int | None = None) -> None:
        """Set a tournament match's result by hand; refused when a later round already depends on it."""

        async def run(lang: str) -> None:
            tour = self.bot.tournaments.pick(interaction.guild_id or 0, tournament, interaction.user.id)
            score = None
            if player_mesas is not None or opponent_mesas is not None:
                if player_mesas is None or opponent_mesas is None:
                    raise TableError("err.correct_match_score", need=tour.best_of // 2 + 1, best_of=tour.best_of)
                score = (player_mesas, opponent_mesas)
            match, _ = await self.organizer.tournament_corrections.correct(
                tour, user_id=interaction.user.id, can_manage=await may_organize(interaction), round_no=round,
                player_id=player.id, outcome=outcome, reason=reason, score=score)
            await answer.reply(interaction, t("ok.tournament_corrected", lang, line=match_line(tour, match, lang)))

        await self._guard(interaction, run)

    @app_commands.command(name=command_text("export", "cmd.tournament_export.name"),
                          description=command_text("Matches and the server's leaderboard as CSV files (organizer)",
                                                   "cmd.tournament_export.desc"))
    @app_commands.rename(tournament=T_OPTION)
    @app_commands.describe(tournament=T_DESC)
    async def tournament_export(self, interaction: discord.Interaction, tournament: int | None = None) -> None:
        """Send the tournament's matches and the server's leaderboard (both modes) as CSV files, to the
        organizer only (an ephemeral answer)."""

        async def run(lang: str) -> None:
            guild_id = interaction.guild_id or 0
            tour = await self._any_tournament(guild_id, tournament, interaction.user.id)
            if not (await may_organize(interaction) or tour.organizer_id == interaction.user.id):
                raise TableError("err.league_not_organizer")
            await self._defer(interaction)
            files = [(f"tournament-{tour.id}-matches.csv", tournament_matches_csv(tour, lang)),
                     *await self._leaderboards(interaction, lang, {p.user_id: p.name for p in tour.players})]
            payload = Payload(content=t("organizer.t_exported", lang, tournament=tour.id, name=tour.name), files=files)
            await answer.reply(interaction, **payload.send_kwargs())

        await self._guard(interaction, run)

    async def _any_tournament(self, guild_id: int, tournament_id: int | None, user_id: int) -> Tournament:
        """The tournament named (open or ended), else the one `TournamentService.pick` finds, else the
        server's latest ended one."""
        if tournament_id is not None:
            found = await self.organizer.tournament(guild_id, tournament_id)
            if found is None:
                raise TableError("err.tournament_unknown", tournament=tournament_id)
            return found
        try:
            return self.bot.tournaments.pick(guild_id, None, user_id)
        except TableError as error:
            if error.key != "err.tournament_none":
                raise
            ended = await self.organizer.ended_tournaments(guild_id)
            if not ended:
                raise
            return ended[0]

    @staticmethod
    async def _defer(interaction: discord.Interaction) -> None:
        """Acknowledge now: the files go in a follow-up (Discord's schema)."""
        async with answer.answer_lock(interaction):
            if not interaction.response.is_done():
                await interaction.response.defer(ephemeral=True, thinking=True)

    async def _leaderboards(self, interaction: discord.Interaction, lang: str,
                            known: dict[int, str]) -> list[tuple[str, bytes]]:
        """The server's current leaderboard of each mode as a CSV file (``known``: names the competition
        keeps, for players the member cache lacks)."""
        out = []
        for mode in ("1v1", "2v2"):
            rows = await leaderboard_rows(self.bot.tables.ratings, interaction.guild_id or 0, mode)
            names = await self._names(interaction, [r.user_id for r in rows], known)
            out.append((f"leaderboard-{mode}.csv", leaderboard_csv(rows, names, lang)))
        return out

    async def _names(self, interaction: discord.Interaction, users: list[int], known: dict[int, str]) -> dict[int, str]:
        """Display names: the server's members at hand, then the names the competition keeps (``known``),
        then the name a user had at their last seat here ("?" when none: a CSV shows no ids)."""
        out: dict[int, str] = {}
        guild = interaction.guild
        for user in users:
            member = guild.get_member(user) if guild is not None else None
            if member is not None:
                out[user] = member.display_name
            elif user in known:
                out[user] = known[user]
        missing = [u for u in users if u not in out]
        if missing:
            out.update(await self.bot.tables.seat_names(interaction.guild_id or 0, missing))
        return out


async def setup(bot: CuarentaBot) -> None:
    """Extension entry point (after ``cogs.leagues``)."""
    await bot.add_cog(OrganizerCog(bot))
