"""What the table presenter says in words about table events, in the channel and by DM: the 2/3 reminder,
a timed-out turn, a seat handed to a computer player or taken back, a player who left or was removed, a new
host, a lobby that timed out, and the rematch ready check. A part of `bot.ui.notifier`'s
`DiscordNotifier`, split out by concern: `TableNotesMixin` uses the presenter's client, service, write
budget, DM hands and public pump.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

import discord

from bot.i18n import t
from bot.tables import PLAYING, Table, TableService
from bot.tables.rematch import ReadyCheck

from . import records, render
from .budget import WriteBudget
from .hands import HandPresenter
from .words import clean, seat_name

log = logging.getLogger(__name__)


class _Reference(discord.MessageReference):
    """A reply reference whose ids are sent as strings (Discord's API schema types snowflakes as strings;
    discord.py would send integers)."""

    def to_dict(self) -> Any:
        """The payload, snowflakes as strings."""
        data = dict(super().to_dict())
        for key in ("message_id", "channel_id", "guild_id"):
            if data.get(key) is not None:
                data[key] = str(data[key])
        return data

    to_message_reference_dict = to_dict


class TableNotesMixin:
    """`table_note` and `rematch_changed` of `bot.ui.notifier.DiscordNotifier` (which provides what is
    declared here)."""

    service: TableService
    budget: WriteBudget
    hands: HandPresenter
    _channel: Callable[[Table], discord.PartialMessageable]
    _state: Callable[[Table], Any]
    _kick: Callable[[Table], None]
    _refused: Callable[[Table, str, discord.HTTPException], None]

    async def table_note(self, table: Table, kind: str, **params: Any) -> None:
        """A table event in words, in the channel: the 2/3 reminder (a mention replying to the table
        message, and a DM line), a timed-out turn, a seat handed to a computer player or taken back, a
        player who left or was removed, a new host, a lobby that timed out. Then the table message and
        the DM hands are brought up to date."""
        if table.channel_gone:
            return
        lang = await self.service.public_language(table.guild_id)
        seat: int | None = params.get("seat")
        if kind == "reminder":
            await self._remind(table, seat, params["deadline"], lang)
            return
        if kind in ("expired", "away", "back"):
            text = t(f"note.{kind}", lang, name=seat_name(table, seat, lang))
        elif kind in ("left", "kicked", "removed"):
            name = clean(params.get("name") or "?")
            ended = bool(params.get("ended"))
            if table.game is None:
                text = t("note.kicked_lobby", lang, name=name)
            elif ended:  # the last person went: the table ended (computer players never play on alone)
                text = t(f"note.{kind}_ended", lang, name=name, table=table.id)
                await self.hands.retire(table, seat, str(params.get("locale") or lang), ended=True)
            else:
                ai = seat_name(table, seat, lang) if seat is not None and table.seats[seat] is not None else "?"
                text = t(f"note.{kind}", lang, name=name, ai=ai)
                await self.hands.retire(table, seat, str(params.get("locale") or lang))
        elif kind == "host":
            text = t("note.host", lang, name=clean(params.get("name") or "?"), table=table.id)
        elif kind == "lobby_timeout":
            text = t("note.lobby_timeout", lang, table=table.id)
        else:
            return
        await self._announce(table, render.Payload(content=text))
        if table.status == PLAYING and table.game is not None:
            self._state(table).dirty = True
            self._kick(table)
            self.hands.refresh(table)

    async def _announce(self, table: Table, payload: render.Payload) -> None:
        """Post an announcement; a failure is logged and does not hold up the table or the hands."""
        await self.budget.acquire(table.channel_id)
        try:
            await self._channel(table).send(**payload.send_kwargs())
        except discord.HTTPException as exc:
            self._refused(table, "announcement", exc)

    async def _remind(self, table: Table, seat: int | None, deadline: float, lang: str) -> None:
        self.hands.retry_failed(table)  # a hand whose every try failed is tried once more now
        person = table.seats[seat] if seat is not None else None
        if person is None or person.user_id is None:
            return
        when = render.when_text(deadline)
        text = t("note.reminder", lang, mention=f"<@{person.user_id}>", table=table.id, when=when)
        kwargs: dict[str, Any] = {"content": text, "allowed_mentions": discord.AllowedMentions(users=True)}
        if table.messages.public is not None:
            kwargs["reference"] = _Reference(message_id=table.messages.public, channel_id=table.channel_id,
                                             fail_if_not_exists=False)
        await self.budget.acquire(table.channel_id)
        try:
            await self._channel(table).send(**kwargs)
        except discord.HTTPException as exc:
            self._refused(table, "reminder", exc)
        if seat is None or table.dm_closed(seat):
            return
        await self.hands.send_line(table, seat, t("dm.reminder", person.locale, table=table.id, when=when))

    # ------------------------------------------------------------------ rematch ready check

    async def rematch_changed(self, table: Table, check: ReadyCheck) -> None:
        """Post the ready check in the channel, then edit it as people answer and when it ends."""
        if table.channel_gone:
            return
        lang = await self.service.public_language(table.guild_id)
        payload = records.rematch_payload(table, check, lang)
        channel = self._channel(table)
        await self.budget.acquire(table.channel_id)
        if check.message_id is None:
            try:
                check.message_id = (await channel.send(**payload.send_kwargs())).id
            except discord.HTTPException as exc:
                log.warning("table %d: rematch message failed (%s %s)", table.id, exc.status, exc.code)
                return
            await self.service.rematch_posted(check)
            return
        try:
            await channel.get_partial_message(check.message_id).edit(**payload.edit_kwargs())
        except discord.HTTPException as exc:
            log.info("table %d: rematch message edit failed (%s %s)", table.id, exc.status, exc.code)
