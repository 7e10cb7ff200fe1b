"""How much of the channel a mesa takes at phone width: the messages it leaves, and the live table's height.

The unmodified bot runs in SimCord as in production (edits coalesced once a second, the write budget on,
the table picture), and whole mesas are played in virtual time (`tests.support.clocked.play_clocked`): a
1 v 1 of a person against a computer, and a 2 v 2 of two people and two computers. Every message left
in the table's channel at the end is drawn as Discord draws it, 390 px wide, by
``../shared/tools/discord-preview`` (headless Chromium), and its height measured; the live table is
drawn alone in the middle of a hand.

Run: ``python bench/channel.py`` (a minute or two; ``--keep DIR`` keeps the JSON and PNG files).
Needs Chromium for the preview (its README gives the install line).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import re
import subprocess
import sys
import tempfile
from pathlib import Path
from types import SimpleNamespace
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import discord  # noqa: E402
import simcord  # noqa: E402
from simcord.backend.serializers import message_payload  # noqa: E402

from bot.app import CuarentaBot  # noqa: E402
from bot.config import Settings  # noqa: E402
from tests.support.clocked import play_clocked  # noqa: E402

PREVIEW = ROOT.parent / "shared" / "tools" / "discord-preview" / "preview.py"
HEADER = 0
"""CSS px of the preview page that are not messages (measured once per run: an empty-ish page)."""


async def _inline(func: Any, *args: Any) -> Any:
    return func(*args)


def _preview_message(env: Any, message: Any, out: Path, index: int) -> dict[str, Any]:
    """A stored SimCord message as the preview tool's input; its attachments written beside it."""
    data = dict(message_payload(env.backend, message))
    names: dict[str, str] = {}
    files = []
    for n, attachment in enumerate(data.get("attachments") or []):
        blob = env.backend.cdn.get(attachment["url"])
        if blob is None:
            continue
        path = out / f"m{index}-{n}-{attachment['filename']}"
        path.write_bytes(blob)
        names[attachment["url"]] = attachment["filename"]
        files.append({"path": path.name, "filename": attachment["filename"]})

    def local(url: str) -> str:
        return f"attachment://{names[url]}" if url in names else url

    for embed in data.get("embeds") or []:
        for key in ("image", "thumbnail"):
            if key in embed and "url" in embed[key]:
                embed[key] = {"url": local(embed[key]["url"])}
    stack = list(data.get("components") or [])
    while stack:
        component = stack.pop()
        for item in component.get("items") or []:
            item["media"] = {"url": local(item["media"]["url"])}
        if component.get("type") == 11:
            component["media"] = {"url": local(component["media"]["url"])}
        stack.extend(component.get("components") or [])
        if isinstance(component.get("accessory"), dict):
            stack.append(component["accessory"])
    keep = ("content", "embeds", "components", "flags")
    return {**{k: data[k] for k in keep if data.get(k)}, "author": "Cuarenta", "files": files}


def _height(messages: list[dict[str, Any]], out: Path, name: str, names: dict[str, str]) -> int:
    """CSS px of ``messages`` drawn 390 px wide (the page's own header excluded)."""
    (out / f"{name}.json").write_text(json.dumps(messages, ensure_ascii=False), encoding="utf-8")
    (out / "names.json").write_text(json.dumps(names), encoding="utf-8")
    result = subprocess.run([sys.executable, str(PREVIEW), str(out / f"{name}.json"), "--names",
                             str(out / "names.json"), "--out", str(out / f"{name}.png"), "--now", "1767225600"],
                            capture_output=True, text=True, check=False)
    size = re.search(r"\((\d+)x(\d+) CSS px", result.stdout)
    if size is None:
        raise SystemExit(f"preview failed: {result.stdout}{result.stderr}")
    return int(size[2]) - HEADER


async def scenario(players: int, people: int, out: Path) -> dict[str, Any]:
    """Play one mesa in a fresh bot; measure the channel it leaves and the live table mid-hand."""
    seeds = iter(f"channel-{players}-{people}-{i}" for i in range(1000))
    database = out / f"bench-{players}.db"
    for old in out.glob(f"bench-{players}.db*"):  # a fresh database: table #1
        old.unlink()
    settings = Settings(token="bench", database_path=str(database), ai_delay=0,
                        ai_workers=0, picture_workers=0)
    bot = CuarentaBot(settings, ai_delay=0, seed_factory=lambda: next(seeds), edit_interval=1.0,
                      offload=_inline, shard_count=1)
    async with simcord.run(bot) as env:
        guild = env.create_guild("Club Quito")
        channel = guild.create_text_channel("cuarenta")
        members = [guild.add_member(env.create_user(n)) for n in ("ana", "beto", "caro", "dani")[:people]]
        names = {str(m.id): m.name for m in members}
        await env.bot.tree.sync()
        await members[0].slash(channel, "cuarenta new", players=players, rules="quito")
        for member in members[1:]:
            await member.slash(channel, "cuarenta join")
        table = env.bot.tables.tables[1]
        if table.status == "lobby":
            await members[0].slash(channel, "cuarenta start")
        world = SimpleNamespace(env=env, bot=env.bot, channel=channel)
        await play_clocked(world, 1, {m.id: m for m in members}, turns=3)
        live_id = table.messages.public
        live = [_preview_message(env, env.backend.messages[channel.id][live_id], out, 0)]
        table = await play_clocked(world, 1, {m.id: m for m in members})
        stored = sorted(env.backend.messages.get(channel.id, {}).values(), key=lambda m: m.id)
        left = [_preview_message(env, m, out, i + 1) for i, m in enumerate(stored) if m.visible_to(None)]
        tag = f"{players}p"
        await env.bot.store.close()  # SimCord detaches the bot without closing it: its database thread
        return {"hands": table.game.hand_number, "plays": len(table.game.plays), "messages": len(left),
                "channel": _height(left, out, f"channel-{tag}", names),
                "live": _height(live, out, f"live-{tag}", names)}


def main() -> None:
    global HEADER
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--keep", type=Path, help="keep the JSON and PNG files in this directory")
    args = parser.parse_args()
    discord.utils.setup_logging(level=40)
    with tempfile.TemporaryDirectory() as tmp:
        out = args.keep or Path(tmp)
        out.mkdir(parents=True, exist_ok=True)
        HEADER = _height([{"content": ".", "author": "Cuarenta"}], out, "empty", {}) - 22  # one line ≈ 22 px
        print("scenario                       hands  plays  messages  channel px (390 wide)  live table px")
        for label, players, people in (("1v1, person vs computer", 2, 1), ("2v2, 2 people + 2 computers", 4, 2)):
            row = asyncio.run(scenario(players, people, out))
            print(f"{label:30} {row['hands']:5}  {row['plays']:5}  {row['messages']:8}  {row['channel']:21}  "
                  f"{row['live']:13}", flush=True)


if __name__ == "__main__":
    main()
