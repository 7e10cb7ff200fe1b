"""Settings from the environment and the command line entry point."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.__main__ import main
from bot.app import PERMISSIONS, invite_url
from bot.config import ConfigError, Settings, project_dir


def test_settings_defaults_and_values():
    home = project_dir()
    s = Settings.from_env({})
    assert (s.token, s.database_path, s.guild_id, s.log_level) == ("", str(home / "cuarenta.db"), None, "INFO")
    assert s.startup_retry_seconds == 60
    s = Settings.from_env({"DISCORD_TOKEN": " t ", "DATABASE_PATH": "x.db", "DISCORD_GUILD_ID": "123",
                           "LOG_LEVEL": "debug", "STARTUP_RETRY_SECONDS": "5"})
    assert (s.token, s.database_path, s.guild_id, s.log_level) == ("t", str(home / "x.db"), 123, "DEBUG")
    assert s.startup_retry_seconds == 5
    assert Settings.from_env({"DATABASE_PATH": "/srv/c.db"}).database_path == "/srv/c.db"
    assert Settings.from_env({"DATABASE_PATH": ":memory:"}).database_path == ":memory:"


def test_the_sqlite_file_goes_beside_env_not_in_the_current_directory(tmp_path, monkeypatch):
    """The project directory is where `.env` is found from the code, else the code's root; the start
    directory never counts (a service started in / must not put its database there)."""
    from bot import config

    code = tmp_path / "project" / "bot"
    code.mkdir(parents=True)
    assert config.find_dotenv(code) is None
    (tmp_path / "project" / ".env").write_text("DISCORD_TOKEN=x\n")
    assert config.find_dotenv(code) == tmp_path / "project" / ".env"
    assert config.project_dir(code) == tmp_path / "project"
    assert config.database_file("", config.project_dir(code)) == str(tmp_path / "project" / "cuarenta.db")
    assert config.database_file("data/c.db", tmp_path / "project") == str(tmp_path / "project" / "data" / "c.db")
    monkeypatch.chdir(tmp_path)
    assert Settings.from_env({}).database_path == str(project_dir() / "cuarenta.db")
    assert project_dir() in (Path(config.__file__).resolve().parents[1], *Path(config.__file__).resolve().parents)


def test_bad_settings_are_refused():
    with pytest.raises(ConfigError):
        Settings.from_env({"DISCORD_GUILD_ID": "abc"})
    with pytest.raises(ConfigError):
        Settings.from_env({"LOG_LEVEL": "LOUD"})
    with pytest.raises(ConfigError, match="LOG_LEVEL must be DEBUG, INFO, WARNING or ERROR"):
        Settings.from_env({"LOG_LEVEL": "CRITICAL"})  # above ERROR a failed start would print nothing
    for bad in ("-1", "1.5", "soon", "3601"):
        with pytest.raises(ConfigError, match="STARTUP_RETRY_SECONDS"):
            Settings.from_env({"STARTUP_RETRY_SECONDS": bad})


def test_log_level_critical_is_a_configuration_error_with_exit_code_2(monkeypatch, capsys):
    monkeypatch.setenv("DISCORD_TOKEN", "t")
    monkeypatch.setenv("LOG_LEVEL", "CRITICAL")
    assert main([]) == 2
    err = capsys.readouterr().err
    assert err.startswith("configuration error: LOG_LEVEL") and err.count("\n") == 1


def test_main_refuses_unknown_commands_and_an_empty_token(monkeypatch, capsys):
    assert main(["dance"]) == 2
    monkeypatch.setenv("DISCORD_TOKEN", "")
    monkeypatch.chdir("/")
    assert main([]) == 2
    assert "DISCORD_TOKEN" in capsys.readouterr().err


def test_invite_url_asks_for_bot_and_commands_scopes():
    url = invite_url(42)
    assert "client_id=42" in url and "scope=bot+applications.commands" in url
    assert f"permissions={PERMISSIONS.value}" in url


async def test_sigterm_closes_the_bot_and_the_database(tmp_path, monkeypatch):
    import asyncio
    import os
    import signal

    from bot import __main__ as entry
    from bot.app import CuarentaBot

    started = asyncio.Event()
    seen: list[CuarentaBot] = []

    async def fake_login(self, token):  # no Discord: open everything
        await self.setup_hook()

    async def fake_check(settings):  # Discord answers
        return None

    async def fake_connect(self, *, reconnect=True):  # then idle
        seen.append(self)
        started.set()
        while not self.is_closed():
            await asyncio.sleep(0.01)

    from bot import heap

    monkeypatch.setattr(CuarentaBot, "login", fake_login)
    monkeypatch.setattr(CuarentaBot, "connect", fake_connect)
    monkeypatch.setattr(heap, "settle", lambda: 0)  # not in the test session's process (bot/heap.py)
    monkeypatch.setattr(entry.startup, "check_discord", fake_check)
    settings = Settings(token="t", database_path=str(tmp_path / "sig.db"))
    task = asyncio.create_task(entry.run(settings, "run"))
    await asyncio.wait_for(started.wait(), 5)
    os.kill(os.getpid(), signal.SIGTERM)
    assert await asyncio.wait_for(task, 5) == 0
    bot = seen[0]
    assert bot.is_closed()
    assert not bot._store_open, "the database connection was closed"


async def test_sync_mode_builds_the_commands_without_a_database(tmp_path):
    from bot.app import CuarentaBot

    bot = CuarentaBot(Settings(token="t", database_path=str(tmp_path / "never.db")), sync_only=True)
    async with bot:
        await bot.setup_hook()
        names = [c.name for c in bot.tree.get_commands()]
        assert names == ["cuarenta"]
        assert not (tmp_path / "never.db").exists()


def _readme_commands() -> list[str]:
    from pathlib import Path

    text = (Path(__file__).resolve().parents[1] / "README.md").read_text(encoding="utf-8")
    return [line for line in text.splitlines() if line.startswith("python3 -m venv")]


def test_the_readme_commands_work_from_any_fresh_shell():
    """Each command names the venv's interpreter, so a new terminal with no venv
    active neither installs into the system Python nor trips over PEP 668; CI runs command 2 as written."""
    from pathlib import Path

    commands = _readme_commands()
    assert len(commands) == 4, "two commands, in Spanish and in English"
    for command in commands:
        steps = [s.strip() for s in command.split("&&")]
        assert steps[0] == "python3 -m venv .venv"
        assert all(s.startswith(".venv/bin/") for s in steps[1:]), command
        assert "activate" not in command
    ci = (Path(__file__).resolve().parents[1] / ".ci" / "run").read_text(encoding="utf-8")
    assert commands[1] in ci.splitlines(), "CI runs the README's test command verbatim"


def test_building_the_bot_prints_no_voice_warnings(caplog, tmp_path):
    import logging

    import discord

    from bot.app import CuarentaBot

    discord.VoiceClient.warn_nacl = discord.VoiceClient.warn_dave = True
    caplog.set_level(logging.WARNING, logger="discord")
    CuarentaBot(Settings(token="t", database_path=str(tmp_path / "x.db")))
    assert not [r for r in caplog.records if "voice" in r.getMessage()]


def test_the_bot_subscribes_to_the_smallest_set_of_intents():
    """Guilds only (plus the opt-in members intent): no message, typing, reaction or presence events."""
    import discord

    from bot.app import CuarentaBot
    from bot.config import Settings

    bot = CuarentaBot(Settings(token="x", database_path=":memory:"))
    expected = discord.Intents.none()
    expected.guilds = True
    assert bot.intents == expected
    with_members = CuarentaBot(Settings(token="x", database_path=":memory:"), members_intent=True)
    assert with_members.intents.members and not with_members.intents.guild_messages


def test_the_shard_count_comes_from_discord():
    """No pinned shard_count: AutoShardedBot asks Discord (GET /gateway/bot), so a bot past 2,500 guilds
    is not refused with close code 4011."""
    from bot.app import CuarentaBot
    from bot.config import Settings

    assert CuarentaBot(Settings(token="x", database_path=":memory:")).shard_count is None


def test_a_process_runs_the_range_of_shards_it_is_given():
    """SHARD_IDS and SHARD_COUNT (docs/SCALING.md): ids and ranges, sorted and once each, passed to
    AutoShardedBot with the same count in every process."""
    from bot.app import CuarentaBot

    pg = {"DATABASE_URL": "postgresql://u@h/db"}
    assert Settings.from_env({**pg, "SHARD_IDS": "0", "SHARD_COUNT": "8"}).shard_ids == (0,)
    s = Settings.from_env({**pg, "SHARD_IDS": " 4-6, 1 ,5,2-2 ", "SHARD_COUNT": "8"})
    assert (s.shard_ids, s.shard_count) == ((1, 2, 4, 5, 6), 8)
    bot = CuarentaBot(s)
    assert (bot.shard_ids, bot.shard_count) == ([1, 2, 4, 5, 6], 8)
    every = Settings.from_env({"SHARD_IDS": "0-3", "SHARD_COUNT": "4"})  # every shard: SQLite will do
    assert (every.shard_ids, every.shard_count) == ((0, 1, 2, 3), 4)
    unset = Settings.from_env({"SHARD_IDS": " ", "SHARD_COUNT": ""})
    assert (unset.shard_ids, unset.shard_count) == (None, None)
    assert CuarentaBot(unset).shard_ids is None


@pytest.mark.parametrize("env, says", [
    ({"SHARD_IDS": "0-3"}, "go together"),
    ({"SHARD_COUNT": "4"}, "go together"),
    ({"SHARD_IDS": "0", "SHARD_COUNT": "0"}, "from 1"),
    ({"SHARD_IDS": "0", "SHARD_COUNT": "four"}, "from 1"),
    ({"SHARD_IDS": "a", "SHARD_COUNT": "4"}, "ranges such as"),
    ({"SHARD_IDS": "3-1", "SHARD_COUNT": "4"}, "ranges such as"),
    ({"SHARD_IDS": "1,,2", "SHARD_COUNT": "4"}, "ranges such as"),
    ({"SHARD_IDS": "-1", "SHARD_COUNT": "4"}, "ranges such as"),
    ({"SHARD_IDS": "2-4", "SHARD_COUNT": "4"}, "numbered 0 to 3"),
    ({"SHARD_IDS": "1-3", "SHARD_COUNT": "4"}, "DATABASE_URL"),
])
def test_a_bad_range_of_shards_is_refused_and_says_why(env, says):
    with pytest.raises(ConfigError, match=says):
        Settings.from_env(env)


def test_a_process_runs_the_servers_of_its_shards_only():
    """Discord puts server ``g`` on shard ``(g >> 22) % SHARD_COUNT``; a process that runs every shard runs
    every server (`Settings.runs_guild`, which a restart uses to resume only its own tables)."""
    some = Settings.from_env({"SHARD_IDS": "0,2", "SHARD_COUNT": "4", "DATABASE_URL": "postgresql://db/x"},
                             load_dotenv_file=False)
    assert [some.runs_guild(shard << 22) for shard in range(4)] == [True, False, True, False]
    assert some.runs_guild((5 << 22) + 12345) is False and some.runs_guild(6 << 22) is True
    every = Settings.from_env({}, load_dotenv_file=False)
    assert every.runs_guild(1 << 22) and every.runs_guild(3 << 22)


async def test_a_restarted_bot_resumes_the_open_tables_of_its_own_shards_only(world, make_bot):
    """`CuarentaBot.setup_hook` gives the table service its settings' `runs_guild`: a process restarted
    with shards that leave out the server's resumes none of its tables (another process runs it), and one
    restarted with the server's shard resumes them."""
    import dataclasses

    await world.ana.slash(world.channel, "cuarenta new", players=2)
    assert 1 in world.bot.tables.tables
    shard = (world.guild.id >> 22) % 2

    for runs, resumed in (((1 - shard,), False), ((shard,), True)):
        bot = make_bot()
        bot.settings = dataclasses.replace(bot.settings, shard_ids=runs, shard_count=2)
        await world.env.restart_bot(bot)
        assert bot.tables.serves_guild(world.guild.id) is resumed
        assert (1 in bot.tables.tables) is resumed, f"shards {runs}: table #1 resumed should be {resumed}"
    assert world.env.errors == []


def test_the_discord_api_base_defaults_to_discord_and_can_point_at_a_fake(monkeypatch):
    assert Settings.from_env({}).discord_api_base == "https://discord.com/api/v10"
    s = Settings.from_env({"DISCORD_API_BASE": " http://127.0.0.1:8123/api/v10/ "})
    assert s.discord_api_base == "http://127.0.0.1:8123/api/v10"
    for bad in ("127.0.0.1:8123", "ftp://x", "https://"):
        with pytest.raises(ConfigError, match="DISCORD_API_BASE"):
            Settings.from_env({"DISCORD_API_BASE": bad})


def test_the_bot_sends_its_requests_to_the_discord_api_base(monkeypatch):
    import discord

    from bot import __main__ as entry
    from bot.app import CuarentaBot

    monkeypatch.setattr(discord.http.Route, "BASE", discord.http.Route.BASE)
    seen: list[str] = []

    async def fake_login(self, token):  # the first request the bot would make
        seen.append(discord.http.Route("GET", "/users/@me").url)
        raise discord.LoginFailure("no")

    async def fake_check(settings):  # Discord answers
        return None

    monkeypatch.setattr(CuarentaBot, "login", fake_login)
    monkeypatch.setattr(entry.startup, "check_discord", fake_check)
    settings = Settings(token="t", discord_api_base="http://127.0.0.1:9/api/v10", database_path=":memory:")
    assert entry.event_loop.run(entry.run(settings, "run")) != 0
    assert seen == ["http://127.0.0.1:9/api/v10/users/@me"]


def test_the_metrics_port_is_off_unless_set_and_must_be_a_port():
    s = Settings.from_env({})
    assert (s.metrics_port, s.metrics_host) == (None, "127.0.0.1")
    s = Settings.from_env({"METRICS_PORT": " 9464 ", "METRICS_HOST": "0.0.0.0"})
    assert (s.metrics_port, s.metrics_host) == (9464, "0.0.0.0")
    assert Settings.from_env({"METRICS_PORT": "0"}).metrics_port == 0, "0: any free port"
    for bad in ("http", "-1", "65536", "94 64"):
        with pytest.raises(ConfigError, match="METRICS_PORT"):
            Settings.from_env({"METRICS_PORT": bad})


def test_the_days_before_a_left_servers_data_is_pruned_default_to_30_and_must_be_whole_days():
    assert Settings.from_env({}).prune_days_after_leave == 30
    assert Settings.from_env({"PRUNE_DAYS_AFTER_LEAVE": " 7 "}).prune_days_after_leave == 7
    for bad in ("0", "-3", "1.5", "forever", "3651"):
        with pytest.raises(ConfigError, match="PRUNE_DAYS_AFTER_LEAVE"):
            Settings.from_env({"PRUNE_DAYS_AFTER_LEAVE": bad})


def test_the_web_base_url_is_empty_unless_set_and_must_be_a_web_address():
    assert Settings.from_env({}).web_base_url == ""
    assert Settings.from_env({"WEB_BASE_URL": " https://cuarenta.example.org/ "}).web_base_url == \
        "https://cuarenta.example.org"
    for bad in ("cuarenta.example.org", "ftp://x", "https://"):
        with pytest.raises(ConfigError, match="WEB_BASE_URL"):
            Settings.from_env({"WEB_BASE_URL": bad})
