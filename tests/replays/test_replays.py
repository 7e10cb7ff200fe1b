"""Replays of finished mesas (``/cuarenta replay mesa:<id>``): the step model against the engine, a real
mesa stepped to its end with the buttons and checked against the stored result, going back, the buttons
after a restart, a forged step that clamps, refusals (in play, unknown, another server's, closed
unfinished) that show no card, and `/cuarenta history` pointing at the replay."""

from __future__ import annotations

import re

import pytest

from bot.engine import EventKind, Game, Rules
from bot.i18n import t
from bot.replays import build, step_payload
from bot.replays.source import ReplayedMesa
from bot.tables import FINISHED, Seat, Table, choose_play
from bot.ui.words import side_name
from tests.support.bot_fixtures import CARD_IN_TEXT
from tests.support.helpers import click_raw, custom_ids, look, play_to_end, start_pair, table_of

K = EventKind


# ---------------------------------------------------------------------------------------- the step model


def finished_game(preset: str, players: int, seed: str) -> Game:
    """A mesa played to its end by greedy players."""
    game = Game.new(Rules.preset(preset), players, seed)
    while not game.is_over:
        game.play(choose_play("greedy", game.seed, game.view(game.to_play)))
    return game


@pytest.mark.parametrize(("preset", "players", "seed"), [("quito", 2, "r1"), ("cuenca", 4, "r2"),
                                                          ("barrio", 4, "r3"), ("rapido", 2, "r4")])
def test_the_steps_cover_every_play_once_in_order_and_every_event_once(preset, players, seed):
    game = finished_game(preset, players, seed)
    replay = build(preset, players, seed, game.plays)

    assert [s.play for s in replay.steps] == game.plays, "one step per play, in order"
    assert [s.index for s in replay.steps] == list(range(len(game.plays)))
    assert [e for s in replay.steps for e in (*s.opening, *s.events)] == game.events, "every event once, in order"
    assert replay.game == Game.replay(Rules.preset(preset), players, seed, game.plays) == game
    for step in replay.steps:
        played = step.events[0]
        assert played.kind == K.PLAYED and (played.seat, played.card) == (step.seat, step.play.card)
        assert step.play.card in step.hands[step.seat], "the hands are the ones before the play"
        assert step.play.captures <= set(step.table), "it took cards that were on the table"
        expected = [*step.table, step.play.card] if step.play.is_trail else \
            [c for c in step.table if c not in step.play.captures]
        assert list(step.after) == expected
    won = [e for e in game.events if e.kind == K.CHICA_WON]
    last = replay.steps[-1]
    assert last.scores == won[-1].scores and last.chicas == tuple(game.chicas)


def test_hand_navigation_goes_to_the_first_play_of_the_next_and_previous_hand():
    game = finished_game("quito", 4, "nav")
    replay = build("quito", 4, "nav", game.plays)
    starts = [replay.hand_start(h) for h in replay.hand_numbers]
    assert len(starts) >= 3 and starts[0] == 0
    assert replay.next_hand(0) == starts[1]
    assert replay.next_hand(starts[1] + 3) == starts[2]
    assert replay.next_hand(replay.last) is None, "no hand after the last"
    assert replay.previous_hand(starts[2] + 2) == starts[1], "⏮ goes to the hand before"
    assert replay.previous_hand(starts[1]) == 0
    assert replay.previous_hand(5) == 0, "inside the first hand: back to its start"
    assert replay.previous_hand(0) is None
    assert replay.clamp(10**9) == replay.last and replay.clamp(-4) == 0


def test_a_mesa_won_at_its_first_deal_is_one_step_without_a_play():
    game = Game.new(Rules.preset("cuenca"), 4, "z945")  # a doble ronda at the first deal, by zapatería
    assert game.is_over and not game.plays
    replay = build("cuenca", 4, "z945", [])
    assert len(replay.steps) == 1
    step = replay.steps[0]
    assert step.play is None and list(step.opening) + list(step.events) == game.events
    assert step.chicas == tuple(game.chicas)


def test_every_step_fits_discords_limits_in_every_language():
    game = finished_game("cuenca", 4, "fit")
    replay = build("cuenca", 4, "fit", game.plays)
    seats = [Seat(100 + i, "n" * 32) if i % 2 == 0 else Seat(None, ai="medio", ai_number=i) for i in range(4)]
    table = Table(id=7, guild_id=1, channel_id=2, host_id=100, players=4, preset="cuenca", status=FINISHED,
                  seats=seats, game=replay.game)
    mesa = ReplayedMesa(table, replay, {})
    for lang in ("es", "en", "pt"):
        for index in range(len(replay.steps)):
            payload = step_payload(mesa, index, lang)  # Payload checks every limit
            assert payload.embed.fields and len(payload.view.children) == 4


# ---------------------------------------------------------------------------------------- on Discord


def footer(message) -> str:
    return message.embeds[0].footer.text


def labels(message) -> dict[str, dict]:
    """Button label → its component (as stored on the message)."""
    out = {}
    for row in message.components:
        for item in row.get("components", []) if isinstance(row, dict) else row.children:
            data = item if isinstance(item, dict) else item.to_dict()
            out[data.get("label")] = data
    return out


def shows(message, card) -> bool:
    """The card is in the embed's description, as a text label or as its card emoji."""
    text = message.embeds[0].description
    return str(card) in text or f"c4_{card.code}:" in text


def enabled(message, label: str) -> bool:
    return not labels(message)[label].get("disabled", False)


def shown_text(message) -> str:
    parts = [message.content or ""]
    for embed in message.embeds:
        data = embed.to_dict()
        parts += [data.get("title", ""), data.get("description", ""), data.get("footer", {}).get("text", "")]
        parts += [f"{f['name']} {f['value']}" for f in data.get("fields", [])]
    return "\n".join(parts)


async def open_vs_computer(world, member=None, channel=None, rules: str = "quito") -> int:
    member = member or world.ana
    channel = channel or world.channel
    await member.slash(channel, "cuarenta new", players=2, rules=rules)
    table = world.bot.tables.table_in_channel(channel.id)
    await member.select(channel.last_message, ["medio"], custom_id=f"c4:v:{table.id}")
    assert table.status == "playing"
    return table.id


async def finished_mesa(world) -> Table:
    table_id = await open_vs_computer(world)
    table = await play_to_end(world, table_id, {world.ana.id: world.ana})
    await world.env.settle()
    return table


async def test_a_finished_mesa_stepped_to_its_end_shows_the_stored_result(world):
    table = await finished_mesa(world)
    stored = await world.bot.store.mesa(table.id)
    plays = len(await world.bot.store.plays(table.id))

    shown = await world.ana.slash(world.channel, "cuarenta replay", mesa=table.id)
    assert shown.ephemeral
    message = shown.response
    assert footer(message).startswith(f"Play 1 of {plays} ·")
    assert all(cid.startswith(f"c4:w:{table.id}:") for cid in custom_ids(message))
    assert not enabled(message, "◀") and not enabled(message, "⏮"), "nothing before the first play"
    dealt = Game.replay(Rules.preset(table.preset), 2, table.seed, []).hands
    assert all(shows(message, c) for hand in dealt for c in hand), "every seat's hand is shown"

    hands = build(table.preset, 2, table.seed, table.game.plays).hand_numbers
    clicks = 0
    while enabled(message, "⏭"):
        result = await world.ana.click(message, label="⏭")
        assert result.response.id == message.id, "the same ephemeral message, edited in place"
        message = result.response
        clicks += 1
        assert f" · hand {hands[clicks]} of {hands[-1]} ·" in footer(message)
    assert clicks == len(hands) - 1 > 0
    while enabled(message, "▶"):
        message = (await world.ana.click(message, label="▶")).response
    assert footer(message).startswith(f"Play {plays} of {plays} ·")

    score = message.embeds[0].fields[0].value
    won = [e for e in table.game.events if e.kind == K.CHICA_WON][-1]
    assert score == t("replay.score", "en", a=side_name(table, 0, "en"), sa=won.scores[0],
                      b=side_name(table, 1, "en"), sb=won.scores[1], ca=stored["chicas_a"], cb=stored["chicas_b"])
    winner = side_name(table, stored["winner"], "en")
    assert f"{winner} wins the mesa" in message.embeds[0].description
    assert world.env.errors == []


async def test_back_and_previous_hand_go_back(world):
    table = await finished_mesa(world)
    total = len(await world.bot.store.plays(table.id))
    shown = await world.ana.slash(world.channel, "cuarenta replay", mesa=table.id)
    message = shown.response
    for _ in range(3):
        message = (await world.ana.click(message, label="▶")).response
    assert footer(message).startswith(f"Play 4 of {total} · hand 1 of")
    message = (await world.ana.click(message, label="◀")).response
    assert footer(message).startswith(f"Play 3 of {total} · hand 1 of")

    message = (await world.ana.click(message, label="⏭")).response
    assert " · hand 2 of" in footer(message)
    second = int(re.match(r"Play (\d+)", footer(message))[1])
    message = (await world.ana.click(message, label="▶")).response
    message = (await world.ana.click(message, label="▶")).response
    message = (await world.ana.click(message, label="⏮")).response
    assert footer(message).startswith(f"Play 1 of {total} · hand 1 of"), "⏮ from hand 2 goes to hand 1"
    message = (await world.ana.click(message, label="⏭")).response
    assert footer(message).startswith(f"Play {second} of {total} · hand 2 of")
    assert world.env.errors == []


async def test_the_buttons_work_after_a_restart_and_a_forged_step_clamps(world, make_bot):
    table = await finished_mesa(world)
    total = len(await world.bot.store.plays(table.id))
    shown = await world.ana.slash(world.channel, "cuarenta replay", mesa=table.id)
    message = (await world.ana.click(shown.response, label="▶")).response
    assert footer(message).startswith(f"Play 2 of {total}")

    await world.env.restart_bot(make_bot())
    message = (await world.ana.click(message, label="▶")).response
    assert footer(message).startswith(f"Play 3 of {total}"), "rebuilt from the store by the new bot"

    forged = await click_raw(world.env, world.ana, message, f"c4:w:{table.id}:99999:n")
    assert forged.acknowledged
    assert footer(forged.response).startswith(f"Play {total} of {total}"), "a step past the end clamps"
    assert world.env.errors == []


async def test_a_mesa_in_play_is_refused_without_showing_a_card(world):
    table_id = await open_vs_computer(world)
    live = table_of(world, table_id)
    assert live.status == "playing" and live.game.hands[0]

    refused = await world.ana.slash(world.channel, "cuarenta replay", mesa=table_id)

    assert refused.ephemeral
    assert refused.response.content == t("replay.err.in_play", "en", table=table_id)
    assert not refused.response.embeds and not custom_ids(refused.response)
    text = shown_text(refused.response)
    assert not CARD_IN_TEXT.search(text) and "c4_" not in text, "no card of a mesa in play"
    # and a forged button for it is refused the same way
    forged = await click_raw(world.env, world.ana, refused.response, f"c4:w:{table_id}:0:n")
    assert t("replay.err.in_play", "en", table=table_id) in shown_text(forged.followups[0] if forged.followups
                                                                        else forged.response)
    assert world.env.errors == []


async def test_unknown_other_servers_and_unfinished_tables_are_refused(world):
    unknown = await world.ana.slash(world.channel, "cuarenta replay", mesa=999)
    assert unknown.ephemeral and unknown.response.content == t("replay.err.unknown", "en", table=999)

    table = await finished_mesa(world)
    other = world.env.create_guild("Cuenca Club")
    channel = other.create_text_channel("cuarenta")
    ana2 = other.add_member(world.ana.user)
    await world.env.bot.tree.sync()
    foreign = await ana2.slash(channel, "cuarenta replay", mesa=table.id)
    assert foreign.response.content == t("replay.err.unknown", "en", table=table.id), "another server's mesa"

    elsewhere = world.guild.create_text_channel("otra")
    ended_id = await open_vs_computer(world, channel=elsewhere)
    await world.ana.slash(elsewhere, "cuarenta end")
    await world.env.settle()
    row = await world.bot.store.load_table(ended_id)
    assert row.status == "closed" and await world.bot.store.mesa(ended_id) is None
    closed = await world.ana.slash(world.channel, "cuarenta replay", mesa=ended_id)
    assert closed.response.content == t("replay.err.not_finished", "en", table=ended_id)
    assert world.env.errors == []




async def test_history_names_the_command_that_replays_each_mesa(world, locales):
    table = await finished_mesa(world)
    history = await world.ana.slash(world.channel, "cuarenta history")
    embed = history.response.embeds[0]
    assert f"`#{table.id}`" in embed.description
    assert f"↳ `/cuarenta replay mesa:{table.id}`" in embed.description
    assert embed.footer.text == t("history.footer", "en")
    assert "replay" in embed.footer.text.lower() and "exactly" not in embed.footer.text

    locales[world.ana.id] = "es-419"
    spanish = await world.ana.slash(world.channel, "cuarenta history")
    assert f"↳ `/cuarenta repetir mesa:{table.id}`" in spanish.response.embeds[0].description
    shown = await world.ana.slash(world.channel, "cuarenta replay", mesa=table.id)
    assert shown.response.embeds[0].footer.text.startswith("Jugada 1 de "), "the replay in the caller's language"
    assert world.env.errors == []


@pytest.mark.slow
async def test_a_replay_id_on_a_live_table_message_leaves_it_and_answers_the_presser(world):
    await start_pair(world)
    await play_to_end(world, 1, {world.ana.id: world.ana, world.beto.id: world.beto})
    await world.env.settle()
    other = world.guild.create_text_channel("otra")
    await start_pair(world, other)
    live = table_of(world, 2)

    def live_message():
        return next(m for m in other.history() if m.id == live.messages.public)

    before = look(live_message())
    result = await click_raw(world.env, world.eva, live_message(), "c4:w:1:0:n")
    assert look(live_message()) == before, "table #2's public message changed"
    replay = await world.eva.slash(world.channel, "cuarenta replay", mesa=1)
    assert result.ephemeral and result.response.embeds[0].title == replay.response.embeds[0].title
    assert world.env.errors == []


@pytest.mark.slow
async def test_a_forged_replay_id_too_big_for_the_database_gets_the_forged_button_refusal(world, caplog):
    """A mesa id past the database's integer range names no mesa: the answer is the one a forged id of
    another server gets (the same text, so an id's answer never tells which server owns it), not an error."""
    await start_pair(world)
    await play_to_end(world, 1, {world.ana.id: world.ana, world.beto.id: world.beto})
    await world.env.settle()
    replay = await world.ana.slash(world.channel, "cuarenta replay", mesa=1)
    big = 2**64 + 5
    result = await click_raw(world.env, world.ana, replay.response, f"c4:w:{big}:0:n")
    answer = result.followups[0] if result.followups else result.response
    assert answer.content != t("err.generic", "en"), "the generic error"
    assert answer.content == t("err.button_gone_other", "en")
    assert result.ephemeral
    failed = [r.getMessage() for r in caplog.records if r.exc_info and r.name.startswith(("bot", "cogs"))]
    assert failed == [], failed
    assert world.env.errors == []
