"""Who writes a table's public messages when several bot processes
serve it over one PostgreSQL. The process that made the latest change writes them; a process whose copy
is behind drops its pending writes, and an edit that another process's change overtook on its way is
followed by a fresh one. The presenter never asks whether it is behind: the service tells it (`overtaken`,
then `caught_up` after it caught up for a write that was on its way). The service side runs on a real
PostgreSQL in `tests/tables/test_shared_tables.py`; here the presenter runs against a service the test drives.
"""

from __future__ import annotations

import asyncio

import discord

from bot.engine import Event, EventKind, Game, Rules
from bot.tables import Messages, Seat, Table
from bot.ui import delivery
from bot.ui.notifier import DiscordNotifier


class SharedService:
    """What the presenter asks of the table service (a language: nothing about freshness), and what the
    service tells it when another process saves the table, as `bot.tables.shared.TableLocks` does:
    `saved_elsewhere` tells ``overtaken`` and, when a write was on its way, catches up and tells
    ``caught_up``. ``catch_up`` plays the move another process made (the reload) and counts itself."""

    def __init__(self) -> None:
        self.caught_up = 0
        self.on_catch_up = None
        self.notifier: DiscordNotifier | None = None

    async def public_language(self, guild_id: int) -> str:
        return "es"

    async def saved_elsewhere(self, table: Table) -> None:
        """Another process saved ``table`` (the version after this copy's)."""
        assert self.notifier is not None
        if await self.notifier.overtaken(table, table.version + 1):
            await self.catch_up(table)
            await self.notifier.caught_up(table)

    async def catch_up(self, table: Table) -> None:
        self.caught_up += 1
        if self.on_catch_up is not None:
            self.on_catch_up(table)
        table.version += 1  # reloaded: at the version the other process saved


def _table() -> Table:
    posted = discord.utils.time_snowflake(discord.utils.utcnow())  # a table message posted just now
    return Table(id=1, guild_id=1, channel_id=2, host_id=3, players=2, preset="quito", status="playing",
                 seats=[Seat(None, ai="medio", ai_number=2), Seat(None, ai="medio", ai_number=1)],
                 game=Game.new(Rules.preset("quito"), 2, "s"), messages=Messages(public=posted, public_hand=1))


def _spy_edits(monkeypatch, shown: list[int], current, overtaken: SharedService | None = None) -> None:
    """Record in ``shown`` the turn nonce of ``current()`` (the table) at each edit, of the table message or
    a DM hand; with ``overtaken``, another process saves a play while the first edit is on its way, and
    that service tells the presenter."""
    async def edit(client, channel_id: int, message_id: int, payload) -> None:
        shown.append(current().nonce)
        if overtaken is not None and len(shown) == 1:
            await overtaken.saved_elsewhere(current())

    monkeypatch.setattr(delivery, "edit_channel_message", edit)


async def _no_wait(seconds: float) -> None:
    await asyncio.sleep(0)


def _notifier(service: SharedService) -> DiscordNotifier:
    class Client:
        pass

    notifier = DiscordNotifier(Client(), service, edit_interval=1.0, clock=lambda: 0.0, sleep=_no_wait,  # type: ignore[arg-type]
                               pictures=False)
    service.notifier = notifier
    return notifier


async def test_a_process_whose_copy_is_behind_writes_nothing_public_and_its_due_record_can_be_taken_over(
        monkeypatch):
    edits: list[int] = []

    async def edit(client, channel_id: int, message_id: int, payload) -> None:
        edits.append(message_id)

    monkeypatch.setattr(delivery, "edit_channel_message", edit)
    service = SharedService()
    notifier = _notifier(service)
    table = _table()
    state = notifier._state(table)
    state.hand = 1
    state.recorded.add(1)
    state.records.append(1)  # this process ended hand 1; its record is still to write
    await service.saved_elsewhere(table)  # … and another process changed the table since
    await notifier.game_changed(table, [])
    await notifier.settled()
    assert edits == [], "no edit and no record written by the process that is behind"
    assert not state.dirty and state.records == [] and 1 not in state.recorded

    table.version += 1  # it reloads the table later, with hand 2 in play, and changes it:
    await notifier.reloaded(table, 2)
    assert state.records == [1] and state.hand == 2, "the stored ids say hand 1's record is due: it writes it"


async def test_a_reload_takes_over_from_the_hand_at_the_reload_not_the_one_its_change_dealt():
    """A process reloads a table in hand 1 (its table message posted by the other process, no record due)
    and its change ends hand 1: the presenter hears of the reload (hand 1) and then of the change (hand 2
    starts). Hand 1's record is due once; hand 2, just dealt, is not."""
    notifier = _notifier(SharedService())
    table = _table()
    state = notifier._state(table)
    table.game.hand_number = 2  # what the change did before the presenter heard of the reload
    await notifier.reloaded(table, 1)
    await notifier.game_changed(table, [Event(EventKind.HAND_START, seat=0, number=2)])
    assert state.records == [1] and 2 not in state.recorded and state.hand == 2
    await notifier.close()


async def test_an_edit_another_process_overtook_on_its_way_is_followed_by_an_edit_of_the_latest_state(
        monkeypatch):
    service = SharedService()
    shown: list[int] = []

    _spy_edits(monkeypatch, shown, lambda: table, overtaken=service)
    service.on_catch_up = lambda t: t.game.play(t.game.legal_plays()[0])  # the reload brings that play
    notifier = _notifier(service)
    table = _table()
    notifier._state(table).hand = 1
    await notifier.game_changed(table, [])
    await notifier.settled()
    assert service.caught_up == 1
    assert shown == [0, 1], "the overtaken edit is followed by one that shows the other process's play"
    assert not notifier.hands.elsewhere(table)


async def test_one_process_edits_as_before_without_catching_up(monkeypatch):
    shown: list[int] = []

    _spy_edits(monkeypatch, shown, lambda: table)
    service = SharedService()
    notifier = _notifier(service)
    table = _table()
    notifier._state(table).hand = 1
    for _ in range(3):
        table.game.play(table.game.legal_plays()[0])
        await notifier.game_changed(table, [])
        await notifier.settled()
    assert shown == [1, 2, 3] and service.caught_up == 0


async def test_a_repost_asked_of_a_process_that_is_behind_is_made_once_it_has_caught_up(monkeypatch):
    """``/cuarenta table`` reached a process whose copy is behind: the re-post is not dropped (no other
    process was asked for it); the service catches up first (`TableService.request_repost`), and the
    presenter posts the latest state."""
    service = SharedService()
    notifier = _notifier(service)
    table = _table()
    posted: list[tuple[int, bool]] = []

    async def post(t: Table, *, moved: bool = False) -> None:
        posted.append((t.nonce, moved))

    monkeypatch.setattr(notifier.table_message, "post", post)
    service.on_catch_up = lambda t: t.game.play(t.game.legal_plays()[0])  # the other process's play
    await service.saved_elsewhere(table)
    await service.catch_up(table)  # what the service does before it tells the presenter to re-post
    await notifier.repost(table)
    await notifier.settled()
    assert service.caught_up == 1
    assert posted == [(1, True)], "re-posted at the bottom, showing the play made elsewhere"


class HandService(SharedService):
    """`SharedService` with the service clock the DM hands read (seconds, UTC)."""

    class Clock:
        def now(self) -> float:
            return 1_800_000_000.0

    clock = Clock()


def _person_table() -> Table:
    """A 1 v 1 table: seat 0 a person with a DM hand posted just now, seat 1 a computer."""
    table = _table()
    table.seats[0] = Seat(10, name="ana", locale="es")
    table.messages.dms["0"] = {"channel": 50, "message": 60, "hand": 1, "at": HandService.clock.now()}
    table.seen[0] = HandService.clock.now()  # at the table: the hand is edited, not sent anew
    return table


async def test_a_process_that_is_behind_writes_no_dm_hand(monkeypatch):
    shown: list[int] = []

    _spy_edits(monkeypatch, shown, lambda: table)
    service = HandService()
    notifier = _notifier(service)
    table = _person_table()
    notifier.hands.refresh(table)
    await notifier.hands.settled()
    assert shown == [0], "one process: the hand is written"
    table.game.play(table.game.legal_plays()[0])
    await service.saved_elsewhere(table)
    notifier.hands.refresh(table)
    await notifier.hands.settled()
    assert shown == [0], "behind: the process that changed the table since writes the hands"


async def test_a_dm_hand_write_another_process_overtook_is_followed_by_one_of_the_latest_state(monkeypatch):
    service = HandService()
    shown: list[int] = []

    _spy_edits(monkeypatch, shown, lambda: table, overtaken=service)
    service.on_catch_up = lambda t: t.game.play(t.game.legal_plays()[0])
    notifier = _notifier(service)
    table = _person_table()
    notifier.hands.refresh(table)
    await notifier.hands.settled()
    assert service.caught_up == 1
    assert shown == [0, 1], "the overtaken write is followed by one that shows the other process's play"


def _behind_after_the_wait(monkeypatch, service, shown: list[int], table) -> DiscordNotifier:
    """A presenter (an edit a second per table, the clock at 0.5 s) whose every wait for a write's slot
    ends with ``service`` behind: another process's save lands while it waits (the service tells it).
    Edits are spied into ``shown``."""
    async def slot(seconds: float) -> None:
        await service.saved_elsewhere(table)
        await asyncio.sleep(0)

    _spy_edits(monkeypatch, shown, lambda: table)

    class Client:
        pass

    notifier = DiscordNotifier(Client(), service, edit_interval=1.0, clock=lambda: 0.5, sleep=slot,  # type: ignore[arg-type]
                               pictures=False)
    service.notifier = notifier
    return notifier


async def test_a_process_changed_elsewhere_while_its_edit_waited_for_its_slot_does_not_send_it(monkeypatch):
    """The edit waits for its slot (one edit a second per table); another process saves a play during
    that wait: this process sends nothing (that process shows it), and does not catch up to edit again."""
    service = SharedService()
    shown: list[int] = []
    table = _table()
    notifier = _behind_after_the_wait(monkeypatch, service, shown, table)
    state = notifier._state(table)
    state.hand, state.last_write = 1, 0.0  # the last edit was half a second ago
    await notifier.game_changed(table, [])
    await notifier.settled()
    assert shown == [] and service.caught_up == 0


async def test_a_dm_hand_changed_elsewhere_while_its_write_waited_is_not_written(monkeypatch):
    service = HandService()
    shown: list[int] = []
    table = _person_table()
    notifier = _behind_after_the_wait(monkeypatch, service, shown, table)
    notifier.hands._last_write[(table.id, 0)] = 0.0  # written half a second ago: the next write waits
    notifier.hands._keys[(table.id, 0)] = ("an older hand",)
    notifier.hands.refresh(table)
    await notifier.hands.settled()
    assert shown == [] and service.caught_up == 0


async def test_a_process_told_of_another_s_save_writes_again_once_its_copy_has_that_version(monkeypatch):
    """Told that another process saved the table (nothing of its own on its way), the presenter drops its
    pending edit; once this process has reloaded the table and saved a change (the copy's version past the
    one told), it writes again. It asked the service nothing (`SharedService` answers no such question)."""
    shown: list[int] = []

    _spy_edits(monkeypatch, shown, lambda: table)
    service = SharedService()
    notifier = _notifier(service)
    table = _table()
    notifier._state(table).hand = 1
    assert not await notifier.overtaken(table, table.version + 1), "nothing was on its way"
    await notifier.game_changed(table, [])
    await notifier.settled()
    assert shown == [] and service.caught_up == 0
    table.game.play(table.game.legal_plays()[0])
    table.version += 2  # reloaded (the other process's save) and changed here
    await notifier.game_changed(table, [])
    await notifier.settled()
    assert shown == [1]
