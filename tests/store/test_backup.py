"""Backups and restores of the SQLite database (`bot.store.backup`, ``python -m bot backup|restore``): a
backup taken while mesas are being played holds every play committed before it began and restores to a
bot that resumes the open tables; each refusal changes nothing and exits with code 2."""

from __future__ import annotations

import asyncio
import fcntl
import os
import signal
import sqlite3
import subprocess
import sys
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path

import pytest

import bot.__main__ as entry
from bot.engine import Play
from bot.store import Store
from bot.store.backup import Refused, backup, latest_schema, lock_path, restore
from bot.tables import FINISHED, PLAYING, Played, TableService, choose_play

ROOT = Path(__file__).resolve().parents[2]


async def _inline(func, *args):
    return func(*args)


def _cli_env(database: Path) -> dict[str, str]:
    """The environment of ``python -m bot …`` on the SQLite file ``database`` (no PostgreSQL, whatever a
    `.env` says: python-dotenv does not override a variable that is set)."""
    env = dict(os.environ, DATABASE_PATH=str(database), DATABASE_URL="", PYTHONPATH=str(ROOT))
    return env


@contextmanager
def bot_running(database: Path):
    """Hold the running bot's lock on ``<database>.lock`` (an exclusive flock, on a descriptor of its own,
    as the bot's process would)."""
    fd = os.open(lock_path(database), os.O_RDWR | os.O_CREAT, 0o644)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        yield
    finally:
        os.close(fd)


async def _play_once(service: TableService, table) -> None:
    """The player to move plays the greedy choice (accepted: persisted before `play` returns)."""
    game = table.game
    play = choose_play("greedy", game.seed, game.view(game.to_play))
    can_capture = any(p.captures for p in game.plays_for(play.card))
    result = await service.play(
        table.id, user_id=table.seats[game.to_play].user_id, nonce=table.nonce, card=play.card.code,
        captures=" ".join(c.code for c in play.captures) if play.captures else None,
        trail=play.is_trail and can_capture)
    assert isinstance(result, Played)


async def _plays_by_table(store: Store) -> dict[int, list[tuple[int, str, str]]]:
    ids = [int(r[0]) for r in await store.db.fetch("SELECT id FROM tables ORDER BY id")]
    return {table_id: await store.plays(table_id) for table_id in ids}


async def test_a_backup_taken_while_plays_are_written_restores_every_play_committed_before_it(tmp_path):
    """Three 1 v 1 mesas are played without pause (a new one in the channel when one ends) while
    ``python -m bot backup`` runs in another process, the bot's lock held. Then the bot stops and
    ``python -m bot restore`` puts the copy back: the file passes ``PRAGMA integrity_check``, every play
    committed before the backup began is there, each table's plays are a prefix of what was written
    (one consistent snapshot: the plays after it are not), and a restarted service resumes the open tables
    and plays on. The replaced database is kept aside with all its plays."""
    database, copy = tmp_path / "cuarenta.db", tmp_path / "backup" / "cuarenta-copy.db"
    copy.parent.mkdir()
    store = await Store.open(str(database))
    service = TableService(store, ai_delay=0, seed_factory=lambda: "backup", offload=_inline)
    written = 0
    stop = asyncio.Event()
    enough = asyncio.Event()

    async def writer(channel_id: int) -> None:
        nonlocal written
        people = [(channel_id * 10 + 1, "ana"), (channel_id * 10 + 2, "beto")]
        while not stop.is_set():
            table = await service.create(guild_id=1, channel_id=channel_id, user_id=people[0][0],
                                         name=people[0][1], locale="es", players=2)
            await service.join(table.id, user_id=people[1][0], name=people[1][1], locale="es")
            while table.status != FINISHED and not stop.is_set():
                await _play_once(service, table)
                written += 1
                if written >= 60:
                    enough.set()

    with bot_running(database):
        writers = [asyncio.create_task(writer(channel)) for channel in (2, 3, 4)]
        await enough.wait()
        before = await _plays_by_table(store)  # committed before the backup begins
        written_at_start = written
        proc = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "bot", "backup", str(copy), env=_cli_env(database),
            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        out, err = await proc.communicate()
        written_during = written - written_at_start
        target = written + 6
        while written < target:  # a few plays after the backup: they must not be in it
            await asyncio.sleep(0)
        stop.set()
        await asyncio.gather(*writers)
        final = await _plays_by_table(store)
        await service.close()
        await store.close()
    assert proc.returncode == 0, err.decode()
    assert out.decode().startswith(f"backed up {database} to {copy} (schema {latest_schema()}, ")
    assert len(out.decode().splitlines()) == 1 and err == b""
    assert written_during > 0, "plays were written while the backup ran"

    done = subprocess.run([sys.executable, "-m", "bot", "restore", str(copy)], env=_cli_env(database),
                          capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    assert len(done.stdout.splitlines()) == 1 and "the database it replaced is kept as" in done.stdout
    with sqlite3.connect(database) as conn:
        assert conn.execute("PRAGMA integrity_check").fetchall() == [("ok",)]
    aside = [p for p in tmp_path.iterdir() if p.name.startswith("cuarenta.db.before-restore-")]
    assert len(aside) == 1
    assert not Path(f"{database}-wal").exists() or Path(f"{database}-wal").stat().st_size == 0

    store = await Store.open(str(database))
    try:
        restored = await _plays_by_table(store)
        for table_id, plays in before.items():
            assert restored[table_id][:len(plays)] == plays, "every play committed before the backup is there"
        for table_id, plays in restored.items():
            assert final[table_id][:len(plays)] == plays, "one snapshot: a prefix of what was written"
        assert sum(map(len, restored.values())) < sum(map(len, final.values())), \
            "the plays written after the backup are not in it: the copy replaced the database"
        resumed = TableService(store, ai_delay=0, seed_factory=lambda: "backup", offload=_inline)
        try:
            open_ids = {int(r[0]) for r in await store.db.fetch(
                "SELECT id FROM tables WHERE status IN ('lobby', 'playing')")}
            assert await resumed.load() == len(open_ids) == 3
            for table_id in open_ids:
                table = await resumed.fetch(table_id)
                assert table.status == PLAYING
                assert table.game.plays == [Play.parse(card, captures.split())
                                            for _, card, captures in restored[table_id]]
                await _play_once(resumed, table)  # the restored bot plays on
                assert len(await store.plays(table_id)) == len(restored[table_id]) + 1
        finally:
            await resumed.close()
    finally:
        await store.close()
    with sqlite3.connect(aside[0]) as conn:
        assert conn.execute("SELECT count(*) FROM plays").fetchone()[0] == sum(map(len, final.values())), \
            "the replaced database is kept whole"


@pytest.fixture
async def saved(tmp_path) -> tuple[Path, Path]:
    """A database with one open table (``cuarenta.db``) and a backup of it (``copy.db``)."""
    database = tmp_path / "cuarenta.db"
    store = await Store.open(str(database))
    await store.create_table(guild_id=1, channel_id=2, host_id=3, players=2, preset="quito",
                             seats=[None, None], meta={})
    await store.close()
    copy = tmp_path / "copy.db"
    backup(database, copy)
    return database, copy


def _tables(database: Path) -> int:
    with sqlite3.connect(database) as conn:
        return int(conn.execute("SELECT count(*) FROM tables").fetchone()[0])


def test_a_backup_refuses_an_existing_file_unless_forced(saved):
    database, copy = saved
    copy.write_bytes(b"an older backup")
    with pytest.raises(Refused, match="exists: choose another path, or add --force"):
        backup(database, copy)
    assert copy.read_bytes() == b"an older backup", "nothing written"
    made = backup(database, copy, force=True)
    assert made.contents.open_tables == 1 and made.contents.schema == latest_schema()
    assert made.contents.size == copy.stat().st_size
    assert [p.name for p in copy.parent.iterdir() if p.name.startswith(".")] == [], "no partial file left"


def test_a_backup_refuses_the_database_itself_and_a_directory(saved):
    database, _ = saved
    with pytest.raises(Refused, match="the database itself"):
        backup(database, database, force=True)
    with pytest.raises(Refused, match="is a directory"):
        backup(database, database.parent)


@pytest.mark.parametrize("companion", ["-wal", "-shm", "-journal", ".lock"])
def test_a_forced_backup_never_writes_over_the_databases_own_files(saved, companion):
    """A reviewer's `backup cuarenta.db.lock --force` replaced the running bot's lock (a restore and a second
    bot then ran beside it), and `backup cuarenta.db-wal --force` damaged the live database's log."""
    database, _ = saved
    own = Path(f"{database}{companion}")
    own.write_bytes(b"the bot's own")
    with pytest.raises(Refused, match="one of the database's own files"):
        backup(database, own, force=True)
    assert own.read_bytes() == b"the bot's own", "nothing written"
    assert lock_path(database) == Path(f"{database}.lock")


def test_a_backup_into_a_folder_it_may_not_look_into_names_the_target(saved, capsys, monkeypatch):
    """Outside its folders the bot's user may not even look (``/root``): the answer was the bare
    "[Errno 13] Permission denied: '/root/x.db'"; it is the same one line as a folder it may not write."""
    database, _ = saved
    target = Path("/root/cuarenta-2026-12-05.db")
    real_is_dir = Path.is_dir

    def is_dir(path: Path) -> bool:
        if path == target:
            raise PermissionError(13, "Permission denied", str(path))
        return real_is_dir(path)

    monkeypatch.setattr(Path, "is_dir", is_dir)
    monkeypatch.setenv("DATABASE_PATH", str(database))
    monkeypatch.setenv("DATABASE_URL", "")
    assert entry.main(["backup", str(target)]) == 1
    assert capsys.readouterr().err == f"backup failed: cannot write the backup {target} (in /root): Permission denied\n"


def test_the_commands_refuse_postgresql_and_point_to_pg_dump(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("DATABASE_URL", "postgresql://cuarenta:secret@localhost:5432/cuarenta")
    for command, tool in (("backup", "pg_dump -Fc"), ("restore", "pg_restore")):
        assert entry.main([command, str(tmp_path / "x.db")]) == 2
        out = capsys.readouterr()
        assert out.out == "" and len(out.err.splitlines()) == 1
        assert tool in out.err and "docs/backups.md" in out.err and "secret" not in out.err
    assert list(tmp_path.iterdir()) == []


def test_a_restore_refuses_a_file_that_is_not_a_database(saved, capsys, monkeypatch):
    database, _ = saved
    text = database.parent / "notes.txt"
    text.write_text("not a database at all, but long enough to have a header")
    monkeypatch.setenv("DATABASE_PATH", str(database))
    monkeypatch.setenv("DATABASE_URL", "")
    assert entry.main(["restore", str(text)]) == 2
    err = capsys.readouterr().err
    assert err == f"restore refused: {text} is not a SQLite database\n"
    assert _tables(database) == 1 and not list(database.parent.glob("*.before-restore-*"))


def test_a_restore_refuses_a_sqlite_database_that_is_not_ours(saved):
    database, _ = saved
    other = database.parent / "other.db"
    with sqlite3.connect(other) as conn:
        conn.execute("CREATE TABLE notes (body TEXT)")
        conn.execute("PRAGMA user_version = 3")
    with pytest.raises(Refused, match="not a Cuarenta one"):
        restore(database, other)
    assert _tables(database) == 1 and not list(database.parent.glob("*.before-restore-*"))


def test_a_restore_refuses_a_newer_schema(saved):
    database, copy = saved
    with sqlite3.connect(copy) as conn:
        conn.execute(f"PRAGMA user_version = {latest_schema() + 1}")
    with pytest.raises(Refused, match=f"schema {latest_schema() + 1}, newer than this build knows"):
        restore(database, copy)
    assert not list(database.parent.glob("*.before-restore-*"))


def test_a_restore_refuses_a_damaged_copy(saved):
    database, copy = saved
    with sqlite3.connect(copy) as conn:
        page_size = conn.execute("PRAGMA page_size").fetchone()[0]
        root = conn.execute("SELECT rootpage FROM sqlite_master WHERE name = 'tables'").fetchone()[0]
    conn.close()
    data = bytearray(copy.read_bytes())
    start = (root - 1) * page_size
    data[start:start + 8] = b"\xff" * 8  # the page header of the root of ``tables``
    copy.write_bytes(bytes(data))
    with pytest.raises(Refused, match="damaged|cannot read"):
        restore(database, copy)
    assert _tables(database) == 1 and not list(database.parent.glob("*.before-restore-*"))


def test_a_restore_refuses_while_the_bot_runs(saved, capsys, monkeypatch):
    database, copy = saved
    monkeypatch.setenv("DATABASE_PATH", str(database))
    monkeypatch.setenv("DATABASE_URL", "")
    with bot_running(database):
        assert entry.main(["restore", str(copy)]) == 2
    err = capsys.readouterr().err
    assert err == f"restore refused: the bot is running on {database} (it holds {database}.lock): stop it first\n"
    assert not list(database.parent.glob("*.before-restore-*"))
    assert entry.main(["restore", str(copy)]) == 0, "stopped, it restores"


async def test_a_restore_of_an_older_schema_is_migrated_at_the_next_start(tmp_path):
    old = tmp_path / "old.db"
    store = await Store.open(str(old), schema=12)
    await store.close()
    database = tmp_path / "cuarenta.db"
    done = restore(database, old)
    assert done.set_aside is None, "there was no database to replace"
    assert f"the bot migrates it to schema {latest_schema()} at its next start" in done.line()
    store = await Store.open(str(database))
    assert await store.schema_version() == latest_schema()
    await store.close()


def test_a_restore_over_a_killed_bot_keeps_its_unsaved_wal_in_the_copy_set_aside(saved):
    """A bot killed (SIGKILL) leaves commits in ``<db>-wal`` only. The restore folds them into the
    database it sets aside and leaves no ``-wal`` or ``-shm`` of the old file beside the new one (SQLite
    would replay the old frames into it)."""
    database, copy = saved
    script = (
        "import os, signal, sqlite3, sys\n"
        "conn = sqlite3.connect(sys.argv[1], isolation_level=None)\n"
        "conn.execute('PRAGMA wal_autocheckpoint = 0')\n"
        "for g in range(50):\n"
        "    conn.execute('INSERT INTO guild_settings (guild_id, language) VALUES (?, ?)', (g, 'en'))\n"
        "os.kill(os.getpid(), signal.SIGKILL)\n"
    )
    killed = subprocess.run([sys.executable, "-c", script, str(database)], check=False)
    assert killed.returncode == -signal.SIGKILL
    assert Path(f"{database}-wal").stat().st_size > 0, "the commits are in the WAL only"
    done = restore(database, copy, now=datetime(2026, 12, 5, 8, 30, tzinfo=UTC))
    assert done.set_aside == Path(f"{database}.before-restore-20261205T083000Z")
    assert not Path(f"{database}-wal").exists() and not Path(f"{database}-shm").exists()
    with sqlite3.connect(database) as conn:
        assert conn.execute("SELECT count(*) FROM guild_settings").fetchone()[0] == 0
    with sqlite3.connect(done.set_aside) as conn:
        assert conn.execute("SELECT count(*) FROM guild_settings").fetchone()[0] == 50
    again = restore(database, copy, now=datetime(2026, 12, 5, 8, 30, tzinfo=UTC))
    assert again.set_aside == Path(f"{database}.before-restore-20261205T083000Z-2"), "never overwritten"


def test_a_backup_refuses_when_there_is_no_database(tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("DATABASE_PATH", str(tmp_path / "missing.db"))
    monkeypatch.setenv("DATABASE_URL", "")
    assert entry.main(["backup", str(tmp_path / "copy.db")]) == 2
    assert capsys.readouterr().err == f"backup refused: no database file at {tmp_path / 'missing.db'}\n"
    assert list(tmp_path.iterdir()) == [], "no database created, no copy written"


@pytest.mark.skipif(os.geteuid() != 0, reason="giving a file to another user needs root")
def test_a_restore_run_as_root_leaves_the_database_owned_and_moded_as_the_one_it_replaced(saved):
    database, copy = saved
    os.chown(database, 12345, 12346)
    os.chmod(database, 0o640)
    lock_path(database).unlink(missing_ok=True)
    restore(database, copy)
    for path in (database, lock_path(database)):
        info = path.stat()
        assert (info.st_uid, info.st_gid, info.st_mode & 0o777) == (12345, 12346, 0o640), path
    assert not Path(f"{database}-wal").exists() and not Path(f"{database}-shm").exists()


def test_a_restore_gives_the_restored_file_the_mode_of_the_one_it_replaced(saved):
    database, copy = saved
    os.chmod(database, 0o600)
    os.chmod(copy, 0o644)
    restore(database, copy)
    assert database.stat().st_mode & 0o777 == 0o600


def test_a_backup_into_a_folder_it_cannot_write_names_the_target(saved, capsys, monkeypatch):
    database, _ = saved
    if os.geteuid() == 0:  # root writes any ordinary folder; sysfs refuses even root
        folder = Path("/sys/kernel")
    else:
        folder = database.parent / "locked"
        folder.mkdir(mode=0o500)
    target = folder / "cuarenta-2026-12-05.db"
    monkeypatch.setenv("DATABASE_PATH", str(database))
    monkeypatch.setenv("DATABASE_URL", "")
    assert entry.main(["backup", str(target)]) == 1
    err = capsys.readouterr().err
    assert err == f"backup failed: cannot write the backup {target} (in {folder}): Permission denied\n"
    assert not target.exists()
