"""``/cuarenta league create | signup | close | play | view | extend | walkover | remove | cancel`` and the
league buttons. Thin: read the interaction, call the league service, answer ephemerally in the
user's language. The ``league`` group joins ``/cuarenta`` (as the leaderboard's commands do); `cogs.organizer`
adds ``result`` and ``export`` to it. ``view`` also shows the archive of ended leagues and a player's results."""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands

from bot.competitions.items import LEAGUE_ITEMS
from bot.competitions.league_present import fixture_line, standings_text
from bot.competitions.league_repo import League, LeagueError
from bot.competitions.leagues import LeagueService
from bot.i18n import lang_of, t, tn
from bot.organizer.present import archive_text, finished_list_text, player_results_text
from bot.organizer.service import archive_choices
from bot.tables import ForeignObjectError, TableError
from bot.tables.errors import BadOptionError
from bot.ui import answer, limits
from bot.ui.actions import Actions
from bot.ui.render import when_text
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

MODE_CHOICES = [app_commands.Choice(name="1v1", value="1v1"), app_commands.Choice(name="2v2", value="2v2")]
LEAGUE_OPTION = command_text("league", "opt.league.name")
LEAGUE_DESC = command_text("The league's number (default: yours, or the server's only one)", "opt.league.desc")


def _member(user: discord.abc.User) -> None:
    """Raises `BadOptionError` (``err.not_a_member``) unless ``user`` is a member of the command's server
    (Discord sends a user picked in a USER option without member data when they are not, or have left)."""
    if not isinstance(user, discord.Member):
        name = discord.utils.escape_mentions(discord.utils.escape_markdown(user.display_name))
        raise BadOptionError("err.not_a_member", name=name)


async def _manage(interaction: discord.Interaction) -> bool:
    """Manage Server, or the server's organizer role (`bot.competitions.settings`)."""
    settings = bot_of(interaction).competition_settings
    roles = [r.id for r in getattr(interaction.user, "roles", [])]
    return await settings.may_organize(interaction.guild_id or 0, can_manage=bool(
        interaction.permissions and interaction.permissions.manage_guild), role_ids=roles)


class LeaguesCog(GroupedCog):
    """Casual leagues on Discord."""

    ITEMS = LEAGUE_ITEMS

    def bind(self, actions: Actions, bound: bool) -> None:
        """Answer (``bound``) or stop answering the league buttons."""
        actions.leagues = self if bound else None

    league = app_commands.Group(name=command_text("league", "cmd.league.name"),
                                description=command_text("Casual leagues refereed by the bot", "cmd.league.desc"),
                                guild_only=True)

    @property
    def leagues(self) -> LeagueService:
        """The bot's league service."""
        return self.bot.leagues

    def refusal_params(self, params: dict[str, object], lang: str) -> dict[str, object]:
        """Which field was wrong, in words."""
        return league_words(params, lang)

    async def explain(self, error: TableError, interaction: discord.Interaction) -> TableError:
        """An old button or a command naming a league that ended says so, not "no league #N"."""
        if error.key == "err.league_unknown":
            league_id = int(str(error.params["league"]))  # the params are objects; this one holds the id
            return await self.leagues.why_not_open(league_id, interaction.guild_id or 0)
        return error

    def _pick(self, interaction: discord.Interaction, league: int | None) -> League:
        return self.leagues.pick(interaction.guild_id or 0, league, interaction.user.id)

    # ------------------------------------------------------------------ commands

    @league.command(name=command_text("create", "cmd.league_create.name"),
                    description=command_text("Create a league and post its sign-up here (Manage Server)", "cmd.league_create.desc"))
    @app_commands.rename(name=command_text("name", "opt.league_name.name"), mode=command_text("mode", "opt.mode.name"),
                         rules=command_text("rules", "opt.rules.name"), double=command_text("double", "opt.double.name"),
                         days=command_text("days", "opt.days.name"), win=command_text("win", "opt.win.name"),
                         loss=command_text("loss", "opt.loss.name"), bonus=command_text("bonus", "opt.bonus.name"),
                         policy=command_text("policy", "opt.policy.name"))
    @app_commands.describe(name=command_text("The league's name", "opt.league_name.desc"),
                           mode=command_text("1 v 1, or 2 v 2 with fixed pairs", "opt.league_mode.desc"),
                           rules=command_text("The rules of every mesa", "opt.league_rules.desc"),
                           double=command_text("Double round robin (everyone meets twice)", "opt.double.desc"),
                           days=command_text("Days per round (1–60, default 7)", "opt.days.desc"),
                           win=command_text("Points for a mesa won (default 2)", "opt.win.desc"),
                           loss=command_text("Points for a mesa lost (default 0)", "opt.loss.desc"),
                           bonus=command_text("Bonus points for winning by zapatería (default 0)", "opt.bonus.desc"),
                           policy=command_text("What an unplayed fixture becomes at the deadline", "opt.policy.desc"))
    @app_commands.choices(mode=MODE_CHOICES, rules=PRESET_CHOICES, policy=POLICY_CHOICES)
    async def create(self, interaction: discord.Interaction, name: str, mode: str = "1v1", rules: str = "quito",
                     double: bool = False, days: app_commands.Range[int, 1, 60] = 7,
                     win: app_commands.Range[int, 1, 10] = 2, loss: app_commands.Range[int, 0, 9] = 0,
                     bonus: app_commands.Range[int, 0, 5] = 0, policy: str = "walkover") -> None:
        """Create a league in this channel (its fixtures are played in threads here)."""

        async def run(lang: str) -> None:
            if not await _manage(interaction):
                raise TableError("err.need_manage_guild")
            if not isinstance(interaction.channel, discord.TextChannel):
                raise TableError("err.queue_text_channel")
            require_thread_permissions(interaction, lang)
            league = await self.leagues.create(
                guild_id=interaction.guild_id or 0, channel_id=interaction.channel.id,
                organizer_id=interaction.user.id, name=name, mode=mode, preset=rules, double=double,
                round_days=days, win_points=win, loss_points=loss, zapateria_bonus=bonus, policy=policy)
            await answer.reply(interaction, t("ok.league_created", lang, league=league.id, name=league.name))

        await self._guard(interaction, run)

    @league.command(name=command_text("signup", "cmd.league_signup.name"),
                    description=command_text("Sign up for a league (2 v 2: name your partner; they do the same)",
                                             "cmd.league_signup.desc"))
    @app_commands.rename(partner=command_text("partner", "opt.partner.name"), league=LEAGUE_OPTION)
    @app_commands.describe(partner=command_text("Your partner in 2 v 2", "opt.partner.desc"), league=LEAGUE_DESC)
    async def signup(self, interaction: discord.Interaction, partner: discord.User | None = None,
                     league: int | None = None) -> None:
        """Sign up; in 2 v 2 invite a partner, or accept their invitation."""
        await self._guard(interaction, lambda lang: self._signup(interaction, league, partner, lang))

    async def _signup(self, interaction: discord.Interaction, league_id: int | None,
                      partner: discord.abc.User | None, lang: str) -> None:
        league = self.leagues.pick(interaction.guild_id or 0, league_id)
        if partner is not None:
            _member(partner)
        side = await self.leagues.sign_up(league, user_id=interaction.user.id, name=interaction.user.display_name,
                                          locale=lang, partner_id=partner.id if partner else None,
                                          partner_name=partner.display_name if partner else None)
        if side.accepted:
            text = t("ok.league_signed", lang, league=league.id, name=league.name, side=side.name)
        else:
            text = t("ok.league_invited", lang, league=league.id, partner=partner.display_name if partner else "?")
        await answer.reply(interaction, text)

    @league.command(name=command_text("close", "cmd.league_close.name"),
                    description=command_text("Close the sign-up, draw the fixtures, start round 1 (organizer)",
                                             "cmd.league_close.desc"))
    @app_commands.rename(league=LEAGUE_OPTION)
    @app_commands.describe(league=LEAGUE_DESC)
    async def close(self, interaction: discord.Interaction, league: int | None = None) -> None:
        """Close the sign-up and draw."""
        await self._guard(interaction, lambda lang: self._close(interaction, league, lang))

    async def _close(self, interaction: discord.Interaction, league_id: int | None, lang: str) -> None:
        league = self._pick(interaction, league_id)
        await self.leagues.close_signup(league, user_id=interaction.user.id, can_manage=await _manage(interaction))
        await answer.reply(interaction, tn("ok.league_drawn", league.rounds, lang, league=league.id, rounds=league.rounds))

    @league.command(name=command_text("play", "cmd.league_play.name"),
                    description=command_text("Ready for your fixture of this round (its table opens when both are)",
                                             "cmd.league_play.desc"))
    @app_commands.rename(league=LEAGUE_OPTION)
    @app_commands.describe(league=LEAGUE_DESC)
    async def play(self, interaction: discord.Interaction, league: int | None = None) -> None:
        """«Jugar»."""
        await self._guard(interaction, lambda lang: self._play(interaction, league, lang))

    async def _play(self, interaction: discord.Interaction, league_id: int | None, lang: str) -> None:
        league = self._pick(interaction, league_id)
        state, fixture = await self.leagues.play(league, user_id=interaction.user.id, locale=lang)
        if state == "waiting":
            text = t("ok.league_waiting", lang, line=fixture_line(league, fixture, lang))
        else:
            text = t("ok.league_opened", lang, table=fixture.table_id,
                     link=f"<#{self.bot.tables.tables[fixture.table_id].channel_id}>")  # type: ignore[index]  # an opened fixture has its table
        await answer.reply(interaction, text)

    @league.command(name=command_text("view", "cmd.league_view.name"),
                    description=command_text("A league's standings, its round and your next fixture", "cmd.league_view.desc"))
    @app_commands.rename(league=LEAGUE_OPTION, player=command_text("player", "opt.member.name"))
    @app_commands.describe(league=LEAGUE_DESC,
                           player=command_text("This player's fixtures and results", "opt.view_player.desc"))
    async def view(self, interaction: discord.Interaction, league: int | None = None,
                   player: discord.User | None = None) -> None:
        """The standings, the current round and the caller's next fixture; a finished league's archive
        (`bot.organizer.present.archive_text`); with ``player``, that player's fixtures and results."""

        async def run(lang: str) -> None:
            found = await self._viewed(interaction, league)
            if found is None:  # no open league: the archive of the latest finished one, and the others
                ended = await self.bot.organizer.ended_leagues(interaction.guild_id or 0)
                if not ended:
                    raise LeagueError("err.league_none")
                found = ended[0]
                if player is None:
                    text = archive_text(self.leagues, found, await self.bot.organizer.history(found.id), lang)
                    await answer.reply(interaction, limits.clip(f"{text}\n\n{finished_list_text(ended, lang)}", limits.CONTENT),
                                       **await self._page(found, lang))
                    return
            if player is not None:
                await answer.reply(interaction, player_results_text(self.leagues, found, player.id,
                                                                    player.display_name, lang))
                return
            if found.status in ("finished", "cancelled"):
                text = archive_text(self.leagues, found, await self.bot.organizer.history(found.id), lang)
                await answer.reply(interaction, text, **await self._page(found, lang))
                return
            lines = [t("league.title", lang, league=found.id, name=found.name)]
            if found.status == "signup":
                signed = sum(1 for s in found.sides if s.accepted)
                lines.append(tn("league.view_signup", signed, lang, count=signed))
            else:
                lines.append(t("league.view_round", lang, round=found.current_round, rounds=found.rounds,
                               when=when_text(found.round_deadline or 0)))
                mine = self.leagues.next_fixture(found, interaction.user.id)
                if mine is not None:
                    lines.append(t("league.view_next", lang, line=fixture_line(found, mine, lang)))
                lines.append(standings_text(self.leagues, found, lang))
            await answer.reply(interaction, "\n".join(lines), **await self._page(found, lang))

        await self._guard(interaction, run)

    async def _page(self, league: League, lang: str) -> dict[str, Any]:
        """A link button to the league's web page, when the server has pages (`page_link`)."""
        return await page_link(self.bot, league.guild_id, f"leagues/{league.id}", league.status,
                               t("web.standings_link", lang))

    @view.autocomplete("league")
    async def _view_choices(self, interaction: discord.Interaction, typed: str) -> list[app_commands.Choice[int]]:
        """The server's open leagues and its last ended ones (the archive), in the user's language."""
        found = await archive_choices(self.bot.organizer, "league", interaction.guild_id or 0, typed,
                                      lang_of(interaction.locale))
        return [app_commands.Choice(name=label, value=number) for number, label in found]

    async def _viewed(self, interaction: discord.Interaction, league_id: int | None) -> League | None:
        """The league ``/cuarenta league view`` shows: the one named (open, or ended: from the archive),
        else the one `LeagueService.pick` finds; None when the server has no open league."""
        if league_id is not None and league_id not in self.leagues.leagues:
            found = await self.bot.organizer.league(interaction.guild_id or 0, league_id)
            if found is None:
                raise LeagueError("err.league_unknown", league=league_id)
            return found
        try:
            return self._pick(interaction, league_id)
        except LeagueError as error:
            if error.key == "err.league_none":
                return None
            raise

    @league.command(name=command_text("extend", "cmd.league_extend.name"),
                    description=command_text("Move this round's deadline later (organizer)", "cmd.league_extend.desc"))
    @app_commands.rename(days=command_text("days", "opt.days.name"), league=LEAGUE_OPTION)
    @app_commands.describe(days=command_text("Days to add (1–30)", "opt.extend_days.desc"), league=LEAGUE_DESC)
    async def extend(self, interaction: discord.Interaction, days: app_commands.Range[int, 1, 30],
                     league: int | None = None) -> None:
        """Extend the deadline."""

        async def run(lang: str) -> None:
            found = self._pick(interaction, league)
            await self.leagues.extend(found, user_id=interaction.user.id, can_manage=await _manage(interaction), days=days)
            await answer.reply(interaction, t("ok.league_extended", lang, when=when_text(found.round_deadline or 0)))

        await self._guard(interaction, run)

    @league.command(name=command_text("walkover", "cmd.league_walkover.name"),
                    description=command_text("Award this round's fixture of a player to them (organizer)",
                                             "cmd.league_walkover.desc"))
    @app_commands.rename(player=command_text("player", "opt.member.name"), league=LEAGUE_OPTION)
    @app_commands.describe(player=command_text("The player who wins by walkover", "opt.walkover_player.desc"),
                           league=LEAGUE_DESC)
    async def walkover(self, interaction: discord.Interaction, player: discord.User,
                       league: int | None = None) -> None:
        """Award a walkover."""

        async def run(lang: str) -> None:
            found = self._pick(interaction, league)
            fixture = await self.leagues.award_walkover(found, user_id=interaction.user.id,
                                                        can_manage=await _manage(interaction), winner_user=player.id)
            await answer.reply(interaction, fixture_line(found, fixture, lang))

        await self._guard(interaction, run)

    @league.command(name=command_text("remove", "cmd.league_remove.name"),
                    description=command_text("Take a player out of a league (organizer)", "cmd.league_remove.desc"))
    @app_commands.rename(player=command_text("player", "opt.member.name"), league=LEAGUE_OPTION)
    @app_commands.describe(player=command_text("The player to take out", "opt.remove_player.desc"), league=LEAGUE_DESC)
    async def remove(self, interaction: discord.Interaction, player: discord.User,
                     league: int | None = None) -> None:
        """Remove a side."""

        async def run(lang: str) -> None:
            found = self._pick(interaction, league)
            side = await self.leagues.remove(found, user_id=interaction.user.id, can_manage=await _manage(interaction),
                                             target_user=player.id)
            await answer.reply(interaction, t("ok.league_removed", lang, name=side.name, league=found.id))

        await self._guard(interaction, run)

    @league.command(name=command_text("replace", "cmd.league_replace.name"),
                    description=command_text("Put a new player in another's place (organizer)", "cmd.league_replace.desc"))
    @app_commands.rename(player=command_text("player", "opt.member.name"), newcomer=command_text("newcomer", "opt.newcomer.name"),
                         league=LEAGUE_OPTION)
    @app_commands.describe(player=command_text("The player who leaves", "opt.remove_player.desc"),
                           newcomer=command_text("The player who takes their place", "opt.newcomer.desc"), league=LEAGUE_DESC)
    async def replace(self, interaction: discord.Interaction, player: discord.User, newcomer: discord.User,
                      league: int | None = None) -> None:
        """Replace a player: the newcomer inherits the side's results and fixtures."""

        async def run(lang: str) -> None:
            found = self._pick(interaction, league)
            _member(newcomer)
            side = await self.leagues.replace(found, user_id=interaction.user.id, can_manage=await _manage(interaction),
                                              old_user=player.id, new_user=newcomer.id,
                                              new_name=newcomer.display_name,
                                              # theirs once they press «Jugar» (`LeagueService.play`)
                                              new_locale=await self.bot.tables.public_language(found.guild_id))
            await answer.reply(interaction, t("ok.league_replaced", lang, old=player.display_name,
                                              new=newcomer.display_name, side=side.name, league=found.id))

        await self._guard(interaction, run)

    @league.command(name=command_text("cancel", "cmd.league_cancel.name"),
                    description=command_text("Cancel a league (organizer)", "cmd.league_cancel.desc"))
    @app_commands.rename(league=LEAGUE_OPTION)
    @app_commands.describe(league=LEAGUE_DESC)
    async def cancel(self, interaction: discord.Interaction, league: int | None = None) -> None:
        """Cancel the league."""

        async def run(lang: str) -> None:
            found = self._pick(interaction, league)
            await self.leagues.cancel(found, user_id=interaction.user.id, can_manage=await _manage(interaction))
            await answer.reply(interaction, t("ok.league_cancelled", lang, league=found.id, name=found.name))

        await self._guard(interaction, run)

    # ------------------------------------------------------------------ buttons (bot.competitions.items)

    async def on_league_button(self, interaction: discord.Interaction, league_id: int, action: str) -> None:
        """Sign up (j), close the sign-up (c), «Jugar» (p)."""

        async def run(lang: str) -> None:
            named = self.leagues.leagues.get(league_id)
            if named is not None and named.guild_id != interaction.guild_id:
                raise ForeignObjectError()  # another server's league: the id is not this server's button
            if action == "j":
                league = self.leagues.get(league_id, interaction.guild_id or 0)
                if league.mode == "2v2":
                    await answer.reply(interaction, t("league.signup_help_2v2", lang, league=league.id))
                    return
                await self._signup(interaction, league_id, None, lang)
            elif action == "c":
                await self._close(interaction, league_id, lang)
            else:
                await self._play(interaction, league_id, lang)

        await self._guard(interaction, run)


async def setup(bot: CuarentaBot) -> None:
    """Extension entry point (after ``cogs.tables``)."""
    await bot.add_cog(LeaguesCog(bot))
