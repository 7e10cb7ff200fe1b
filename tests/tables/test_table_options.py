"""`TableOptions` and the seat history: the JSON of ``tables.meta`` saved before them loads the same and is
saved back unchanged."""

from __future__ import annotations

from dataclasses import FrozenInstanceError, replace

import pytest

from bot.tables import Seat, SeatSpell, Table, TableOptions

STORED = [
    {},
    {"guild_name": "g", "channel_name": "c"},
    {"guild_name": "g", "channel_name": "c", "hints": True},
    {"guild_name": "g", "channel_name": "c", "refereed": "league"},
    {"guild_name": "g", "channel_name": "c", "refereed": "queue", "queue_match": 7, "casual": True},
    {"guild_name": "g", "channel_name": "c", "house": {"periquito": True}, "house_rated": False},
    {"guild_name": "g", "channel_name": "c", "house": {"periquito": True}, "house_rated": True, "rematch_of": 3},
    {"guild_name": "g", "channel_name": "c", "casual": True, "someday": [1, 2],
     "seat_history": [{"seat": 0, "until": 4, "held_by": Seat(1, "ana").to_dict()}]},
]


@pytest.mark.parametrize("meta", STORED)
def test_stored_meta_loads_and_saves_back_the_same(meta):
    options, history, casual = Table.meta_parts(meta)
    table = Table(id=1, guild_id=1, channel_id=1, host_id=1, players=2, preset="quito", options=options,
                  seat_history=history, casual=casual)
    assert table.meta_json() == meta
    assert TableOptions.from_dict(options.to_dict()) == options


def test_options_read_as_the_keys_did():
    options, history, casual = Table.meta_parts(STORED[-1])
    assert (options.guild_name, options.channel_name, casual) == ("g", "c", True)
    assert history == [SeatSpell(0, 4, Seat(1, "ana"))]
    queue = Table(id=1, guild_id=1, channel_id=1, host_id=1, players=2, preset="quito",
                  options=TableOptions(queue_match=7))
    assert queue.refereed == "queue"  # a queue table from before the mark
    house = TableOptions.from_dict(STORED[6])
    assert house.house == {"periquito": True} and house.house_rated and house.rematch_of == 3
    with pytest.raises(FrozenInstanceError):
        house.hints = True  # type: ignore[misc]
    assert replace(house, hints=True).hints and not house.hints
