"""The live table message as a player sees it on a phone: in a fresh bot (SimCord, SQLite) ana and beto
(teams A and B) play a 2 v 2 under ``quito`` rules with two computers, a few turns in; the table message
(a Components V2 layout: the last play, the turn and the deadline, the picture, the buttons) is drawn
390 px wide by ``../shared/tools/discord-preview`` (headless Chromium) in Spanish, dark and light, with
the card emojis, and its height printed (the page's own header left out, as ``bench/channel.py``).

Run: ``python scripts/preview_table.py [--out docs/preview/table-v2]`` (writes ``-dark.png`` and ``-light.png``).
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
from pathlib import Path
from types import SimpleNamespace

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import discord  # noqa: E402
import simcord  # noqa: E402

from bench.channel import PREVIEW, _inline, _preview_message  # noqa: E402
from bot.app import CuarentaBot  # noqa: E402
from bot.config import Settings  # noqa: E402
from bot.engine import DECK  # noqa: E402
from bot.ui.cardart import emoji_png  # noqa: E402
from tests.support.clocked import play_clocked  # noqa: E402

NOW = 1767225600


def _draw(message: dict, out: Path, png: Path, names: dict[str, str], theme: str) -> int:
    """CSS px of ``message`` drawn 390 px wide in Spanish (the page's header, measured on a one-line
    message, left out)."""
    (out / "names.json").write_text(json.dumps(names), encoding="utf-8")

    def run(data: dict, target: Path) -> int:
        source = out / f"{target.stem}.json"
        source.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
        result = subprocess.run([sys.executable, str(PREVIEW), str(source), "--names", str(out / "names.json"),
                                 "--emoji-dir", str(out / "emoji"), "--out", str(target), "--lang", "es",
                                 "--theme", theme, "--now", str(NOW)], capture_output=True, text=True, check=False)
        size = re.search(r"\((\d+)x(\d+) CSS px", result.stdout)
        if size is None:
            raise SystemExit(f"preview failed: {result.stdout}{result.stderr}")
        return int(size[2])

    header = run({"content": ".", "author": "Cuarenta"}, out / "empty.png") - 22  # one line ≈ 22 px
    return run(message, png) - header


async def live_table(out: Path) -> tuple[dict, dict[str, str]]:
    """Play a 2 v 2 a few turns in; return the table message as the preview's input, and the names."""
    seeds = iter(f"preview-table-{i}" for i in range(1000))
    settings = Settings(token="preview", database_path=str(out / "preview.db"), ai_delay=0, ai_workers=0,
                        picture_workers=0)
    bot = CuarentaBot(settings, ai_delay=0, seed_factory=lambda: next(seeds), edit_interval=1.0,
                      offload=_inline, shard_count=1)
    async with simcord.run(bot) as env:
        guild = env.create_guild("Club Quito")
        channel = guild.create_text_channel("cuarenta")
        ana, beto = (guild.add_member(env.create_user(n)) for n in ("ana", "beto"))
        await env.bot.tree.sync()
        await ana.slash(channel, "cuarenta new", players=4, rules="quito")
        await beto.slash(channel, "cuarenta join", team="B")
        lobby = channel.last_message
        await ana.select(lobby, ["medio"], custom_id="c4:v:1")
        await ana.select(lobby, ["dificil"], custom_id="c4:v:1")
        world = SimpleNamespace(env=env, bot=env.bot, channel=channel)
        table = await play_clocked(world, 1, {ana.id: ana, beto.id: beto}, turns=3)
        message = _preview_message(env, env.backend.messages[channel.id][table.messages.public], out, 0)
        names = {str(ana.id): "ana", str(beto.id): "beto"}
        await env.bot.store.close()
        return message, names


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "preview" / "table-v2",
                        help="PNG path without the -dark/-light suffix")
    args = parser.parse_args()
    discord.utils.setup_logging(level=40)
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp)
        (out / "emoji").mkdir()
        for card in DECK:
            (out / "emoji" / f"c4_{card.code}.png").write_bytes(emoji_png(card.code))
        message, names = asyncio.run(live_table(out))
        for theme in ("dark", "light"):
            png = args.out.with_name(f"{args.out.name}-{theme}.png")
            height = _draw(message, out, out / png.name, names, theme)  # its .html stays in the temporary directory
            shutil.copyfile(out / png.name, png)
            print(f"{png.relative_to(ROOT) if png.is_relative_to(ROOT) else png}: {height} px at 390 px ({theme})")


if __name__ == "__main__":
    main()
