"""What the cogs share: the typed bot of an interaction, translatable command strings and the choices
several commands offer, the one guard every command and component click runs under, and the frame of
the cogs whose commands join ``/cuarenta``. No game logic, no SQL."""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any, ClassVar, cast

import discord
from discord import app_commands
from discord.app_commands import locale_str
from discord.ext import commands

from bot.engine import PRESET_NAMES
from bot.i18n import lang_of, message, t
from bot.tables import TableError
from bot.ui import answer, permissions
from bot.ui.actions import Actions

if TYPE_CHECKING:
    from bot.app import CuarentaBot

log = logging.getLogger(__name__)

Action = Callable[[str], Awaitable[None]]
"""The body of a command or click: called with the user's language."""


def bot_of(interaction: discord.Interaction) -> CuarentaBot:
    """The bot this interaction came to, typed (the one cast from ``interaction.client`` in the cogs)."""
    return cast("CuarentaBot", interaction.client)


def command_text(default: str, key: str) -> locale_str:
    """A translatable command string. Discord shows the message (the English catalog's text for ``key``;
    ``default`` is only a reminder in the source) to locales without a localization."""
    return locale_str(message(key, "en") or default, key=key)


PRESET_CHOICES = [app_commands.Choice(name=p, value=p) for p in PRESET_NAMES]
"""The rules presets, by name."""
LANGUAGE_CHOICES = [
    app_commands.Choice(name=command_text("Spanish", "choice.language.es"), value="es"),
    app_commands.Choice(name=command_text("English", "choice.language.en"), value="en"),
    app_commands.Choice(name=command_text("Portuguese (Brazil)", "choice.language.pt"), value="pt"),
]
"""The languages of a server's public messages."""
POLICY_CHOICES = [
    app_commands.Choice(name=command_text("walkover for the side that showed up", "choice.policy.walkover"),
                        value="walkover"),
    app_commands.Choice(name=command_text("double loss", "choice.policy.double_loss"), value="double_loss"),
]
"""What a league or tournament does with a match nobody played."""


def command_error_text(interaction: discord.Interaction, error: app_commands.AppCommandError) -> str:
    """The user's-language text for an error raised before a command body ran (a check or a conversion);
    unexpected errors are logged with the interaction id (never with game state)."""
    if isinstance(error, app_commands.NoPrivateMessage):
        key = "err.guild_only"
    elif isinstance(error, app_commands.TransformerError):  # an option's value that cannot be what it names
        key = "err.bad_option"
    else:
        key = "err.generic"
    if key == "err.generic":
        log.error("command error in interaction %s", interaction.id, exc_info=error)
    return t(key, lang_of(interaction.locale))


def require_thread_permissions(interaction: discord.Interaction, lang: str) -> None:
    """Refuse, naming them, when the bot lacks a permission its competition channel needs
    (`bot.ui.permissions.COMPETITION_CHANNEL`: its messages there, and a table in a thread per match).

    Raises:
        TableError: ``err.bot_permissions_which`` (params: missing).
    """
    missing = permissions.missing(interaction.app_permissions, permissions.COMPETITION_CHANNEL)
    if missing:
        raise TableError("err.bot_permissions_which", missing=permissions.words(missing, lang))


def league_words(params: dict[str, object], lang: str) -> dict[str, object]:
    """A refusal's ``what`` (which league or tournament field was wrong), in words."""
    if "what" in params:
        params["what"] = t(f"league.what.{params['what']}", lang)
    return params


async def page_link(bot: CuarentaBot, guild_id: int, path: str, status: str, label: str) -> dict[str, Any]:
    """``reply`` keyword arguments with a link button to a league's or tournament's web page (``path``:
    ``"leagues/5"``), or none: no pages on this server, no ``WEB_BASE_URL``, or a cancelled competition
    (its page is not served)."""
    if status == "cancelled":
        return {}
    url = await bot.web_links.page(guild_id, path)
    if url is None:
        return {}
    view = discord.ui.View(timeout=None)
    view.add_item(discord.ui.Button(style=discord.ButtonStyle.link, url=url, label=label[:80]))
    return {"view": view}


async def say(interaction: discord.Interaction, text: str, **kwargs: Any) -> None:
    """Answer ephemerally, pinging no one (or follow up if already answered): `bot.ui.answer.reply`.

    Raises:
        discord.HTTPException: Discord refused the message.
    """
    kwargs.setdefault("allowed_mentions", discord.AllowedMentions.none())
    await answer.reply(interaction, text, **kwargs)


async def guard(interaction: discord.Interaction, action: Action, *,
                explain: Callable[[Exception], Awaitable[Exception]] | None = None,
                refusal_text: Callable[[TableError, str], str] | None = None,
                after: Action | None = None, public: bool = False) -> None:
    """Run ``action(lang)`` under the 3-second guard (`bot.ui.answer.watchdog`) with the user's language:
    the one error path of every command and component click.

    Args:
        explain: turns an error raised by the action into the one to handle (a `TableError` is a refusal;
            a cog makes a refusal more precise, or maps its own errors to refusals); by default the error
            itself.
        refusal_text: a refusal in words (default: its message key in ``lang`` with its params).
        after: run with ``lang`` after the action was answered (not when answering a refusal failed).
        public: the answer is public, so the guard's acknowledgement is public too.

    A refusal is answered ephemerally; any other error is logged with the interaction id and answered
    with a generic error (that answer's own HTTP failure is swallowed). A refusal Discord does not accept
    raises `discord.HTTPException`.
    """
    what = interaction.command.qualified_name if interaction.command else f"component {interaction.type.name}"
    log.debug("interaction %s: %s in guild %s by user %s", interaction.id, what, interaction.guild_id,
              interaction.user.id)
    async with answer.watchdog(interaction, ephemeral=not public):
        lang = await answer.language(interaction)  # may read the store: under the 3-second guard
        try:
            try:
                await action(lang)
            except Exception as error:
                if explain is None:
                    raise
                explained = await explain(error)
                if explained is error:
                    raise
                raise explained from None
        except TableError as error:
            log.info("interaction %s refused: %s", interaction.id, error.key)
            text = refusal_text(error, lang) if refusal_text else t(error.key, lang, **error.params)
            await say(interaction, text)
        except Exception:
            log.exception("interaction %s failed", interaction.id)
            try:
                await say(interaction, t("err.generic", lang))
            except discord.HTTPException:
                pass
        if after is not None:
            await after(lang)


class GroupedCog(commands.Cog):
    """A cog whose commands live under ``/cuarenta`` and that answers its own persistent components.

    Subclasses set ``ITEMS`` (their `DynamicItem` classes) and implement `bind` (fill or empty their slot
    of the bot's `bot.ui.actions.Actions`, through which those items reach the cog)."""

    ITEMS: ClassVar[tuple[type[discord.ui.DynamicItem[Any]], ...]] = ()

    def __init__(self, bot: CuarentaBot) -> None:
        self.bot = bot
        self._moved: list[app_commands.Command[Any, ..., Any] | app_commands.Group] = []

    def bind(self, actions: Actions, bound: bool) -> None:
        """Fill (``bound``) or empty this cog's slot of ``actions``; by default the cog has none."""

    async def cog_load(self) -> None:
        """Put the commands under ``/cuarenta``, answer the items' clicks, register the items."""
        group = self.bot.tree.get_command("cuarenta")
        if not isinstance(group, app_commands.Group):
            raise RuntimeError(f"load cogs.tables (the /cuarenta group) before {type(self).__name__}")
        for command in self.__cog_app_commands__:
            group.add_command(command)
            self._moved.append(command)
        self.__cog_app_commands__ = []
        self.bind(self.bot.actions, True)
        self.bot.add_dynamic_items(*self.ITEMS)

    async def cog_unload(self) -> None:
        """Take the commands out of ``/cuarenta`` again."""
        group = self.bot.tree.get_command("cuarenta")
        if isinstance(group, app_commands.Group):
            for command in self._moved:
                group.remove_command(command.name)
        self._moved.clear()
        self.bind(self.bot.actions, False)
        self.bot.remove_dynamic_items(*self.ITEMS)

    async def cog_app_command_error(self, interaction: discord.Interaction,
                                    error: app_commands.AppCommandError) -> None:
        """Errors raised before a command body runs: an ephemeral message."""
        try:
            await answer.reply(interaction, command_error_text(interaction, error))
        except discord.HTTPException:
            pass

    def refusal_params(self, params: dict[str, object], lang: str) -> dict[str, object]:
        """Turn a refusal's parameters into words (subclasses translate their own)."""
        return params

    async def explain(self, error: TableError, interaction: discord.Interaction) -> TableError:
        """A refusal made more precise before it is shown (subclasses: an ended league or tournament rather
        than an unknown one); by default ``error`` itself."""
        return error

    async def _guard(self, interaction: discord.Interaction, action: Action) -> None:
        """`guard` with this cog's `explain` and `refusal_params`."""

        async def explain(error: Exception) -> Exception:
            return await self.explain(error, interaction) if isinstance(error, TableError) else error

        def refusal_text(error: TableError, lang: str) -> str:
            return t(error.key, lang, **self.refusal_params(dict(error.params), lang))

        await guard(interaction, action, explain=explain, refusal_text=refusal_text)
