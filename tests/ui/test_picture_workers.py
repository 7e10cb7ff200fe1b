"""Table pictures drawn in worker processes: the ``PICTURE_WORKERS`` setting, `PictureWorkers`,
the words and the picture of one table message showing one moment, and a mesa through SimCord with them."""

from __future__ import annotations

import asyncio
import io
import os
import pickle
import signal
import time
from dataclasses import replace
from multiprocessing.reduction import ForkingPickler

import pytest
from PIL import Image

from bot import loop as event_loop
from bot.config import ConfigError, Settings
from bot.engine import Game, Rules
from bot.tables import PLAYING, Seat, Table, TableOptions
from bot.tables.workers import OffloadClosedError
from bot.ui import render
from bot.ui.notifier import DiscordNotifier
from bot.ui.picture import SIZE, SceneError, render_table
from bot.ui.picture_workers import PictureWorkers
from bot.ui.table_scene import table_scene
from tests.support.helpers import (
    REAL_PROCESS_SETTLE,
    layout_texts,
    pick_play,
    play_through_ui,
    public_message,
    table_of,
)


def test_picture_workers_is_read_from_the_environment():
    assert Settings().picture_workers == 1
    assert Settings.from_env({}).picture_workers == 1
    assert Settings.from_env({"PICTURE_WORKERS": "0"}).picture_workers == 0
    assert Settings.from_env({"PICTURE_WORKERS": " 3 "}).picture_workers == 3
    for bad in ("-1", "one", "2.5", "65"):
        with pytest.raises(ConfigError, match="PICTURE_WORKERS"):
            Settings.from_env({"PICTURE_WORKERS": bad})


def _table(seed: str = "pw") -> Table:
    table = Table(id=3, guild_id=1, channel_id=2, host_id=10, players=2, preset="quito", status=PLAYING, seed=seed,
                  seats=[Seat(10, name="ana"), Seat(11, name="beto")], options=TableOptions(guild_name="g", channel_name="c"))
    table.game = Game.new(Rules.preset("quito"), 2, seed)
    return table


async def _one_worker() -> tuple[PictureWorkers, Table, object, bytes, int]:
    """One picture worker that has drawn a table's picture: (workers, table, scene, the PNG, the worker's
    pid)."""
    table = _table()
    scene = table_scene(table, "es")
    workers = PictureWorkers(1)
    try:
        first = await workers.render(table.id, scene)
    except BaseException:
        workers.close()
        raise
    [pid] = workers.pids()
    return workers, table, scene, first, pid


def _gone(pid: int, timeout: float = 5.0) -> bool:
    """Whether process ``pid`` has ended (and was reaped) within ``timeout`` seconds: a stopped process
    (SIGSTOP) never ends of itself, nor of a SIGTERM, until it is killed."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return True
        time.sleep(0.05)
    return False


async def test_a_worker_draws_the_same_picture_as_the_bots_process():
    table = _table()
    workers = PictureWorkers(2)
    try:
        for _ in range(6):
            scene = table_scene(table, "es")
            assert await workers.render(table.id, scene) == render_table(scene)
            table.game.play(table.game.legal_plays()[0])
        assert workers.pictures == 6 and len(workers.pids()) == 1, "one table, always its one worker"
    finally:
        workers.close()
    with pytest.raises(OffloadClosedError):
        await workers.render(table.id, table_scene(table, "es"))
    with pytest.raises(ValueError):
        PictureWorkers(0)


async def test_a_stuck_worker_is_ended_and_its_picture_drawn_by_a_new_one(monkeypatch):
    """A worker that answers nothing (stopped here with SIGSTOP) is waited for `ANSWER_TIMEOUT` seconds,
    then killed and replaced: the table's picture is still drawn, by the new worker."""
    from bot.ui import picture_workers as pictures

    workers, table, scene, first, pid = await _one_worker()
    try:
        monkeypatch.setattr(pictures, "ANSWER_TIMEOUT", 0.5)
        start_worker = pictures._Worker.__init__

        def replacement(worker, *args):  # the new worker (a cold start) has the usual time to answer
            monkeypatch.setattr(pictures, "ANSWER_TIMEOUT", 10.0)
            start_worker(worker, *args)

        monkeypatch.setattr(pictures._Worker, "__init__", replacement)
        os.kill(pid, signal.SIGSTOP)
        assert await workers.render(table.id, scene) == first, "drawn by a new worker"
        assert workers.restarts == 1 and workers.fallbacks == 0 and pid not in workers.pids()
        assert _gone(pid), "the stuck worker was killed, not left stopped"
    finally:
        try:
            os.kill(pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        workers.close()


async def test_a_worker_that_dies_is_replaced_and_a_bad_scene_raises_in_the_bot():
    table = _table()
    scene = table_scene(table, "es")
    workers = PictureWorkers(1)
    try:
        first = await workers.render(table.id, scene)
        [pid] = workers.pids()
        os.kill(pid, signal.SIGKILL)
        await asyncio.sleep(0.2)
        assert await workers.render(table.id, scene) == first, "drawn again by a new worker"
        assert workers.restarts == 1 and workers.fallbacks == 0 and workers.pids() != [pid]
        with pytest.raises(SceneError):  # raised in the worker, re-raised here
            await workers.render(table.id, replace(scene, seats=scene.seats[:1]))
        assert await workers.render(table.id, scene) == first, "the worker goes on after a refused scene"
        [pid] = workers.pids()
        asking = asyncio.ensure_future(workers.render(table.id, scene))
        await asyncio.sleep(0)  # the request is in the pipe
        os.kill(pid, signal.SIGKILL)  # the worker dies holding it (or just after answering)
        assert await asking == first
        assert await workers.render(table.id, scene) == first and workers.restarts == 2
    finally:
        workers.close()


async def test_the_words_and_the_picture_of_a_table_message_show_the_same_moment():
    """The picture is awaited from a worker; a play made meanwhile is in neither the words nor the picture
    of this edit (the next edit shows it)."""
    table = _table()
    drawn: list = []
    gate = asyncio.Event()

    class SlowWorkers:
        async def render(self, table_id: int, scene) -> bytes:
            drawn.append(scene)
            await gate.wait()
            return render_table(scene)

    class Service:
        async def public_language(self, guild_id: int) -> str:
            return "es"

    notifier = DiscordNotifier(object(), Service(), picture_workers=SlowWorkers())  # type: ignore[arg-type]
    before = [c.code for c in table.game.table]
    words = layout_texts(render.table_layout(table, "es", None).view.to_components())[0]
    pending = asyncio.ensure_future(notifier.table_message.payload(table, "es"))
    await asyncio.sleep(0)
    table.game.play(table.game.legal_plays()[0])  # a play lands while the picture is drawn
    gate.set()
    payload = await pending
    assert list(drawn[0].table_cards) == before
    assert payload.files and payload.files[0][1] == render_table(drawn[0])
    now = layout_texts(render.table_layout(table, "es", None).view.to_components())[0]
    assert layout_texts(payload.view.to_components())[0] == words != now


@pytest.fixture
def simcord_bot(make_bot):
    return make_bot(picture_workers=1, pictures=True)


async def test_a_mesa_whose_pictures_are_drawn_by_a_worker_process_and_a_restart(world, make_bot):
    world.env.settle_timeout = REAL_PROCESS_SETTLE
    bot = world.bot
    assert isinstance(bot.picture_workers, PictureWorkers) and bot.notifier.picture_workers is bot.picture_workers
    await world.ana.slash(world.channel, "cuarenta new", players=2, rules="quito")
    await world.ana.select(world.channel.last_message, ["medio"], custom_id="c4:v:1")
    table = table_of(world, 1)
    for _ in range(3):
        _, play = pick_play(table)
        await play_through_ui(world.ana, table, play)
    assert bot.picture_workers.pictures >= 1
    await world.env.restart_bot(make_bot(picture_workers=1, pictures=True))  # a new process, new workers (the old end with it)
    bot = world.bot
    table = table_of(world, 1)
    for _ in range(3):
        _, play = pick_play(table)
        await play_through_ui(world.ana, table, play)
    await world.env.advance_time(2)
    message = public_message(world, table)
    data = await message.attachments[0].read()
    image = Image.open(io.BytesIO(data))
    assert image.size == SIZE
    assert data == render_table(table_scene(table, "es")), "the picture shows the table as it is now"
    assert bot.picture_workers.pictures >= 2
    assert world.env.errors == []


def test_many_tables_at_once_on_the_bots_own_event_loop():
    """The bot runs on uvloop (`bot.loop`), which made the workers' pipe non-blocking: an answer read
    while it was still arriving looked like a dead worker, and every such picture was drawn twice (found
    by bench/loopback.py). Fifty tables' pictures asked at once, twenty times: no worker ends."""
    pytest.importorskip("uvloop")
    tables = [_table(f"many-{i}") for i in range(50)]

    async def run() -> tuple[int, int]:
        workers = PictureWorkers(1)
        try:
            for _ in range(20):
                scenes = [table_scene(table, "es") for table in tables]
                pictures = await asyncio.gather(*(workers.render(t.id, s) for t, s in zip(tables, scenes, strict=True)))
                assert all(p == render_table(s) for p, s in zip(pictures[:3], scenes, strict=False))
                for table in tables:
                    table.game.play(table.game.legal_plays()[0])
            assert type(asyncio.get_running_loop()).__module__.startswith("uvloop")
            return workers.restarts, workers.fallbacks
        finally:
            workers.close()

    assert event_loop.run(run()) == (0, 0)


async def test_a_worker_whose_answer_does_not_read_is_ended_and_the_picture_drawn_by_a_new_one(monkeypatch):
    """An answer that cannot be unpickled means the worker's pipe can no longer be trusted: that worker
    is killed, and the picture is asked of a new one."""
    workers, table, scene, first, pid = await _one_worker()
    try:
        real_loads = ForkingPickler.loads
        garbled = []

        def loads_once_garbled(data, *args, **kwargs):
            if not garbled:
                garbled.append(data)
                raise pickle.UnpicklingError("garbled answer")
            return real_loads(data, *args, **kwargs)

        monkeypatch.setattr(ForkingPickler, "loads", loads_once_garbled)  # how the worker's answer is read
        assert await workers.render(table.id, scene) == first, "drawn by a new worker"
        assert garbled and workers.restarts == 1 and workers.fallbacks == 0 and pid not in workers.pids()
        assert _gone(pid), "the worker with the unreadable answer was ended"
    finally:
        workers.close()
