"""No click ever fails: every component interaction gets exactly one answer, whatever
the message now shows, after a restart, and for custom_ids that are not (or no longer) ours."""

from __future__ import annotations

import asyncio
import logging
import string

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.i18n import t
from tests.support.helpers import (
    click_raw,
    custom_ids,
    latest_hand,
    message_text,
    pick_play,
    play_through_ui,
    public_message,
    table_of,
)


async def start_vs_computer(world):
    await world.ana.slash(world.channel, "cuarenta new", players=2)
    await world.ana.select(world.channel.last_message, ["medio"], custom_id="c4:v:1")
    table = table_of(world, 1)
    assert table.game is not None
    return table


def one_click_play(table):
    """A play of ana's that one click makes (no capture menu): a card with at most one capture."""
    game = table.game
    for card in game.hands[0]:
        captures = [p for p in game.plays_for(card) if p.captures]
        if len(captures) <= 1:
            return captures[0] if captures else next(p for p in game.plays_for(card) if p.is_trail)
    raise AssertionError("every card of this hand asks which capture")


def ana_to_play(world, table):
    """ana's DM hand on her turn (ana is seat 0; the computer plays at once, ai_delay 0)."""
    assert table.game.to_play == 0
    return latest_hand(world.ana)


async def test_two_card_race_the_second_click_is_answered_with_the_current_hand(world):
    table = await start_vs_computer(world)
    ana_to_play(world, table)  # it is her turn
    nonce = table.nonce
    play = one_click_play(table)
    other = next(c for c in table.game.hands[0] if c != play.card)
    cards_before = len(table.game.hands[0])

    await play_through_ui(world.ana, table, play)  # card A, through the live button
    # card B, from the same copy of the hand (its nonce has moved on; the edited hand no longer has it)
    stale_id = f"c4:p:1:{nonce}:{other.code}"
    assert stale_id not in custom_ids(latest_hand(world.ana))
    second = await click_raw(world.env, world.ana.user, latest_hand(world.ana), stale_id)

    assert second.acknowledged, "the second click is answered, not dropped"
    assert second.ephemeral
    text = second.response.content
    assert text.startswith(t("err.hand_changed", "en").split(",")[0]), text
    assert len(table.game.hands[0]) == cards_before - 1, "one card left ana's hand: card B was not played"
    assert other in table.game.hands[0]
    if table.game.to_play == 0:
        assert any(c.startswith(f"c4:p:1:{table.nonce}:") for c in custom_ids(second.response)), \
            "the answer carries the current hand, with buttons of this turn"
    assert world.env.errors == []


async def test_a_stale_custom_id_after_a_restart_is_answered(world, make_bot):
    table = await start_vs_computer(world)
    nonce = table.nonce
    await play_through_ui(world.ana, table, one_click_play(table))
    await world.env.restart_bot(make_bot())
    restored = table_of(world, 1)

    card = restored.game.hands[0][0]
    result = await click_raw(world.env, world.ana.user, latest_hand(world.ana), f"c4:p:1:{nonce}:{card.code}")

    assert result.acknowledged and result.ephemeral
    assert "out of date" in result.response.content
    assert restored.game.hands[0].count(card) == 1, "nothing was played from the old copy"
    assert world.env.errors == []


async def test_a_click_with_the_current_nonce_that_is_no_longer_on_the_message_still_plays(world):
    table = await start_vs_computer(world)
    play = one_click_play(table)
    nonce = table.nonce
    # the button is not on this message (the public table), but its turn is still on: a valid play
    public = next(m for m in world.channel.history() if m.id == table.messages.public)
    result = await click_raw(world.env, world.ana, public, f"c4:p:1:{nonce}:{play.card.code}")
    assert result.acknowledged
    assert table.nonce > nonce, "the click was a valid play, so it was played"
    assert play.card not in table.game.hands[0]
    assert world.env.errors == []


async def test_unknown_and_malformed_custom_ids_get_this_button_is_no_longer_in_use(world):
    await start_vs_computer(world)
    lobby = world.channel.history()[0]
    for custom_id in ("c4:zz:1", "c4:p:1:x:7D", "other-bot:42", "c4:l:999:a"):
        result = await click_raw(world.env, world.beto, lobby, custom_id)
        assert result.acknowledged and result.ephemeral, custom_id
        if custom_id.startswith("c4:l:999"):
            assert result.response.content == t("err.unknown_table", "en")
        else:
            hand = custom_id.startswith("c4:p:")  # a hand control says how to open the hand again
            assert result.response.content == t("err.button_gone" if hand else "err.button_gone_other", "en")
    assert world.env.errors == []


OURS = st.sampled_from(["c4:p:1:{n}:{c}", "c4:t:1:{n}", "c4:c:1:{n}:{c}", "c4:h:1", "c4:r:1", "c4:b:1",
                        "c4:l:1:{a}", "c4:v:1", "c4:k:1:y", "c4:k:1:n", "c4:h:{n}", "c4:p:{n}:0:{c}",
                        "c4:b:1:0:1v1:{n}:p"])
CARDS = st.sampled_from(["7D", "AS", "KH", "2C", "JQ", "8D", "10S"])
CUSTOM_IDS = st.one_of(
    st.builds(lambda f, n, c, a: f.format(n=n, c=c, a=a), OURS, st.integers(0, 60), CARDS,
              st.sampled_from("abcxsz")),
    st.text(string.ascii_letters + string.digits + ":-_.", min_size=1, max_size=40),
    st.builds(lambda s: "c4:" + s, st.text(string.ascii_lowercase + string.digits + ":", max_size=20)),
)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(custom_id=CUSTOM_IDS, kind=st.sampled_from([2, 3]), value=st.sampled_from(["medio", "-", "7D", ""]),
       on_hand=st.booleans())
async def test_property_every_click_gets_exactly_one_response(world, custom_id, kind, value, on_hand):
    """Ours, stale, malformed or foreign: one click, one answer (never none, never two: SimCord refuses
    a second initial response and reports it as an error)."""
    if world.bot.tables.table_of_user(world.ana.id) is None:  # first example, or an earlier one ended it
        await world.ana.slash(world.channel, "cuarenta new", players=2)
        await world.ana.select(world.channel.last_message, ["medio"],
                               custom_id=f"c4:v:{max(world.bot.tables.tables)}")
    message = latest_hand(world.ana) if on_hand else next(
        m for m in world.channel.history() if custom_ids(m))
    cursor = world.env.error_cursor
    result = await click_raw(world.env, world.ana.user if on_hand else world.ana, message, custom_id, component_type=kind,
                             values=[value] if value else [])
    assert result.acknowledged, custom_id
    assert world.env.errors_since(cursor) == (), custom_id


async def test_a_slow_click_is_acknowledged_before_three_seconds_and_answered_after(world, monkeypatch):
    """The 3-second guard: a click whose handling is held up (here the table service takes 3.5 s of
    the virtual clock) is acknowledged at 2.5 s, and the play's answer then edits the hand through the
    interaction."""

    table = await start_vs_computer(world)
    play = one_click_play(table)
    nonce = table.nonce
    service = world.bot.tables
    real_play = service.play

    async def slow_play(*args, **kwargs):
        await asyncio.sleep(3.5)
        return await real_play(*args, **kwargs)

    monkeypatch.setattr(service, "play", slow_play)
    hand = latest_hand(world.ana)
    result = await world.ana.user.click(hand, custom_id=f"c4:p:1:{nonce}:{play.card.code}")
    # SimCord lets the virtual clock run while a click waits for its answer, as Discord's would
    assert result.acknowledged and result.deferred, "acknowledged by the guard, inside the 3 seconds"
    await world.env.advance_time(1)

    assert table.nonce > nonce, "then the play was made"
    edited = latest_hand(world.ana)
    assert f"c4:p:1:{nonce}:{play.card.code}" not in custom_ids(edited), "and the hand shows the new turn"
    assert world.env.errors == []


async def test_a_quick_click_is_never_deferred(world):
    table = await start_vs_computer(world)
    play = one_click_play(table)
    result = await world.ana.user.click(latest_hand(world.ana), custom_id=f"c4:p:1:{table.nonce}:{play.card.code}")
    await world.env.advance_time(5)
    assert result.acknowledged and not result.deferred


@pytest.mark.parametrize(("locale", "lang"), [("es-ES", "es"), ("en-US", "en"), ("pt-BR", "pt")])
async def test_a_click_refused_busy_is_answered_try_again_in_the_players_language_and_the_button_plays_later(
        world, monkeypatch, locales, locale, lang):
    """With PostgreSQL, a table's row another process holds past the lock timeout refuses the click
    (`TableBusyError`; that the store and the game are unchanged is tested on a real server in
    tests/tables/test_shared_tables.py). Here the service refuses the click that way: the player gets,
    ephemerally and in their client's language, "nothing was played, try again", and the same button
    plays once the table is free."""
    from bot.tables import TableBusyError

    locales[world.ana.id] = locale
    table = await start_vs_computer(world)
    hand = ana_to_play(world, table)
    play = one_click_play(table)
    nonce, cards = table.nonce, list(table.game.hands[0])
    custom_id = f"c4:p:1:{nonce}:{play.card.code}"
    service = world.bot.tables
    real_play = service.play

    async def busy(*args, **kwargs):
        raise TableBusyError()

    monkeypatch.setattr(service, "play", busy)
    refused = await click_raw(world.env, world.ana.user, hand, custom_id)
    assert refused.acknowledged and refused.ephemeral
    assert refused.response.content == t("err.table_busy", lang)
    assert table.nonce == nonce and list(table.game.hands[0]) == cards, "nothing was played"

    monkeypatch.setattr(service, "play", real_play)
    again = await click_raw(world.env, world.ana.user, hand, custom_id)
    assert again.acknowledged and not again.ephemeral
    assert play.card not in table.game.hands[0], "the same button plays once the table is free"
    assert world.env.errors == []


@pytest.mark.slow
@pytest.mark.simcord_bot(card_emojis=True)  # the cards as emojis: none of the hand's may reach the table message
async def test_a_hand_custom_id_pressed_on_the_public_message_answers_ephemerally_and_never_shows_a_hand(world):
    """QA: a card's custom_id pressed on the public table message (stale, foreign or forged) was answered by
    editing the message it was on: the table message became the presser's hand, cards and buttons, for
    the whole channel. Now the answer (the capture menu, or the hand after the play) is ephemeral, and the
    public message stays the table's."""
    await world.ana.slash(world.channel, "cuarenta new", players=2, rules="quito")
    await world.beto.slash(world.channel, "cuarenta join")
    table = table_of(world, 1)
    members = {world.ana.id: world.ana, world.beto.id: world.beto}

    def card_with(captures_wanted):
        game = table.game
        for card in game.hands[game.to_play]:
            if captures_wanted(len([p for p in game.plays_for(card) if p.captures])):
                return card
        return None

    pressed = {"menu": False, "play": False}
    for _ in range(400):
        if all(pressed.values()) or table.status != "playing":
            break
        kind = "menu" if not pressed["menu"] and card_with(lambda n: n > 1) else (
            "play" if not pressed["play"] and card_with(lambda n: n <= 1) else None)
        if kind is None:
            seat, play = pick_play(table)
            await play_through_ui(members[table.seats[seat].user_id], table, play)
            continue
        card = card_with(lambda n: n > 1) if kind == "menu" else card_with(lambda n: n <= 1)
        seat = table.game.to_play
        member = members[table.seats[seat].user_id]
        nonce = table.nonce
        public = public_message(world, table)
        result = await click_raw(world.env, member, public, f"c4:p:1:{nonce}:{card.code}")
        assert result.acknowledged and result.ephemeral, f"{kind}: the answer is the presser's alone"
        assert card.code in message_text(result.response) or any(card.code in c for c in
                                                                 custom_ids(result.response)), (kind, message_text(result.response))
        if kind == "play":
            assert table.nonce == nonce + 1, "the card was played"
        pressed[kind] = True
        await world.env.advance_time(2)
        seen = next(m for m in world.channel.history(viewer=world.eva) if m.id == table.messages.public)
        assert not any(c.startswith(("c4:p:", "c4:c:", "c4:t:")) for c in custom_ids(seen)), \
            f"{kind}: no hand control on the public table message"
        assert not any(f"c4_{c.code}:" in message_text(seen) for c in table.game.hands[seat])
    assert all(pressed.values()), pressed
    assert world.env.errors == []


async def test_an_id_sent_with_the_wrong_component_type_is_answered_gone_without_an_error_log(world, caplog):
    await world.ana.slash(world.channel, "cuarenta new", players=2)
    await world.ana.select(world.channel.last_message, ["medio"], custom_id="c4:v:1")
    table = table_of(world, 1)
    hand = latest_hand(world.ana)
    card = table.game.hands[0][0].code
    as_button = await click_raw(world.env, world.ana.user, hand, f"c4:c:1:{table.nonce}:{card}", component_type=2)
    as_select = await click_raw(world.env, world.ana.user, hand, "c4:h:1", component_type=3, values=["x"])
    assert as_button.acknowledged and as_select.acknowledged
    errors = [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR]
    assert errors == [], errors  # today: 2 × "rebuilding a component failed" with an AttributeError traceback


async def test_a_forged_huge_table_id_is_an_unknown_table_not_an_error(world, caplog):
    await world.ana.slash(world.channel, "cuarenta new", players=2)
    await world.ana.select(world.channel.last_message, ["medio"], custom_id="c4:v:1")
    result = await click_raw(world.env, world.ana.user, latest_hand(world.ana), "c4:p:999999999999999999999:0:7D")
    assert result.response.content == t("err.unknown_table", "en")
    assert not [r for r in caplog.records if r.exc_info and r.name.startswith(("bot", "cogs"))]
