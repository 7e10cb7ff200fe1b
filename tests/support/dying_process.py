"""A bot process that dies in the middle of a click, for `test_shared_tables` (design §9 item 6).

Run as ``python dying_process.py <postgresql url> <table id> <click as JSON>``: it opens its own store and
table service over the shared PostgreSQL, serves the open tables, and sends the click to its service. Its
store's `save_table` does its writes (the table's row and the play's row, inside the transaction that
holds the row), prints ``saved`` and then waits forever, so the transaction never commits: the test kills
this process (SIGKILL) there, as a crash or an OOM kill would, at the worst moment of a click.
"""

from __future__ import annotations

import asyncio
import json
import sys
from typing import Any

from bot.store import Store
from bot.tables import TableService


async def inline(func: Any, *args: Any) -> Any:
    return func(*args)


async def main(url: str, table_id: int, click: dict[str, Any]) -> None:
    store = await Store.open(url)
    service = TableService(store, ai_delay=0, seed_factory=lambda: "fixed", offload=inline)
    await service.load()
    save_table = store.save_table

    async def save_then_hang(**kwargs: Any) -> int:
        version = await save_table(**kwargs)
        if kwargs.get("play") is not None:  # the click's play is written, not committed: die here
            print("saved", flush=True)
            await asyncio.Event().wait()
        return version

    store.save_table = save_then_hang  # type: ignore[method-assign]
    await service.play(table_id, **click)
    print("committed", flush=True)  # not reached: the test kills the process first


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], int(sys.argv[2]), json.loads(sys.argv[3])))
