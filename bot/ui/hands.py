"""The players' hands by DM, within Discord's write budget, with a real notification when a turn comes.

- Each person has one DM hand message per table, edited as the game moves (coalesced: at most one edit
  per ``edit_interval`` per DM, every write through the `WriteBudget`, rendered when its slot comes so it
  always shows the latest state).
- **Turn alert.** Edits do not notify. When a person's turn comes and they have not acted at the table
  within `ACTIVE_WINDOW` seconds, the hand is sent as a *new* DM message (a notification) and the
  previous one is deleted: one alert per turn at most, none while they are plainly playing.
- A person's own click is answered through the interaction (no channel write); the cog calls `shown` so
  the same state is not written again.
- **Through the click's token.** That click also leaves an interaction token, valid 15 minutes,
  that can edit the hand message it was on, send follow-up messages in the DM and delete them. Discord
  does not count interaction endpoints against the bot's global rate limit (about 50 requests/s for the
  whole bot), so while a person has clicked their hand in the last `TOKEN_LIFETIME` seconds, the
  hand's edits, its turn alert (a follow-up: a new DM message, so a notification) and the deletion of the
  old hand all go through that token. Only a hand nobody clicked lately (the first of a mesa, after a
  restart, after a long pause) takes bot-token writes. Any failure of the token path falls back to them.
- **The table drawn.** A new hand is a Components V2 message (`bot.ui.hand_layout`); at the person's
  turn it shows the table cards drawn, an uploaded file in a media gallery, which Discord refuses to
  edit in through a token (discord-api-docs#7529). So that hand, when the token would edit it, goes as a
  *quiet* follow-up (SUPPRESS_NOTIFICATIONS: no alert) and the old hand is deleted: two token writes,
  no bot-token call. A hand message sent as a classic one (its record has no ``"v2"``) is edited as one
  until it is replaced.
- A DM that fails with 403/50007, whatever it carried (the hand, a reminder line, the welcome), marks the
  seat through one path (`HandPresenter.dm_refused`), once; the public message then tells them to use "My
  hand", and the channel alert (`bot.ui.notifier`) mentions them instead. Those other DM writes (lines,
  the welcome, closed DMs) are `bot.ui.dm_writes`.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

import discord

from bot.i18n import t
from bot.store.messages import TableMessages
from bot.tables import FINISHED, PLAYING, Table, TableService

from . import answer, delivery, hand_layout, records, render
from .budget import WriteBudget
from .dm_writes import DM_CLOSED, DmWriter, open_dm
from .faces import CardFaces

log = logging.getLogger(__name__)

ACTIVE_WINDOW = 8.0
"""Seconds after a person's last action during which their turn brings no alert (quick play)."""
MESSAGE_MAX_AGE = 50 * 60.0
"""A DM hand older than this is sent anew rather than edited (Discord refuses edits of old messages)."""
TOKEN_LIFETIME = 14 * 60.0
"""Seconds a click's interaction token is used for (Discord keeps it valid 15 minutes)."""
RETRY_AFTER = (2.0, 5.0, 15.0, 30.0)
"""Seconds after which a DM hand write that failed for a passing reason (a 5xx or 429 Discord did not
retry, a network error) is tried again, one delay per try; after the last, the next change of the table
or the 2/3 reminder tries again."""


@dataclass
class _Token:
    """A person's last click on their DM hand, whose interaction token can write that DM: edit
    ``message_id`` (the click's own message while ``original``, else a follow-up sent with the token),
    send follow-ups, delete either. ``since`` is the service clock's second of the click.

    ``answering`` is the click itself until its own answer is seen done (`HandPresenter._token_for`),
    then None: the token is kept for minutes, the interaction is not (see `delivery.ClickToken`)."""

    click: delivery.ClickToken
    message_id: int
    original: bool
    since: float
    answering: discord.Interaction | None = None

    @property
    def target(self) -> int | None:
        """The message to edit or delete through the token, as `delivery.edit_token_message` takes it: None for
        the click's own message (``original``), else the follow-up's id."""
        return None if self.original else self.message_id


class HandPresenter(DmWriter):
    """Delivers every person's hand by DM (one background pump per seat).

    Args:
        client: the bot. service: the table service (clock, languages).
        budget: the shared per-channel `WriteBudget`.
        edit_interval: seconds between two writes to one DM hand.
        clock, sleep: monotonic seconds and how to wait (default `time.monotonic` and `asyncio.sleep`).
        faces: how the hands write their cards (`bot.ui.faces.CardFaces`; default text labels).
        messages: where the DM hands' message ids (``Table.messages``) are kept (the presenter's store);
            None: in memory only (unit tests).
        pictures: the hands show the table drawn at their turn (`pictures`).
    """

    def __init__(self, client: discord.Client, service: TableService, budget: WriteBudget, *,
                 edit_interval: float = 1.0, clock: Callable[[], float] | None = None,
                 sleep: Callable[[float], Awaitable[Any]] | None = None,
                 faces: CardFaces = CardFaces.TEXT, messages: TableMessages | None = None,
                 pictures: bool = True) -> None:
        super().__init__(client, service, budget, messages)
        self.faces = faces
        self.pictures = pictures
        """Whether the hands show the table drawn at their turn (the bot's ``pictures`` setting, as for the
        table picture; off, a hand says the table in words and its writes cost what a text hand costs)."""
        self.edit_interval = edit_interval
        self._clock = clock
        self._sleep = sleep or asyncio.sleep
        self._keys: dict[tuple[int, int], tuple[Any, ...]] = {}
        self._alerted: dict[tuple[int, int], int] = {}
        self._last_write: dict[tuple[int, int], float] = {}
        self._posted: dict[tuple[int, int], float] = {}
        self._dirty: set[tuple[int, int]] = set()
        self._pumps: dict[tuple[int, int], asyncio.Task[Any]] = {}
        self._tokens: dict[tuple[int, int], _Token] = {}
        self._tries: dict[tuple[int, int], int] = {}
        self._failed: set[tuple[int, int]] = set()
        """Hands whose last write failed for a passing reason (`_retry`; the reminder tries them again)."""
        self._menus: dict[tuple[int, int], int] = {}
        """Seat → the turn nonce at which its DM hand shows a capture menu (`shown`)."""
        self._retries: dict[tuple[int, int], asyncio.Task[Any]] = {}
        self._newest: dict[int, int] = {}
        """Table id → the newest version another process saved, as the service told (`overtaken`)."""
        self._writing: set[tuple[int, int]] = set()
        """Hands whose write is on its way (past its last wait)."""
        self._again: set[tuple[int, int]] = set()
        """Hands whose write was on its way when another process's save was told: written again at
        `caught_up`."""
        self.token_writes = 0
        """DM writes made through interaction tokens (not counted by Discord's global rate limit)."""

    def _now(self) -> float:
        return self._clock() if self._clock else time.monotonic()

    # ------------------------------------------------------------------ state

    @staticmethod
    def state_key(table: Table, seat: int) -> tuple[Any, ...]:
        """What a seat's hand message shows; equal keys need no new write. ``(status, nonce, to_play, away,
        deadline, table message id, seats)``: `_unchanged` reads the nonce (1) and the table message (5)."""
        game = table.game
        assert game is not None
        person = table.seats[seat]
        deadline = table.timers.deadline if table.timers.nonce == table.nonce else None
        return (table.status, table.nonce, game.to_play, bool(person and person.away), deadline,
                table.messages.public, len(table.seats))

    def shown(self, table: Table, seat: int, interaction: discord.Interaction | None = None, *,
              menu: bool = False) -> None:
        """The cog answered a click on this seat's DM hand with the current hand, or with a card's capture
        menu (``menu``): nothing to write now. An open menu is not closed by a write that would only move
        the hand's link to the table message (a re-post): it stays until the game moves on. With
        ``interaction`` (the click, answered by editing its own message), the next writes of this hand go
        through its token while it lasts (see the module docstring)."""
        if table.game is not None:
            key = (table.id, seat)
            if menu:
                self._menus[key] = table.nonce
            else:
                self._menus.pop(key, None)
            self._keys[key] = self.state_key(table, seat)
            self._last_write[key] = self._now()
            if table.game.to_play == seat:
                self._alerted[key] = table.nonce
            if interaction is not None and interaction.message is not None:
                self._tokens[key] = _Token(delivery.ClickToken.of(interaction), interaction.message.id, True,
                                           self.service.clock.now(), answering=interaction)

    def _unchanged(self, key: tuple[int, int], state: tuple[Any, ...]) -> bool:
        """Whether the hand message already shows ``state`` (a `state_key`): the same key, or an open
        capture menu of this turn where only the link to the table message moved (index 5)."""
        shown = self._keys.get(key)
        if shown == state:
            return True
        return (shown is not None and self._menus.get(key) == state[1]
                and shown[:5] == state[:5] and shown[6:] == state[6:])

    def forget_shown(self, table: Table, seat: int) -> None:
        """The interaction answer failed: write the hand again (with the bot's token)."""
        self._keys.pop((table.id, seat), None)
        self._menus.pop((table.id, seat), None)
        self._tokens.pop((table.id, seat), None)
        self.refresh(table)

    async def _token_for(self, key: tuple[int, int], message_id: int) -> _Token | None:
        """The live token that can write the hand message ``message_id`` of ``key``, once its click's own
        answer is done (an edit through the token before it would find no message); None otherwise."""
        token = self._tokens.get(key)
        if token is None or token.message_id != message_id:
            return None
        if self.service.clock.now() - token.since > TOKEN_LIFETIME:
            self._tokens.pop(key, None)
            return None
        clicked = token.answering
        if clicked is not None:
            async with answer.answer_lock(clicked):  # the click's answer holds it while it is sent
                if not clicked.response.is_done():
                    return None
            token.answering = None  # answered: the token is all that is kept
        return token if self._tokens.get(key) is token else None

    async def _token_edit(self, key: tuple[int, int], token: _Token, payload: render.Payload) -> bool:
        """Edit the hand through the token; False (and the token dropped) when Discord refused."""
        try:
            await delivery.edit_token_message(token.click, token.target, payload)
        except discord.HTTPException as exc:
            log.info("DM hand edit through the click's token failed (%s %s); the bot's token follows",
                     exc.status, exc.code)
            self._tokens.pop(key, None)
            return False
        self.token_writes += 1
        return True

    async def _token_delete(self, token: _Token) -> None:
        """Delete the hand message of ``token`` through it (a failure is logged, the game goes on)."""
        try:
            await delivery.delete_token_message(token.click, token.target)
            self.token_writes += 1
        except discord.HTTPException as exc:
            log.info("old DM hand not deleted through the token (%s %s)", exc.status, exc.code)

    def refresh(self, table: Table) -> None:
        """Bring every person's DM hand up to date, in the background."""
        if table.game is None:
            return
        for seat, _ in table.humans():
            if not table.dm_closed(seat):
                self._refresh_seat(table, seat)

    def _refresh_seat(self, table: Table, seat: int) -> None:
        key = (table.id, seat)
        self._dirty.add(key)
        task = self._pumps.get(key)
        if task is None or task.done():
            self._pumps[key] = asyncio.ensure_future(self._pump(table, seat))

    def _retry(self, table: Table, seat: int) -> None:
        """A write of this seat's hand failed for a passing reason: try again after the next `RETRY_AFTER`
        delay (once at a time), or, after the last, leave it to the next change or the reminder."""
        key = (table.id, seat)
        self._failed.add(key)
        pending = self._retries.get(key)
        if pending is not None and not pending.done():
            return
        tries = self._tries.get(key, 0)
        if tries >= len(RETRY_AFTER):
            log.warning("table %d: DM hand of seat %d not written after %d tries; the next change tries again",
                        table.id, seat, tries + 1)
            self._tries.pop(key, None)
            return
        self._tries[key] = tries + 1

        async def again() -> None:
            await self._sleep(RETRY_AFTER[tries])
            self._try_again(table, seat)

        self._retries[key] = asyncio.ensure_future(again())

    def _written(self, key: tuple[int, int]) -> None:
        """A write of this hand went through: the next failure starts its tries afresh, and no capture menu
        is open on it any more."""
        self._tries.pop(key, None)
        self._failed.discard(key)
        self._menus.pop(key, None)

    def retry_failed(self, table: Table) -> None:
        """Try again, now, the hands of ``table`` whose last write failed (the 2/3 reminder calls this:
        after the last of `RETRY_AFTER`, a hand is otherwise left to the table's next change)."""
        for key in [k for k in self._failed if k[0] == table.id]:
            self._tries.pop(key, None)
            self._try_again(table, key[1])

    def _try_again(self, table: Table, seat: int) -> None:
        """Write this seat's hand again, while the table still shows hands and their DMs are open."""
        if table.status in (PLAYING, FINISHED) and not table.dm_closed(seat):
            self._refresh_seat(table, seat)

    def elsewhere(self, table: Table) -> bool:
        """Whether another process saved ``table`` since this process's copy, as the service told
        (`overtaken`): that process writes the hands, and the writes pending here are dropped."""
        return self._newest.get(table.id, 0) > table.version

    def overtaken(self, table: Table, version: int) -> bool:
        """The service says another process saved ``table`` at ``version`` (`bot.tables.Notifier.overtaken`):
        the hands' pending writes are dropped while the copy is below it. Returns whether a hand's write
        was on its way (it is written again at `caught_up`)."""
        self._newest[table.id] = max(version, self._newest.get(table.id, 0))
        on_way = {key for key in self._writing if key[0] == table.id}
        self._again |= on_way
        return bool(on_way)

    def caught_up(self, table: Table) -> None:
        """The service caught ``table`` up after an overtaken write: each hand whose write was on its way
        is written again (only if it looks different now)."""
        for key in [k for k in self._again if k[0] == table.id]:
            self._again.discard(key)
            self._try_again(table, key[1])

    def forget(self, table_id: int) -> None:
        """The table left the service's memory (it ended a while ago): drop what is kept for its hands
        (shown states, alerts, write times, click tokens, finished pumps)."""
        for key, task in list(self._retries.items()):
            if key[0] == table_id:
                task.cancel()
        for store in (self._keys, self._alerted, self._last_write, self._posted, self._tokens, self._pumps,
                      self._tries, self._retries, self._menus):
            for key in [k for k in store if k[0] == table_id]:
                del store[key]
        self._failed -= {k for k in self._failed if k[0] == table_id}
        self._writing -= {k for k in self._writing if k[0] == table_id}
        self._again -= {k for k in self._again if k[0] == table_id}
        self._newest.pop(table_id, None)
        self._dirty -= {k for k in self._dirty if k[0] == table_id}

    async def settled(self) -> None:
        """Wait until every pending hand write is done (tests and shutdown)."""
        while True:
            tasks = [t for t in self._pumps.values() if not t.done()]
            if not tasks:
                return
            await asyncio.gather(*tasks, return_exceptions=True)

    async def close(self) -> None:
        """Cancel pending hand writes (the next start refreshes every hand)."""
        tasks = list(self._pumps.values()) + list(self._retries.values())
        self._pumps.clear()
        self._retries.clear()
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)

    # ------------------------------------------------------------------ the pump

    async def _pump(self, table: Table, seat: int) -> None:
        key = (table.id, seat)
        try:
            while key in self._dirty:
                self._dirty.discard(key)
                if self.elsewhere(table):
                    return  # another process changed the table since this one: it writes the hands
                try:
                    await self._deliver(table, seat)
                finally:
                    # a write another process's save overtook on its way is written again when the
                    # service has caught up (`caught_up`; `bot.tables.shared`)
                    self._writing.discard(key)
        except asyncio.CancelledError:
            raise
        except delivery.NETWORK_ERRORS as exc:
            log.warning("table %d: DM hand of seat %d not written (%s); trying again", table.id, seat,
                        type(exc).__name__)
            self._retry(table, seat)
        except Exception:
            log.exception("table %d: DM hand of seat %d failed", table.id, seat)

    def _needs_alert(self, table: Table, seat: int) -> bool:
        game = table.game
        person = table.seats[seat]
        if game is None or person is None or person.away or table.status != PLAYING or game.to_play != seat:
            return False
        if self._alerted.get((table.id, seat)) == table.nonce:
            return False
        now = self.service.clock.now()
        posted = self._posted.get((table.id, seat))
        if posted is not None and now - posted < ACTIVE_WINDOW:
            return False  # a new hand message just notified them
        seen = table.seen.get(seat)
        return seen is None or now - seen >= ACTIVE_WINDOW

    async def _deliver(self, table: Table, seat: int) -> None:
        key = (table.id, seat)
        person = table.seats[seat]
        if (table.game is None or table.status not in (PLAYING, FINISHED) or person is None or person.is_ai
                or person.user_id is None or table.dm_closed(seat)):
            return
        if self._unchanged(key, self.state_key(table, seat)):
            return
        record = table.messages.dms.get(str(seat))
        alert = self._needs_alert(table, seat)
        too_old = record is not None and self.service.clock.now() - float(record.get("at", 0) or 0) > MESSAGE_MAX_AGE
        if record is None or alert or too_old:
            await self._post(table, seat, person.user_id, record)
            return
        wait = self._last_write.get(key, float("-inf")) + self.edit_interval - self._now()
        if wait > 0:
            await self._sleep(wait)
            if self._unchanged(key, self.state_key(table, seat)):
                return
            if self._needs_alert(table, seat):
                await self._post(table, seat, person.user_id, record)
                return
        await self.budget.acquire(int(record["channel"]))
        if self.elsewhere(table):  # another process changed the table during the waits: it writes
            return
        self._writing.add(key)
        token = await self._token_for(key, int(record["message"]))
        state = self.state_key(table, seat)
        payload = self._payload(table, seat, layout=bool(record.get("v2")))
        if token is not None and payload.files:  # the table drawn: a token cannot edit it in (#7529)
            if await self._token_post(table, seat, token, int(record["channel"]), payload, quiet=True):
                return
        elif token is not None and await self._token_edit(key, token, payload):
            self._keys[key] = state
            self._last_write[key] = self._now()
            self._written(key)
            return
        try:
            await delivery.edit_channel_message(self.client, int(record["channel"]), int(record["message"]), payload)
        except discord.HTTPException as exc:
            log.info("table %d: DM hand edit for seat %d failed (%s %s); sending it anew", table.id, seat,
                     exc.status, exc.code)
            await self._post(table, seat, person.user_id, None)
            return
        self._keys[key] = state
        self._last_write[key] = self._now()
        self._written(key)

    def _payload(self, table: Table, seat: int, *, layout: bool = True) -> render.Payload:
        """The hand of ``seat`` now: a Components V2 message (`hand_layout`), or with ``layout`` False the
        classic one, for a hand message sent as one (Discord keeps a message's kind)."""
        person = table.seats[seat]
        lang = person.locale if person is not None else "es"
        game = table.game
        assert game is not None
        final = records.mesa_result(table, lang) if table.status != PLAYING else None
        return hand_layout.hand_like(layout, table, seat, game.view(seat), lang, final=final, faces=self.faces,
                                     picture=self.pictures)

    async def _post(self, table: Table, seat: int, user_id: int, old: dict[str, Any] | None) -> None:
        """Send the hand as a new DM message (a notification), then delete the previous one."""
        key = (table.id, seat)
        token = await self._token_for(key, int(old["message"])) if old is not None else None
        if token is not None and old is not None and await self._token_post(table, seat, token, int(old["channel"])):
            return
        try:
            # the DM channel of this hand is known: no REST call to open it again (discord.py keeps few)
            dm: discord.PartialMessageable | discord.DMChannel = (
                self.client.get_partial_messageable(int(old["channel"]), type=discord.ChannelType.private)
                if old is not None else await open_dm(self.client, user_id))
            await self.budget.acquire(dm.id)
            if self.elsewhere(table):  # another process changed the table meanwhile: it writes
                return
            self._writing.add(key)
            state = self.state_key(table, seat)
            game = table.game
            message = await dm.send(**self._payload(table, seat).send_kwargs())  # a new hand: V2
        except discord.Forbidden as exc:
            if not await self.dm_refused(table, seat, "hand", exc):
                log.warning("table %d: DM to seat %d refused (%s)", table.id, seat, exc.code)
            return
        except discord.HTTPException as exc:
            self.observer.dm_failed("hand", False)
            passing = exc.status >= 500 or exc.status == 429  # Discord's trouble (discord.py retried some)
            log.warning("table %d: DM to seat %d failed (%s %s)%s", table.id, seat, exc.status, exc.code,
                        "; trying again" if passing else "")
            if passing:
                self._retry(table, seat)
            return
        await self._posted_hand(table, seat, state, game, message.channel.id, message.id)
        if old is not None and int(old.get("message", 0)) != message.id:
            await self._delete(int(old["channel"]), int(old["message"]))

    async def _posted_hand(self, table: Table, seat: int, state: tuple[Any, ...], game: Any, channel_id: int,
                           message_id: int, *, quiet: bool = False) -> None:
        """A new hand message (Components V2: ``"v2"`` in its record) went out (by either token): it shows
        ``state``, it alerted when it is the seat's turn (unless ``quiet``: sent without a notification),
        and it is the seat's hand message from now on (persisted)."""
        key = (table.id, seat)
        self._keys[key] = state
        self._last_write[key] = self._now()
        self._written(key)
        if not quiet:
            self._posted[key] = self.service.clock.now()
            if game is not None and game.to_play == seat:
                self._alerted[key] = table.nonce
        table.messages.dms[str(seat)] = {"channel": channel_id, "message": message_id,
                                         "hand": game.hand_number if game else 0, "v2": 1,
                                         "at": self.service.clock.now()}  # type: ignore[dict-item]  # a float time
        await self.save_messages(table)

    async def _token_post(self, table: Table, seat: int, token: _Token, channel_id: int,
                          payload: render.Payload | None = None, *, quiet: bool = False) -> bool:
        """The hand through the click's token as a follow-up (a new DM message), then the old hand deleted:
        the turn alert (it notifies), or, ``quiet`` (a silent message, the write slot already taken), the
        hand with the table drawn, which a token cannot edit in (discord-api-docs#7529). ``payload``: the
        hand already rendered for this state. False when Discord refused the follow-up (nothing changed);
        True also when another process changed the table during the wait (it writes the hand: nothing to
        send here)."""
        key = (table.id, seat)
        if not quiet:
            await self.budget.acquire(channel_id)
            if self.elsewhere(table):
                return True
        self._writing.add(key)
        state = self.state_key(table, seat)
        game = table.game
        try:
            message_id = await delivery.send_followup(token.click, payload or self._payload(table, seat),
                                                      silent=quiet)
        except discord.HTTPException as exc:
            log.info("DM hand follow-up through the click's token failed (%s %s); the bot's token follows",
                     exc.status, exc.code)
            self._tokens.pop(key, None)
            return False
        self.token_writes += 1
        self._tokens[key] = _Token(token.click, message_id, False, token.since)
        await self._posted_hand(table, seat, state, game, channel_id, message_id, quiet=quiet)
        await self.budget.acquire(channel_id)
        await self._token_delete(token)
        return True

    # ------------------------------------------------------------------ leaving, closing

    async def retire(self, table: Table, seat: int | None, locale: str, *, ended: bool = False) -> None:
        """The person of ``seat`` left: their DM hand loses its buttons and says a computer plays on
        (or, with ``ended``, that the table ended with them)."""
        record = table.messages.dms.pop(str(seat), None) if seat is not None else None
        if seat is not None:
            self._keys.pop((table.id, seat), None)
            self._dirty.discard((table.id, seat))
        if record is None:
            return
        await self.save_messages(table)
        await self._edit_quietly(int(record["channel"]), int(record["message"]),
                                 render.Payload(content=t("dm.left_ended" if ended else "dm.left", locale,
                                                          table=table.id)), layout=bool(record.get("v2")))

    async def close_table(self, table: Table) -> None:
        """A table ended early: every DM hand shows the closing note, without buttons."""
        for key in [k for k in self._pumps if k[0] == table.id]:
            self._dirty.discard(key)
            task = self._pumps.pop(key)
            if task is not asyncio.current_task():
                task.cancel()
        for seat, record in table.messages.dms.items():
            self._dirty.discard((table.id, int(seat)))
            person = table.seats[int(seat)] if int(seat) < len(table.seats) else None
            await self._edit_quietly(int(record["channel"]), int(record["message"]),
                                     render.closed_payload(table, person.locale if person else "es"),
                                     layout=bool(record.get("v2")))


__all__ = ["ACTIVE_WINDOW", "DM_CLOSED", "MESSAGE_MAX_AGE", "RETRY_AFTER", "TOKEN_LIFETIME", "HandPresenter",
           "open_dm"]
