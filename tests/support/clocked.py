"""Play through SimCord as people do, in virtual time: wait for the hand to show the turn, think, click.
The bot runs as in production (edits coalesced once a second, Discord's write budget on), and every REST
write is logged with the virtual instant it was made, to check the budget per channel."""

from __future__ import annotations

import asyncio
import re
from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any

from bot.tables import FINISHED

from .helpers import custom_ids, hand_messages, pick_play, play_through_ui, table_of

MESSAGE_WRITE = re.compile(r"^/channels/(\d+)/messages(?:/(\d+))?$")
TOKEN_WRITE = re.compile(r"^/webhooks/\d+/([^/]+)(?:/messages/(\d+|@original))?$")


@dataclass
class Write:
    """One bot-token message write: when (virtual seconds), what, in which channel."""

    at: float
    method: str
    channel: int
    message: int | None
    body: Any
    via_token: bool = False
    """Made through an interaction token (a DM hand's edit, alert or deletion), not the bot's."""


@dataclass
class WriteLog:
    """Every message write the bot made (sends, edits, deletes; not interaction answers)."""

    env: Any
    writes: list[Write] = field(default_factory=list)

    def install(self, monkeypatch: Any = None) -> Any:
        """Record through SimCord's router (every REST call of the bot passes there). With pytest's
        ``monkeypatch`` the patch is undone at teardown; without, call the returned function to undo it."""
        from simcord.http import router

        original = router.dispatch
        log = self

        def dispatch(backend: Any, method: str, path: str, *args: Any, **kwargs: Any) -> Any:
            bare = path.split("?", 1)[0].removeprefix("/api/v10")
            match = MESSAGE_WRITE.match(bare)
            if match and method in ("POST", "PATCH", "DELETE"):
                log.writes.append(Write(log.env.now().timestamp(), method, int(match[1]),
                                        int(match[2]) if match[2] else None, kwargs.get("json")))
            token = TOKEN_WRITE.match(bare)
            body = kwargs.get("json")
            if (token and method in ("POST", "PATCH", "DELETE") and token[1] in backend.interaction_tokens
                    and not (method == "POST" and isinstance(body, dict) and int(body.get("flags") or 0) & 64)):
                record = backend.interaction_by_token(token[1])
                if record.channel_id is not None and not record.guild_id:  # the bot's DM writes, not answers
                    message = token[2] if token[2] and token[2] != "@original" else None
                    log.writes.append(Write(log.env.now().timestamp(), method, int(record.channel_id),
                                            int(message) if message else None, body, via_token=True))
            return original(backend, method, path, *args, **kwargs)

        if monkeypatch is not None:
            monkeypatch.setattr(router, "dispatch", dispatch)
            return lambda: None
        router.dispatch = dispatch

        def undo() -> None:
            router.dispatch = original

        return undo

    def by_channel(self) -> dict[int, list[Write]]:
        out: dict[int, list[Write]] = defaultdict(list)
        for w in self.writes:
            out[w.channel].append(w)
        return out

    def densest(self, window: float = 5.0) -> dict[int, int]:
        """Per channel, the most writes in any window of ``window`` seconds (half-open)."""
        worst: dict[int, int] = {}
        for channel, writes in self.by_channel().items():
            times = sorted(w.at for w in writes)
            best, j = 0, 0
            for i, start in enumerate(times):
                while j < len(times) and times[j] < start + window:
                    j += 1
                best = max(best, j - i)
            worst[channel] = best
        return worst


def hand_is_current(member: Any, table: Any) -> bool:
    """The member's latest DM hand shows the current turn (its buttons carry the current nonce)."""
    messages = hand_messages(member)
    if not messages:
        return False
    prefix = f"c4:p:{table.id}:{table.nonce}:"
    return any(c.startswith(prefix) for c in custom_ids(messages[-1]))


async def play_clocked(world: Any, table_id: int, members: dict[int, Any], *, think: float = 1.2,
                       slow: dict[int, float] | None = None, on_turn: Any = None, limit: int = 3000,
                       turns: int | None = None) -> Any:
    """Play a table to its end (or for ``turns`` person turns) in virtual time. Each person waits until
    their DM hand shows their turn, thinks ``think`` seconds (``slow[user_id]`` for some), then plays the
    greedy choice through the UI (``on_turn(table, member, play)`` may play instead). Computers move by
    themselves."""
    env = world.env
    slow = slow or {}
    played = 0
    for _ in range(limit):
        if turns is not None and played >= turns:
            await env.advance_time(6)
            return table_of(world, table_id)
        table = table_of(world, table_id)
        if table.status == FINISHED:
            await env.advance_time(12)  # let the last coalesced writes go out
            return table
        seat = table.game.to_play
        person = table.seats[seat]
        if person.autoplays:
            await env.advance_time(0.5)
            continue
        member = members[person.user_id]
        for _ in range(40):
            if hand_is_current(member, table):
                break
            await env.advance_time(0.5)
        assert hand_is_current(member, table), "the DM hand shows the turn within 20 s"
        await env.advance_time(slow.get(person.user_id, think))
        _, play = pick_play(table)
        if on_turn is not None:
            await on_turn(table, member, play)
        else:
            await play_through_ui(member, table, play)
        played += 1
    raise AssertionError("the mesa did not end")


class VirtualWaits:
    """The presenter's waits (``CuarentaBot(sleep=...)``: coalesced edits, the write budget, retries) in
    SimCord's virtual time only. A plain `asyncio.sleep` in bot work also has a real-time fallback, and
    SimCord's settlement waits for it when it is shorter than the settle timeout, so every coalesced edit
    cost up to a real second after each click; declared as an external wait (SimCord's public
    `external_wait`), the sleep resumes only when the test advances the clock. ``env``: the SimCord
    environment (the ``env`` fixture sets it; until then, and outside bot-owned work, a plain sleep)."""

    def __init__(self) -> None:
        self.env: Any = None

    async def sleep(self, seconds: float) -> None:
        """Sleep ``seconds`` of virtual time (a plain `asyncio.sleep` outside bot-owned work)."""
        from simcord.backend.errors import SetupError

        if self.env is None:
            await asyncio.sleep(seconds)
            return
        try:
            await self.env.external_wait(asyncio.sleep(seconds), reason="the presenter's wait")
        except SetupError:  # not in bot-owned work, or already inside an external wait
            await asyncio.sleep(seconds)


_PRIMITIVE_WAITS = {asyncio.Lock.acquire.__code__, asyncio.Event.wait.__code__, asyncio.Condition.wait.__code__,
                    asyncio.Semaphore.acquire.__code__}


def _waits_on_a_primitive(task: asyncio.Task[Any]) -> bool:
    """The task is suspended in `asyncio.Lock.acquire`, `Event.wait`, `Condition.wait` or
    `Semaphore.acquire`: only another task of the loop can resume it."""
    coroutine: Any = task.get_coro()
    last = None
    while coroutine is not None and hasattr(coroutine, "cr_frame"):
        last = coroutine
        coroutine = coroutine.cr_await
    frame = getattr(last, "cr_frame", None)
    return frame is not None and frame.f_code in _PRIMITIVE_WAITS


def park_primitive_waiters(monkeypatch: Any) -> None:
    """Teach SimCord's settlement that a bot task waiting on an asyncio lock, event, condition or semaphore
    is parked when every other pending bot task is parked (or waits on one too) and some are: nothing can
    then release it before the clock moves (a deadlock, with none parked, still fails to settle). SimCord recognises sleeps, listeners, views and declared external waits,
    but not these: a writer queued behind another writer's virtual wait (`VirtualWaits`, the write budget's
    channel lock, a table's notify lock) kept settlement waiting until its timeout ("unknown wait
    (Future)")."""
    from simcord import _settlement

    original = _settlement._park_reason
    if getattr(original, "parks_primitive_waiters", False):  # a restarted bot: already taught
        return

    def park_reason(state: Any, task: asyncio.Task[Any], deadline: float, seen: Any = None) -> str | None:
        reason = original(state, task, deadline, seen)
        if reason is not None or not _waits_on_a_primitive(task):
            return reason
        others = [t for t in _settlement._owned_tasks(state) if t is not task and not t.done()]
        parked = [t for t in others if original(state, t, deadline) is not None]
        if parked and all(t in parked or _waits_on_a_primitive(t) for t in others):
            return "asyncio lock or event held by parked work"
        return None  # some work still runs, or nothing is parked (waiters on each other alone: a deadlock)

    park_reason.parks_primitive_waiters = True  # type: ignore[attr-defined]
    monkeypatch.setattr(_settlement, "_park_reason", park_reason)
