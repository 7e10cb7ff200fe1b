"""The DM hand as a player sees it on a phone at their turn: a 1 v 1 under ``quito`` rules, random legal
plays from a seed until the table holds ``--table`` cards and the last trail can be taken by a caída, then
ana's hand (`bot.ui.hand_layout`) drawn 390 px wide by ``../shared/tools/discord-preview`` (headless
Chromium) in Spanish, dark and light, and its height printed (CSS px, the page's own margins included).

Run: ``python scripts/preview_dm_hand.py [--out docs/preview] [--table 6]``: writes
``dm-hand-dark.png`` and ``dm-hand-light.png``.
"""

from __future__ import annotations

import argparse
import json
import random
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bot.engine import Game, Rules  # noqa: E402
from bot.tables import PLAYING, Seat, Table, TableOptions  # noqa: E402
from bot.ui import hand_layout  # noqa: E402

PREVIEW = ROOT.parent / "shared" / "tools" / "discord-preview" / "preview.py"


def position(cards: int, seed: int = 11) -> Game:
    """A 1 v 1 game where seat 0 is to play, ``cards`` or more cards on the table and a caída to take."""
    rng = random.Random(seed)
    while True:
        game = Game.new(Rules.preset("quito"), 2, f"preview-{seed}")
        while game.winner is None:
            game.play(rng.choice(game.legal_plays()))
            view = game.view(0)
            if (game.to_play == 0 and len(view.table) >= cards and view.hand
                    and hand_layout.caida_card(view) is not None):
                return game
        seed += 1


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "preview")
    parser.add_argument("--table", type=int, default=6, help="table cards at least (default 6)")
    args = parser.parse_args()
    game = position(args.table)
    table = Table(id=1, guild_id=1, channel_id=2, host_id=4001, players=2, preset="quito", status=PLAYING,
                  seed="x", seats=[Seat(4001, "ana"), Seat(4002, "beto")], game=game,
                  options=TableOptions(guild_name="Quito Club", channel_name="cuarenta"))
    table.messages.public = 3
    payload = hand_layout.hand_layout(table, 0, game.view(0), "es")
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        files = []
        for name, data in payload.files:
            (work / name).write_bytes(data)
            files.append(name)
        assert payload.view is not None
        body = {"author": "Cuarenta", "channel": "@Cuarenta", "flags": 1 << 15, "files": files,
                "components": payload.view.to_components(), "timestamp": int(time.time())}
        (work / "hand.json").write_text(json.dumps(body, ensure_ascii=False), encoding="utf-8")
        (work / "names.json").write_text(json.dumps({"4001": "ana", "4002": "beto"}), encoding="utf-8")
        args.out.mkdir(parents=True, exist_ok=True)
        for theme in ("dark", "light"):
            png = work / f"dm-hand-{theme}.png"
            result = subprocess.run([sys.executable, str(PREVIEW), str(work / "hand.json"), "--names",
                                     str(work / "names.json"), "--out", str(png), "--lang", "es", "--theme", theme],
                                    capture_output=True, text=True, check=False)
            size = re.search(r"\((\d+)x(\d+) CSS px", result.stdout)
            if size is None:
                raise SystemExit(f"preview failed: {result.stdout}{result.stderr}")
            shutil.copy(png, args.out / png.name)
            print(f"{png.name}: {size[1]}x{size[2]} CSS px; drawing {sum(len(d) for _, d in payload.files) / 1024:.1f} KB")


if __name__ == "__main__":
    main()
