"""Where a replay comes from: the stored rows of a finished mesa (`Store.load_table`, `Store.mesa`,
`Store.plays`), checked, then rebuilt by the engine (`bot.replays.steps.build`).

Only a finished mesa of the asking server is replayed. A table still in the lobby or in play is refused
before anything is rebuilt, so its hidden cards are never computed for the caller, let alone shown.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Any

from bot.engine import CuarentaError, Play
from bot.houserules.menu import HouseRuleError
from bot.houserules.menu import apply as apply_house_rules
from bot.store import Store, storable_id
from bot.tables import FINISHED, LOBBY, PLAYING, Seat, Table, TableError, TableOptions

from .steps import Replay, build

log = logging.getLogger(__name__)


class ReplayError(TableError):
    """A replay was refused (params: ``table``, the mesa id asked for)."""

    key = "replay.err.unknown"


class UnknownMesaError(ReplayError):
    """No table with that id in this server (unknown, or another server's: both read the same)."""

    key = "replay.err.unknown"


class MesaInPlayError(ReplayError):
    """The table is in the lobby or in play: its cards are still secret."""

    key = "replay.err.in_play"


class MesaNotFinishedError(ReplayError):
    """The table was closed without a finished mesa (ended early, abandoned): nothing to replay."""

    key = "replay.err.not_finished"


class BrokenReplayError(ReplayError):
    """The stored plays do not replay to the stored result (damaged data)."""

    key = "replay.err.broken"


@dataclass(frozen=True)
class ReplayedMesa:
    """A finished mesa ready to show.

    Attributes:
        table: the table as it ended (seats with their names, preset, players), holding the replayed game;
            for naming seats with `bot.ui.words`.
        replay: its steps.
        result: the stored result row (`Store.mesa`): winner, chicas_a, chicas_b, zapateria …
    """

    table: Table
    replay: Replay
    result: dict[str, Any]


async def load(store: Store, guild_id: int, table_id: int) -> ReplayedMesa:
    """The finished mesa ``table_id`` of server ``guild_id``, rebuilt from its seed and plays.

    Raises:
        UnknownMesaError: no such table in this server.
        MesaInPlayError: the table is in the lobby or in play.
        MesaNotFinishedError: the table was closed without a finished mesa row.
        BrokenReplayError: the plays do not replay, or not to the stored winner and chicas.
    """
    if not storable_id(table_id):  # a forged id past 64 bits names no table
        raise UnknownMesaError(table=table_id)
    row = await store.load_table(table_id)
    if row is None or row.guild_id != guild_id:
        raise UnknownMesaError(table=table_id)
    if row.status in (LOBBY, PLAYING):
        raise MesaInPlayError(table=table_id)
    result = await store.mesa(table_id)
    if result is None or result["guild_id"] != guild_id:
        raise MesaNotFinishedError(table=table_id)
    try:
        plays = [Play.parse(card, captures.split()) for _, card, captures in await store.plays(table_id)]
        rules = apply_house_rules(result["preset"], row.meta.get("house") or {})
        replay = build(rules, result["players"], result["seed"], plays)
    except (CuarentaError, HouseRuleError, ValueError) as exc:
        log.warning("table %d: the stored plays do not replay (%s)", table_id, type(exc).__name__)
        raise BrokenReplayError(table=table_id) from None
    game = replay.game
    if game.winner != result["winner"] or tuple(game.chicas) != (result["chicas_a"], result["chicas_b"]):
        log.warning("table %d: the replay does not end as the stored result", table_id)
        raise BrokenReplayError(table=table_id)
    table = Table(id=row.id, guild_id=row.guild_id, channel_id=row.channel_id, host_id=row.host_id,
                  players=row.players, preset=row.preset, status=FINISHED, seed=row.seed,
                  seats=[Seat.from_dict(s) if s else None for s in row.seats], game=game, options=TableOptions.from_dict(row.meta),
                  seat_history=Table.meta_parts(row.meta)[1])
    return ReplayedMesa(table, replay, result)


__all__ = ["BrokenReplayError", "MesaInPlayError", "MesaNotFinishedError", "ReplayError", "ReplayedMesa",
           "UnknownMesaError", "load"]
