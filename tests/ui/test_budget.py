"""The per-channel write budget (Discord's 5 writes per 5 s in each channel) keeps only the channels
written to lately: a long-running bot writes to the DM channel of every person it ever dealt to."""

from __future__ import annotations

from bot.ui.budget import PRUNE_EVERY, RequestRate, WriteBudget


class Clock:
    """Monotonic seconds moved by hand; ``sleep`` moves them (nothing waits for real)."""

    def __init__(self) -> None:
        self.now = 0.0
        self.slept: list[float] = []

    def __call__(self) -> float:
        return self.now

    async def sleep(self, seconds: float) -> None:
        self.slept.append(seconds)
        self.now += seconds


async def test_channels_gone_quiet_are_forgotten_and_the_held_count_stays_bounded():
    clock = Clock()
    budget = WriteBudget(clock=clock, sleep=clock.sleep)
    for channel in range(10 * PRUNE_EVERY):  # a new DM channel every 0.1 s: each goes quiet after one write
        await budget.acquire(channel)
        clock.now += 0.1
    assert clock.slept == []
    assert budget.channels() <= PRUNE_EVERY, budget.channels()


async def test_a_prune_never_drops_a_channel_still_in_its_window():
    clock = Clock()
    budget = WriteBudget(clock=clock, sleep=clock.sleep)
    for _ in range(budget.writes):
        await budget.acquire(1)  # channel 1 has used its 5 writes at time 0
    for channel in range(2, PRUNE_EVERY + 2):  # enough other writes for a prune, all at time 0
        await budget.acquire(channel)
    assert clock.slept == []
    await budget.acquire(1)
    assert clock.slept == [budget.window], "the sixth write in channel 1 still waits for its window"


async def test_a_forgotten_channel_starts_a_fresh_window():
    clock = Clock()
    budget = WriteBudget(clock=clock, sleep=clock.sleep)
    for _ in range(budget.writes):
        await budget.acquire(1)
    for channel in range(2, PRUNE_EVERY - budget.writes + 2):  # the prune comes with the last of these
        clock.now += 0.1
        await budget.acquire(channel)
    assert 1 not in budget._log and budget.channels() <= budget.window / 0.1 + 1, "only the channels written to lately"
    for _ in range(budget.writes):
        await budget.acquire(1)
    assert clock.slept == []
    await budget.acquire(1)
    assert clock.slept == [budget.window]


def test_the_request_rate_keeps_only_its_window_when_nobody_asks():
    clock = Clock()
    rate = RequestRate(window=1.0, clock=clock)
    for _ in range(10_000):
        rate.record()
        clock.now += 0.01
    assert len(rate._times) <= 101 and rate.total == 10_000
    assert 99 <= rate.rate() <= 100, "the window still counts what it holds"


class Route:
    """A discord.py ``Route`` as the budget reads it."""

    def __init__(self, method: str, path: str, channel_id: int) -> None:
        self.method, self.path, self.channel_id = method, path, channel_id


class Http:
    """A ``discord.http.HTTPClient`` whose requests take ``seconds`` of the clock."""

    def __init__(self, clock: Clock, seconds: float) -> None:
        self.clock, self.seconds = clock, seconds

    async def request(self, route: Route, **kwargs) -> None:
        self.clock.now += self.seconds


async def test_a_write_counts_from_its_answer_not_from_its_grant():
    """Used to fail: a slot counted from its grant only, so five writes granted at once whose requests
    started 3 s later (the table picture still being drawn) left the window at 5.25 s, and a sixth write
    went out about 2 s after the five reached Discord: six writes in 5 s, answered 429."""
    clock = Clock()
    budget = WriteBudget(clock=clock, sleep=clock.sleep)
    http = Http(clock, 0.1)
    budget.install(http)
    for _ in range(budget.writes):
        await budget.acquire(1)
    clock.now = 3.0
    for _ in range(budget.writes):
        await http.request(Route("PATCH", "/channels/{channel_id}/messages/{message_id}", 1))
    clock.now = 5.3
    await budget.acquire(1)
    assert clock.now >= 3.1 + budget.window, "the sixth waits a window after the first of the five answered"
    await http.request(Route("GET", "/channels/{channel_id}/messages", 2))  # a read is not a write
    assert 2 not in budget._log
