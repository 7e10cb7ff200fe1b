"""`bot.ui.words.recent_records`: the last plays of a hand, at a cost that does not grow with the hand,
equal to the end of the whole hand's records (R22: a caída's victim is the previous play's seat, also
across the cut)."""

from __future__ import annotations

import random

import pytest

from bot.engine import Game, Rules
from bot.ui.words import hand_events, recent_records, records


def _expected(events, plays: int):
    whole = records(hand_events(events))
    at = [i for i, r in enumerate(whole) if r.kind == "play"]
    return whole if len(at) <= plays else whole[at[-plays - 1] + 1:]


@pytest.mark.parametrize("players,preset", [(2, "quito"), (4, "quito"), (2, "cuenca")])
def test_recent_records_equal_the_end_of_the_hands_records_at_every_point(players, preset):
    rng = random.Random(players * 31 + len(preset))
    checked = caidas = 0
    for game_number in range(12):
        game = Game.new(Rules.preset(preset), players, f"recent-{preset}-{players}-{game_number}")
        while game.winner is None and game.to_play is not None:
            game.play(rng.choice(game.legal_plays()))
            events = game.view(None).events
            for plays in (1, 2, 3):
                got = recent_records(events, plays)
                assert got == _expected(events, plays)
                checked += 1
            caidas += sum(1 for r in recent_records(events, 1) if r.caida)
    assert checked > 1000 and caidas > 20, (checked, caidas)  # caídas (victims across the cut) were met
