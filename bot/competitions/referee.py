"""What the competitions (queue, leagues, tournaments) ask of the tables they open."""

from __future__ import annotations

from typing import NamedTuple

from bot.tables import FINISHED, Table, TableError, TableService

RECHECK_AFTER = 900.0
"""Seconds between two looks, after a round's deadline, at the tables of that round still in play: one
that ends without a result is then decided like an unplayed fixture or match."""


class Place(NamedTuple):
    """Where a competition's table is played (the thread its presenter opened): the channel id, and the
    server's and the channel's names that head the players' DM hands (``dm.header``)."""

    channel_id: int
    guild_name: str
    channel_name: str


async def current_table(tables: TableService, table_id: int | None) -> Table | None:
    """The table ``table_id`` a competition opened, as stored now: this process's copy, caught up when
    another process saved the table since (PostgreSQL), else read from the store; None when it is gone, or
    its row is busy (it is looked at again later)."""
    if not table_id:
        return None
    try:
        table = tables.tables.get(table_id)
        if table is None:
            return await tables.fetch(table_id)
        if await tables.behind(table):
            await tables.catch_up(table)
        return table
    except TableError:
        return None


async def table_in_play(tables: TableService, table_id: int | None) -> bool:
    """Whether the table ``table_id`` a competition opened is still open (in its lobby or in play), so
    that its result may still come. An ended table (finished, or closed without a result: ``/cuarenta
    end``, everyone gone) is not, nor is one that is gone; a table no longer in memory (ended more than
    `bot.tables.memory` keeps, or opened by another process) is read from the store, and a copy another
    process has saved since is caught up (`current_table`)."""
    table = await current_table(tables, table_id)
    return table is not None and table.is_open


async def finished_table(tables: TableService, table_id: int | None) -> Table | None:
    """The table ``table_id`` if, as stored now, its mesa is over with a winner (`current_table`), else
    None. With several processes, the mesa of a competition's table may end in another process than the
    one that runs the competition (DM clicks all reach the process of shard 0): that one records the
    result from the stored table (`docs/SCALING.md` §7)."""
    table = await current_table(tables, table_id)
    if table is None or table.status != FINISHED or table.game is None or table.game.winner is None:
        return None
    return table


__all__ = ["RECHECK_AFTER", "Place", "current_table", "finished_table", "table_in_play"]
