"""The public table message: coalesced edits, re-posted each hand, /cuarenta table, /cuarenta hand,
and hidden information kept out of other players' DMs."""

from __future__ import annotations

import asyncio
import re

import discord
import pytest

from bot.tables import Messages, Seat, Table
from bot.ui import delivery
from bot.ui.notifier import DiscordNotifier
from tests.support.helpers import (
    controls,
    custom_ids,
    galleries,
    is_layout,
    latest_hand,
    layout_texts,
    message_text,
    pick_play,
    play_through_ui,
    public_message,
    table_of,
)


class FakeClock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now

    async def sleep(self, seconds: float) -> None:
        self.now += seconds
        await asyncio.sleep(0)


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
def simcord_bot(make_bot, clock, request):
    """Edits coalesced on the fake clock; a test's ``simcord_bot`` mark adds its options (the picture)."""
    marker = request.node.get_closest_marker("simcord_bot")
    return make_bot(edit_interval=1.0, clock=clock, sleep=clock.sleep, **(marker.kwargs if marker else {}))


async def test_public_edits_are_at_most_one_a_second_per_table(world, clock, monkeypatch):
    edits: list[tuple[int, float]] = []
    original = delivery.edit_channel_message

    async def spy(client, channel_id, message_id, payload):
        if channel_id == world.channel.id:
            edits.append((message_id, clock.now))
        return await original(client, channel_id, message_id, payload)

    monkeypatch.setattr(delivery, "edit_channel_message", spy)
    await world.ana.slash(world.channel, "cuarenta new", players=2)
    await world.ana.select(world.channel.last_message, ["medio"], custom_id="c4:v:1")
    table = table_of(world, 1)
    for _ in range(8):
        _, play = pick_play(table)
        await play_through_ui(world.ana, table, play)

    public = [(m, at) for m, at in edits if m == table.messages.public]
    assert public, "the table message was edited"
    times = [at for _, at in public]
    assert all(b - a >= 1.0 for a, b in zip(times, times[1:], strict=False)), times
    assert len(public) <= table.nonce, "no more than one edit per accepted play"


async def test_a_burst_of_changes_makes_one_edit(monkeypatch):
    """Unit test of the coalescer: five changes while the edit waits for its slot give one edit, and it
    shows the state at the time it is made."""
    edits: list[int] = []
    gate = asyncio.Event()

    async def edit(client, channel_id: int, message_id: int, payload) -> None:
        edits.append(message_id)

    monkeypatch.setattr(delivery, "edit_channel_message", edit)

    class Client:
        pass

    class Service:
        async def public_language(self, guild_id: int) -> str:
            return "es"

        async def behind(self, table: Table) -> bool:
            return False

    async def sleep(seconds: float) -> None:
        await gate.wait()

    from bot.engine import Game, Rules

    posted = discord.utils.time_snowflake(discord.utils.utcnow())  # a message posted just now
    table = Table(id=1, guild_id=1, channel_id=2, host_id=3, players=2, preset="quito", status="playing",
                  seats=[Seat(None, ai="medio", ai_number=2), Seat(None, ai="medio", ai_number=1)],
                  game=Game.new(Rules.preset("quito"), 2, "s"), messages=Messages(public=posted, public_hand=1))
    notifier = DiscordNotifier(Client(), Service(), edit_interval=1.0, clock=lambda: 0.0, sleep=sleep,  # type: ignore[arg-type]
                               pictures=False)
    notifier._state(table).last_write = 0.0
    notifier._state(table).hand = 1
    for _ in range(5):
        await notifier.game_changed(table, [])
    await asyncio.sleep(0)
    assert edits == [], "the edit waits for its slot"
    gate.set()
    await notifier.settled()
    assert edits == [posted]


@pytest.mark.simcord_bot(pictures=True)
async def test_at_the_end_of_a_hand_its_table_message_becomes_the_record_and_the_next_is_posted(world):
    await world.ana.slash(world.channel, "cuarenta new", players=2)
    await world.ana.select(world.channel.last_message, ["medio"], custom_id="c4:v:1")
    table = table_of(world, 1)
    first = table.messages.public
    while table.game.hand_number == 1 and table.status == "playing":
        _, play = pick_play(table)
        await play_through_ui(world.ana, table, play)
    await world.env.advance_time(3)
    assert table.messages.public != first
    old = next(m for m in world.channel.history() if m.id == first)
    assert is_layout(old), "a V2 table message becomes a V2 record"
    text = "\n".join(layout_texts(old))
    assert "Mano 1 · Mesa #1" in text
    assert re.search(r"^🟦 \*\*\d+\*\* · 🟧 \*\*\d+\*\* de 40$", text, re.M), "the score, beside «Ver jugadas»"
    assert len(text.splitlines()) <= 6, "a short record"
    assert not old.attachments and not galleries(old), "the record has no picture"
    assert custom_ids(old) == ["c4:j:1:1"], "its one button: «Ver jugadas»"
    plays = await world.beto.click(old, custom_id="c4:j:1:1")
    log = plays.response.embeds[0].description
    assert plays.ephemeral and "**Deal 1:**" in log and "**Deal 4:**" in log, log
    assert world.channel.history()[-1].id == table.messages.public, "the new table message is at the bottom"
    assert public_message(world, table).attachments, "the table message carries the picture"


async def test_table_command_reposts_at_the_bottom(world):
    await world.ana.slash(world.channel, "cuarenta new", players=2)
    await world.ana.select(world.channel.last_message, ["medio"], custom_id="c4:v:1")
    table = table_of(world, 1)
    first = table.messages.public
    await world.beto.send(world.channel, "hola")
    result = await world.beto.slash(world.channel, "cuarenta table")
    assert result.ephemeral
    assert table.messages.public != first
    assert world.channel.history()[-1].id == table.messages.public
    old = next(m for m in world.channel.history() if m.id == first)
    assert is_layout(old), "the old table message keeps its kind"
    assert layout_texts(old) == ["Mesa #1: la mesa se volvió a publicar más abajo."]
    assert not custom_ids(old) and not old.attachments, "no buttons and no picture left on it"


async def test_hand_command_shows_the_hand_ephemerally(world):
    await world.ana.slash(world.channel, "cuarenta new", players=2)
    await world.beto.slash(world.channel, "cuarenta join")
    table = table_of(world, 1)
    result = await world.ana.slash(world.channel, "cuarenta hand")
    assert result.ephemeral
    labels = [b.label for b in controls(result.response.message) if hasattr(b, "label")]
    assert labels[:5] == [str(c) for c in sorted(table.game.hands[0], key=lambda c: (c.rank, c.suit))]
    nobody = await world.caro.slash(world.channel, "cuarenta hand")
    assert nobody.response.content == "You are not playing at this table."


async def test_dm_shows_server_channel_table_and_only_the_own_hand(world):
    await world.ana.slash(world.channel, "cuarenta new", players=2)
    await world.beto.slash(world.channel, "cuarenta join")
    table = table_of(world, 1)
    for _ in range(3):
        for seat, member in ((0, world.ana), (1, world.beto)):
            dm = latest_hand(member)
            first = message_text(dm).split("\n")[1 if table.game.to_play == seat else 0]  # after "Your turn, …!"
            assert first == "**Table #1 · Quito Club · #cuarenta**"
            other = table.game.hands[1 - seat]
            assert not [c for c in other if str(c) in message_text(dm) or f"c4_{c.code}:" in message_text(dm)], "another player's cards never reach a DM"
            labels = [b.label for b in controls(dm) if hasattr(b, "label")]
            hand = sorted(table.game.hands[seat], key=lambda c: (c.rank, c.suit))
            assert labels[: len(hand)] == [str(c) for c in hand], "the hand is sorted by rank"
        seat, play = pick_play(table)
        await play_through_ui(world.ana if seat == 0 else world.beto, table, play)
    mover = world.ana if table.game.to_play == 0 else world.beto
    assert message_text(latest_hand(mover)).startswith(f"**Your turn, {table.seats[table.game.to_play].name}!**\n**Table #1 · ")
    assert "\n".join(layout_texts(public_message(world, table))).count(f"<@{mover.id}>") == 1
