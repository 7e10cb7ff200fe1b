"""How the table looks, through SimCord, with the bot as in production (edits coalesced once a second, Discord's write
budget on, the table picture and the card emojis): whole mesas played in virtual time, checked at every
step: every play on the public record, sorted hands, capture menus without twins, turn alerts as new
messages only when the person is not at the table, and never more than 5 writes in 5 s in any channel."""

from __future__ import annotations

import re

import pytest

from bot.engine import Card, EventKind, Play
from bot.tables import FINISHED
from bot.tables.choices import outcome
from bot.ui.records import hand_slice
from bot.ui.words import records, short_name
from tests.support.clocked import WriteLog, play_clocked
from tests.support.helpers import (
    LOOKS,
    alt_texts,
    assert_no_hidden_cards_in_public,
    controls,
    custom_ids,
    galleries,
    hand_messages,
    is_layout,
    latest_hand,
    layout_texts,
    message_text,
    pick_play,
    play_through_ui,
    select_values,
    table_of,
)

K = EventKind


async def _inline(func, *args):
    return func(*args)


@pytest.fixture
def simcord_bot(make_bot):
    """The bot as in production (the picture, the card emojis), but the computer players think inline (no
    worker thread: faster) and the presenter waits in virtual time only (`clocked.VirtualWaits`)."""
    return make_bot(edit_interval=1.0, write_budget=True, offload=_inline, virtual=True, **LOOKS)


def rank_order(labels: list[str]) -> bool:
    cards = [Card.parse(label[:-1] + "SHDC"["♠♥♦♣".index(label[-1])]) for label in labels]
    return [c.rank for c in cards] == sorted(c.rank for c in cards)


def card_labels_of(body: dict) -> list[str]:
    """The labels of the card buttons of a message body (request JSON)."""
    return [item["label"] for item in controls(body) if str(item.get("custom_id", "")).startswith("c4:p:")]


def notifies(body: dict) -> bool:
    """Whether a new message (request JSON) notifies: not sent with SUPPRESS_NOTIFICATIONS (4096), as
    the quiet hands that bring the table drawn are (`bot.ui.hands`)."""
    return not int(body.get("flags") or 0) & 4096


def hand_bodies(env) -> list[dict]:
    """Every hand the bot rendered: DM sends and edits, and interaction answers that edit a hand."""
    out = []
    for request in env.http_requests:
        body = request.json
        if not isinstance(body, dict):
            continue
        data = body.get("data") if "type" in body and "data" in body else body
        if isinstance(data, dict) and card_labels_of(data):
            out.append(data)
    return out


def checking_player(world, menus: list[list[str]]):
    """Plays like the greedy player, but prefers cards with a capture menu, and checks each menu."""

    async def on_turn(table, member, play):
        game = table.game
        view = game.view(game.to_play)
        by_card = {}
        for p in view.legal_plays:
            if p.captures:
                by_card.setdefault(p.card, []).append(p)
        for plays in by_card.values():
            if len({outcome(p, view) for p in plays}) > 1:
                play = plays[-1]
                break
        captures = [p for p in game.plays_for(play.card) if p.captures]
        if play.captures and len({outcome(p, view) for p in captures}) > 1:
            nonce = table.nonce
            hand = latest_hand(member)
            result = await member.user.click(hand, custom_id=f"c4:p:{table.id}:{nonce}:{play.card.code}")
            assert table.nonce == nonce, "a card with several outcomes asks first"
            menu = result.response or hand
            cid = f"c4:c:{table.id}:{nonce}:{play.card.code}"
            assert cid in custom_ids(menu), "the capture menu is on the hand itself"
            values = [v for v in select_values(menu, cid) if v not in ("-",) and not v.startswith("~")]
            offered = [Play.parse(play.card, v.split(".")) for v in values]
            assert len({outcome(p, view) for p in offered}) == len(offered), f"twins in the menu: {values}"
            menus.append(values)
            value = next((v for v in values if v == ".".join(c.code for c in play.sorted_captures())), values[0])
            await member.user.select(menu, [value], custom_id=cid)
        else:
            await play_through_ui(member, table, play)
        assert_no_hidden_cards_in_public(world, table_of(world, table.id))
        assert_table_message_is_v2(world, table_of(world, table.id))

    return on_turn


def assert_table_message_is_v2(world, table) -> None:
    """The live table message (when the table has one) is a Components V2 layout whose picture is in a
    media gallery with the table in words as its alt text."""
    if not table.messages.public:
        return
    message = next((m for m in world.channel.history() if m.id == table.messages.public), None)
    if message is None or table.status == FINISHED:
        return
    assert is_layout(message), "the table message is V2"
    texts = alt_texts(message)
    assert len(galleries(message)) == 1 and len(texts) == 1, "its picture is in one media gallery"
    assert len(texts[0]) > 40, f"the alt text holds the table in words: {texts[0]!r}"


RECORD_SIDE = re.compile(r"^(?:🟦|🟧) \*\*[^*]*?\+(\d+):\*\* (.*)$")


def assert_records_add_up(world, table) -> int:
    """Each hand's record in the channel says each side's points as a total and as parts that add up to it
    (``"🟦 **A +12:** ana: 1 caída +2 · Compu 1 (media): 2 limpias +4 · cartón +6"``); the records' totals
    make the marcador. Returns how many records were checked."""
    checked = 0
    for message in world.channel.history():
        if not any(cid.startswith(f"c4:j:{table.id}:") for cid in custom_ids(message)):
            continue
        for line in "\n".join(layout_texts(message)).splitlines():
            side = RECORD_SIDE.match(line)
            if side:
                parts = [int(n) for n in re.findall(r"\+(\d+)", side.group(2))]
                assert sum(parts) == int(side.group(1)), f"the parts add up to the side's points: {line}"
        checked += 1
    return checked


def the_record(world, table, writes: WriteLog) -> str:
    """Everything the bot ever wrote in the public channel (every version of every message, embeds and
    layouts)."""
    parts = []
    for w in writes.writes:
        if w.channel == world.channel.id and isinstance(w.body, dict):
            parts.append(str(w.body.get("content") or ""))
            for embed in w.body.get("embeds") or []:
                parts += [embed.get("title", ""), embed.get("description", "")]
            parts += layout_texts(w.body.get("components") or [])
    return "\n".join(parts)


async def assert_every_play_on_the_record(world, table, writes: WriteLog) -> None:
    """Every play of every hand reached a spectator: in the channel, or one «Ver jugadas» away on its
    hand's record."""
    game = table.game
    text = the_record(world, table, writes)
    for number in sorted({e.number for e in game.events if e.kind == K.HAND_START}):
        custom_id = f"c4:j:{table.id}:{number}"
        record = next(m for m in world.channel.history() if custom_id in custom_ids(m))
        answer = await world.eva.click(record, custom_id=custom_id)
        text += "\n" + answer.response.embeds[0].description
    hands = {e.number for e in game.events if e.kind == K.HAND_START}
    for number in sorted(hands):
        hand = hand_slice(game.events, number)
        for record in records(hand):
            if record.kind != "play":
                continue
            token = f"{short_name(table, record.seat, 'es')} {record.card}"
            clicked = f"{short_name(table, record.seat, 'en')} {record.card}"  # «Ver jugadas» in eva's language
            assert token in text or clicked in text, f"hand {number}: {token} never reached the channel"
    assert sum(1 for e in game.events if e.kind == K.PLAYED) > 40


def assert_within_budget(writes: WriteLog) -> None:
    worst = writes.densest(5.0)
    assert worst and max(worst.values()) <= 5, worst


@pytest.mark.slow
async def test_1v1_against_a_computer_that_answers_at_once(world, writes):
    await world.ana.slash(world.channel, "cuarenta new", players=2, rules="quito")
    await world.ana.select(world.channel.last_message, ["medio"], custom_id="c4:v:1")
    table = table_of(world, 1)
    assert table.status == "playing" and table.seats[1].ai == "medio"
    menus: list[list[str]] = []

    table = await play_clocked(world, 1, {world.ana.id: world.ana}, on_turn=checking_player(world, menus))

    assert table.status == FINISHED
    await assert_every_play_on_the_record(world, table, writes)
    assert assert_records_add_up(world, table) == table.game.hand_number, "a record per hand, each adds up"
    assert_within_budget(writes)
    for body in hand_bodies(world.env):
        assert rank_order(card_labels_of(body)), card_labels_of(body)
    assert menus, "some capture menus were shown"
    dm = world.ana.user.dm_channel.id
    posts = [w for w in writes.writes if w.channel == dm and w.method == "POST" and w.body
             and card_labels_of(w.body) and notifies(w.body)]
    assert len(posts) == 1, "no turn alert while the person plays at once: one hand message notifies"
    text = the_record(world, table, writes)
    assert "Equipo A" not in text and "Equipo B" not in text, "1 v 1 names the players"
    record = table.messages.dms["0"]
    hand = next(m for m in world.ana.user.dm_channel.history() if m.id == record["message"])
    assert "wins the mesa" in message_text(hand), "when the mesa ends, the DM says who won"
    assert not [c for c in custom_ids(hand) if c.startswith(("c4:p:", "c4:t:", "c4:c:"))], "no card buttons left"
    assert world.env.errors == []


@pytest.mark.slow
async def test_2v2_two_people_and_two_computers(world, writes):
    await world.ana.slash(world.channel, "cuarenta new", players=4, rules="rapido")
    await world.beto.slash(world.channel, "cuarenta join", team="A")
    lobby = world.channel.last_message
    await world.ana.select(lobby, ["facil"], custom_id="c4:v:1")
    await world.ana.select(lobby, ["dificil"], custom_id="c4:v:1")
    table = table_of(world, 1)
    assert table.status == "playing"
    members = {world.ana.id: world.ana, world.beto.id: world.beto}
    menus: list[list[str]] = []

    table = await play_clocked(world, 1, members, on_turn=checking_player(world, menus))

    await assert_every_play_on_the_record(world, table, writes)
    assert assert_records_add_up(world, table) == table.game.hand_number, "a record per hand, each adds up"
    assert_within_budget(writes)
    for body in hand_bodies(world.env):
        assert rank_order(card_labels_of(body))
    public = world.channel.history()
    final = next(m for m in public if m.id == table.messages.public)
    ids = custom_ids(final)
    assert "c4:h:1" not in ids and "c4:r:1" in ids, "the finished table has Revancha, not My hand"
    assert world.env.errors == []


async def test_waiting_for_a_slow_player_brings_an_alert_each_turn_and_the_old_hand_goes(world, writes):
    await world.ana.slash(world.channel, "cuarenta new", players=2, rules="quito")
    await world.beto.slash(world.channel, "cuarenta join")
    table = table_of(world, 1)
    members = {world.ana.id: world.ana, world.beto.id: world.beto}
    dm = {world.ana.id: world.ana.user.dm_channel.id, world.beto.id: world.beto.user.dm_channel.id}
    turns = {world.ana.id: 0, world.beto.id: 0}

    async def on_turn(t, member, play):
        turns[member.id] += 1
        await play_through_ui(member, t, play)

    await play_clocked(world, 1, members, slow={world.ana.id: 12.0}, think=1.0, on_turn=on_turn,
                       turns=16)
    posts = {uid: [w for w in writes.writes if w.channel == ch and w.method == "POST" and w.body
                   and card_labels_of(w.body)] for uid, ch in dm.items()}
    alerts = {uid: [w for w in sent if notifies(w.body)] for uid, sent in posts.items()}
    deletes = [w for w in writes.writes if w.channel == dm[world.beto.id] and w.method == "DELETE"]
    assert len(alerts[world.beto.id]) >= turns[world.beto.id] - 1 >= 5, "beto waited 12 s: alerted each turn"
    assert len(deletes) == len(posts[world.beto.id]) - 1, "each new hand message replaces the previous one"
    assert len(hand_messages(world.beto)) == 1, "one hand message in the DM at a time"
    assert len(alerts[world.ana.id]) <= 3, "ana plays at once after beto: hardly ever alerted"
    assert_within_budget(writes)
    assert table.status == "playing"


async def test_closed_dms_get_a_channel_mention_that_goes_once_they_played(world, writes):
    await world.ana.slash(world.channel, "cuarenta new", players=2)
    dm = world.ana.user.dm_channel
    world.env.inject_error("POST", f"/channels/{dm.id}/messages", status=403, code=50007, times=None)
    await world.beto.slash(world.channel, "cuarenta join")
    table = table_of(world, 1)
    assert table.status == "playing" and 0 in table.messages.dm_closed
    alerted = 0
    for _ in range(6):
        await world.env.advance_time(12)  # whoever is to play takes their time
        seat, play = pick_play(table)
        if seat == 1:
            await play_through_ui(world.beto, table, play)
            continue
        pings = [m for m in world.channel.history() if "Te toca" in (m.content or "")]
        assert len(pings) == 1 and f"<@{world.ana.id}>" in pings[0].content, "one alert for the turn"
        public = next(m for m in world.channel.history() if m.id == table.messages.public)
        shown = await world.ana.click(public, custom_id="c4:h:1")
        await play_through_ui(world.ana, table, play, via=shown.response)
        await world.env.advance_time(6)
        assert not [m for m in world.channel.history() if m.id == pings[0].id], "removed once played"
        alerted += 1
    assert alerted >= 2
    assert_within_budget(writes)
