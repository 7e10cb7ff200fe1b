"""The Discord presenter: implements `bot.tables.Notifier` with the bot token (never an interaction token).

- The lobby message is posted once and edited.
- The public table message is re-posted at the start of every hand (the old one becomes a stub without
  cards or buttons), and otherwise edited at most about once a second per table (coalesced).
- Each person gets their hand by DM: a new DM message per hand, edited when their hand, their turn or the
  table changes. A DM that fails with 403/50007 marks the seat; the game goes on and the public message
  tells them to use "My hand".
- End of hand, chica and mesa are announced in the channel.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Sequence
from typing import Any

import discord

from bot.engine import Event, EventKind
from bot.i18n import t
from bot.tables import PLAYING, Table, TableService

from . import render

K = EventKind
log = logging.getLogger(__name__)

DM_CLOSED = 50007
OLD_MESSAGE_EDIT_LIMIT = 30046
UNKNOWN_MESSAGE = 10008


async def open_dm(client: discord.Client, user_id: int) -> discord.DMChannel:
    """The DM channel with a user, opened if needed.

    Like ``User.create_dm`` but sends the recipient id as a string: Discord's API schema types every
    snowflake as a string, and discord.py would send an integer.
    """
    user = client.get_user(user_id)
    if user is not None and user.dm_channel is not None:
        return user.dm_channel
    state = client._connection  # noqa: SLF001 - discord.py's own way to cache a DM channel
    data = await client.http.start_private_message(str(user_id))  # type: ignore[arg-type]
    return state.add_dm_channel(data)


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


class DiscordNotifier:
    """Presents tables on Discord.

    Args:
        client: the bot.
        service: the table service (for languages and to persist message ids).
        edit_interval: seconds between two edits of one table's public message.
        clock: monotonic clock (default: the event loop's time).
        sleep: how to wait for the next edit slot (default `asyncio.sleep`; tests inject a fake clock).
    """

    def __init__(self, client: discord.Client, service: TableService, *, edit_interval: float = 1.0,
                 clock: Callable[[], float] | None = None,
                 sleep: Callable[[float], Awaitable[Any]] | None = None) -> None:
        self.client = client
        self.service = service
        self.edit_interval = edit_interval
        self._clock = clock
        self._sleep = sleep or asyncio.sleep
        self._last_edit: dict[int, float] = {}
        self._pending: dict[int, asyncio.Task[Any]] = {}
        self._dm_keys: dict[tuple[int, int], tuple[Any, ...]] = {}

    def _now(self) -> float:
        return self._clock() if self._clock else asyncio.get_running_loop().time()

    def _channel(self, table: Table) -> discord.PartialMessageable:
        return self.client.get_partial_messageable(table.channel_id, guild_id=table.guild_id)

    # ------------------------------------------------------------------ lobby

    async def lobby_changed(self, table: Table) -> None:
        """Post the lobby message, or edit it."""
        lang = await self.service.public_language(table.guild_id)
        payload = render.lobby_payload(table, lang)
        channel = self._channel(table)
        if table.messages.lobby is None:
            message = await channel.send(**payload.send_kwargs())
            table.messages.lobby = message.id
            await self.service.save_messages(table)
        else:
            await self._edit(channel, table.messages.lobby, payload)

    # ------------------------------------------------------------------ game

    async def game_changed(self, table: Table, events: Sequence[Event]) -> None:
        """Announce hand ends, chicas and the mesa; re-post the table on a new hand, else schedule a
        coalesced edit; refresh the players' DMs."""
        game = table.game
        if game is None:
            return
        lang = await self.service.public_language(table.guild_id)
        channel = self._channel(table)
        new_hand = False
        for event in events:
            if event.kind == K.HAND_END:
                hand = self._hand_slice(game.events, event)
                number = self._hand_number_of(game.events, event)
                await self._announce(table, channel, render.hand_summary_payload(table, hand, number, lang))
            elif event.kind == K.CHICA_WON:
                await self._announce(table, channel, render.chica_payload(table, event, lang))
            elif event.kind == K.MESA_WON:
                await self._announce(table, channel, render.mesa_payload(table, event, lang))
            elif event.kind == K.HAND_START:
                new_hand = True
        try:
            if new_hand or table.messages.public is None or table.messages.public_hand != game.hand_number:
                await self.repost(table)
            else:
                self._schedule_public(table)
        except discord.HTTPException as exc:  # the hands still go out; the next change re-posts
            log.warning("table %d: table message failed (%s %s)", table.id, exc.status, exc.code)
        await self.refresh_hands(table)

    async def _announce(self, table: Table, channel: discord.PartialMessageable, payload: render.Payload) -> None:
        """Post an announcement; a failure is logged and does not hold up the table or the hands."""
        try:
            await channel.send(**payload.send_kwargs())
        except discord.HTTPException as exc:
            log.warning("table %d: announcement failed (%s %s)", table.id, exc.status, exc.code)

    @staticmethod
    def _hand_slice(log_: Sequence[Event], end: Event) -> list[Event]:
        idx = next(i for i in range(len(log_) - 1, -1, -1) if log_[i] is end)
        start = next((i for i in range(idx, -1, -1) if log_[i].kind == K.HAND_START), 0)
        return list(log_[start: idx + 1])

    @staticmethod
    def _hand_number_of(log_: Sequence[Event], end: Event) -> int:
        idx = next(i for i in range(len(log_) - 1, -1, -1) if log_[i] is end)
        start = next((log_[i] for i in range(idx, -1, -1) if log_[i].kind == K.HAND_START), None)
        return start.number if start is not None and start.number is not None else 0

    async def repost(self, table: Table) -> None:
        """Post the table message at the bottom of the channel; the previous one becomes a stub."""
        game = table.game
        if game is None:
            return
        lang = await self.service.public_language(table.guild_id)
        channel = self._channel(table)
        old, old_hand = table.messages.public, table.messages.public_hand
        pending = self._pending.pop(table.id, None)
        if pending is not None and pending is not asyncio.current_task():
            pending.cancel()
        message = await channel.send(**render.table_payload(table, lang).send_kwargs())
        table.messages.public = message.id
        table.messages.public_hand = game.hand_number
        self._last_edit[table.id] = self._now()
        await self.service.save_messages(table)
        if old is not None:
            stub = render.stub_payload(table, old_hand, lang, hand_over=old_hand != game.hand_number)
            await self._edit(channel, old, stub, quiet=True)

    def _schedule_public(self, table: Table) -> None:
        """Edit the public message soon: at most one edit per ``edit_interval`` per table."""
        task = self._pending.get(table.id)
        if task is not None and not task.done():
            return
        self._pending[table.id] = asyncio.ensure_future(self._flush_public(table))

    async def _flush_public(self, table: Table) -> None:
        try:
            wait = self._last_edit.get(table.id, float("-inf")) + self.edit_interval - self._now()
            if wait > 0:
                await self._sleep(wait)
            self._pending.pop(table.id, None)
            if table.game is None or table.messages.public is None:
                return
            self._last_edit[table.id] = self._now()
            lang = await self.service.public_language(table.guild_id)
            payload = render.table_payload(table, lang)
            try:
                await self._channel(table).get_partial_message(table.messages.public).edit(**payload.edit_kwargs())
            except discord.HTTPException as exc:
                if exc.code in (OLD_MESSAGE_EDIT_LIMIT, UNKNOWN_MESSAGE) or exc.status == 404:
                    await self.repost(table)
                else:
                    raise
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("table %d: public edit failed", table.id)

    async def resumed(self, table: Table) -> None:
        """After a restart: refresh the table message and every DM hand (old buttons keep working)."""
        if table.game is None:
            return
        if table.messages.public is None:
            await self.repost(table)
        else:
            self._schedule_public(table)
        await self.refresh_hands(table)

    async def close(self) -> None:
        """Cancel pending edits (the next start refreshes every table)."""
        tasks = list(self._pending.values())
        self._pending.clear()
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)

    async def flush(self, table: Table) -> None:
        """Apply a pending public edit now (used before shutdown)."""
        task = self._pending.pop(table.id, None)
        if task is not None and not task.done():
            task.cancel()
            self._last_edit.pop(table.id, None)
            await self._flush_public(table)

    # ------------------------------------------------------------------ hands by DM

    async def refresh_hands(self, table: Table) -> None:
        """Bring every person's DM hand up to date (one new DM per hand, edits within it)."""
        game = table.game
        if game is None:
            return
        for seat, person in table.humans():
            if table.dm_closed(seat):
                continue
            view = game.view(seat)
            key = (game.hand_number, view.hand, view.to_play, table.nonce if view.my_turn else None,
                   view.table if view.my_turn else None, table.status, person.away,
                   table.timers.deadline if view.my_turn else None)
            if self._dm_keys.get((table.id, seat)) == key:
                continue
            payload = render.hand_payload(table, seat, view, person.locale)
            ok = await self._send_hand(table, seat, person.user_id, game.hand_number, payload)  # type: ignore[arg-type]
            if ok:
                self._dm_keys[(table.id, seat)] = key

    async def _send_hand(self, table: Table, seat: int, user_id: int, hand: int, payload: render.Payload) -> bool:
        record = table.messages.dms.get(str(seat))
        try:
            if record is not None and record.get("hand") == hand:
                channel = self.client.get_partial_messageable(record["channel"], type=discord.ChannelType.private)
                await channel.get_partial_message(record["message"]).edit(**payload.edit_kwargs())
                return True
            dm = await open_dm(self.client, user_id)
            message = await dm.send(**payload.send_kwargs())
            if record is not None:
                old = self.client.get_partial_messageable(record["channel"], type=discord.ChannelType.private)
                lang = (table.seats[seat].locale if table.seats[seat] else "es")  # type: ignore[union-attr]
                await self._edit(old, record["message"], render.stub_payload(table, record.get("hand", 0), lang),
                                 quiet=True)
            table.messages.dms[str(seat)] = {"channel": dm.id, "message": message.id, "hand": hand}
            await self.service.save_messages(table)
            return True
        except discord.Forbidden as exc:
            if exc.code == DM_CLOSED:
                log.info("table %d: DMs closed for seat %d", table.id, seat)
                await self.mark_dm_closed(table, seat)
                return False
            log.warning("table %d: DM to seat %d refused (%s)", table.id, seat, exc.code)
            return False
        except discord.HTTPException as exc:
            log.warning("table %d: DM to seat %d failed (%s %s)", table.id, seat, exc.status, exc.code)
            return False

    async def mark_dm_closed(self, table: Table, seat: int) -> None:
        """Record that a seat's DMs are closed; the public message tells them to use "My hand"."""
        if seat not in table.messages.dm_closed:
            table.messages.dm_closed.append(seat)
            await self.service.save_messages(table)
            if table.status == PLAYING and table.messages.public is not None:
                self._schedule_public(table)

    async def welcome(self, table: Table, user: discord.abc.User, lang: str) -> bool:
        """DM a player who just sat down. Returns False only when their DMs are closed (403, 50007)."""
        seat = table.seat_of(user.id)
        text = t("dm.welcome", lang, table=table.id, guild=table.meta.get("guild_name") or "?",
                 channel=table.meta.get("channel_name") or "?")
        try:
            dm = await open_dm(self.client, user.id)
            await dm.send(text)
            if seat is not None and seat in table.messages.dm_closed:
                table.messages.dm_closed.remove(seat)
                await self.service.save_messages(table)
            return True
        except discord.Forbidden as exc:
            if exc.code != DM_CLOSED:
                return True
            if seat is not None:
                await self.mark_dm_closed(table, seat)
            return False
        except discord.HTTPException:
            return True  # a transient failure says nothing about the user's DMs

    # ------------------------------------------------------------------ timers and presence (issue 6)

    async def table_note(self, table: Table, kind: str, **params: Any) -> None:
        """A table event in words, in the channel: the 2/3 reminder (a mention replying to the table
        message, and a DM line), a timed-out turn, a seat handed to a computer player or taken back, a
        player who left or was removed, a new host, a lobby that timed out. Then the table message and
        the DM hands are brought up to date."""
        lang = await self.service.public_language(table.guild_id)
        channel = self._channel(table)
        seat = params.get("seat")
        if kind == "reminder":
            await self._remind(table, channel, seat, params["deadline"], lang)
            return
        if kind in ("expired", "away", "back"):
            text = t(f"note.{kind}", lang, name=render.seat_name(table, seat, lang))
        elif kind in ("left", "kicked", "removed"):
            name = discord.utils.escape_mentions(discord.utils.escape_markdown(params.get("name") or "?"))
            if table.game is None:
                text = t("note.kicked_lobby", lang, name=name)
            else:
                substitute = table.seats[seat]
                ai = t("ai.name", lang, n=substitute.ai_number if substitute else 0)
                text = t(f"note.{kind}", lang, name=name, ai=ai)
                await self._retire_hand(table, seat, str(params.get("locale") or lang))
        elif kind == "host":
            name = discord.utils.escape_mentions(discord.utils.escape_markdown(params.get("name") or "?"))
            text = t("note.host", lang, name=name, table=table.id)
        elif kind == "lobby_timeout":
            text = t("note.lobby_timeout", lang, table=table.id)
        else:
            return
        await self._announce(table, channel, render.Payload(content=text))
        if table.status == PLAYING and table.game is not None:
            if table.messages.public is not None:
                self._schedule_public(table)
            await self.refresh_hands(table)

    async def _remind(self, table: Table, channel: discord.PartialMessageable, seat: int | None,
                      deadline: float, lang: str) -> None:
        person = table.seats[seat] if seat is not None else None
        if person is None or person.user_id is None:
            return
        when = render.when_text(deadline)
        text = t("note.reminder", lang, mention=f"<@{person.user_id}>", table=table.id, when=when)
        kwargs: dict[str, Any] = {"content": text, "allowed_mentions": discord.AllowedMentions(users=True)}
        if table.messages.public is not None:
            kwargs["reference"] = _Reference(message_id=table.messages.public, channel_id=table.channel_id,
                                             fail_if_not_exists=False)
        try:
            await channel.send(**kwargs)
        except discord.HTTPException as exc:
            log.warning("table %d: reminder failed (%s %s)", table.id, exc.status, exc.code)
        if seat in table.messages.dm_closed:
            return
        try:
            dm = await open_dm(self.client, person.user_id)
            await dm.send(t("dm.reminder", person.locale, table=table.id, when=when),
                          allowed_mentions=discord.AllowedMentions.none())
        except discord.HTTPException as exc:
            log.info("table %d: reminder DM to seat %d failed (%s %s)", table.id, seat, exc.status, exc.code)

    async def _retire_hand(self, table: Table, seat: int | None, locale: str) -> None:
        """The person of ``seat`` left: their DM hand loses its buttons."""
        record = table.messages.dms.pop(str(seat), None) if seat is not None else None
        self._dm_keys.pop((table.id, seat), None)  # type: ignore[arg-type]
        if record is None:
            return
        await self.service.save_messages(table)
        dm = self.client.get_partial_messageable(record["channel"], type=discord.ChannelType.private)
        await self._edit(dm, record["message"], render.Payload(content=t("dm.left", locale, table=table.id)),
                         quiet=True)

    # ------------------------------------------------------------------ closing

    async def table_closed(self, table: Table) -> None:
        """Replace the lobby / table message with a closing note and retire the DM hands."""
        lang = await self.service.public_language(table.guild_id)
        channel = self._channel(table)
        pending = self._pending.pop(table.id, None)
        if pending is not None:
            pending.cancel()
        if table.messages.lobby is not None and table.game is None:
            await self._edit(channel, table.messages.lobby, render.lobby_payload(table, lang), quiet=True)
        if table.messages.public is not None:
            await self._edit(channel, table.messages.public, render.closed_payload(table, lang), quiet=True)
        for seat, record in table.messages.dms.items():
            person = table.seats[int(seat)]
            dm = self.client.get_partial_messageable(record["channel"], type=discord.ChannelType.private)
            await self._edit(dm, record["message"], render.closed_payload(table, person.locale if person else "es"),
                             quiet=True)

    async def _edit(self, channel: discord.PartialMessageable, message_id: int, payload: render.Payload,
                    *, quiet: bool = False) -> None:
        try:
            await channel.get_partial_message(message_id).edit(**payload.edit_kwargs())
        except discord.HTTPException as exc:
            if not quiet:
                raise
            log.info("edit of message %d skipped (%s %s)", message_id, exc.status, exc.code)
