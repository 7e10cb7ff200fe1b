"""What the competitions (queue, leagues, tournaments) ask of the tables they open."""

from __future__ import annotations

from typing import NamedTuple

from bot.tables import TableError, TableService

RECHECK_AFTER = 900.0
"""Seconds between two looks, after a round's deadline, at the tables of that round still in play: one
that ends without a result is then decided like an unplayed fixture or match."""


class Place(NamedTuple):
    """Where a competition's table is played (the thread its presenter opened): the channel id, and the
    server's and the channel's names that head the players' DM hands (``dm.header``)."""

    channel_id: int
    guild_name: str
    channel_name: str


async def table_in_play(tables: TableService, table_id: int | None) -> bool:
    """Whether the table ``table_id`` a competition opened is still open (in its lobby or in play), so
    that its result may still come. An ended table (finished, or closed without a result: ``/cuarenta
    end``, everyone gone) is not, nor is one that is gone; a table no longer in memory (ended more than
    `bot.tables.memory` keeps, or opened by another process) is read from the store."""
    if not table_id:
        return False
    table = tables.tables.get(table_id)
    if table is None:
        try:
            table = await tables.fetch(table_id)
        except TableError:
            return False
    return table.is_open


__all__ = ["RECHECK_AFTER", "Place", "table_in_play"]
