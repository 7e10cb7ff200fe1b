"""The play controls of a hand, for `cogs.tables.TablesCog`: a card button, the trail control and the
capture menu (with its pages), and how a click on a hand is answered (the hand edited in place) or
refused (why, and the hand as it is now; a double click acknowledged silently). Thin, like the cog: read
the interaction, call the table service, answer. No game logic, no SQL.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any

import discord

from bot.engine import Card
from bot.i18n import t
from bot.tables import PLAYING, Choice, Played, Table, TableError, TableService
from bot.tables.errors import NotYourTurnError, StaleError
from bot.ui import answer, hand_layout, records, render
from bot.ui.items import TRAIL_VALUE
from bot.ui.notifier import DiscordNotifier
from cogs.common import Action

if TYPE_CHECKING:
    from bot.app import CuarentaBot

__all__ = ["TablePlayMixin"]

log = logging.getLogger("cogs.tables")  # the cog's logger: these answers are the cog's


class TablePlayMixin:
    """`on_card`, `on_trail` and `on_capture` of `bot.ui.actions.TableActions` for `TablesCog` (which
    provides the bot, the service and the helpers declared below)."""

    if TYPE_CHECKING:
        bot: CuarentaBot

        @property
        def service(self) -> TableService:
            """`TablesCog.service`."""
            raise NotImplementedError

        @property
        def notifier(self) -> DiscordNotifier:
            """`TablesCog.notifier`."""
            raise NotImplementedError

        @staticmethod
        async def _say(interaction: discord.Interaction, text: str, **kwargs: Any) -> None:
            """`TablesCog._say`."""

        async def _guard(self, interaction: discord.Interaction, action: Action, table: Table | None = None) -> None:
            """`TablesCog._guard`."""

        async def _scoped(self, interaction: discord.Interaction, table_id: int, *, channel: bool = False) -> Table:
            """`TablesCog._scoped`."""
            raise NotImplementedError

    async def on_card(self, interaction: discord.Interaction, table_id: int, nonce: int, card: str) -> None:
        """A card button: play it, or ask which capture when there are several."""

        async def run(lang: str) -> None:
            table = await self._scoped(interaction, table_id)
            try:
                result = await self.service.play(table_id, user_id=interaction.user.id, nonce=nonce, card=card)
            except TableError as error:
                await self._refuse_play(interaction, table, error, nonce, lang, card)
                return
            await self._answer_play(interaction, table, result, lang)

        await self._guard(interaction, run)

    async def on_trail(self, interaction: discord.Interaction, table_id: int, nonce: int, card: str) -> None:
        """The trail control: play a card without capturing."""

        async def run(lang: str) -> None:
            table = await self._scoped(interaction, table_id)
            try:
                result = await self.service.play(table_id, user_id=interaction.user.id, nonce=nonce, card=card,
                                                 trail=True)
            except TableError as error:
                await self._refuse_play(interaction, table, error, nonce, lang, card)
                return
            await self._answer_play(interaction, table, result, lang)

        await self._guard(interaction, run)

    async def on_capture(self, interaction: discord.Interaction, table_id: int, nonce: int, card: str,
                         value: str) -> None:
        """The second step: the chosen capture (or the trail); a "more…"/"previous" option
        (`render.PAGE_VALUE_PREFIX`) shows another page of the captures in the same message."""

        async def run(lang: str) -> None:
            table = await self._scoped(interaction, table_id)
            if value.startswith(render.PAGE_VALUE_PREFIX):
                await self._capture_page(interaction, table, nonce, card, value, lang)
                return
            trail = value == TRAIL_VALUE
            captures = None if trail else value.replace(".", " ")
            try:
                result = await self.service.play(table_id, user_id=interaction.user.id, nonce=nonce, card=card,
                                                 captures=captures, trail=trail)
            except TableError as error:
                await self._refuse_play(interaction, table, error, nonce, lang, card)
                return
            await self._answer_play(interaction, table, result, lang)

        await self._guard(interaction, run)

    async def _capture_page(self, interaction: discord.Interaction, table: Table, nonce: int, card: str,
                            value: str, lang: str) -> None:
        """Show another page of a capture menu (nothing is played; a stale menu is refused as usual)."""
        try:
            page = int(value[len(render.PAGE_VALUE_PREFIX):])
            result = await self.service.play(table.id, user_id=interaction.user.id, nonce=nonce, card=card,
                                             ask=True)
        except ValueError:
            page, result = 0, None
        except TableError as error:
            await self._refuse_play(interaction, table, error, nonce, lang, card)
            return
        if result is not None:
            await self._answer_play(interaction, table, result, lang, page=page)
        else:
            await self._say(interaction, t("err.illegal", lang))

    async def _answer_play(self, interaction: discord.Interaction, table: Table, result: Played | Choice,
                           lang: str, *, page: int = 0) -> None:
        """Answer a click on a hand by editing that hand (DM or ephemeral) through the interaction: the
        capture menu of an ambiguous card appears on the hand itself; after a play, the hand as it is now.
        No channel write: a DM hand answered this way is marked shown for the presenter. The hand keeps the
        kind of the clicked message (`hand_layout.hand_like`).

        When Discord refuses that answer after a play (a 5xx, or 10062 when the answer came too late) the
        play stands: the DM hand is written again by the presenter, and nothing tells the player an error
        happened (there was none in the game). A refused capture menu raises (nothing was played)."""
        seat = result.view.seat if isinstance(result, Choice) else result.seat
        assert seat is not None and table.game is not None
        choice = result if isinstance(result, Choice) else None
        message = interaction.message
        payload = hand_layout.hand_like(
            message is not None and message.flags.components_v2, table, seat, table.game.view(seat), lang,
            choice=choice, page=page, final=records.mesa_result(table, lang) if table.status != PLAYING else None,
            faces=self.bot.faces, picture=self.notifier.hands.pictures)  # in the clicked hand's kind
        record = table.messages.dms.get(str(seat))
        message_id = message.id if message else None
        on_dm_hand = record is not None and record.get("message") == message_id
        if on_dm_hand:
            # before any await: the presenter must not write it too
            self.notifier.hand_shown(table, seat, interaction, menu=choice is not None)
        try:
            await answer.show(interaction, payload)
        except discord.HTTPException as exc:
            if on_dm_hand:
                self.notifier.hands.forget_shown(table, seat)
            if choice is not None:
                raise
            log.warning("interaction %s: the play stands, its answer was refused (%s %s)", interaction.id,
                        exc.status, exc.code)

    async def _refuse_play(self, interaction: discord.Interaction, table: Table, error: TableError, nonce: int,
                           lang: str, card: str = "") -> None:
        """A refused click on a hand. When that hand was out of date (its turn nonce has passed), nothing
        was played: a second click on the card the player just played (a double click) is acknowledged
        silently; any other click gets, ephemerally, why it was not played and the hand as it is now, so
        the player goes on from it."""
        seat = table.seat_of(interaction.user.id)
        game = table.game
        if (nonce == table.nonce or not isinstance(error, (StaleError, NotYourTurnError)) or seat is None
                or game is None or table.status != PLAYING):
            await self._say(interaction, render.error_text(error, lang, table))
            return
        timed_out_card = table.timed_out.get(seat)  # what the computer played when this seat's time ran out
        timed_out = bool(card) and timed_out_card == card
        if card and not timed_out and _last_card_of(game, seat) == card:
            await answer.acknowledge(interaction)  # a double click: the first click played it and answered
            return
        view = game.view(seat)
        hand = render.hand_payload(table, seat, view, lang, faces=self.bot.faces)
        if timed_out:
            notice = t("err.timed_out_played", lang)
        elif timed_out_card is not None:  # they chose something else, too late: say so, and what was played
            notice = t("err.timed_out_other", lang, card=self.bot.faces.card(Card.parse(timed_out_card)))
        elif card and card not in {c.code for c in view.hand}:
            notice = t("err.card_already_played", lang)
        elif isinstance(error, NotYourTurnError):
            notice = t("err.hand_changed_wait", lang, name=render.seat_name(table, game.to_play, lang))
        else:
            notice = t("err.hand_changed", lang)
        await self._say(interaction, f"{notice}\n{hand.content or ''}".strip(), view=hand.view)


def _last_card_of(game: Any, seat: int) -> str | None:
    """The code of the last card ``seat`` played in the game (None before its first play)."""
    for event in reversed(game.events):
        if event.kind == "played" and event.seat == seat and event.card is not None:
            return str(event.card.code)
    return None
