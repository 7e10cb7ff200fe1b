"""The bot's computer players think in worker processes: the ``AI_WORKERS`` setting,
the bot's default offload, and a mesa against a computer played through SimCord with it."""

from __future__ import annotations

import pytest

from bot.ai import player_for, rng_for
from bot.app import CuarentaBot
from bot.config import ConfigError, Settings
from bot.engine import Game, Play, Rules
from bot.tables.workers import OffloadClosedError, ProcessOffload
from tests.support.helpers import REAL_PROCESS_SETTLE, pick_play, play_through_ui, table_of


def test_ai_workers_is_read_from_the_environment():
    assert Settings().ai_workers == 2
    assert Settings.from_env({}).ai_workers == 2
    assert Settings.from_env({"AI_WORKERS": " "}).ai_workers == 2
    assert Settings.from_env({"AI_WORKERS": "0"}).ai_workers == 0
    assert Settings.from_env({"AI_WORKERS": " 4 "}).ai_workers == 4
    for bad in ("-1", "two", "1.5", "65"):
        with pytest.raises(ConfigError, match="AI_WORKERS"):
            Settings.from_env({"AI_WORKERS": bad})


async def test_the_bot_offloads_to_worker_processes_unless_told_otherwise(tmp_path):
    db = str(tmp_path / "w.db")
    bot = CuarentaBot(Settings(token="t", database_path=db), card_emojis=False)
    assert isinstance(bot.ai_offload, ProcessOffload) and bot.ai_offload.max_workers == 2
    assert bot._offload is bot.ai_offload and not bot.ai_offload.started, "no process before a move"
    async with bot:  # leaving closes the bot
        await bot.setup_hook()
        assert bot.tables.offload is bot.ai_offload
        assert await bot.tables.offload(sum, (1, 2)) == 3 and bot.ai_offload.calls == 1
    assert bot.is_closed() and bot.ai_offload.closed and not bot.ai_offload.started
    with pytest.raises(OffloadClosedError):
        await bot.ai_offload(sum, (1, 2))

    threads = CuarentaBot(Settings(token="t", database_path=db, ai_workers=0))
    assert threads.ai_offload is None and threads._offload is None, "the service then uses asyncio.to_thread"

    async def inline(fn, *args):
        return fn(*args)

    given = CuarentaBot(Settings(token="t", database_path=db, ai_workers=3), offload=inline)
    assert given.ai_offload is None and given._offload is inline
    assert CuarentaBot(Settings(token="t", database_path=db), sync_only=True).ai_offload is None


@pytest.fixture
def simcord_bot(make_bot):
    return make_bot(ai_workers=1)


@pytest.mark.parametrize("level", ["medio", "dificil"])
async def test_a_mesa_against_a_computer_thinking_in_a_worker_process(world, level):
    world.env.settle_timeout = REAL_PROCESS_SETTLE
    bot = world.bot
    assert isinstance(bot.ai_offload, ProcessOffload) and bot.tables.offload is bot.ai_offload
    await world.ana.slash(world.channel, "cuarenta new", players=2, rules="quito")
    await world.ana.select(world.channel.last_message, [level], custom_id="c4:v:1")
    table = table_of(world, 1)
    assert table.status == "playing" and table.seats[1].ai == level
    for _ in range(40):
        if bot.ai_offload.calls >= 4:
            break
        seat, play = pick_play(table)
        assert not table.seats[seat].is_ai, "SimCord settles once the worker has answered: ana's turn"
        await play_through_ui(world.ana, table, play)
    assert bot.ai_offload.calls >= 4 and bot.ai_offload.fallbacks == 0
    assert world.env.errors == []

    if level == "dificil":
        return  # its 120 ms safety cap can cut a search short on a busy machine: legal, not replayable
    # every stored computer move is the medio player's choice from the seed, as inline
    game = Game.new(Rules.preset("quito"), 2, table.seed)
    computer_moves = 0
    for seat, card, captures in await bot.store.plays(1):
        play = Play.parse(card, captures.split())
        if seat == 1:
            view = game.view(1)
            assert player_for("medio").choose(view, rng_for(table.seed, view)) == play
            computer_moves += 1
        game.play(play, seat=seat)
    assert computer_moves == bot.ai_offload.calls
