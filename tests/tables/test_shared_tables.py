"""Two bot processes over one PostgreSQL (`bot.tables.shared`, `docs/SCALING.md`).

Two table services, each with its own event loop in its own thread and its own connection pool, serve one
table. Every click is sent to both at the same moment (a double click that two processes receive), and
both hold the turn alarm when it runs out. Each click must be applied exactly once and in order, and the
alarm must play once. A third process, a real OS process this time (`tests/support/dying_process.py`), is
killed in the middle of a click: nothing of it may be stored, and the same click must play once elsewhere.
"""

from __future__ import annotations

import asyncio
import random
import threading
from concurrent.futures import Future
from typing import Any

import pytest

from bot.engine import Game
from bot.store import Store
from bot.tables import NotYourTurnError, Played, StaleError, TableBusyError, TableService
from bot.tables.ports import NullNotifier
from bot.tables.service import _game_of
from bot.tables.shared import POLL_EVERY
from bot.tables.timers import REMIND_AT, ManualClock

ANA, BETO = 10, 20


async def inline(func, *args):
    return func(*args)


class Process:
    """One "bot process": an event loop in a thread, a store with its own pool, a table service on a
    manual clock."""

    def __init__(self, url: str) -> None:
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self.thread.start()
        self.url = url
        self.service: TableService | None = None
        self.clock: ManualClock | None = None

    def submit(self, coro: Any) -> Future:
        return asyncio.run_coroutine_threadsafe(coro, self.loop)

    def run(self, coro: Any) -> Any:
        return self.submit(coro).result(timeout=60)

    async def _start(self) -> None:
        self.clock = ManualClock()
        store = await Store.open(self.url)
        self.service = TableService(store, ai_delay=0, seed_factory=lambda: "fixed", offload=inline,
                                    clock=self.clock)
        self.clock.watch(self.service._tasks)

    def start(self) -> TableService:
        self.run(self._start())
        assert self.service is not None
        return self.service

    async def _stop(self) -> None:
        if self.service is not None:
            await self.service.close()
            await self.service.store.close()

    def stop(self) -> None:
        self.run(self._stop())
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(timeout=10)
        self.loop.close()


@pytest.fixture
def processes(postgres_url):
    made = [Process(postgres_url), Process(postgres_url)]
    yield made
    for p in made:
        p.stop()


def _both(a: Process, b: Process, make) -> list[Any]:
    """Run ``make(service)`` on both processes at once; each outcome is a result or the exception."""
    futures = [p.submit(make(p.service)) for p in (a, b)]
    out = []
    for f in futures:
        try:
            out.append(f.result(timeout=60))
        except Exception as exc:  # noqa: BLE001 — the refusal is the outcome we check
            out.append(exc)
    return out


def _open_table(a: Process, b: Process) -> int:
    svc_a, svc_b = a.service, b.service

    async def open_table():
        table = await svc_a.create(guild_id=1, channel_id=2, user_id=ANA, name="ana", locale="es", players=2)
        await svc_a.join(table.id, user_id=BETO, name="beto", locale="en")
        return table.id

    table_id = a.run(open_table())
    assert b.run(svc_b.load()) == 1, "the second process serves the same open table"
    return table_id


def _start_mesa(a: Process, b: Process) -> tuple[int, Game, dict[int, int]]:
    """Both processes started and serving one new 1 v 1 table; the table id, the reference game (the same
    seed) and each seat's user id."""
    svc_a = a.start()
    b.start()
    table_id = _open_table(a, b)
    reference = Game.new(svc_a.get(table_id).rules, 2, "fixed")
    return table_id, reference, {i: seat.user_id for i, seat in enumerate(svc_a.get(table_id).seats)}


def _click(reference: Game, rng: random.Random, user_of: dict[int, int]) -> tuple[Any, dict[str, Any]]:
    """The next click of the mesa (a random legal play of the player in turn, a capture when there is one,
    so chicas end) as ``service.play`` kwargs."""
    legal = reference.legal_plays()
    play = rng.choice([p for p in legal if p.captures] or legal)
    kwargs: dict[str, Any] = {"user_id": user_of[reference.to_play], "nonce": len(reference.plays),
                              "card": play.card.code}
    if play.captures:
        kwargs["captures"] = " ".join(c.code for c in play.sorted_captures())
    else:
        kwargs["trail"] = True
    return play, kwargs


def _state(table: Any) -> tuple[Any, ...]:
    """What a refused click must leave as it was: the nonce, the version, the game and its plays."""
    return table.nonce, table.version, table.game.snapshot(), len(table.game.plays)


def _plays_once_free(p: Process, table_id: int, kwargs: dict[str, Any], play: Any, reference: Game,
                     why: str) -> None:
    """The same click, sent again once the table is free, plays ``play``; the store then holds the
    reference game (``reference`` takes the play too)."""
    result = p.run(p.service.play(table_id, **kwargs))
    assert isinstance(result, Played) and result.play == play, why
    reference.play(play, seat=reference.to_play)
    assert _game_of(p.run(p.service.store.load_table(table_id))) == reference


def test_two_processes_apply_each_raced_click_once_in_order_and_fire_the_alarm_once(processes):
    a, b = processes
    table_id, reference, user_of = _start_mesa(a, b)
    svc_a = a.service
    for p in (a, b):  # the loser of a race waits for the row, however loaded the machine: never "busy" here
        p.service.store.lock_timeout_ms = 60_000
    rng = random.Random(13)
    def chicas_won() -> int:
        return sum(1 for e in reference.events if e.kind == "chica_won")

    while chicas_won() < 1 or len(reference.plays) < 120:  # several hands, and a chica that ends
        play, kwargs = _click(reference, rng, user_of)
        outcomes = _both(a, b, lambda svc, kw=kwargs: svc.play(table_id, **kw))
        applied = [i for i, o in enumerate(outcomes) if isinstance(o, Played)]
        refused = [o for o in outcomes if not isinstance(o, Played)]
        assert len(applied) == 1, f"one process applies the click, the other refuses it: {outcomes}"
        assert all(isinstance(o, (StaleError, NotYourTurnError)) for o in refused), outcomes
        assert outcomes[applied[0]].play == play
        reference.play(play, seat=reference.to_play)

    row = a.run(svc_a.store.load_table(table_id))
    assert len(row.plays) == len(reference.plays) >= 120
    assert _game_of(row) == reference, "the stored plays are the clicks, each once, in order"
    assert not reference.is_over
    chicas_done = chicas_won()
    recorded = a.run(svc_a.store.db.fetch("SELECT chica_number FROM chicas WHERE table_id = ? ORDER BY chica_number",
                                          table_id))
    assert [r[0] for r in recorded] == list(range(1, chicas_done + 1)), "each finished chica recorded once"
    # Both processes now hold the current turn's alarm: a refused click makes each catch up first.
    stale = {"user_id": user_of[reference.to_play], "nonce": 0, "card": reference.hands[reference.to_play][0].code}
    for p in (a, b):
        with pytest.raises(StaleError):
            p.run(p.service.play(table_id, **stale))
    deadlines = [p.service.get(table_id).timers.deadline for p in (a, b)]
    assert deadlines[0] == deadlines[1] is not None
    to_wait = deadlines[0] - a.clock.now() + 1
    _both(a, b, lambda svc: (a.clock if svc is svc_a else b.clock).advance(to_wait))  # both alarms due

    row = a.run(svc_a.store.load_table(table_id))
    assert len(row.plays) == len(reference.plays) + 1, "the turn ran out once: one play for the timed-out seat"
    assert row.plays[-1][0] == reference.to_play
    assert row.timers["strikes"] == {str(reference.to_play): 1}, "one expiry counted"


def test_each_process_plays_one_seat_and_reloads_the_table_the_other_changed(processes):
    """Seat 0's clicks reach one process and seat 1's the other, so each copy is behind at every click:
    the reload path runs every time, and the mesa stays exactly the reference one."""
    a, b = processes
    table_id, reference, user_of = _start_mesa(a, b)
    rng = random.Random(7)
    for _ in range(40):
        play, kwargs = _click(reference, rng, user_of)
        p = (a, b)[reference.to_play]
        result = p.run(p.service.play(table_id, **kwargs))
        assert isinstance(result, Played) and result.play == play
        reference.play(play, seat=reference.to_play)
    for p in (a, b):
        row = p.run(p.service.store.load_table(table_id))
        assert _game_of(row) == reference
    assert b.service.get(table_id).version != a.service.get(table_id).version, "one copy is behind …"
    stale = {"user_id": user_of[reference.to_play], "nonce": 0, "card": reference.hands[reference.to_play][0].code}
    for p in (a, b):
        with pytest.raises(StaleError):
            p.run(p.service.play(table_id, **stale))
    assert b.service.get(table_id).game == a.service.get(table_id).game == reference, "… until it acts: reloaded"


def test_lobby_joins_that_reach_different_processes_all_keep_their_seat(processes):
    """A lobby opened in one process: the next person's join reaches the other, the one after it the
    first again. Each join claims the row and reads the latest seats, so nobody's seat is written over."""
    a, b = processes
    a.start(), b.start()
    table = b.run(b.service.create(guild_id=1, channel_id=2, user_id=10, name="ana", locale="es", players=4))
    a.run(a.service.join(table.id, user_id=30, name="caro", locale="es"))
    b.run(b.service.join(table.id, user_id=40, name="dani", locale="es"))
    row = a.run(a.service.store.load_table(table.id))
    assert sorted(s["user_id"] for s in row.seats if s) == [10, 30, 40]
    assert sorted(s.user_id for s in b.service.get(table.id).seats if s) == [10, 30, 40], "read before it seated"


def test_a_click_on_a_table_whose_row_another_process_holds_is_refused_busy_and_changes_nothing(processes):
    """Design §9 item 5: a third connection holds the table's row (a process stuck mid-change). A click
    waits at most the store's lock timeout, then is refused with `TableBusyError` (an ephemeral "try
    again"): no play stored, the version and the in-memory game unchanged. Once the row is free, the same
    click plays."""
    import asyncpg

    a, b = processes
    table_id, reference, user_of = _start_mesa(a, b)
    svc = a.service
    svc.store.lock_timeout_ms = 200
    rng = random.Random(5)
    for _ in range(3):
        play, kwargs = _click(reference, rng, user_of)
        assert isinstance(a.run(svc.play(table_id, **kwargs)), Played)
        reference.play(play, seat=reference.to_play)
    play, kwargs = _click(reference, rng, user_of)
    table = svc.get(table_id)
    before = _state(table)

    holder = a.run(asyncpg.connect(a.url))
    try:
        a.run(holder.execute("BEGIN"))
        a.run(holder.execute("SELECT version FROM tables WHERE id = $1 FOR UPDATE", table_id))
        with pytest.raises(TableBusyError) as refused:
            a.run(svc.play(table_id, **kwargs))
        assert refused.value.key == "err.table_busy"
        assert _state(table) == before
    finally:
        a.run(holder.execute("ROLLBACK"))
        a.run(holder.close())
    row = a.run(svc.store.load_table(table_id))
    assert len(row.plays) == 3 and row.version == before[1], "nothing was stored while the row was held"

    _plays_once_free(a, table_id, kwargs, play, reference, "the same click plays once the row is free")


def test_a_click_while_every_pooled_connection_is_taken_is_refused_busy_and_changes_nothing(processes):
    """Design §3: when every connection of the process's pool is in use (its other tables' work piling
    up), a click waits at most the pool's acquire timeout, then is refused with `TableBusyError` (an
    ephemeral "try again", well within Discord's 3 s) and nothing changes; a plain read is refused the same
    way (`BusyError`). Once a connection is free, the same click plays."""
    from bot.store import BusyError

    a, b = processes
    table_id, reference, user_of = _start_mesa(a, b)
    svc = a.service
    db = svc.store.db
    db.acquire_timeout = 0.2
    rng = random.Random(6)
    play, kwargs = _click(reference, rng, user_of)
    table = svc.get(table_id)
    before = _state(table)

    async def take() -> object:
        return await db.pool.acquire()

    taken = [a.run(take()) for _ in range(db.pool.get_max_size())]
    try:
        with pytest.raises(TableBusyError) as refused:
            a.run(svc.play(table_id, **kwargs))
        assert refused.value.key == "err.table_busy"
        assert _state(table) == before
        with pytest.raises(BusyError):
            a.run(svc.store.load_table(table_id))
    finally:
        for conn in taken:
            a.run(db.pool.release(conn))
    row = a.run(svc.store.load_table(table_id))
    assert len(row.plays) == 0 and row.version == before[1], "nothing was stored while the pool was taken"

    _plays_once_free(a, table_id, kwargs, play, reference, "the same click plays once a connection is free")


def test_a_computer_move_that_finds_the_row_busy_is_left_to_the_process_holding_it(processes, caplog):
    """Design §3: the computer's move comes while another process holds the table's row past the lock
    timeout. The move is not applied and not retried here (the holder's own change kicks the computer in
    its process): nothing stored, the computer still to play, no error logged. A later kick in this
    process, with the row free, plays it."""
    import asyncpg

    a, _ = processes
    svc = a.start()

    async def open_vs_computer():
        table = await svc.create(guild_id=1, channel_id=2, user_id=ANA, name="ana", locale="es", players=2)
        await svc.start(table.id, user_id=ANA)
        return table

    table = a.run(open_vs_computer())
    a.run(a.clock.advance(0))  # a computer that leads has played
    assert table.game.to_play == 0, "ana to play"
    svc.store.lock_timeout_ms = 200
    svc.ai_delay = 1.0  # the computer thinks one second (of the manual clock) before it moves
    first = table.game.hands[0][0]
    capture = next((p for p in table.game.plays_for(first) if p.captures), None)
    how = {"captures": " ".join(c.code for c in capture.sorted_captures())} if capture else {"trail": True}
    a.run(svc.play(table.id, user_id=ANA, nonce=table.nonce, card=first.code, **how))
    a.run(a.clock.advance(0))  # the computer is thinking
    assert table.game.to_play == 1
    plays, version = len(table.game.plays), table.version

    holder = a.run(asyncpg.connect(a.url))
    try:
        a.run(holder.execute("BEGIN"))
        a.run(holder.execute("SELECT version FROM tables WHERE id = $1 FOR UPDATE", table.id))
        a.run(a.clock.advance(1.0))  # it moves now, and finds the row held
        task = svc._ai_tasks[table.id]
        a.run(_ended(task))
        assert task.exception() is None, "the move is left, not failed"
        assert len(table.game.plays) == plays and table.version == version and table.game.to_play == 1
    finally:
        a.run(holder.execute("ROLLBACK"))
        a.run(holder.close())
    row = a.run(svc.store.load_table(table.id))
    assert len(row.plays) == plays, "nothing stored while the row was held"
    assert not [r for r in caplog.records if r.levelname == "ERROR"]

    async def kick() -> None:
        svc._kick_ai(table)
        await a.clock.advance(1.0)  # its thinking time
        await _ended(svc._ai_tasks[table.id])

    a.run(kick())
    assert len(table.game.plays) == plays + 1, "with the row free, a kick plays the computer's move"


async def _ended(task: asyncio.Task) -> None:
    """Wait (in the task's loop) until ``task`` ends, whatever its outcome."""
    await asyncio.wait([task])


def test_a_process_killed_mid_click_commits_nothing_and_the_same_click_plays_once_elsewhere(processes):
    """Design §9 item 6: a third bot process, in its own OS process, takes a click, claims the row and
    writes the play, then is killed (SIGKILL) before its transaction commits. While it hangs, the same
    click sent to another process is refused busy and changes nothing; once it is dead, PostgreSQL has
    rolled its transaction back: nothing of the click is stored, and the same click plays exactly once
    in another process. The first process, whose copy is now behind, reloads and plays on."""
    import json
    import signal
    import subprocess
    import sys
    from pathlib import Path

    a, b = processes
    table_id, reference, user_of = _start_mesa(a, b)
    rng = random.Random(11)
    for _ in range(6):
        play, kwargs = _click(reference, rng, user_of)
        assert isinstance(a.run(a.service.play(table_id, **kwargs)), Played)
        reference.play(play, seat=reference.to_play)
    play, kwargs = _click(reference, rng, user_of)
    stored = a.run(a.service.store.load_table(table_id))

    dying = subprocess.Popen([sys.executable, str(Path(__file__).resolve().parents[1] / "support" / "dying_process.py"), a.url,
                              str(table_id), json.dumps(kwargs)], stdout=subprocess.PIPE, text=True)
    try:
        assert dying.stdout is not None
        assert dying.stdout.readline().strip() == "saved", "the dying process wrote the play, uncommitted"
        b.service.store.lock_timeout_ms = 200
        before = _state(b.service.get(table_id))
        with pytest.raises(TableBusyError):
            b.run(b.service.play(table_id, **kwargs))
        assert _state(b.service.get(table_id)) == before, "a refused click changes nothing"
    finally:
        dying.send_signal(signal.SIGKILL)
        dying.wait(timeout=30)
    assert dying.returncode == -signal.SIGKILL

    row = a.run(a.service.store.load_table(table_id))
    assert len(row.plays) == len(stored.plays) and row.version == stored.version, \
        "the killed process's play and version were rolled back"
    b.service.store.lock_timeout_ms = 60_000  # PostgreSQL may take a moment to end the dead backend
    result = b.run(b.service.play(table_id, **kwargs))
    assert isinstance(result, Played) and result.play == play, "the same click plays in another process"
    reference.play(play, seat=reference.to_play)
    row = a.run(a.service.store.load_table(table_id))
    assert len(row.plays) == len(stored.plays) + 1 and row.version == stored.version + 1, "once"
    assert _game_of(row) == reference

    play, kwargs = _click(reference, rng, user_of)
    result = a.run(a.service.play(table_id, **kwargs))
    assert isinstance(result, Played) and result.play == play, "the first process reloads and plays on"
    reference.play(play, seat=reference.to_play)
    assert _game_of(a.run(a.service.store.load_table(table_id))) == reference


class Recorder(NullNotifier):
    """A presenter that records what it is told, in order (the optional ``reloaded`` included)."""

    def __init__(self) -> None:
        self.calls: list[str] = []

    async def lobby_changed(self, table):
        self.calls.append("lobby_changed")

    async def game_changed(self, table, events):
        self.calls.append("game_changed")

    async def table_closed(self, table):
        self.calls.append("table_closed")

    async def repost(self, table):
        self.calls.append("repost")

    async def resumed(self, table):
        self.calls.append("resumed")

    async def reloaded(self, table, hand):
        self.calls.append("reloaded")

    async def table_note(self, table, kind, **params):
        self.calls.append(f"note:{kind}")


def _settle(p: Process) -> None:
    """Let ``p``'s notifications run: they wait for nothing but the table's notify lock (the service's other
    background tasks wait for the manual clock, which does not move here)."""
    async def settle():
        for _ in range(100):
            await asyncio.sleep(0)
    p.run(settle())


def _notice_seen(p: Process, table_id: int, version: int) -> None:
    """Wait (10 s at most) until ``p``'s store has the notice of the table's save at ``version``: notices
    come on their own connection once the save commits."""
    async def wait():
        for _ in range(1000):
            if (p.service.store.newest_saved(table_id) or 0) >= version:
                return
            await asyncio.sleep(0.01)
        raise AssertionError(f"no notice of version {version} of table {table_id}")
    p.run(wait())


def test_a_process_knows_its_copy_is_behind_catches_up_and_tells_its_presenter_before_the_change(processes):
    """`docs/SCALING.md` §5: a presenter asks ``behind`` before it writes a table's public messages, and
    ``catch_up`` reloads the table; a process that reloads a table and saves a change tells its presenter
    (``reloaded``, with the hand in play at the reload) before the notice of that change, so it takes over
    the writes in order. A reload that saves nothing (a refused click, a catch-up) tells nothing."""
    a, b = processes
    table_id, reference, user_of = _start_mesa(a, b)
    told = {a: Recorder(), b: Recorder()}
    for p in (a, b):
        p.service.set_notifier(told[p])
    rng = random.Random(3)

    def click(p: Process) -> None:
        play, kwargs = _click(reference, rng, user_of)
        assert isinstance(p.run(p.service.play(table_id, **kwargs)), Played)
        reference.play(play, seat=reference.to_play)
        _settle(p)

    b.run(b.service.catch_up(b.service.get(table_id)))  # b loaded the table after a's last change: current
    _settle(b)
    click(a)
    copy_a, copy_b = a.service.get(table_id), b.service.get(table_id)
    _notice_seen(b, table_id, copy_a.version)
    assert not a.run(a.service.behind(copy_a)), "the process that made the change is not behind"
    assert b.run(b.service.behind(copy_b)), "the other one is"
    assert told[b].calls == [], "b was told nothing yet"

    stale = {"user_id": user_of[reference.to_play], "nonce": 0, "card": reference.hands[reference.to_play][0].code}
    with pytest.raises(StaleError):
        b.run(b.service.play(table_id, **stale))  # b reloads to check it, and saves nothing
    _settle(b)
    assert copy_b.game == reference and not b.run(b.service.behind(copy_b))
    assert told[b].calls == [], "a reload that saved nothing hands nothing over"
    b.run(b.service.catch_up(copy_b))
    _settle(b)
    assert told[b].calls == [], "nor does catching up"

    click(b)  # a is behind now; its next change reloads first
    _notice_seen(a, table_id, copy_b.version)
    assert a.run(a.service.behind(copy_a))
    told[a].calls.clear()
    click(a)
    assert told[a].calls == ["reloaded", "game_changed"], "the reload is told before the change it preceded"
    assert copy_a.game == reference


def test_both_processes_hold_the_turn_reminder_and_the_player_is_reminded_once(processes):
    """The 2/3 reminder is an alarm too: both processes hold it, both clocks pass it, and the reminder
    is told once in all (``reminded`` is stored under the row), and stored once."""
    a, b = processes
    table_id, reference, user_of = _start_mesa(a, b)
    stale = {"user_id": user_of[reference.to_play], "nonce": 99, "card": reference.hands[reference.to_play][0].code}
    for p in (a, b):  # a refused click makes each copy current: both hold the same alarms
        with pytest.raises(StaleError):
            p.run(p.service.play(table_id, **stale))
    told = {a: Recorder(), b: Recorder()}
    for p in (a, b):
        p.service.set_notifier(told[p])
    copies = [p.service.get(table_id).timers for p in (a, b)]
    assert copies[0].deadline == copies[1].deadline is not None and not copies[0].reminded
    remind_at = copies[0].deadline - copies[0].turn_timer * (1 - REMIND_AT)
    assert a.clock.now() == b.clock.now() < remind_at
    to_wait = remind_at - a.clock.now() + 1
    assert to_wait < copies[0].deadline - a.clock.now(), "past the reminder, before the deadline"
    _both(a, b, lambda svc: (a.clock if svc is a.service else b.clock).advance(to_wait))
    for p in (a, b):
        _settle(p)
    notes = [c for p in (a, b) for c in told[p].calls if c.startswith("note:")]
    assert notes == ["note:reminder"], "one reminder in all"
    row = a.run(a.service.store.load_table(table_id))
    assert row.timers["reminded"] is True
    assert len(row.plays) == 0, "no turn ran out"


def test_both_processes_hold_a_lobbys_timeout_and_it_closes_the_lobby_once(processes):
    """The lobby's timeout is an alarm too: a lobby that never filled, held by both processes, both
    clocks past its deadline. It closes once: one close stored, one notice of it in all."""
    a, b = processes
    a.start(), b.start()
    table = a.run(a.service.create(guild_id=1, channel_id=2, user_id=ANA, name="ana", locale="es", players=4))
    assert b.run(b.service.load()) == 1
    told = {a: Recorder(), b: Recorder()}
    for p in (a, b):
        p.service.set_notifier(told[p])
    deadlines = [p.service.get(table.id).timers.lobby_deadline for p in (a, b)]
    assert deadlines[0] == deadlines[1] is not None and a.clock.now() == b.clock.now()
    to_wait = deadlines[0] - a.clock.now() + 1
    _both(a, b, lambda svc: (a.clock if svc is a.service else b.clock).advance(to_wait))
    for p in (a, b):
        _settle(p)
    calls = [c for p in (a, b) for c in told[p].calls if c != "reloaded"]  # the later one found it changed
    assert sorted(calls) == ["note:lobby_timeout", "table_closed"], calls
    assert a.run(a.service.store.load_table(table.id)).status == "closed"


def test_a_process_that_stops_following_saves_reads_the_row_to_know_it_is_behind(processes):
    """`behind` asks nothing of the database while the store follows the saves of every process
    (PostgreSQL's notices); when the notice connection ends, the store says so and `behind` reads the
    table's row instead, with the same answers."""
    a, b = processes
    table_id, reference, user_of = _start_mesa(a, b)
    rng = random.Random(11)
    store_b = b.service.store
    b.run(b.service.catch_up(b.service.get(table_id)))
    assert store_b.newest_saved(table_id) is not None, "b follows the saves"
    queries: list[str] = []
    fetchval = store_b.db.fetchval

    async def counted(sql, *args):
        queries.append(sql)
        return await fetchval(sql, *args)

    store_b.db.fetchval = counted
    _a_plays(a, table_id, reference, rng, user_of)
    _notice_seen(b, table_id, a.service.get(table_id).version)
    assert b.run(b.service.behind(b.service.get(table_id))) and queries == [], "known from the notice"

    listen = store_b.db.listen

    async def refused(*args):
        raise OSError("the server does not take connections yet")

    store_b.db.listen = refused
    b.run(store_b.db._listeners[0].close())  # the notice connection ends (the server went away)
    _until(b, lambda: not store_b.saves.following, "b hears the connection ended")
    assert store_b.newest_saved(table_id) is None, "no longer following"
    assert b.run(b.service.behind(b.service.get(table_id))), "still behind: read from the row"
    assert queries == ["SELECT version FROM tables WHERE id = ?"]
    b.run(b.service.catch_up(b.service.get(table_id)))
    assert not b.run(b.service.behind(b.service.get(table_id)))

    # A save in the gap: b cannot have heard it, and must not take the table for unsaved once it follows
    # again (its row is read once, then the notices tell).
    _a_plays(a, table_id, reference, rng, user_of)
    async def back() -> None:  # on b's loop, where its checks run
        store_b.saves.retry_after = (0.05,)
        store_b.db.listen = listen

    b.run(back())
    _until(b, lambda: store_b.saves.following, "b follows the saves again")
    assert store_b.newest_saved(table_id) is None, "unknown: saved while b was not listening"
    del queries[:]
    assert b.run(b.service.behind(b.service.get(table_id))), "behind: read from the row"
    assert queries == ["SELECT version FROM tables WHERE id = ?"]
    assert store_b.newest_saved(table_id) == a.service.get(table_id).version, "known from then on"
    b.run(b.service.catch_up(b.service.get(table_id)))
    _a_plays(a, table_id, reference, rng, user_of)
    _notice_seen(b, table_id, a.service.get(table_id).version)
    del queries[:]
    assert b.run(b.service.behind(b.service.get(table_id))) and queries == [], "known from the notice"


def test_a_notice_connection_that_hears_nothing_is_replaced_and_saves_are_heard_again(processes):
    """A notice connection that died silently, or sits behind a pooler in transaction mode, hears nothing,
    and `behind` would answer from what it last heard. The store probes it (a ``pg_notify`` of its own sent
    through the pool): one that does not hear its probe is dropped, the versions unknown meanwhile (rows
    are read), and a new connection that hears replaces it."""
    a, b = processes
    table_id, reference, user_of = _start_mesa(a, b)
    rng = random.Random(12)
    store_b = b.service.store
    saves = store_b.saves
    b.run(b.service.catch_up(b.service.get(table_id)))
    deaf = store_b.db._listeners[0]
    epoch = saves.epoch
    async def often() -> None:  # on b's loop, where its checks run
        saves.check_every, saves.probe_timeout, saves.retry_after = 0.1, 0.5, (0.05,)

    b.run(often())
    b.run(deaf.execute("UNLISTEN cuarenta_tables"))  # it stays open, and hears nothing from now on
    _a_plays(a, table_id, reference, rng, user_of)
    _until(b, lambda: deaf.is_closed(), "the deaf connection is dropped")
    _until(b, lambda: saves.following and saves.epoch > epoch, "a new connection is trusted")
    assert store_b.db._listeners and store_b.db._listeners[0] is not deaf
    assert b.run(b.service.behind(b.service.get(table_id))), "the save it did not hear is read from the row"
    b.run(b.service.catch_up(b.service.get(table_id)))
    _a_plays(a, table_id, reference, rng, user_of)
    _notice_seen(b, table_id, a.service.get(table_id).version)


class Told(NullNotifier):
    """A presenter that records what the service tells it about other processes' saves: ``overtaken``
    (with the version and whether the table was reloaded then), ``caught_up`` (the table's version then)
    and ``repost`` (the same); ``on_way`` is its answer to ``overtaken`` (a write was on its way)."""

    def __init__(self) -> None:
        self.calls: list[tuple[str, int]] = []
        self.on_way = False

    async def overtaken(self, table, version):
        self.calls.append(("overtaken", version))
        return self.on_way

    async def caught_up(self, table):
        self.calls.append(("caught_up", table.version))

    async def repost(self, table):
        self.calls.append(("repost", table.version))


def _told(p: Process, told: Told, count: int) -> None:
    """Wait (10 s at most) on ``p``'s loop until ``told`` holds ``count`` calls."""
    _until(p, lambda: len(told.calls) >= count, f"{count} calls told")
    _settle(p)


def test_the_service_tells_its_presenter_of_another_process_s_save_and_catches_up_for_a_write_on_its_way(
        processes):
    """The presenter asks nothing about freshness: the service hears another process's save (its notice)
    and tells the presenter (``overtaken``, with the version saved), without reloading a copy nobody
    writes. When the presenter answers that a write of the table was on its way, the service catches the
    table up and tells it (``caught_up``), so that the latest state is written once more."""
    a, b = processes
    table_id, reference, user_of = _start_mesa(a, b)
    rng = random.Random(21)
    b.run(b.service.catch_up(b.service.get(table_id)))
    told = Told()
    b.service.set_notifier(told)
    copy_b = b.service.get(table_id)
    loaded = copy_b.version

    _a_plays(a, table_id, reference, rng, user_of)
    _told(b, told, 1)
    assert told.calls == [("overtaken", a.service.get(table_id).version)]
    assert copy_b.version == loaded and b.run(b.service.behind(copy_b)), "told, not reloaded"

    told.on_way, told.calls = True, []
    _a_plays(a, table_id, reference, rng, user_of)
    _told(b, told, 2)
    version = a.service.get(table_id).version
    assert told.calls == [("overtaken", version), ("caught_up", version)], "caught up, then told"
    assert copy_b.game == reference and not b.run(b.service.behind(copy_b))

    told.calls = []
    _a_plays(b, table_id, reference, rng, user_of)  # b's own save: its notice comes back to b too
    _notice_seen(b, table_id, copy_b.version)
    _settle(b)
    assert told.calls == [], "a process's own save is not told as another's"


def test_a_repost_asked_of_a_process_that_is_behind_is_told_once_the_service_caught_up(processes):
    """``/cuarenta table`` on a process whose copy is behind: the service catches the table up before it
    tells its presenter to re-post, so the re-post shows the latest state."""
    a, b = processes
    table_id, reference, user_of = _start_mesa(a, b)
    rng = random.Random(22)
    b.run(b.service.catch_up(b.service.get(table_id)))
    told = Told()
    b.service.set_notifier(told)
    _a_plays(a, table_id, reference, rng, user_of)
    version = a.service.get(table_id).version
    _told(b, told, 1)

    async def repost() -> None:
        b.service.request_repost(b.service.get(table_id))

    b.run(repost())
    _told(b, told, 2)
    assert told.calls == [("overtaken", version), ("repost", version)]
    assert b.service.get(table_id).game == reference


def test_while_the_notices_are_not_trusted_the_service_reads_its_tables_versions_and_tells_the_presenter(
        processes):
    """No notice comes while the notice connection is down: every `POLL_EVERY` seconds of its clock the
    service reads the versions of its live tables it does not know (one query) and tells its presenter
    of a save made elsewhere, as a notice would."""
    a, b = processes
    table_id, reference, user_of = _start_mesa(a, b)
    rng = random.Random(23)
    store_b = b.service.store
    b.run(b.service.catch_up(b.service.get(table_id)))
    told = Told()
    b.service.set_notifier(told)

    async def refused(*args):
        raise OSError("the server does not take connections yet")

    store_b.db.listen = refused
    b.run(store_b.db._listeners[0].close())
    _until(b, lambda: not store_b.saves.following, "b hears the connection ended")
    _a_plays(a, table_id, reference, rng, user_of)
    _settle(b)
    assert told.calls == [], "nothing heard yet"
    b.run(b.clock.advance(POLL_EVERY))
    _told(b, told, 1)
    assert told.calls == [("overtaken", a.service.get(table_id).version)]


def _a_plays(a: Process, table_id: int, reference: Game, rng: random.Random, user_of: dict[int, int]) -> None:
    """The next click of the mesa, played on ``a`` (and on the reference)."""
    play, kwargs = _click(reference, rng, user_of)
    assert isinstance(a.run(a.service.play(table_id, **kwargs)), Played)
    reference.play(play, seat=reference.to_play)


def _until(p: Process, condition, what: str) -> None:
    """Wait (10 s at most) on ``p``'s loop until ``condition()``, asking ``p``'s store for a version
    meanwhile, as its presenter does (the notice connection's checks run when it is asked)."""
    async def wait():
        for _ in range(1000):
            p.service.store.newest_saved(0)
            if condition():
                return
            await asyncio.sleep(0.01)
        raise AssertionError(f"never: {what}")
    p.run(wait())
