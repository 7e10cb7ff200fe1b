"""Picture benchmark: the table picture (`bot.ui.picture.render_table`) and the card emojis.

Positions come from real engine games under `quito`: random legal plays from a seed until mid-hand (at
least ``--min-table`` cards on the table, 1 v 1 and 2 v 2). Each scene is built from public state only,
``game.view(None)``: table, hand sizes, dealer, mano, seat to play, scores, chicas, pile sizes, the last
trail and the last play from the event log.

Prints, per position: the median and 95th percentile of the render time (layout + drawing + PNG) over
``--renders`` renders after one warm-up render (which draws the card art), the same with every tile drawn
again ("fresh", a fifth as many renders), and the PNG size; then the
time to draw the 40 emoji PNGs (cold, then cached) and their sizes. Budget (issue): a 4-player scene with
10 table cards renders in at most 15 ms (median) into at most 80 KB.

Then Pillow's PNG encoder alone (``Image.save(format="PNG", compress_level=…)``) on the 2 v 2 picture, at
levels 1, 2, 3, 6 and 9: CPU ms and bytes.

Then the picture as a live bot draws it: ``--tables`` games (1 v 1, then 2 v 2) played in turn, one random
legal play at a time, each play's picture drawn after it, so the caches hold what many tables in play leave
there. The first ``--warm`` rounds fill the card art and the caches; the next ``--rounds`` are measured:
mean, median and p95 CPU ms per picture (``time.process_time``), and the mean PNG size.

Then the DM picture (`bot.ui.dm_picture`, the DM hand's drawing of the table cards at its owner's turn):
median and p95 CPU ms of a drawing not cached, median and largest JPEG size, over the plays of
``--tables`` games.

Times of the first part are wall-clock (`time.perf_counter`) on one core.

    python bench/render.py [--renders 300] [--tables 50] [--out /tmp]   # --out also saves two pictures
"""

from __future__ import annotations

import argparse
import io
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from PIL import Image  # noqa: E402

from bot.engine import DECK, EventKind, Game, GameView, Rules  # noqa: E402
from bot.ui import cardart, dm_picture  # noqa: E402
from bot.ui.picture import SIZE, LastPlay, SeatScene, SideScene, TableScene, render_table, tiles  # noqa: E402

LABELS = {"perros": "perros", "tantos": "tantos", "chicas": "chicas", "cards": "cartas", "dealer": "da",
          "mano": "mano", "turn": "juega", "only_caida": "solo caída", "empty": "mesa limpia"}
NAMES = ("Ana María", "Computadora 1", "Carolina", "Beto Peña")  # 1 v 1: the first and the third


def position(players: int, min_table: int, seed: int = 7) -> tuple[Game, GameView]:
    """Play random legal plays from ``seed`` until the table holds ``min_table`` cards mid-deal."""
    rng = random.Random(seed)
    while True:
        game = Game.new(Rules.preset("quito"), players, seed)
        while game.winner is None:
            game.play(rng.choice(game.legal_plays()))
            view = game.view(None)
            if len(view.table) >= min_table and any(view.hand_sizes) and view.to_play is not None:
                return game, view
        seed += 1


def last_play(view: GameView) -> LastPlay | None:
    """The last PLAYED event and what it took, from the public event log."""
    for i in range(len(view.events) - 1, -1, -1):
        event = view.events[i]
        if event.kind is EventKind.PLAYED:
            after = view.events[i + 1:]
            captured = next((e.cards for e in after if e.kind is EventKind.CAPTURED), ())
            caida = any(e.kind is EventKind.CAIDA for e in after)
            limpia = any(e.kind is EventKind.LIMPIA or (e.kind is EventKind.CAIDA and e.limpia) for e in after)
            callout = "¡Caída y limpia!" if caida and limpia else "¡Caída!" if caida else "¡Limpia!" if limpia else ""
            return LastPlay(event.seat or 0, event.card.code, tuple(c.code for c in captured), callout)
    return None


def scene_of(view: GameView) -> TableScene:
    """A `TableScene` from a spectator's view (no hand is ever read)."""
    seats = tuple(
        SeatScene(name=NAMES[i] if view.players == 4 else NAMES[i * 2], cards_left=view.hand_sizes[i], team=i % 2,
                  dealer=i == view.dealer, mano=i == view.mano, to_play=i == view.to_play,
                  level="medio" if i == 1 else None, away=False)
        for i in range(view.players))
    sides = tuple(
        SideScene(label=(f"Equipo {'AB'[team]}" if view.players == 4 else seats[team].name),
                  perros=view.scores[team] // 10, tantos=(view.scores[team] % 10) // 2, chicas=view.chicas[team],
                  at38=view.scores[team] >= 38, captured=view.pile_sizes[team])
        for team in (0, 1))
    trail = view.last_trail.code if view.last_trail is not None and view.last_trail in view.table else None
    return TableScene(title=f"Mesa #3 · quito · chica {view.chica_number} · mano {view.hand_number}",
                      table_cards=tuple(c.code for c in view.table), trail=trail, trail_label="¡cae!",
                      seats=seats, sides=(sides[0], sides[1]), last_play=last_play(view), labels=LABELS)


def time_renders(scene: TableScene, renders: int, fresh: bool = False) -> tuple[float, float, int]:
    """(median ms, p95 ms, PNG bytes) of ``renders`` renders after a warm-up; ``fresh``: with no tile kept
    from the render before (every tile drawn again: a picture no recent one shares anything with)."""
    data = render_table(scene)
    times = []
    for _ in range(renders):
        if fresh:
            tiles._TILES.clear()
        start = time.perf_counter()
        render_table(scene)
        times.append((time.perf_counter() - start) * 1000)
    times.sort()
    return statistics.median(times), times[min(len(times) - 1, int(len(times) * 0.95))], len(data)


def dm_picture_times(players: int, tables: int, rounds: int) -> tuple[int, float, float, int, int]:
    """(drawings, median ms, p95 ms, median bytes, max bytes) of the DM hand's drawing (`bot.ui.dm_picture`)
    after each play of ``tables`` games played in turn for ``rounds`` rounds, its cache cleared before each
    (the cost of a drawing not made yet; a repeated one is a cache hit). CPU ms (``time.process_time``)."""
    rng = random.Random(players + 100)
    games = [Game.new(Rules.preset("quito"), players, f"dm-{players}-{i}") for i in range(tables)]
    times: list[float] = []
    sizes: list[int] = []
    for _ in range(rounds):
        for game in games:
            if game.winner is not None:
                continue
            game.play(rng.choice(game.legal_plays()))
            view = game.view(None)
            if not view.table:
                continue
            trail = view.last_trail.code if view.last_trail is not None and view.last_trail in view.table else None
            dm_picture._draw.cache_clear()
            start = time.process_time()
            data = dm_picture.draw_table([c.code for c in view.table], trail, "¡cae!")
            times.append((time.process_time() - start) * 1000)
            sizes.append(len(data or b""))
    times.sort()
    sizes.sort()
    return (len(times), statistics.median(times), times[int(len(times) * 0.95)], int(statistics.median(sizes)),
            sizes[-1])


def live(players: int, tables: int, warm: int, rounds: int) -> tuple[int, float, float, float, float]:
    """(pictures, mean ms, median ms, p95 ms, mean KB) of each play's picture, ``tables`` games in turn."""
    rng = random.Random(players)
    games = [Game.new(Rules.preset("quito"), players, f"live-{players}-{i}") for i in range(tables)]
    times: list[float] = []
    sizes: list[int] = []
    for r in range(warm + rounds):
        for game in games:
            if game.winner is not None:
                continue
            game.play(rng.choice(game.legal_plays()))
            scene = scene_of(game.view(None))
            start = time.process_time()
            data = render_table(scene)
            if r >= warm:
                times.append((time.process_time() - start) * 1000)
                sizes.append(len(data))
    times.sort()
    return (len(times), statistics.mean(times), statistics.median(times), times[int(len(times) * 0.95)],
            statistics.mean(sizes) / 1024)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--renders", type=int, default=300, help="renders per position (default 300)")
    parser.add_argument("--min-table", type=int, default=10, help="table cards in the position (default 10)")
    parser.add_argument("--tables", type=int, default=50, help="games played in turn for the live part (default 50)")
    parser.add_argument("--warm", type=int, default=20, help="rounds before measuring (default 20)")
    parser.add_argument("--rounds", type=int, default=40, help="rounds measured (default 40)")
    parser.add_argument("--out", type=Path, default=None, help="directory to save the two pictures in")
    args = parser.parse_args()
    print(f"Python {sys.version.split()[0]}, wall-clock, preset quito, {args.renders} renders per position")
    print(f"table picture {SIZE[0]}x{SIZE[1]}; 'fresh': every tile drawn again")
    print(f"{'position':>8} {'table':>5} {'median ms':>10} {'p95 ms':>7} {'fresh median':>13} {'fresh p95':>10} "
          f"{'PNG KB':>7}")
    for players, name in ((2, "1v1"), (4, "2v2")):
        _, view = position(players, args.min_table)
        scene = scene_of(view)
        median, p95, size = time_renders(scene, args.renders)
        fresh, fresh95, _ = time_renders(scene, max(1, args.renders // 5), fresh=True)
        print(f"{name:>8} {len(scene.table_cards):>5} {median:>10.2f} {p95:>7.2f} {fresh:>13.2f} {fresh95:>10.2f} "
              f"{size / 1024:>7.1f}")
        if args.out is not None:
            (args.out / f"picture_{name}.png").write_bytes(render_table(scene))
    cardart.emoji_png.cache_clear()
    start = time.perf_counter()
    sizes = [len(cardart.emoji_png(c.code)) for c in DECK]
    cold = (time.perf_counter() - start) * 1000
    start = time.perf_counter()
    for c in DECK:
        cardart.emoji_png(c.code)
    warm = (time.perf_counter() - start) * 1000
    print(f"emoji_png: 40 cards in {cold:.0f} ms cold ({cold / 40:.1f} ms each), {warm:.2f} ms cached; "
          f"{min(sizes) / 1024:.1f}–{max(sizes) / 1024:.1f} KB each (limit 256 KiB)")
    print("budget: 2v2 with 10 table cards <= 15 ms median, <= 80 KB")
    _, view = position(4, args.min_table)
    image = Image.open(io.BytesIO(render_table(scene_of(view))))
    image.load()
    print("\nPillow's PNG encoder alone, the 2v2 picture (CPU ms, median of 100; the bot uses level "
          f"{tiles.PNG_LEVEL})")
    for level in (1, 2, 3, 6, 9):
        spent = []
        for _ in range(100):
            start = time.process_time()
            out = io.BytesIO()
            image.save(out, format="PNG", compress_level=level)
            spent.append((time.process_time() - start) * 1000)
        print(f"  compress_level={level}: {statistics.median(spent):.2f} ms, {len(out.getvalue()) / 1024:.1f} KB")
    print(f"\nDM picture (the DM hand's drawing of the table cards, {dm_picture.WIDTH} px wide; CPU ms, "
          "not cached; drawn at the owner's turn only)")
    print(f"{'players':>8} {'drawings':>8} {'median':>7} {'p95':>6} {'median KB':>10} {'max KB':>7}")
    for players in (2, 4):
        count, median, p95, size, largest = dm_picture_times(players, args.tables, args.rounds)
        print(f"{players:>8} {count:>8} {median:>7.2f} {p95:>6.2f} {size / 1024:>10.1f} {largest / 1024:>7.1f}")
    print(f"\nthe next play's picture, {args.tables} games in turn (CPU ms, after {args.warm} rounds of warm-up)")
    print(f"{'players':>8} {'pictures':>8} {'mean':>6} {'median':>7} {'p95':>6} {'PNG KB':>7}")
    for players in (2, 4):
        count, mean, median, p95, kb = live(players, args.tables, args.warm, args.rounds)
        print(f"{players:>8} {count:>8} {mean:>6.2f} {median:>7.2f} {p95:>6.2f} {kb:>7.1f}")


if __name__ == "__main__":
    main()
