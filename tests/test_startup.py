"""``python -m bot``'s start, run as a host runs it (a subprocess with a controlled environment): each failure
names its cause in one ERROR line without a traceback and exits non-zero; transient ones are tried again
(the window kept short here by STARTUP_RETRY_SECONDS); unsafe set-ups are refused; one INFO line says what
the bot starts on."""

from __future__ import annotations

import asyncio
import contextlib
import importlib.metadata
import json
import logging
import os
import re
import signal
import socket
import sqlite3
import sys
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest
from aiohttp import web

from bot.store import Store, migrations

ROOT = Path(__file__).resolve().parents[1]


@contextlib.contextmanager
def closed_port() -> Iterator[int]:
    """A local TCP port bound but not listening, for the test's length: a connection to it is refused."""
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    try:
        yield sock.getsockname()[1]
    finally:
        sock.close()


@contextlib.asynccontextmanager
async def fake_discord(status: int) -> AsyncIterator[tuple[str, list[str]]]:
    """A tiny Discord answering ``status`` to ``GET /api/v10/users/@me``: ``(its API base, the paths asked)``."""
    asked: list[str] = []

    async def me(request: web.Request) -> web.Response:
        asked.append(request.path)
        return web.json_response({"message": "401: Unauthorized", "code": 0}, status=status)

    app = web.Application()
    app.router.add_get("/api/v10/users/@me", me)
    runner = web.AppRunner(app)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    port = runner.addresses[0][1]
    try:
        yield f"http://127.0.0.1:{port}/api/v10", asked
    finally:
        await runner.cleanup()


def environment(tmp_path: Path, discord_port: int, **settings: str) -> dict[str, str]:
    """Every setting given (a `.env` found beside the code fills nothing in: python-dotenv never overrides a
    variable that is set, even empty)."""
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": str(tmp_path), "PYTHONPATH": str(ROOT),
           "DISCORD_TOKEN": "token", "DATABASE_URL": "", "DATABASE_PATH": str(tmp_path / "cuarenta.db"),
           "DISCORD_GUILD_ID": "", "LOG_LEVEL": "INFO", "DISCORD_MEMBERS_INTENT": "", "AI_WORKERS": "0",
           "PICTURE_WORKERS": "0", "SHARD_IDS": "", "SHARD_COUNT": "", "STARTUP_RETRY_SECONDS": "0",
           "DISCORD_API_BASE": f"http://127.0.0.1:{discord_port}/api/v10"}
    return env | settings


async def start(env: dict[str, str], cwd: Path) -> asyncio.subprocess.Process:
    return await asyncio.create_subprocess_exec(sys.executable, "-m", "bot", cwd=cwd, env=env,
                                                stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE)


async def run_bot(env: dict[str, str], cwd: Path) -> tuple[int, str]:
    """Run the bot to its end: ``(exit code, what it printed on stderr, colour codes dropped)``."""
    process = await start(env, cwd)
    _out, err = await asyncio.wait_for(process.communicate(), 120)
    assert process.returncode is not None
    return process.returncode, re.sub(r"\x1b\[[0-9;]*m", "", err.decode())


def the_error(stderr: str) -> str:
    """The one ERROR line of a failed start (and no traceback)."""
    assert "Traceback" not in stderr, stderr
    errors = [line for line in stderr.splitlines() if " ERROR " in line or line.startswith("ERROR")]
    assert len(errors) == 1, stderr
    return errors[0]


async def test_discord_unreachable_is_tried_again_then_named_with_its_host(tmp_path):
    with closed_port() as port:
        code, err = await run_bot(environment(tmp_path, port, STARTUP_RETRY_SECONDS="1"), tmp_path)
    assert code == 1
    assert f"cannot reach Discord at 127.0.0.1:{port}: Connection refused" in the_error(err)
    assert "trying again in 1 s" in err, "a transient failure is tried again, each retry one line"


async def test_a_refused_token_fails_at_once_and_says_so(tmp_path):
    async with fake_discord(401) as (api, asked):
        code, err = await run_bot(environment(tmp_path, 0, DISCORD_API_BASE=api, STARTUP_RETRY_SECONDS="60"),
                                  tmp_path)
    assert code == 2, "a refused token is the host's to fix: no restart loop"
    assert "DISCORD_TOKEN was refused by Discord" in the_error(err)
    assert asked == ["/api/v10/users/@me"], "asked the Discord it was given, once: a refusal is not tried again"
    assert "trying again" not in err


async def test_postgresql_down_is_named_with_host_and_port_never_the_password_nor_discord(tmp_path):
    with closed_port() as db_port, closed_port() as discord_port:
        url = f"postgresql://cuarenta:s3cretpw@127.0.0.1:{db_port}/cuarenta"
        code, err = await run_bot(environment(tmp_path, discord_port, DATABASE_URL=url, STARTUP_RETRY_SECONDS="1"),
                                  tmp_path)
    assert code == 1
    line = the_error(err)
    assert f"cannot reach PostgreSQL at 127.0.0.1:{db_port}" in line
    assert "Discord" not in line, "the database was down, not Discord"
    assert "trying again" in err
    assert "s3cretpw" not in err


async def test_a_missing_postgresql_database_is_named_and_not_tried_again(tmp_path, postgres_url):
    url = postgres_url.rpartition("/")[0] + "/cuarenta_no_such_database"
    with closed_port() as discord_port:
        code, err = await run_bot(environment(tmp_path, discord_port, DATABASE_URL=url, STARTUP_RETRY_SECONDS="60"),
                                  tmp_path)
    assert code == 2, "restarting does not create the database"
    assert "PostgreSQL database 'cuarenta_no_such_database' does not exist" in the_error(err)
    assert "trying again" not in err


async def test_an_unwritable_sqlite_path_is_named(tmp_path):
    (tmp_path / "a-file").write_text("not a directory")
    path = tmp_path / "a-file" / "cuarenta.db"  # refused even to root: a file's path cannot hold a file
    with closed_port() as discord_port:
        code, err = await run_bot(environment(tmp_path, discord_port, DATABASE_PATH=str(path),
                                              STARTUP_RETRY_SECONDS="60"), tmp_path)
    assert code == 2, "restarting does not make the path writable"
    assert f"cannot write the SQLite database at {path}" in the_error(err)
    assert "trying again" not in err


def test_a_lock_file_the_bot_cannot_open_is_named_and_is_for_the_host_to_fix(tmp_path):
    from bot import startup

    database = tmp_path / "cuarenta.db"
    (tmp_path / "cuarenta.db.lock").mkdir()  # cannot be opened for writing, even by root
    lock = startup.SqliteLock(str(database))
    with pytest.raises(startup.StartupError) as caught:
        lock.acquire()
    assert str(caught.value).startswith(f"cannot write the SQLite database at {database}: cannot open its lock "
                                        f"file {database}.lock for writing: Is a directory")
    assert caught.value.exit_code == 2 and not caught.value.transient


async def test_a_second_process_on_one_sqlite_file_is_refused_until_the_first_is_gone(tmp_path):
    with closed_port() as discord_port:
        env = environment(tmp_path, discord_port, STARTUP_RETRY_SECONDS="120")
        first = await start(env, tmp_path)  # holds the file while it waits for Discord
        assert first.stderr is not None
        seen = b""
        while b"trying again" not in seen:
            line = await asyncio.wait_for(first.stderr.readline(), 60)
            assert line, seen.decode()
            seen += line
        try:
            code, err = await run_bot(environment(tmp_path, discord_port), tmp_path)
            assert code == 1
            assert (f"another bot process (pid {first.pid}) is using the SQLite database "
                    f"{tmp_path / 'cuarenta.db'}") in the_error(err)
        finally:
            first.send_signal(signal.SIGKILL)  # a killed bot leaves no lock behind
            await first.wait()
        code, err = await run_bot(environment(tmp_path, discord_port), tmp_path)
    assert code == 1
    assert "cannot reach Discord" in the_error(err), "the file is free again"


async def test_a_database_from_a_newer_build_is_refused(tmp_path, database_url):
    store = await Store.open(database_url)
    newest = migrations()[-1][0]
    await store._set_version(newest + 5)
    await store.close()
    setting = {"DATABASE_URL": database_url} if database_url.startswith("postgresql") else {
        "DATABASE_PATH": database_url}
    with closed_port() as discord_port:
        code, err = await run_bot(environment(tmp_path, discord_port, **setting), tmp_path)
    assert code == 2, "restarting does not make the build newer"
    line = the_error(err)
    assert f"schema version {newest + 5}" in line and f"knows only up to {newest}" in line
    assert "upgrade the bot" in line


async def test_the_start_line_tells_version_database_schema_and_migrations(tmp_path):
    path = tmp_path / "data" / "cuarenta.db"
    path.parent.mkdir()
    newest = migrations()[-1]
    with closed_port() as discord_port:
        env = environment(tmp_path, discord_port, DATABASE_PATH=str(path))
        _code, first = await run_bot(env, tmp_path)
        _code, second = await run_bot(env, tmp_path)
    starts = [line for err in (first, second) for line in err.splitlines() if "starting:" in line]
    assert len(starts) == 2, (first, second)
    for line in starts:
        assert " INFO " in line
        assert f"Cuarenta {importlib.metadata.version('cuarenta-bot')} starting: database sqlite {path}, schema version {newest[0]}" in line
    assert starts[0].endswith("migrations applied on this start: " + ", ".join(p.stem for _n, p in migrations()))
    assert starts[1].endswith("migrations applied on this start: none")


async def test_an_older_schema_is_migrated_and_the_start_line_lists_what_ran(tmp_path):
    path = tmp_path / "old.db"
    newest = migrations()[-1]
    store = await Store.open(str(path), schema=newest[0] - 2)
    await store.close()
    with closed_port() as discord_port:
        _code, err = await run_bot(environment(tmp_path, discord_port, DATABASE_PATH=str(path)), tmp_path)
    applied = ", ".join(p.stem for _n, p in migrations()[-2:])
    assert f"migrations applied on this start: {applied}" in err
    with sqlite3.connect(path) as conn:
        assert conn.execute("PRAGMA user_version").fetchone()[0] == newest[0]


async def test_a_transient_failure_is_tried_again_each_retry_one_line(monkeypatch, caplog):
    from bot import startup

    monkeypatch.setattr(startup, "FIRST_WAIT", 0.01)
    failures = [ConnectionRefusedError(111, "refused"), TimeoutError()]

    async def attempt() -> str:
        if failures:
            raise failures.pop(0)
        return "open"

    def failure(exc: BaseException) -> startup.StartupError:
        return startup.StartupError(f"cannot reach it: {startup._reason(exc)}", transient=True)

    caplog.set_level(logging.WARNING, logger="bot")
    assert await startup.retrying(attempt, failure, seconds=600, stopping=asyncio.Event()) == "open"
    assert [r.getMessage().split(";")[0] for r in caplog.records] == [
        "cannot reach it: Connection refused", "cannot reach it: timed out"]


async def test_a_lasting_failure_is_not_tried_again_and_an_unknown_one_goes_up_as_it_is():
    from bot import startup

    calls: list[int] = []

    async def refused() -> None:
        calls.append(1)
        raise PermissionError(13, "no")

    with pytest.raises(startup.StartupError, match="for good"):
        await startup.retrying(refused, lambda exc: startup.StartupError("for good"), seconds=600,
                               stopping=asyncio.Event())
    assert calls == [1]
    with pytest.raises(PermissionError):
        await startup.retrying(refused, lambda exc: None, seconds=600, stopping=asyncio.Event())


def test_the_database_is_named_without_its_password():
    from bot.config import Settings
    from bot.startup import database_label

    assert database_label(Settings(database_url="postgresql://bot:s3cret@db.example:6543/cuarenta")) == \
        "postgresql db.example:6543/cuarenta"
    assert database_label(Settings(database_url="postgresql://bot:s3cret@db")) == "postgresql db:5432/bot"
    assert database_label(Settings(database_path="/srv/cuarenta.db")) == "sqlite /srv/cuarenta.db"


async def test_a_metrics_port_in_use_is_named_in_one_line(tmp_path):
    """METRICS_PORT taken by another program: the start ends with one line naming the address, no traceback."""
    user = {"id": "1", "username": "cuarenta", "discriminator": "0", "global_name": None, "avatar": None,
            "bot": True}

    async def me(request: web.Request) -> web.Response:  # discord.py reads JSON only under this exact type
        return web.Response(body=json.dumps(user).encode(), headers={"Content-Type": "application/json"})

    async def application(request: web.Request) -> web.Response:
        data = {"id": "1", "name": "Cuarenta", "icon": None, "description": "", "verify_key": "0",
                "bot_public": True, "bot_require_code_grant": False, "flags": 0, "owner": user}
        return web.Response(body=json.dumps(data).encode(), headers={"Content-Type": "application/json"})

    app = web.Application()
    app.router.add_get("/api/v10/users/@me", me)
    app.router.add_get("/api/v10/oauth2/applications/@me", application)
    app.router.add_get("/api/v10/applications/@me", application)
    runner = web.AppRunner(app)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    api = f"http://127.0.0.1:{runner.addresses[0][1]}/api/v10"
    taken = socket.socket()
    taken.bind(("127.0.0.1", 0))
    taken.listen()
    port = taken.getsockname()[1]
    try:
        code, err = await run_bot(environment(tmp_path, 0, DISCORD_API_BASE=api, METRICS_PORT=str(port)), tmp_path)
    finally:
        taken.close()
        await runner.cleanup()
    assert code == 1
    assert f"METRICS_PORT: cannot listen on 127.0.0.1:{port}" in the_error(err)
