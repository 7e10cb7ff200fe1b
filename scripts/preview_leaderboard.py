"""The leaderboard of a new server as a player sees it on a phone: in a fresh bot (SimCord, SQLite) ana
and beto play the server's first mesa, a 1 v 1 under ``quito`` rules, then caro posts
``/cuarenta leaderboard`` with no mode, and ana asks for ``/cuarenta stats``. The board is drawn 390 px wide by ``../shared/tools/discord-preview``
(headless Chromium) in Spanish, seen a minute after it was posted, and its height printed (the page's
own margins left out).

Run: ``python scripts/preview_leaderboard.py [--out docs/preview/leaderboard-new-server.png] [--theme dark]``.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from types import SimpleNamespace
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import discord  # noqa: E402
import simcord  # noqa: E402

from bench.channel import PREVIEW, _inline, _preview_message  # noqa: E402
from bot.app import CuarentaBot  # noqa: E402
from bot.config import Settings  # noqa: E402
from tests.support.clocked import play_clocked  # noqa: E402


def _height(messages: list[dict], out: Path, name: str, names: dict[str, str], theme: str) -> int:
    """CSS px of the preview page of ``messages`` drawn 390 px wide in Spanish, seen now."""
    (out / f"{name}.json").write_text(json.dumps(messages, ensure_ascii=False), encoding="utf-8")
    (out / "names.json").write_text(json.dumps(names), encoding="utf-8")
    result = subprocess.run([sys.executable, str(PREVIEW), str(out / f"{name}.json"), "--names",
                             str(out / "names.json"), "--out", str(out / f"{name}.png"), "--lang", "es",
                             "--theme", theme, "--now", str(int(time.time()) + 60)],
                            capture_output=True, text=True, check=False)
    size = re.search(r"\((\d+)x(\d+) CSS px", result.stdout)
    if size is None:
        raise SystemExit(f"preview failed: {result.stdout}{result.stderr}")
    return int(size[2])


async def board(out: Path, theme: str) -> tuple[int, Path, int, Path]:
    """Play the first mesa, post the board, and ana asks for her stats; return the board's height in CSS
    px and its PNG, then the same for the stats (in English, SimCord's client language)."""
    seeds = iter(f"leaderboard-{i}" for i in range(1000))
    settings = Settings(token="preview", database_path=str(out / "preview.db"), ai_delay=0, ai_workers=0,
                        picture_workers=0)
    bot = CuarentaBot(settings, ai_delay=0, seed_factory=lambda: next(seeds), edit_interval=1.0,
                      offload=_inline, shard_count=1)
    async with simcord.run(bot) as env:
        running: Any = env.bot
        guild = env.create_guild("Club Quito")
        channel = guild.create_text_channel("cuarenta")
        ana, beto, caro = (guild.add_member(env.create_user(n)) for n in ("ana", "beto", "caro"))
        names = {str(m.id): m.name for m in (ana, beto, caro)}
        await running.tree.sync()
        await ana.slash(channel, "cuarenta new", players=2, rules="quito")
        await beto.slash(channel, "cuarenta join")
        world = SimpleNamespace(env=env, bot=running, channel=channel)
        await play_clocked(world, 1, {m.id: m for m in (ana, beto)})
        shown = await caro.slash(channel, "cuarenta leaderboard")
        assert shown.response is not None, "the board was not posted"
        message = env.backend.messages[channel.id][shown.response.id]
        payload = _preview_message(env, message, out, 0)
        stats = await ana.slash(channel, "cuarenta stats")
        assert stats.response is not None, "no stats"
        mine = _preview_message(env, stats.response._message, out, 1)
        await running.store.close()
    return (_height([payload], out, "leaderboard", names, theme), out / "leaderboard.png",
            _height([mine], out, "stats", names, theme), out / "stats.png")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "preview" / "leaderboard-new-server.png")
    parser.add_argument("--theme", choices=("dark", "light"), default="dark")
    args = parser.parse_args()
    discord.utils.setup_logging(level=40)
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp)
        header = _height([{"content": ".", "author": "Cuarenta"}], out, "empty", {}, args.theme) - 22
        height, png, stats_height, stats_png = asyncio.run(board(out, args.theme))
        args.out.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(png, args.out)
        stats_out = args.out.with_name(args.out.name.replace("leaderboard", "stats"))
        shutil.copy(stats_png, stats_out)
    print(f"leaderboard of a new server, 390 px wide: {height - header} px of channel, PNG {args.out}")
    print(f"ana's stats after it (ephemeral), 390 px wide: {stats_height - header} px, PNG {stats_out}")


if __name__ == "__main__":
    main()
