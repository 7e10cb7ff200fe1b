"""Migration 9: tables save a compact snapshot of their game, not the whole game.

Every ``tables.game`` still stored as a whole game (version 1: the state plus every event and play) becomes
a version-2 snapshot: the same state fields, with the history replaced by its counts (``play_count``,
``event_count``). The history is rebuilt from the ``plays`` rows when the table is loaded
(`bot.engine.Game.from_snapshot`), so those rows must all be there: a play present in the old game but
missing from ``plays`` is inserted first, its seat taken from the game's PLAYED events.

Pure JSON: the store does not import the engine.
"""

from __future__ import annotations

import json
from typing import Any

from bot.store.db import Database


def compact(game: dict[str, Any]) -> dict[str, Any]:
    """A version-1 game dict as a version-2 snapshot (a new dict; the input is not changed)."""
    out = {k: v for k, v in game.items() if k not in ("events", "plays")}
    out["version"] = 2
    out["play_count"] = len(game["plays"])
    out["event_count"] = len(game["events"])
    return out


async def upgrade(db: Database) -> None:
    """Rewrite every version-1 game of ``tables`` as a snapshot, inside the caller's transaction."""
    for table_id, raw in await db.fetch("SELECT id, game FROM tables WHERE game IS NOT NULL"):
        game = json.loads(raw)
        if game.get("version") != 1:
            continue
        stored = {r[0] for r in await db.fetch("SELECT seq FROM plays WHERE table_id = ?", table_id)}
        seats = [e.get("seat") for e in game["events"] if e["kind"] == "played"]
        for seq, play in enumerate(game["plays"]):
            if seq not in stored:
                await db.execute(
                    "INSERT INTO plays (table_id, seq, seat, card, captures) VALUES (?, ?, ?, ?, ?)",
                    table_id, seq, seats[seq] if seq < len(seats) else 0, play["card"],
                    " ".join(play.get("captures", ())),
                )
        await db.execute("UPDATE tables SET game = ? WHERE id = ?", json.dumps(compact(game)), table_id)
