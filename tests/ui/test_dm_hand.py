"""The DM hand on a phone (`bot.ui.hand_layout`, `bot.ui.hands`): a Components V2 message that shows the
table drawn at the player's turn, its alt text the table in words, every write valid against Discord's
API document and none through a path Discord refuses (discord-api-docs#7529), within the DM write budget."""

from __future__ import annotations

import pytest

from bot.engine import Card, Game, Rules
from bot.i18n import t
from bot.tables import PLAYING
from bot.ui import dm_picture, hand_layout, render
from tests.support.clocked import WriteLog, play_clocked
from tests.support.helpers import (
    LOOKS,
    controls,
    hidden_cards,
    latest_hand,
    layout_parts,
    message_text,
    play_through_ui,
    table_of,
    table_with,
)
from tests.support.openapi import invalid_requests, refused_by_discord

LAYOUT_FLAG = 1 << 15
QUIET_FLAG = 1 << 12
GALLERY_URL = f"attachment://{dm_picture.PICTURE_NAME}"


async def _inline(func, *args):
    return func(*args)


@pytest.fixture
def simcord_bot(make_bot):
    """The bot as in production (pictures, card emojis, coalesced edits, the write budget), computer moves
    inline and the presenter's waits in virtual time."""
    return make_bot(edit_interval=1.0, write_budget=True, offload=_inline, virtual=True, **LOOKS)


def _shows_drawing(url: str) -> bool:
    """Whether a gallery item's media is the hand's drawing (as sent, or as Discord serves it)."""
    return url == GALLERY_URL or url.endswith(f"/{dm_picture.PICTURE_NAME}")


def _cards_in(text: str) -> set[Card]:
    """The cards a text names as labels (``7♦``)."""
    from bot.engine import DECK

    return {c for c in DECK if str(c) in text}


def _table_words(table, lang: str = "en") -> str:
    """The alt text the hand of the seat to play must carry now."""
    return hand_layout.alt_text(table.game.view(table.game.to_play), lang)


async def _start_vs_computer(world):
    await world.ana.slash(world.channel, "cuarenta new", players=2, rules="quito")
    await world.ana.select(world.channel.last_message, ["medio"], custom_id="c4:v:1")
    table = table_of(world, 1)
    assert table.status == PLAYING
    return table


def _check_turn(world, table, seen: list[str], drawings: list[tuple]) -> None:
    """ana's DM hand at her turn: V2, the table drawn in a gallery whose alt text is the table now, the
    drawing made from the table's cards and the card a caída takes, and nothing of a hidden card."""
    hand = latest_hand(world.ana)
    assert hand.flags.components_v2, "the DM hand is a Components V2 message"
    texts, media = layout_parts(hand)
    view = table.game.view(table.game.to_play)
    if not view.table:
        assert media == [] and t("table.empty", "en") in message_text(hand), "an empty table is said in words"
        return
    assert [_shows_drawing(url) for url, _ in media] == [True], "the table drawn, in one media gallery"
    alt = media[0][1]
    assert alt == _table_words(table), "its alt text is the table in words, as it is now"
    assert _cards_in(alt) == set(view.table), "the alt text names exactly the table's cards"
    assert [a.filename for a in hand.attachments] == [dm_picture.PICTURE_NAME]
    trail = hand_layout.caida_card(view)
    drawn = ([c.code for c in view.table], trail.code if trail else None)
    assert drawn in drawings, "the drawing was made from the table as it is"
    words = "\n".join([*texts, alt])
    hidden = hidden_cards(table) - set(view.hand)
    assert not [c for c in hidden if str(c) in words or f"c4_{c.code}:" in words], "no hidden card of another"
    seen.append(alt)


async def test_a_whole_1v1_mesa_the_dm_hand_shows_the_table_drawn_at_each_turn_within_budget(world, writes,
                                                                                           monkeypatch):
    drawings: list[tuple] = []
    real = dm_picture.draw_table

    def spy(cards, trail, label):
        drawings.append((list(cards), trail))
        return real(cards, trail, label)

    monkeypatch.setattr(dm_picture, "draw_table", spy)
    table = await _start_vs_computer(world)
    seen: list[str] = []

    async def on_turn(t_, member, play):
        _check_turn(world, table_of(world, 1), seen, drawings)
        await play_through_ui(member, t_, play)

    table = await play_clocked(world, 1, {world.ana.id: world.ana}, on_turn=on_turn)
    assert table.status == "finished"
    assert len(seen) > 10, "the table was drawn at most turns"
    dm = world.ana.user.dm_channel.id
    dm_writes = [w for w in writes.writes if w.channel == dm]
    worst = WriteLog(world.env, dm_writes).densest(5.0)
    assert max(worst.values()) <= 5, f"at most 5 writes per 5 s in the DM: {worst}"
    token_edits = [w for w in dm_writes if w.via_token and w.method == "PATCH"]
    assert not [w for w in token_edits if GALLERY_URL in str(w.body)], "no gallery edited in through a token"
    assert invalid_requests(world.env.http_requests) == []
    assert refused_by_discord(world.env.http_requests) == []
    assert world.env.errors == []


async def test_at_a_turn_after_a_click_the_drawing_comes_as_a_quiet_follow_up_not_a_token_edit(world, writes):
    await _start_vs_computer(world)
    turns = 0

    async def on_turn(t_, member, play):
        nonlocal turns
        turns += 1
        await play_through_ui(member, t_, play)

    await play_clocked(world, 1, {world.ana.id: world.ana}, on_turn=on_turn, turns=6, think=1.0)
    dm = world.ana.user.dm_channel.id
    quiet = [w for w in writes.writes if w.channel == dm and w.via_token and w.method == "POST"
             and int(w.body.get("flags") or 0) & QUIET_FLAG]
    assert quiet, "the hands after ana's clicks went through her token as quiet follow-ups"
    assert all(int(w.body["flags"]) & LAYOUT_FLAG and GALLERY_URL in str(w.body) for w in quiet)
    deletes = [w for w in writes.writes if w.channel == dm and w.via_token and w.method == "DELETE"]
    assert len(deletes) >= len(quiet), "each replaced the hand before it"
    assert len([m for m in world.ana.user.dm_channel.history() if m.flags.components_v2]) == 1, "one hand"
    assert refused_by_discord(world.env.http_requests) == []
    assert table_of(world, 1).messages.dms["0"]["v2"]


async def test_the_hand_command_shows_the_table_drawn_and_a_click_on_it_is_answered_in_place(world):
    await world.ana.slash(world.channel, "cuarenta new", players=2, rules="quito")
    await world.beto.slash(world.channel, "cuarenta join")
    table = table_of(world, 1)
    seat = table.game.to_play
    member = world.ana if table.seats[seat].user_id == world.ana.id else world.beto
    result = await member.slash(world.channel, "cuarenta hand")
    assert result.ephemeral and result.response.message.flags.components_v2
    _, media = layout_parts(result.response.message)
    if table.game.table:
        assert [_shows_drawing(url) for url, _ in media] == [True]
        assert media[0][1] == _table_words(table)
    card = next(c for c in controls(result.response.message) if c.custom_id.startswith("c4:p:"))
    await member.click(result.response, custom_id=card.custom_id)
    assert refused_by_discord(world.env.http_requests) == []
    assert invalid_requests(world.env.http_requests) == []


def _mid_hand() -> Game:
    """A 1 v 1 game with at least two cards on the table (random legal plays from a seed)."""
    import random

    rng = random.Random(5)
    game = Game.new(Rules.preset("quito"), 2, "dm-hand")
    while len(game.table) < 2:
        game.play(rng.choice(game.legal_plays()))
    return game


def test_for_token_turns_a_gallery_of_an_upload_into_its_alt_text():
    game = _mid_hand()
    table = table_with(game, "quito")
    seat = game.to_play
    payload = hand_layout.hand_layout(table, seat, game.view(seat), "es")
    assert payload.files and GALLERY_URL in str(payload.view.to_components()), "at its turn, the table drawn"
    safe = hand_layout.for_token(payload)
    assert safe.files == [] and "attachment://" not in str(safe.view.to_components())
    alt = hand_layout.alt_text(game.view(seat), "es")
    texts, media = layout_parts({"components": safe.view.to_components()})
    assert alt in texts and media == [], "the table is said in words instead"
    assert hand_layout.for_token(render.Payload(content="x")).content == "x"
    waiting = hand_layout.hand_layout(table, 1 - seat, game.view(1 - seat), "es")
    assert not waiting.files, "between turns the table is said in words (no drawing)"


def test_a_hand_sent_as_a_classic_message_is_edited_as_one():
    game = _mid_hand()
    table = table_with(game, "quito")
    seat = game.to_play
    classic = hand_layout.hand_like(False, table, seat, game.view(seat), "es", picture=True)
    layout = hand_layout.hand_like(True, table, seat, game.view(seat), "es")
    assert classic.content and not classic.layout, "an old hand keeps its kind"
    assert layout.layout and layout.content is None


def test_the_drawing_holds_the_table_cards_only():
    import io

    from PIL import Image

    data = dm_picture.draw_table(["3C", "5D", "7S", "QH", "JD", "2C", "AS"], "5D", "¡cae!")
    assert data is not None
    image = Image.open(io.BytesIO(data))
    assert image.size == dm_picture.size_of(7) and dm_picture.rows_of(7) == 2
    assert dm_picture.draw_table([], None, "¡cae!") is None, "an empty table is said in words"
