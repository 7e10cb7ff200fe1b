"""``python -m bot`` as a real process, as a service runs it: against a fake Discord
(`tests.support.fake_gateway`), it logs in, connects to the gateway (READY), keeps its database where
DATABASE_PATH or DATABASE_URL says, writes its log without colour codes when stderr is not a terminal, and
exits 0 on SIGTERM. The container image is checked the same way by ``scripts/container-check``
(`test_container_check_passes`, slow, only where podman runs).
"""

from __future__ import annotations

import asyncio
import io
import logging
import os
import shutil
import signal
import subprocess
import sys
from pathlib import Path

import pytest

import bot.__main__ as entry
from tests.support.fake_gateway import FakeGateway

ROOT = Path(__file__).resolve().parent.parent
CONNECTED = "has connected to Gateway"
"""discord.py's INFO line (logger ``discord.gateway``) once READY arrived."""
WAIT = 90.0
"""Seconds a step may take before the test gives up (a guard against hanging, not a measure)."""


def bot_env(fake: FakeGateway, database: str) -> dict[str, str]:
    """The process environment: this machine's, with every setting the bot reads given explicitly (so a
    developer's `.env` fills in nothing: python-dotenv does not override a variable that is set)."""
    env = dict(os.environ)
    env.update(DISCORD_TOKEN="process.test.token", DISCORD_API_BASE=fake.api_base, DISCORD_GUILD_ID="",
               LOG_LEVEL="INFO", AI_WORKERS="0", PICTURE_WORKERS="0", SHARD_IDS="", SHARD_COUNT="",
               DISCORD_MEMBERS_INTENT="0", METRICS_PORT="")
    if database.startswith("postgresql://"):
        env.update(DATABASE_URL=database, DATABASE_PATH="")
    else:
        env.update(DATABASE_URL="", DATABASE_PATH=database)
    env.pop("NO_COLOR", None)
    return env


async def read_until(stream: asyncio.StreamReader, text: str, seen: list[str]) -> None:
    """Read lines from ``stream`` into ``seen`` until one contains ``text``; EOFError at the end of it."""
    while True:
        line = await stream.readline()
        if not line:
            raise EOFError(f"the bot's log ended before {text!r}:\n" + "".join(seen))
        seen.append(line.decode(errors="replace"))
        if text in seen[-1]:
            return


async def test_the_bot_process_connects_to_the_gateway_and_stops_on_sigterm(database_url, tmp_path):
    fake = FakeGateway()
    await fake.start()
    proc = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "bot", cwd=tmp_path, env=bot_env(fake, database_url),
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.STDOUT)
    seen: list[str] = []
    try:
        assert proc.stdout is not None
        await asyncio.wait_for(read_until(proc.stdout, CONNECTED, seen), WAIT)
        assert fake.identifies and fake.identifies[0]["token"] == "process.test.token"
        assert fake.identifies[0]["shard"] == [0, 1]
        proc.send_signal(signal.SIGTERM)
        rest, _ = await asyncio.wait_for(proc.communicate(), WAIT)
        seen.append(rest.decode(errors="replace"))
    finally:
        if proc.returncode is None:
            proc.kill()
            await proc.wait()
        await fake.stop()
    log = "".join(seen)
    assert proc.returncode == 0, log
    assert "signal received: closing" in log
    assert "\x1b" not in log, "colour codes in a log written to a pipe"
    assert not fake.unknown, f"the bot asked routes the fake does not serve: {dict(fake.unknown)}"
    if not database_url.startswith("postgresql://"):
        assert Path(database_url).stat().st_size > 0
        assert not (tmp_path / "cuarenta.db").exists()  # DATABASE_PATH, not the working directory


class _Stream(io.StringIO):
    def __init__(self, tty: bool) -> None:
        super().__init__()
        self._tty = tty

    def isatty(self) -> bool:
        return self._tty


def test_log_lines_are_plain_unless_stderr_is_a_terminal_without_no_color():
    record = logging.LogRecord("bot", logging.INFO, __file__, 1, "ready", None, None)
    for stream, environ in ((_Stream(False), {}), (_Stream(True), {"NO_COLOR": "1"}), (object(), {})):
        formatter = entry.log_formatter(stream, environ)
        assert formatter is not None
        line = formatter.format(record)
        assert "\x1b" not in line and line.endswith(" INFO     bot ready")
    assert entry.log_formatter(_Stream(True), {}) is None  # discord.py's colours, on a terminal only
    assert entry.log_formatter(_Stream(True), {"NO_COLOR": ""}) is None  # NO_COLOR counts when not empty


def _podman_runs() -> str:
    """Why the container check cannot run here, or "" when podman is installed and runs a container."""
    if shutil.which("podman") is None:
        return "podman is not installed"
    conf = Path(os.environ.get("TMPDIR", "/tmp")) / "container-base" / "containers.conf"
    env = dict(os.environ, **({"CONTAINERS_CONF": str(conf)} if conf.is_file() else {}))
    probe = subprocess.run(["podman", "run", "--rm", "--network", "none",
                            "docker.io/library/python:3.11-slim-bookworm", "true"],
                           capture_output=True, text=True, env=env, timeout=120)
    return "" if probe.returncode == 0 else f"podman cannot run a container here: {probe.stderr.strip()[-200:]}"


@pytest.mark.slow
def test_container_check_passes():
    why = _podman_runs()
    if why:
        pytest.skip(why)
    done = subprocess.run([str(ROOT / "scripts" / "container-check")], capture_output=True, text=True,
                          timeout=600)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "container-check: PASS" in done.stdout, done.stdout
