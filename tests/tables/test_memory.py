"""Ended tables leave memory (a play costs the same after a day of play as after a minute). A
finished or closed table is dropped from the table service, the presenter and the DM hands' state
`KEEP_ENDED` seconds after its last change; an open one never is. Every button on its messages answers
afterwards exactly as it did while the table was in memory, read from the store."""

from __future__ import annotations

import asyncio

import pytest

from bot.store import Store
from bot.tables import Played, TableService, WrongStateError, memory
from bot.tables.memory import KEEP_ENDED
from bot.tables.ports import NullNotifier
from bot.tables.timers import ManualClock
from bot.ui.notifier import DiscordNotifier
from tests.cogs.test_reliability import member_for, start_1v1_people
from tests.support.helpers import (
    click_raw,
    custom_ids,
    double_click,
    pick_play,
    play_through_ui,
    public_message,
)

from .test_rematch import accept_deals_the_new_mesa, finished_1v1

ANA, BETO = 10, 20


async def inline(func, *args):
    return func(*args)


class Recorder(NullNotifier):
    """A notifier that records which tables it was told to forget."""

    def __init__(self) -> None:
        self.forgotten: list[int] = []

    async def lobby_changed(self, table): ...
    async def game_changed(self, table, events): ...
    async def table_closed(self, table): ...
    async def repost(self, table): ...
    async def resumed(self, table): ...

    def forget(self, table):
        self.forgotten.append(table.id)


@pytest.fixture
async def clocked(database_url):
    """A `TableService` on a `ManualClock`, once on each backend."""
    clock = ManualClock()
    store = await Store.open(database_url)
    svc = TableService(store, Recorder(), ai_delay=0, seed_factory=lambda: "fixed", offload=inline, clock=clock)
    clock.watch(svc._tasks)
    yield svc, clock
    await svc.close()
    await store.close()


async def play_out(svc: TableService, table_id: int) -> None:
    """Both people play the greedy choice until the mesa ends."""
    table = svc.get(table_id)
    while table.status == "playing":
        seat, play = pick_play(table)
        result = await svc.play(table_id, user_id=table.seats[seat].user_id, nonce=table.nonce,
                                card=play.card.code, trail=play.is_trail,
                                captures=" ".join(c.code for c in play.sorted_captures()) or None)
        assert isinstance(result, Played)


async def test_a_finished_mesa_leaves_memory_and_reads_back_the_same(clocked):
    svc, clock = clocked
    table = await svc.create(guild_id=1, channel_id=2, user_id=ANA, name="ana", locale="es", players=2)
    await svc.join(table.id, user_id=BETO, name="beto", locale="es")
    assert svc.scheduler.when((table.id, "forget")) is None, "a table in play is never forgotten"
    await play_out(svc, table.id)
    finished = table.game.to_dict()

    await clock.advance(KEEP_ENDED - 1)
    assert svc.get(table.id) is table, "kept a while after its end"
    assert svc.table_of_user(ANA) is None
    await clock.advance(2)
    assert table.id not in svc.tables
    assert svc.notifier.forgotten == [table.id]
    again = await svc.fetch(table.id)
    assert again is not table and again.status == "finished" and again.game.to_dict() == finished
    assert table.id not in svc.tables, "a click that reads it back does not keep it in memory again"


async def test_a_closed_lobby_leaves_memory_and_a_late_join_is_refused_as_before(clocked):
    svc, clock = clocked
    table = await svc.create(guild_id=1, channel_id=2, user_id=ANA, name="ana", locale="es", players=2)
    await svc.end(table.id, user_id=ANA)
    with pytest.raises(WrongStateError) as before:
        await svc.join(table.id, user_id=BETO, name="beto", locale="es")
    await clock.advance(KEEP_ENDED + 1)
    assert table.id not in svc.tables
    with pytest.raises(WrongStateError) as after:
        await svc.join(table.id, user_id=BETO, name="beto", locale="es")
    assert after.value.key == before.value.key == "err.finished"
    with pytest.raises(WrongStateError) as ended:
        await svc.end(table.id, user_id=ANA)
    assert ended.value.key == "err.finished"
    assert svc.table_in_channel(2) is None


async def test_a_table_in_play_is_kept_however_long_a_turn_lasts(clocked, monkeypatch):
    """With a keep far shorter than the turn timer, a table whose person takes their time is still the
    same object in memory, and the lobby before it too."""
    monkeypatch.setattr(memory, "KEEP_ENDED", 5.0)
    svc, clock = clocked
    table = await svc.create(guild_id=1, channel_id=2, user_id=ANA, name="ana", locale="es", players=2)
    await clock.advance(30)
    assert svc.get(table.id) is table, "a lobby waiting for players"
    await svc.join(table.id, user_id=BETO, name="beto", locale="es")
    await clock.advance(table.timers.turn_timer - 10)
    assert svc.get(table.id) is table and svc.table_of_user(ANA) is table
    assert svc.notifier.forgotten == [] and svc.scheduler.when((table.id, "forget")) is None


# ---------------------------------------------------------------------------------------- on Discord


def kept_for(world, table_id: int) -> list[str]:
    """Where the bot still holds something of ``table_id``: the service (tables, checks, re-posts, computer
    moves, alarms), the presenter, the DM hands."""
    service, notifier = world.bot.tables, world.bot.notifier
    hands = notifier.hands
    places = {"service.tables": table_id in service.tables, "service._checks": table_id in service._checks,
              "service._reposted": table_id in service._reposted, "service._ai_tasks": table_id in service._ai_tasks,
              "service.scheduler": any(key[0] == table_id for key in service.scheduler._alarms),
              "notifier._public": table_id in notifier._public}
    for name in ("_keys", "_alerted", "_last_write", "_posted", "_tokens", "_pumps", "_dirty"):
        places[f"hands.{name}"] = any(key[0] == table_id for key in getattr(hands, name))
    return [place for place, held in places.items() if held]


@pytest.mark.slow
async def test_a_finished_mesa_leaves_the_bot_and_its_rematch_button_still_works(world):
    table, final = await finished_1v1(world)
    assert "service.tables" in kept_for(world, table.id) and "hands._keys" in kept_for(world, table.id)
    await world.env.advance_time(KEEP_ENDED + 5)
    assert kept_for(world, table.id) == []

    asked = await world.ana.click(final, custom_id="c4:r:1")
    assert asked.ephemeral and "60" in asked.response.content
    await world.env.advance_time(2)
    ready = next(m for m in reversed(world.channel.history()) if "revancha" in (m.content or "").lower())
    await accept_deals_the_new_mesa(world, ready)
    assert world.bot.tables.get(2).status == "playing"
    assert world.env.errors == []


async def test_a_card_of_a_forgotten_table_answers_as_before(world):
    table = await start_1v1_people(world)
    mover = member_for(world, table, table.game.to_play)
    shown = await mover.click(public_message(world, table), custom_id="c4:h:1")
    await world.ana.slash(world.channel, "cuarenta end")
    button = next(cid for cid in custom_ids(shown.response) if cid.startswith("c4:p:"))
    before = await mover.click(shown.response, custom_id=button)
    await world.env.advance_time(KEEP_ENDED + 5)
    assert kept_for(world, table.id) == []
    after = await mover.click(shown.response, custom_id=button)
    assert after.ephemeral and after.response.content == before.response.content
    assert "has already finished" in after.response.content


@pytest.mark.slow
async def test_an_open_rematch_check_keeps_its_table_until_it_ends(world, monkeypatch):
    """With a keep shorter than the check's minute, the table stays while the check is open, and leaves
    `KEEP_ENDED` after the check expired."""
    monkeypatch.setattr(memory, "KEEP_ENDED", 20.0)
    table, final = await finished_1v1(world)
    await world.ana.click(final, custom_id="c4:r:1")
    await world.env.advance_time(40)
    assert world.bot.tables.ready_check(table.id).status == "open"
    assert "service.tables" in kept_for(world, table.id) and "service._checks" in kept_for(world, table.id)
    await world.env.advance_time(25)
    assert world.bot.tables.ready_check(table.id).status == "expired"
    assert "service.tables" in kept_for(world, table.id)
    await world.env.advance_time(25)
    assert kept_for(world, table.id) == []


@pytest.mark.slow
async def test_a_double_click_on_revancha_after_the_table_left_memory_opens_one_check(world, monkeypatch):
    """Both clicks read the table back from the store: they share one copy (and its notify lock), so the
    presenter's writes of the check come one after the other and one ready check is posted. The
    presenter is slowed down (it yields 50 times before writing) so that the two clicks overlap."""
    told = []
    original = DiscordNotifier.rematch_changed

    async def slow(self, table, check):
        told.append(table)
        for _ in range(50):
            await asyncio.sleep(0)
        await original(self, table, check)

    monkeypatch.setattr(DiscordNotifier, "rematch_changed", slow)
    table, final = await finished_1v1(world)
    await world.env.advance_time(KEEP_ENDED + 5)
    assert kept_for(world, table.id) == []
    results = await double_click(world.env, world.ana, final, "c4:r:1")
    assert len(told) == 2 and told[0] is told[1], "one copy of the table for both clicks"
    assert all(r.ephemeral and "60" in r.response.content for r in results)
    await world.env.advance_time(2)
    checks = [m for m in world.channel.history() if "c4:k:1:y" in custom_ids(m)]
    assert len(checks) == 1, [m.content for m in checks]
    await accept_deals_the_new_mesa(world, checks[0])
    assert world.env.errors == []


def answered(result) -> tuple:
    """What a click was answered: ephemeral or not, the text, the buttons."""
    return result.ephemeral, result.response.content, custom_ids(result.response)


async def play_while(world, table_id: int, seconds: float, step: float = 60.0) -> None:
    """Let ``seconds`` pass while the people of table ``table_id`` play on, one play every ``step``."""
    for _ in range(int(seconds // step) + 1):
        await world.env.advance_time(step)
        table = world.bot.tables.get(table_id)
        assert table.status == "playing"
        seat, play = pick_play(table)
        await play_through_ui(member_for(world, table, seat), table, play)


@pytest.mark.slow
async def test_late_rematch_clicks_answer_the_same_while_the_rematch_is_played(world):
    """QA: once the old table had left memory, a late «Acepto» on the ready check answered "that rematch
    is no longer open" while the rematch was being played. Its accepted check now stays until the rematch
    itself ends, and every late click answers as it did before the old table left memory."""
    table, final = await finished_1v1(world)
    await world.ana.click(final, custom_id="c4:r:1")
    await world.env.advance_time(2)
    ready = next(m for m in world.channel.history() if "c4:k:1:y" in custom_ids(m))
    await world.beto.click(ready, custom_id="c4:k:1:y")
    await world.env.advance_time(2)

    async def late_clicks():
        return [answered(await world.ana.click(final, custom_id="c4:r:1")),
                answered(await world.beto.click(final, custom_id="c4:r:1")),
                answered(await click_raw(world.env, world.beto, ready, "c4:k:1:y")),
                answered(await click_raw(world.env, world.ana, ready, "c4:k:1:n")),
                answered(await world.caro.click(final, custom_id="c4:r:1"))]

    before = await late_clicks()
    assert "Table #2" in before[2][1]
    await play_while(world, 2, KEEP_ENDED + 60)
    assert "service.tables" not in kept_for(world, table.id)
    assert await late_clicks() == before
    assert len([m for m in world.channel.history() if "revancha" in (m.content or "").lower()]) == 1
    assert world.env.errors == []


async def test_refused_clicks_from_another_server_keep_no_ended_table_in_memory(world, make_bot):
    """QA: a click carrying another server's table id read that table from the store and kept it for 15
    minutes (~200 KB each), before it was refused: forged ids could fill the memory."""
    for _ in range(4):
        await world.ana.slash(world.channel, "cuarenta new", players=2)
        await world.ana.slash(world.channel, "cuarenta end")
    await world.env.advance_time(KEEP_ENDED + 5)
    assert list(world.bot.tables.tables) == []
    guild = world.env.create_guild("Cuenca Club")
    channel = guild.create_text_channel("juegos")
    zoe = guild.add_member(world.env.create_user("zoe"))
    carrier = (await zoe.slash(channel, "cuarenta rules")).response
    for table_id in range(1, 5):
        for custom_id in (f"c4:y:{table_id}", f"c4:r:{table_id}", f"c4:h:{table_id}", f"c4:l:{table_id}:a"):
            refused = await click_raw(world.env, zoe, carrier, custom_id)
            assert refused.ephemeral, custom_id
    assert list(world.bot.tables.tables) == []
    assert world.env.errors == []
