"""Not a test of the suite: prints the project files a card click's own task runs code in, from the
DynamicItem's callback to the click's answer (run: pytest -n 0 -s tests/support/probe_click_path.py)."""

import asyncio
import sys
from pathlib import Path

from bot.ui import answer

from .helpers import pick_play, table_of

ROOT = str(Path(__file__).resolve().parents[2])


async def test_probe(world, monkeypatch):
    await world.ana.slash(world.channel, "cuarenta new", players=2, rules="quito")
    await world.ana.select(world.channel.last_message, ["medio"], custom_id="c4:v:1")
    await world.env.settle()
    table = table_of(world, 1)
    while table.seats[table.game.to_play].autoplays:
        await world.env.advance_time(1)
    files: list[str] = []
    state = {"task": None, "done": False}
    original_show = answer.show

    async def show(*args, **kwargs):
        state["done"] = True
        return await original_show(*args, **kwargs)

    monkeypatch.setattr(answer, "show", show)

    def prof(frame, event, arg):
        if event != "call" or state["done"]:
            return
        name = frame.f_code.co_filename
        try:
            task = asyncio.current_task()
        except RuntimeError:
            return
        if state["task"] is None and name.endswith(("bot/ui/items.py",)) and frame.f_code.co_name == "callback":
            state["task"] = task
        if state["task"] is not None and task is state["task"] and name.startswith(ROOT) and "/tests/" not in name and "/.venv/" not in name:
            rel = name[len(ROOT) + 1:]
            if rel not in files:
                files.append(rel)

    _, play = pick_play(table)
    from .helpers import play_through_ui
    sys.setprofile(prof)
    try:
        await play_through_ui(world.ana, table, play)
    finally:
        sys.setprofile(None)
    print("\nFILES", len(files))
    for f in files:
        print("  ", f)
