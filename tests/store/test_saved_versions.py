"""The store follows every process's saves on a connection it checks and replaces
(`bot.store.saves.SavedVersions`). Here over a stand-in for PostgreSQL's notices, to drive each case
exactly; `tests/tables/test_shared_tables.py` runs the same connection against a real server."""

from __future__ import annotations

import asyncio
import logging

import pytest

from bot.store.db import BusyError
from bot.store.saves import SavedVersions


class FakeListener:
    """One listening connection: hears the notices unless ``deaf``; ``terminate`` ends it."""

    def __init__(self, db: FakeNotices, on_notice, on_lost) -> None:
        self.db, self.on_notice, self.on_lost = db, on_notice, on_lost
        self.deaf = db.deaf
        self.closed = False

    def terminate(self) -> None:
        if not self.closed:
            self.closed = True
            self.db.listeners.remove(self)
            self.db.terminated += 1
            asyncio.get_running_loop().call_soon(self.on_lost)  # as asyncpg calls its termination listeners


class FakeNotices:
    """PostgreSQL's LISTEN/NOTIFY as `SavedVersions` uses it: ``listen`` opens a `FakeListener` (or
    raises while ``refuse``), ``execute`` is the probe's ``pg_notify``."""

    def __init__(self) -> None:
        self.listeners: list[FakeListener] = []
        self.opened = 0
        self.terminated = 0
        self.refused = 0
        self.refuse = False
        self.deaf = False
        self.sending = "ok"  # or "hang" (the pool's connection died silently), or "busy" (no free connection)

    async def listen(self, channel, on_notice, on_lost) -> FakeListener:
        assert channel == "cuarenta_tables"
        if self.refuse:
            self.refused += 1
            raise OSError("connection refused")
        self.opened += 1
        conn = FakeListener(self, on_notice, on_lost)
        self.listeners.append(conn)
        return conn

    async def execute(self, sql, channel, payload) -> int:
        assert sql == "SELECT pg_notify(?, ?)" and channel == "cuarenta_tables"
        if self.sending == "hang":
            await asyncio.Event().wait()
        if self.sending == "busy":
            raise BusyError("no free database connection within 2.0 s")
        self.notify(payload)
        return 1

    @property
    def open_listeners(self) -> int:
        """Connections opened and not terminated (never more than one may be left open)."""
        return self.opened - self.terminated

    def notify(self, payload: str) -> None:
        for conn in list(self.listeners):
            if not conn.deaf:
                asyncio.get_running_loop().call_soon(conn.on_notice, payload)


async def _until(saves: SavedVersions, condition, what: str) -> None:
    """Wait (5 s at most) until ``condition()``, asking ``saves`` as the bot does meanwhile (its checks run
    when it is asked)."""
    for _ in range(500):
        saves.newest(0)
        if condition():
            return
        await asyncio.sleep(0.01)
    raise AssertionError(f"never: {what}")


@pytest.fixture
async def saves():
    db = FakeNotices()
    made = SavedVersions(db)
    made.check_every, made.probe_timeout, made.retry_after = 0.02, 0.05, (0.01,)
    yield made
    await made.close()


async def test_the_first_connection_knows_unheard_tables_and_a_replaced_one_must_read_them(saves):
    """Only the connection opened before any table was loaded may answer 0 (no save since) for a table it
    never heard of; after a reconnect, saves may have come in the gap, so such a table is unknown (None)
    until its row is read (`seen`), and a notice makes it known again."""
    db = saves.db
    await saves.start()
    assert saves.following and saves.newest(5) == 0
    db.notify("5:3")
    await _until(saves, lambda: saves.newest(5) == 3, "the notice is heard")

    db.refuse = True
    db.listeners[0].terminate()  # the server ended it, and does not take connections yet
    await _until(saves, lambda: not saves.following, "the loss is noticed")
    assert saves.newest(5) is None and saves.newest(6) is None
    await _until(saves, lambda: db.refused >= 2, "it tries again")
    assert not saves.following, "no connection could be opened"

    db.refuse = False
    await _until(saves, lambda: saves.following, "a new connection is trusted")
    assert saves.newest(5) is None and saves.newest(6) is None, "saves in the gap were not heard"
    saves.seen(6, 2, saves.epoch)
    assert saves.newest(6) == 2
    db.notify("5:7")
    await _until(saves, lambda: saves.newest(5) == 7, "the new connection hears")


async def test_a_connection_that_stops_hearing_is_replaced(saves, caplog):
    """A connection that died silently hears nothing: the next probe does not come back in time, so the
    connection is dropped (versions unknown meanwhile) and another one, that hears, replaces it."""
    db = saves.db
    await saves.start()
    first = db.listeners[0]
    db.notify("5:3")
    await _until(saves, lambda: saves.newest(5) == 3, "the notice is heard")
    with caplog.at_level(logging.WARNING, logger="bot.store.saves"):
        first.deaf = True
        await _until(saves, lambda: first.closed, "the deaf connection is dropped")
        await _until(saves, lambda: saves.following and db.listeners and db.listeners[0] is not first,
                     "another connection is trusted")
    assert "heard nothing" in caplog.text
    assert saves.newest(5) is None, "a save may have been missed while it was deaf"
    db.notify("5:4")
    await _until(saves, lambda: saves.newest(5) == 4, "the new connection hears")


async def test_a_connection_that_never_hears_is_never_trusted(saves, caplog):
    """Behind a pooler in transaction mode LISTEN succeeds and hears nothing: no connection is trusted, each
    is dropped after its first probe, and versions stay unknown (callers read the rows)."""
    db = saves.db
    db.deaf = True
    with caplog.at_level(logging.WARNING, logger="bot.store.saves"):
        await saves.start()
        assert not saves.following and saves.newest(5) is None
        await _until(saves, lambda: db.opened >= 3, "it keeps trying")
    assert not saves.following and saves.newest(5) is None
    assert db.open_listeners <= 1, "each deaf connection is terminated"
    assert caplog.text.count("hears nothing") == 1, "warned once, not at every try"


async def test_a_row_read_under_a_connection_since_replaced_is_not_recorded(saves):
    """A row read while one connection was in use is recorded only if that connection is still the one in
    use: a save between the read and the new connection's LISTEN would otherwise be missed."""
    db = saves.db
    await saves.start()
    epoch = saves.epoch
    db.listeners[0].terminate()
    await _until(saves, lambda: saves.following and saves.epoch > epoch, "a new connection is trusted")
    saves.seen(5, 3, epoch)
    assert saves.newest(5) is None
    saves.seen(5, 3, saves.epoch)
    assert saves.newest(5) == 3


async def test_once_a_table_is_forgotten_tables_never_heard_of_are_unknown(saves):
    """The map keeps the most recently saved tables (`kept`). Forgetting one must not make it look
    unsaved (0): from then on a table with no entry is unknown, and its row is read."""
    db = saves.db
    saves.kept = 2
    await saves.start()
    assert saves.newest(99) == 0
    for payload in ("1:4", "2:4", "3:4"):
        db.notify(payload)
    await _until(saves, lambda: saves.newest(3) == 4, "the notices are heard")
    assert saves.newest(2) == 4
    assert saves.newest(1) is None, "forgotten: unknown, not unsaved"
    assert saves.newest(99) is None


async def test_probes_and_unreadable_notices_change_no_version(saves, caplog):
    """Another process's probe and a malformed payload are not versions."""
    db = saves.db
    await saves.start()
    with caplog.at_level(logging.WARNING, logger="bot.store.saves"):
        db.notify("probe:someone-else:1")
        db.notify("x:y")
        db.notify("5:2")
        await _until(saves, lambda: saves.newest(5) == 2, "the notice is heard")
    assert saves._versions == {5: 2}
    assert "unreadable saved-table notice 'x:y'" in caplog.text


async def test_a_probe_that_cannot_even_be_sent_in_time_drops_the_connection(saves):
    """A dead network may hang the probe's own statement (the pool's connection died silently too): the
    whole probe, sending included, is bounded by ``probe_timeout``, so the connection is not trusted on."""
    db = saves.db
    await saves.start()
    first = db.listeners[0]
    db.sending = "hang"
    await _until(saves, lambda: first.closed and not saves.following, "the connection is dropped")
    db.sending = "ok"
    await _until(saves, lambda: saves.following, "another connection is trusted")
    assert db.open_listeners == 1


async def test_probes_the_pool_cannot_send_keep_the_connection_only_a_few_times(saves):
    """A probe the pool cannot send (no free connection) says nothing of the listening connection, once;
    `UNSENT_LIMIT` such probes in a row drop it."""
    db = saves.db
    await saves.start()
    first = db.listeners[0]
    db.sending = "busy"
    await _until(saves, lambda: first.closed, "the connection is dropped after probes it could not send")
    assert saves._sent >= 1 + saves.UNSENT_LIMIT, "the first probes were not held against it"
    db.sending = "ok"
    await _until(saves, lambda: saves.following, "another connection is trusted")


async def test_a_connection_lost_during_a_probe_is_replaced_without_waiting_for_the_probe(saves):
    """When the connection ends while a probe waits for it, the probe ends at once (it cannot be heard)
    and a new connection is opened, instead of waiting out ``probe_timeout`` (an hour here)."""
    db = saves.db
    await saves.start()
    saves.probe_timeout, saves.check_every = 3600.0, 0.01
    first = db.listeners[0]
    first.deaf = True  # the next probe waits
    await _until(saves, lambda: saves._probes, "a probe waits")
    first.terminate()
    await _until(saves, lambda: saves.following and db.listeners and db.listeners[0] is not first,
                 "a new connection is trusted")
    assert db.open_listeners == 1


async def test_a_connection_not_heard_for_a_while_is_proved_again_before_it_is_trusted(saves):
    """The checks run when the versions are asked for. After a quiet spell longer than ``check_every`` +
    ``probe_timeout`` nothing proves the connection still hears, so the first answer is unknown (the row
    is read) and starts a probe; once the probe is back the notices are trusted again."""
    db = saves.db
    await saves.start()
    db.notify("5:3")
    await _until(saves, lambda: saves.newest(5) == 3, "the notice is heard")
    sent = saves._sent
    await asyncio.sleep(saves.check_every + saves.probe_timeout + 0.05)  # nobody asks meanwhile
    assert saves._sent == sent, "an idle store sends nothing"
    assert saves.newest(5) is None, "not proved for too long: unknown"
    assert saves.following, "nothing failed: the connection is kept"
    await _until(saves, lambda: saves.newest(5) == 3, "trusted again once its probe is back")
