"""The live table message as a Components V2 layout, through SimCord, with the bot as in production (edits
coalesced once a second, the write budget, the picture and the card emojis): whole mesas checked at every
step (a V2 message, the picture in a media gallery with the table in words as its alt text, the
container in the colour of the side to play, every write with the bot's token and none Discord refuses,
at most 5 writes in 5 s in the channel), and a table whose message was sent as an embed before the
upgrade, which keeps it an embed across a restart. Every request body is also validated against
Discord's OpenAPI document at teardown (``conftest.env``)."""

from __future__ import annotations

from typing import Any

import pytest

from bot.tables import FINISHED
from bot.ui import render, table_message
from tests.support.clocked import WriteLog, play_clocked
from tests.support.helpers import (
    LOOKS,
    accent_colour,
    alt_texts,
    custom_ids,
    galleries,
    gallery_urls,
    is_layout,
    layout_texts,
    play_through_ui,
    public_message,
    table_of,
)
from tests.support.openapi import refused_by_discord

V2 = 1 << 15


async def _inline(func, *args):
    return func(*args)


@pytest.fixture
def simcord_bot(make_bot):
    """The bot as in production (the picture, the card emojis), computer players thinking inline, the
    presenter's waits in virtual time."""
    return make_bot(edit_interval=1.0, write_budget=True, offload=_inline, virtual=True, **LOOKS)


def table_bodies(env: Any, channel_id: int) -> list[tuple[str, str, dict]]:
    """Every request that wrote a live table message in the channel: (method, path, body); a table message
    is the one with the «Mi mano» button."""
    out = []
    for request in env.http_requests:
        body = request.json
        if not isinstance(body, dict):
            continue
        data = body.get("data") if "type" in body and isinstance(body.get("data"), dict) else body
        if any(str(c).startswith("c4:h:") for c in custom_ids(data.get("components") or [])):
            out.append((request.method, request.path.split("?", 1)[0], data))
    return out


def assert_every_table_write_is_a_layout_with_the_bots_token(world: Any) -> None:
    """Every body that wrote a table message: posted or edited in the channel with the bot's token (never
    through an interaction's), V2, one container in a side's colour, the picture in a media gallery with
    alt text, and nothing Discord refuses (discord-api-docs#7529)."""
    bodies = table_bodies(world.env, world.channel.id)
    assert bodies, "the table message was written"
    for method, path, body in bodies:
        assert path.startswith(f"/api/v10/channels/{world.channel.id}/messages") or path.startswith(
            f"/channels/{world.channel.id}/messages"), f"{method} {path}: a table write with the bot's token"
        if method == "POST":
            assert body.get("flags", 0) & V2, "a new table message is V2"
        assert not body.get("content") and not body.get("embeds"), "a layout has no content or embed"
        assert accent_colour(body["components"]) in {c.value for c in render.SIDE_COLOURS}
        urls = gallery_urls(body["components"])
        assert urls == [f"attachment://{render.PICTURE_NAME}"], "the picture, in a media gallery"
        (alt,) = alt_texts(body["components"])
        assert "Mesa #1" in alt, "the table in words, for screen readers"
    assert refused_by_discord(world.env.http_requests) == []


def assert_within_budget(writes: WriteLog) -> None:
    worst = writes.densest(5.0)
    assert worst and max(worst.values()) <= 5, worst


def check_live_table(world: Any, seen: set[int]):
    """A player's turn hook: once the coalesced edit is out, the table message is V2, shows the picture in a
    media gallery with the table in words as its alt text, is in the colour of the side to play, and says
    whose turn it is once, as a mention."""

    async def on_turn(table, member, play):
        mention = f"<@{member.id}>"
        for _ in range(30):  # the coalesced edit, after the write budget's wait at a new hand
            await world.env.advance_time(0.5)
            posted = table.messages.public is not None  # None between a hand's record and the next table
            if posted and mention in "\n".join(layout_texts(public_message(world, table))):
                break
        message = public_message(world, table)
        assert is_layout(message) and not message.embeds and not message.content
        assert len(galleries(message)) == 1 and len(message.attachments) == 1
        (alt,) = alt_texts(message)
        assert f"Mesa #{table.id}" in alt
        side = table.game.to_play % 2
        assert accent_colour(message) == render.SIDE_COLOURS[side].value, "the colour of the side to play"
        seen.add(side)
        text = "\n".join(layout_texts(message))
        assert text.count(mention) == 1, "whose turn, once, as a mention"
        assert {"c4:h:1", "c4:y:1"} <= set(custom_ids(message))
        await play_through_ui(member, table, play)

    return on_turn


def colours_as_built(monkeypatch) -> list[tuple[int, int | None]]:
    """Record, for every table layout built, the side to play then and the container's accent colour."""
    built: list[tuple[int, int | None]] = []
    original = render.table_layout

    def table_layout(table, lang, picture, **kwargs):
        payload = original(table, lang, picture, **kwargs)
        to_play = table.game.to_play
        built.append((to_play % 2 if to_play is not None else -1, accent_colour(payload.view.to_components())))
        return payload

    monkeypatch.setattr(render, "table_layout", table_layout)
    return built


async def test_1v1_against_a_computer_the_table_is_a_layout_at_every_step(world, writes, monkeypatch):
    built = colours_as_built(monkeypatch)
    await world.ana.slash(world.channel, "cuarenta new", players=2, rules="quito")
    await world.ana.select(world.channel.last_message, ["medio"], custom_id="c4:v:1")
    seen: set[int] = set()

    table = await play_clocked(world, 1, {world.ana.id: world.ana}, on_turn=check_live_table(world, seen))

    assert table.status == FINISHED
    assert seen == {0}, "checked at every turn of the person (side A)"
    sides = {side for side, _ in built}
    assert {0, 1} <= sides
    assert all(colour == render.SIDE_COLOURS[side].value for side, colour in built if side >= 0), \
        "every table built is in the colour of the side to play, the computer's too"
    assert_every_table_write_is_a_layout_with_the_bots_token(world)
    assert_within_budget(writes)
    assert world.env.errors == []


async def test_2v2_two_people_and_two_computers_the_table_is_a_layout_at_every_step(world, writes, monkeypatch):
    built = colours_as_built(monkeypatch)
    await world.ana.slash(world.channel, "cuarenta new", players=4, rules="rapido")
    await world.beto.slash(world.channel, "cuarenta join", team="B")
    lobby = world.channel.last_message
    await world.ana.select(lobby, ["facil"], custom_id="c4:v:1")
    await world.ana.select(lobby, ["dificil"], custom_id="c4:v:1")
    table = table_of(world, 1)
    assert table.status == "playing"
    seen: set[int] = set()

    table = await play_clocked(world, 1, {world.ana.id: world.ana, world.beto.id: world.beto},
                               on_turn=check_live_table(world, seen))

    assert table.status == FINISHED
    assert seen == {0, 1}, "both sides' colours seen on the message"
    assert all(colour == render.SIDE_COLOURS[side].value for side, colour in built if side >= 0)
    assert_every_table_write_is_a_layout_with_the_bots_token(world)
    assert_within_budget(writes)
    assert world.env.errors == []


async def test_the_start_click_answers_with_the_interaction_and_the_table_goes_with_the_bots_token(world):
    """Lobby → start through the start button: the click's answer is the interaction's own (a callback),
    and the table message with its picture is posted and edited with the bot's token, so no edit through
    the click's token puts a media gallery of an upload in a message (discord-api-docs#7529)."""
    await world.ana.slash(world.channel, "cuarenta new", players=4, rules="quito")
    await world.beto.slash(world.channel, "cuarenta join", team="B")
    table = table_of(world, 1)
    assert table.status == "lobby"
    started = await world.ana.click(world.channel.last_message, custom_id="c4:l:1:s")  # computers fill the rest
    assert started.ephemeral and table.status == "playing"
    await world.env.advance_time(3)
    message = public_message(world, table)
    assert is_layout(message) and galleries(message)
    token_writes = [r for r in world.env.http_requests if "/webhooks/" in r.path or "/interactions/" in r.path]
    assert token_writes, "the clicks were answered through their interactions"
    assert not [r for r in token_writes if r.method == "PATCH" and isinstance(r.json, dict)
                and galleries(r.json.get("components") or [])], "no edit through a token carries the table's gallery"
    assert refused_by_discord(world.env.http_requests) == []


async def test_a_table_posted_as_an_embed_stays_an_embed_across_a_restart(world, make_bot, monkeypatch):
    """A table whose message an older version posted as an embed: after the upgrade (a restart), that
    message is still edited as an embed (Discord would refuse to turn it into a layout with content or
    embeds left, and the old message keeps its look); the next hand's message is a layout."""
    old_payload = table_message.TableMessage.payload

    async def as_before(self, table, lang, *, layout=True):  # the version before the upgrade
        return await old_payload(self, table, lang, layout=False)

    monkeypatch.setattr(table_message.TableMessage, "payload", as_before)
    await world.ana.slash(world.channel, "cuarenta new", players=2, rules="quito")
    await world.ana.select(world.channel.last_message, ["medio"], custom_id="c4:v:1")
    table = table_of(world, 1)
    await play_clocked(world, 1, {world.ana.id: world.ana}, turns=1)
    old = table.messages.public
    assert not is_layout(public_message(world, table)) and public_message(world, table).embeds
    assert not table.messages.public_layout and "public_layout" not in table.messages.to_dict(), \
        "stored as an older version stored it (no such key)"
    monkeypatch.setattr(table_message.TableMessage, "payload", old_payload)

    await world.env.restart_bot(make_bot(edit_interval=1.0, write_budget=True, offload=_inline, virtual=True,
                                         **LOOKS))
    table = table_of(world, 1)
    assert table.messages.public == old and not table.messages.public_layout
    hand = table.game.hand_number
    await play_clocked(world, 1, {world.ana.id: world.ana}, turns=2)  # 3 of the hand's 5 cards each
    assert table.game.hand_number == hand
    message = public_message(world, table)
    assert message.id == old and not is_layout(message), "the old message is still an embed"
    assert message.embeds and message.embeds[0].image.url, "with its picture"
    edits = [r for r in world.env.http_requests
             if r.method == "PATCH" and r.path.split("?", 1)[0].endswith(f"/messages/{old}")]
    assert edits, "the old message was edited after the restart"
    assert all(not (isinstance(r.json, dict) and r.json.get("flags", 0) & V2) for r in edits)
    while table.game.hand_number == hand and table.status == "playing":
        await play_clocked(world, 1, {world.ana.id: world.ana}, turns=1)
    await world.env.advance_time(3)
    assert table.status == "playing"
    new = public_message(world, table)
    assert new.id != old and is_layout(new), "the next hand's table message is a layout"
    assert table.messages.public_layout
    record = next(m for m in world.channel.history() if m.id == old)
    assert not is_layout(record) and record.embeds, "the old message became its hand's record, an embed"
    assert world.env.errors == []
