"""The web pages as a reader sees them: a database filled by real play (`tests/support/web_world.py`: whole
mesas over two seasons, a league, a single elimination, a Swiss), the bot's HTTP port on a free loopback port,
and every kind of page loaded in Debian's headless Chromium at a phone's width (390 px) and a desktop's
(1280 px); each whole page saved as ``docs/preview/web-<page>-phone.png`` and ``-desktop.png``, with its
status and whether it scrolls sideways printed.

Run: ``python scripts/preview_web.py [--out docs/preview] [--only leaderboard,player]``.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.support.browser import DESKTOP, PHONE, Chromium  # noqa: E402
from tests.support.web_site import Site, serve  # noqa: E402
from tests.support.web_world import GUILD, PLAYERS, build  # noqa: E402


async def pages(site: Site) -> dict[str, str]:
    """Each kind of page → its path under `GUILD`'s root (the pages the running code has)."""
    from bot.web.data import player_numbers

    world = site.world
    busiest = PLAYERS["ana"]
    number = (await player_numbers(site.store.db, GUILD, [busiest]))[busiest]
    return {
        "leaderboard": "leaderboard?mode=1v1",
        "leaderboard-2v2-season1": f"leaderboard?mode=2v2&season={world.seasons[0]}",
        "player": f"players/{number}",
        "replay": f"mesas/{world.mesas[-1]}",
        "league": f"leagues/{world.league}",
        "bracket": f"tournaments/{world.elimination}",
        "swiss": f"tournaments/{world.swiss}",
    }


async def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--out", default=str(ROOT / "docs" / "preview"))
    ap.add_argument("--only", default="", help="comma-separated page names (default: every page)")
    args = ap.parse_args()
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    world = await build(str(Path(tempfile.mkdtemp(prefix="cuarenta-preview-web-")) / "web.db"))
    browser = Chromium().start()
    try:
        async with serve(world) as site:
            wanted = {name for name in args.only.split(",") if name}
            for name, path in (await pages(site)).items():
                if wanted and name not in wanted:
                    continue
                for label, width in (("phone", PHONE), ("desktop", DESKTOP)):
                    page = await browser.load(site.url(GUILD, path), width)
                    target = out / f"web-{name}-{label}.png"
                    if page.status == 200:
                        target.write_bytes(page.png)
                    sideways = f"SCROLLS SIDEWAYS ({page.scroll_width} px)" if page.scrolls_sideways else "fits"
                    print(f"{name:<24} {label:<8} HTTP {page.status}  {sideways}  "
                          f"{target if page.status == 200 else '(not saved)'}")
    finally:
        browser.stop()


if __name__ == "__main__":
    asyncio.run(main())
