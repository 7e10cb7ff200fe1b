"""The event loop the bot runs on: uvloop's when it is installed (a dependency on Linux and macOS; about
half the CPU of asyncio's own loop for the same sockets, timers and callbacks), else asyncio's."""

from __future__ import annotations

import asyncio
from collections.abc import Coroutine
from typing import Any, TypeVar

T = TypeVar("T")


def new_event_loop() -> asyncio.AbstractEventLoop:
    """A new event loop: uvloop's if importable, else asyncio's default."""
    try:
        import uvloop
    except ImportError:  # pragma: no cover - uvloop has no Windows build
        return asyncio.new_event_loop()
    return uvloop.new_event_loop()


def run(main: Coroutine[Any, Any, T]) -> T:
    """``asyncio.run(main)`` on `new_event_loop`."""
    with asyncio.Runner(loop_factory=new_event_loop) as runner:
        return runner.run(main)
