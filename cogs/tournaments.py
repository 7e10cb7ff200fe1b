"""``/cuarenta tournament create | signup | close | play | view | walkover | cancel`` and the tournament
buttons. Thin: read the interaction, call the tournament service, answer ephemerally. The
``tournament`` group joins ``/cuarenta``; `cogs.organizer` adds ``result`` and ``export`` to it. ``view`` also
shows the archive of ended tournaments and a player's matches."""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands

from bot.competitions.items import TOURNAMENT_ITEMS
from bot.competitions.tournament_model import TournamentError
from bot.competitions.tournament_present import board_text, match_line
from bot.competitions.tournaments import Tournament, TournamentService
from bot.i18n import lang_of, t, tn
from bot.organizer.present import finished_tournaments_text, tournament_archive_text, tournament_player_text
from bot.organizer.service import archive_choices
from bot.tables import ForeignObjectError, TableError
from bot.ui import answer, limits
from bot.ui.actions import Actions
from cogs.common import (
    POLICY_CHOICES,
    PRESET_CHOICES,
    GroupedCog,
    bot_of,
    command_text,
    league_words,
    page_link,
    require_thread_permissions,
)

if TYPE_CHECKING:
    from bot.app import CuarentaBot

log = logging.getLogger(__name__)

FORMAT_CHOICES = [
    app_commands.Choice(name=command_text("single elimination", "choice.format.elimination"), value="elimination"),
    app_commands.Choice(name=command_text("Swiss", "choice.format.swiss"), value="swiss"),
]
BEST_OF_CHOICES = [app_commands.Choice(name="1", value=1), app_commands.Choice(name="3", value=3)]
T_OPTION = command_text("tournament", "opt.tournament.name")
T_DESC = command_text("The tournament's number (default: yours, or the server's only one)", "opt.tournament.desc")


async def _manage(interaction: discord.Interaction) -> bool:
    """Manage Server, or the server's organizer role (`bot.competitions.settings`)."""
    settings = bot_of(interaction).competition_settings
    roles = [r.id for r in getattr(interaction.user, "roles", [])]
    return await settings.may_organize(interaction.guild_id or 0, can_manage=bool(
        interaction.permissions and interaction.permissions.manage_guild), role_ids=roles)


class TournamentsCog(GroupedCog):
    """Tournaments on Discord."""

    ITEMS = TOURNAMENT_ITEMS

    def bind(self, actions: Actions, bound: bool) -> None:
        """Answer (``bound``) or stop answering the tournament buttons."""
        actions.tournaments = self if bound else None

    tournament = app_commands.Group(name=command_text("tournament", "cmd.tournament.name"),
                                    description=command_text("Tournaments refereed by the bot", "cmd.tournament.desc"),
                                    guild_only=True)

    @property
    def service(self) -> TournamentService:
        """The bot's tournament service."""
        return self.bot.tournaments

    def refusal_params(self, params: dict[str, object], lang: str) -> dict[str, object]:
        """Which field was wrong, in words."""
        return league_words(params, lang)

    async def explain(self, error: TableError, interaction: discord.Interaction) -> TableError:
        """An old button or a command naming a tournament that ended says so, not "no tournament #N"."""
        if error.key == "err.tournament_unknown":
            tournament_id = int(str(error.params["tournament"]))  # the params are objects; this one holds the id
            return await self.service.why_not_open(tournament_id, interaction.guild_id or 0)
        return error

    def _pick(self, interaction: discord.Interaction, tournament: int | None) -> Tournament:
        return self.service.pick(interaction.guild_id or 0, tournament, interaction.user.id)

    @tournament.command(name=command_text("create", "cmd.tournament_create.name"),
                        description=command_text("Create a tournament and post its sign-up here (Manage Server)",
                                                 "cmd.tournament_create.desc"))
    @app_commands.rename(name=command_text("name", "opt.league_name.name"), format=command_text("format", "opt.format.name"),
                         rounds=command_text("rounds", "opt.rounds.name"), best_of=command_text("best_of", "opt.best_of.name"),
                         rules=command_text("rules", "opt.rules.name"), days=command_text("days", "opt.days.name"),
                         policy=command_text("policy", "opt.policy.name"))
    @app_commands.describe(name=command_text("The tournament's name", "opt.tournament_name.desc"),
                           format=command_text("Single elimination or Swiss", "opt.format.desc"),
                           rounds=command_text("Swiss rounds (1–12)", "opt.rounds.desc"),
                           best_of=command_text("Mesas per match: 1 or 3", "opt.best_of.desc"),
                           rules=command_text("The rules of every mesa", "opt.league_rules.desc"),
                           days=command_text("Days per round (1–60, default 3)", "opt.tournament_days.desc"),
                           policy=command_text("What an unplayed match becomes at the deadline", "opt.policy.desc"))
    @app_commands.choices(format=FORMAT_CHOICES, rules=PRESET_CHOICES, policy=POLICY_CHOICES)
    @app_commands.choices(best_of=BEST_OF_CHOICES)  # int choices: one call per value type, for mypy
    async def create(self, interaction: discord.Interaction, name: str, format: str = "elimination",
                     rounds: app_commands.Range[int, 1, 12] = 3, best_of: int = 1, rules: str = "quito",
                     days: app_commands.Range[int, 1, 60] = 3, policy: str = "walkover") -> None:
        """Create a tournament in this channel."""

        async def run(lang: str) -> None:
            if not await _manage(interaction):
                raise TableError("err.need_manage_guild")
            if not isinstance(interaction.channel, discord.TextChannel):
                raise TableError("err.queue_text_channel")
            require_thread_permissions(interaction, lang)
            tour = await self.service.create(guild_id=interaction.guild_id or 0, channel_id=interaction.channel.id,
                                             organizer_id=interaction.user.id, name=name, format=format,
                                             swiss_rounds=rounds, best_of=best_of, preset=rules, round_days=days,
                                             policy=policy)
            await answer.reply(interaction, t("ok.tournament_created", lang, tournament=tour.id, name=tour.name))

        await self._guard(interaction, run)

    @tournament.command(name=command_text("signup", "cmd.tournament_signup.name"),
                        description=command_text("Sign up for a tournament", "cmd.tournament_signup.desc"))
    @app_commands.rename(tournament=T_OPTION)
    @app_commands.describe(tournament=T_DESC)
    async def signup(self, interaction: discord.Interaction, tournament: int | None = None) -> None:
        """Sign up."""
        await self._guard(interaction, lambda lang: self._signup(interaction, tournament, lang))

    async def _signup(self, interaction: discord.Interaction, tournament_id: int | None, lang: str) -> None:
        tour = self.service.pick(interaction.guild_id or 0, tournament_id)
        await self.service.sign_up(tour, user_id=interaction.user.id, name=interaction.user.display_name, locale=lang)
        await answer.reply(interaction, t("ok.tournament_signed", lang, tournament=tour.id, name=tour.name))

    @tournament.command(name=command_text("close", "cmd.tournament_close.name"),
                        description=command_text("Close the sign-up, seed by rating, start round 1 (organizer)",
                                                 "cmd.tournament_close.desc"))
    @app_commands.rename(tournament=T_OPTION)
    @app_commands.describe(tournament=T_DESC)
    async def close(self, interaction: discord.Interaction, tournament: int | None = None) -> None:
        """Close the sign-up and seed."""
        await self._guard(interaction, lambda lang: self._close(interaction, tournament, lang))

    async def _close(self, interaction: discord.Interaction, tournament_id: int | None, lang: str) -> None:
        tour = self._pick(interaction, tournament_id)
        await self.service.close_signup(tour, user_id=interaction.user.id, can_manage=await _manage(interaction))
        await answer.reply(interaction, tn("ok.tournament_drawn", tour.total_rounds, lang, tournament=tour.id,
                                            rounds=tour.total_rounds))

    @tournament.command(name=command_text("play", "cmd.tournament_play.name"),
                        description=command_text("Ready for your match of this round", "cmd.tournament_play.desc"))
    @app_commands.rename(tournament=T_OPTION)
    @app_commands.describe(tournament=T_DESC)
    async def play(self, interaction: discord.Interaction, tournament: int | None = None) -> None:
        """«Jugar»."""
        await self._guard(interaction, lambda lang: self._play(interaction, tournament, lang))

    async def _play(self, interaction: discord.Interaction, tournament_id: int | None, lang: str) -> None:
        tour = self._pick(interaction, tournament_id)
        state, match = await self.service.play(tour, user_id=interaction.user.id)
        if state == "waiting":
            text = t("ok.league_waiting", lang, line=match_line(tour, match, lang))
        else:
            channel = self.bot.tables.tables[match.table_id].channel_id  # type: ignore[index]  # an opened match has its table
            text = t("ok.league_opened", lang, table=match.table_id, link=f"<#{channel}>")
        await answer.reply(interaction, text)

    @tournament.command(name=command_text("view", "cmd.tournament_view.name"),
                        description=command_text("A tournament's bracket or standings", "cmd.tournament_view.desc"))
    @app_commands.rename(tournament=T_OPTION, player=command_text("player", "opt.member.name"))
    @app_commands.describe(tournament=T_DESC,
                           player=command_text("This player's fixtures and results", "opt.view_player.desc"))
    async def view(self, interaction: discord.Interaction, tournament: int | None = None,
                   player: discord.User | None = None) -> None:
        """The bracket or the Swiss standings; a finished tournament's archive
        (`bot.organizer.present.tournament_archive_text`); with ``player``, that player's matches."""

        async def run(lang: str) -> None:
            tour = await self._viewed(interaction, tournament)
            organizer = self.bot.organizer
            if tour is None:  # no open tournament: the archive of the latest finished one, and the others
                ended = await organizer.ended_tournaments(interaction.guild_id or 0)
                if not ended:
                    raise TournamentError("err.tournament_none")
                tour = ended[0]
                if player is None:
                    text = tournament_archive_text(self.service, tour, await organizer.history(tour.id, "tournament"),
                                                   lang)
                    await answer.reply(interaction, limits.clip(f"{text}\n\n{finished_tournaments_text(ended, lang)}",
                                                                limits.CONTENT), **await self._page(tour, lang))
                    return
            if player is not None:
                await answer.reply(interaction, tournament_player_text(tour, player.id, player.display_name, lang))
                return
            if tour.status in ("finished", "cancelled"):
                await answer.reply(interaction, tournament_archive_text(
                    self.service, tour, await organizer.history(tour.id, "tournament"), lang),
                    **await self._page(tour, lang))
                return
            body = (tn("league.view_signup", len(tour.players), lang, count=len(tour.players)) if tour.status == "signup"
                    else board_text(self.service, tour, lang))
            await answer.reply(interaction, t("tournament.title", lang, tournament=tour.id, name=tour.name) + "\n" + body,
                               **await self._page(tour, lang))

        await self._guard(interaction, run)

    async def _page(self, tour: Tournament, lang: str) -> dict[str, Any]:
        """A link button to the tournament's web page, when the server has pages (`page_link`)."""
        return await page_link(self.bot, tour.guild_id, f"tournaments/{tour.id}", tour.status,
                               t("web.bracket_link", lang))

    @view.autocomplete("tournament")
    async def _view_choices(self, interaction: discord.Interaction, typed: str) -> list[app_commands.Choice[int]]:
        """The server's open tournaments and its last ended ones (the archive), in the user's language."""
        found = await archive_choices(self.bot.organizer, "tournament", interaction.guild_id or 0, typed,
                                      lang_of(interaction.locale))
        return [app_commands.Choice(name=label, value=number) for number, label in found]

    async def _viewed(self, interaction: discord.Interaction, tournament_id: int | None) -> Tournament | None:
        """The tournament ``/cuarenta tournament view`` shows: the one named (open, or ended: from the
        archive), else the one `TournamentService.pick` finds; None when the server has no open one."""
        if tournament_id is not None and tournament_id not in self.service.tournaments:
            found = await self.bot.organizer.tournament(interaction.guild_id or 0, tournament_id)
            if found is None:
                raise TournamentError("err.tournament_unknown", tournament=tournament_id)
            return found
        try:
            return self._pick(interaction, tournament_id)
        except TournamentError as error:
            if error.key == "err.tournament_none":
                return None
            raise

    @tournament.command(name=command_text("walkover", "cmd.tournament_walkover.name"),
                        description=command_text("Award this round's match of a player to them (organizer)",
                                                 "cmd.tournament_walkover.desc"))
    @app_commands.rename(player=command_text("player", "opt.member.name"), tournament=T_OPTION)
    @app_commands.describe(player=command_text("The player who wins by walkover", "opt.walkover_player.desc"),
                           tournament=T_DESC)
    async def walkover(self, interaction: discord.Interaction, player: discord.User,
                       tournament: int | None = None) -> None:
        """Award a walkover."""

        async def run(lang: str) -> None:
            tour = self._pick(interaction, tournament)
            match = await self.service.award_walkover(tour, user_id=interaction.user.id,
                                                      can_manage=await _manage(interaction), winner_user=player.id)
            await answer.reply(interaction, match_line(tour, match, lang))

        await self._guard(interaction, run)

    @tournament.command(name=command_text("cancel", "cmd.tournament_cancel.name"),
                        description=command_text("Cancel a tournament (organizer)", "cmd.tournament_cancel.desc"))
    @app_commands.rename(tournament=T_OPTION)
    @app_commands.describe(tournament=T_DESC)
    async def cancel(self, interaction: discord.Interaction, tournament: int | None = None) -> None:
        """Cancel."""

        async def run(lang: str) -> None:
            tour = self._pick(interaction, tournament)
            await self.service.cancel(tour, user_id=interaction.user.id, can_manage=await _manage(interaction))
            await answer.reply(interaction, t("ok.tournament_cancelled", lang, tournament=tour.id, name=tour.name))

        await self._guard(interaction, run)

    async def on_tournament_button(self, interaction: discord.Interaction, tournament_id: int, action: str) -> None:
        """Sign up (j), close and seed (c), «Jugar» (p)."""

        async def run(lang: str) -> None:
            named = self.service.tournaments.get(tournament_id)
            if named is not None and named.guild_id != interaction.guild_id:
                raise ForeignObjectError()  # another server's tournament: the id is not this server's button
            if action == "j":
                await self._signup(interaction, tournament_id, lang)
            elif action == "c":
                await self._close(interaction, tournament_id, lang)
            else:
                await self._play(interaction, tournament_id, lang)

        await self._guard(interaction, run)


async def setup(bot: CuarentaBot) -> None:
    """Extension entry point (after ``cogs.tables``)."""
    await bot.add_cog(TournamentsCog(bot))
