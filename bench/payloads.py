"""What a play costs the bot before the network: the words and controls of each message a play changes,
built as the bot builds them and serialized as discord.py sends them.

N tables of 1 v 1 (people in both seats, names, card emojis on the buttons) are played in turn, one random
legal play at a time. After each play, as in the bot:

- the clicker's hand (`render.hand_payload`, the interaction's answer) and the other seat's hand (the DM
  edit), each serialized to the JSON body discord.py would send (``handle_message_parameters``);
- the public table message's words (`render.table_payload`) and its serialization;
- the picture's scene (`scene.table_scene`), without drawing it (`bench/render.py` measures that).

Prints the mean CPU µs per play of each part and their sum (``time.process_time``), over ``--plays`` plays
after ``--warm`` plays of warm-up. Then the sum by stage of the mesa (plays 0–99, 100–199, …) over
``--mesas`` whole mesas played one after the other (the cost of a play must not grow with the
mesa; stages with fewer than 50 plays measured are not printed).

    python bench/payloads.py [--tables 50] [--plays 4000] [--warm 1000]
"""

from __future__ import annotations

import argparse
import collections
import json
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import discord  # noqa: E402
from discord.http import handle_message_parameters  # noqa: E402

from bot.engine import Game, Rules  # noqa: E402
from bot.engine.cards import ALL_CARDS  # noqa: E402
from bot.tables import PLAYING, Seat, Table, TableOptions  # noqa: E402
from bot.ui import render  # noqa: E402
from bot.ui.faces import CardFaces  # noqa: E402
from bot.ui.table_scene import table_scene  # noqa: E402


def _emoji(code: str) -> discord.PartialEmoji:
    return discord.PartialEmoji(name=f"c{code}", id=1_300_000_000_000_000_000 + hash(code) % 1000)


FACES = CardFaces(emojis={card.code: _emoji(card.code) for card in ALL_CARDS})
"""Card emojis on the hands' buttons, text labels in the lines (as measured so far)."""


def new_table(i: int) -> Table:
    table = Table(id=i + 1, guild_id=1, channel_id=100 + i, host_id=10 + i, players=2, preset="quito",
                  status=PLAYING, seed=f"p-{i}",
                  seats=[Seat(10_000 + 2 * i, name="Ana María"), Seat(10_001 + 2 * i, name="Beto Peña")],
                  options=TableOptions(guild_name="Ecuador", channel_name="cuarenta"))
    table.game = Game.new(Rules.preset("quito"), 2, f"p-{i}")
    table.messages.public = 5_000 + i
    return table


def body(payload: render.Payload) -> int:
    """The size of the JSON body discord.py would send for ``payload`` as an edit."""
    kwargs = payload.edit_kwargs()
    kwargs.pop("attachments", None)
    with handle_message_parameters(**kwargs) as params:
        return len(json.dumps(params.payload))


PARTS = (
    ("answer", lambda table, seat: body(render.hand_payload(table, seat, table.game.view(seat), "es", faces=FACES))),
    ("other hand", lambda table, seat: body(render.hand_payload(table, 1 - seat, table.game.view(1 - seat), "es", faces=FACES))),
    ("table words", lambda table, seat: body(render.table_payload(table, "es", faces=FACES))),
    ("picture scene", lambda table, seat: table_scene(table, "es")),
)
"""The parts of a play measured, each called with the table and the seat that just played."""


def by_stage(mesas: int) -> dict[int, tuple[float, int]]:
    """Mean CPU µs of all `PARTS` after a play, by hundred of plays into the mesa: {stage: (µs, plays)}."""
    spent: collections.defaultdict[int, list[float]] = collections.defaultdict(list)
    clock = time.process_time
    for i in range(mesas):
        rng = random.Random(i)
        table = new_table(10_000 + i)
        game = table.game
        assert game is not None
        plays = 0
        while game.winner is None:
            seat = game.to_play
            assert seat is not None
            game.play(rng.choice(game.legal_plays()), seat=seat)
            start = clock()
            for _, part in PARTS:
                part(table, seat)
            spent[plays // 100].append(clock() - start)
            plays += 1
    return {stage: (sum(times) / len(times) * 1e6, len(times)) for stage, times in sorted(spent.items())}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=50)
    parser.add_argument("--plays", type=int, default=4000)
    parser.add_argument("--warm", type=int, default=1000)
    parser.add_argument("--mesas", type=int, default=30, help="whole mesas for the cost by stage (default 30)")
    args = parser.parse_args()
    rng = random.Random(1)
    tables = [new_table(i) for i in range(args.tables)]
    spent: collections.Counter[str] = collections.Counter()
    played = 0
    clock = time.process_time
    while played < args.warm + args.plays:
        for i, table in enumerate(tables):
            game = table.game
            assert game is not None
            if game.winner is not None:
                table = tables[i] = new_table(i + 1000 * played)
                game = table.game
                assert game is not None
            seat = game.to_play
            assert seat is not None
            game.play(rng.choice(game.legal_plays()), seat=seat)
            measured = played >= args.warm
            played += 1
            for name, part in PARTS:
                start = clock()
                part(table, seat)
                if measured:
                    spent[name] += clock() - start
    print(f"{args.plays} plays at {args.tables} tables in turn (CPU µs a play, after {args.warm} plays of warm-up)")
    for name, seconds in spent.items():
        print(f"  {name:14} {seconds / args.plays * 1e6:8.1f}")
    print(f"  {'total':14} {sum(spent.values()) / args.plays * 1e6:8.1f}")
    print(f"the total by stage of the mesa ({args.mesas} whole mesas, one table):")
    for stage, (micros, count) in by_stage(args.mesas).items():
        if count >= 50:
            print(f"  plays {stage * 100:>5}–{stage * 100 + 99:<5} {micros:8.1f} µs  ({count} plays)")


if __name__ == "__main__":
    main()
