"""The seed-002 variants in the UI (RULES.md Part 1 §9): comodines and periquito in the hands, the capture
menu, the public table, the picture, «¿Por qué?», the hints and the hand record, in Spanish, English and
Brazilian Portuguese.

Two mesas go through SimCord: a 1 v 1 with comodines against a computer, where the person plays a joker
through the capture menu (its rank chosen there) and asks «¿Por qué?»; and a 1 v 1 between two people
with periquito, steered until a periquito is taken, announced and counted. The rest are unit tests of the
words, the hints, the card art and the emojis."""

from __future__ import annotations

import io
import logging
from collections import Counter
from dataclasses import replace

import pytest
from PIL import Image

from bot.engine import JOKER_RANK, Card, Event, Game, Play, Rules
from bot.engine import EventKind as K
from bot.i18n import t, tn
from bot.tables import FINISHED, Seat, Table, TableOptions, choose_play
from bot.tables import choices as table_choices
from bot.tables.choices import distinct_captures
from bot.ui import hints, records, render, why, words
from bot.ui.cardart import EMOJI_SIZE, card_fanned, card_image, emoji_png
from bot.ui.emojis import CardEmojis
from bot.ui.items import TRAIL_VALUE
from bot.ui.picture import SIZE, LastPlay, SeatScene, SideScene, TableScene, layout, render_table
from bot.ui.table_scene import table_scene
from tests.support.helpers import (
    LOOKS,
    assert_no_hidden_cards_in_public,
    controls,
    custom_ids,
    latest_hand,
    message_text,
    pick_play,
    play_through_ui,
    public_message,
    select_values,
    table_of,
)

LANGS = ("es", "en", "pt")
W1, W2 = Card.parse("W1"), Card.parse("W2")
AI_DELAY = 600.0
"""The computer thinks this long (virtual seconds; SimCord moves it on only through ``advance_time``), so
«¿Por qué?» can be asked about the person's play before the computer answers."""


async def _inline(func, *args):
    return func(*args)


@pytest.fixture
def simcord_bot(make_bot):
    """The test bot, with a computer that waits `AI_DELAY` before it plays (and thinks inline), the table
    picture and the card emojis (this module checks them with the jokers)."""
    return make_bot(ai_delay=AI_DELAY, offload=_inline, **LOOKS)


def table_with(game: Game, house: dict) -> Table:
    """A table around ``game`` (no Discord): seats p0, p1 …, preset quito with ``house`` rules."""
    seats = [Seat(100 + i, f"p{i}") for i in range(game.players)]
    return Table(id=1, guild_id=1, channel_id=1, host_id=100, players=game.players, preset="quito",
                 status="playing", seed="x", seats=seats, game=game, options=TableOptions(house=dict(house)))


# ---------------------------------------------------------------------- steering


def periquito_policy(game: Game) -> Play:
    """A play that brings a periquito: take one when a play can, else trail a card whose rank is already
    on the table (so four of a rank gather), else a play that takes no rank with two or more cards there."""
    seat = game.to_play
    plays = game.legal_plays()
    for play in plays:
        if play.captures and game.explain(play).periquito:
            return play
    counts = Counter(c.rank for c in game.table if not c.is_joker)
    trails = [p for p in plays if p.is_trail and counts.get(p.card.rank, 0) >= 1]
    if trails:
        return max(trails, key=lambda p: counts[p.card.rank])
    greedy = choose_play("greedy", game.seed, game.view(seat))
    safe = [p for p in plays if not any(counts[c.rank] >= 2 for c in p.captures)]
    return greedy if not safe or greedy in safe else safe[0]


def joker_menu_play(game: Game) -> Play | None:
    """A joker capture of the seat in turn that the capture menu asks about (two or more distinct
    captures): the one that takes most, so its escalera shows; None when no joker has such a choice."""
    seat = game.to_play
    view = game.view(seat)
    for joker in [c for c in game.hands[seat] if c.is_joker]:
        options = distinct_captures([p for p in game.legal_plays() if p.card is joker and p.captures], view)
        if len(options) >= 2:
            return max(options, key=lambda p: len(p.captures))
    return None


def keeping_jokers(game: Game) -> Play:
    """The greedy play, but a real card rather than a joker while there is one (the joker waits for a
    table where it has a choice)."""
    play = choose_play("greedy", game.seed, game.view(game.to_play))
    if play.card.is_joker:
        others = [p for p in game.legal_plays() if not p.card.is_joker]
        if others:
            return others[0]
    return play


async def let_the_computer_play(world, table_id: int) -> None:
    """Advance virtual time until a person is to play or the mesa is over."""
    for _ in range(20):
        table = table_of(world, table_id)
        if table.status == FINISHED or not table.seats[table.game.to_play].autoplays:
            return
        await world.env.advance_time(AI_DELAY + 1)
    raise AssertionError("the computer did not play")


async def open_with_house_rule(world, rule: str) -> Table:
    """ana opens a 1 v 1 and switches ``rule`` on in «Reglas de la casa» (the lobby's editor)."""
    await world.ana.slash(world.channel, "cuarenta new", players=2)
    table = table_of(world, 1)
    lobby = next(m for m in world.channel.history() if m.id == table.messages.lobby)
    editor = (await world.ana.click(lobby, custom_id="c4:u:1:o")).response
    picked = await world.ana.select(editor, [rule], custom_id="c4:u:1:r")
    await world.ana.select(picked.response or editor, ["1"], custom_id=f"c4:u:1:v:{rule}")
    assert table.house == {rule: True}
    return table


def select_labels(message, custom_id: str) -> list[str]:
    """The option labels of the select ``custom_id`` on a message (discord.Message or SimCord's)."""
    for item in controls(message):
        cid = item.get("custom_id") if isinstance(item, dict) else getattr(item, "custom_id", None)
        if cid == custom_id:
            options = item.get("options", []) if isinstance(item, dict) else getattr(item, "options", [])
            return [o["label"] if isinstance(o, dict) else o.label for o in options]
    return []


def no_errors_logged(caplog) -> None:
    bad = [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR and r.name.startswith(("bot", "cogs"))]
    assert bad == [], bad


# ---------------------------------------------------------------------- a mesa with comodines


@pytest.mark.slow
async def test_a_mesa_with_comodines_against_a_computer_with_a_joker_chosen_in_the_menu(world, caplog):
    table = await open_with_house_rule(world, "comodines")
    lobby = next(m for m in world.channel.history() if m.id == table.messages.lobby)
    await world.ana.select(lobby, ["medio"], custom_id="c4:v:1")
    table = table_of(world, 1)
    assert table.status == "playing" and table.game.rules.comodines
    person = next(i for i, s in enumerate(table.seats) if not s.is_ai)
    await let_the_computer_play(world, 1)
    joker_played = jokers_seen = 0
    for _ in range(800):
        table = table_of(world, 1)
        if table.status == FINISHED:
            break
        game = table.game
        assert game.to_play == person
        hand = latest_hand(world.ana)
        jokers = [c for c in game.hands[person] if c.is_joker]
        for joker in jokers:  # a joker in the hand is a button like any card ("🃏1", its emoji when uploaded)
            assert f"c4:p:1:{table.nonce}:{joker.code}" in custom_ids(hand)
            assert str(joker) in message_text(hand) or "c4_" + joker.code in message_text(hand)
        jokers_seen += bool(jokers)
        wanted = joker_menu_play(game) if not joker_played else None
        if wanted is None:
            await play_through_ui(world.ana, table, keeping_jokers(game) if not joker_played else pick_play(table)[1])
            await let_the_computer_play(world, 1)
            continue
        # the joker with a choice of ranks: the card button, then the menu on the hand
        info = game.explain(wanted)
        assert info.joker_rank is not None and not info.caida
        nonce = table.nonce
        shown = await world.ana.user.click(hand, custom_id=f"c4:p:1:{nonce}:{wanted.card.code}")
        menu = shown.response or hand
        cid = f"c4:c:1:{nonce}:{wanted.card.code}"
        values = select_values(menu, cid)
        assert len([v for v in values if v != TRAIL_VALUE]) >= 2, values
        labels = select_labels(menu, cid)
        assert len(labels) == len(values)
        assert all(" + " not in label and "caída" not in label for label in labels), labels
        await world.ana.user.select(menu, [".".join(c.code for c in wanted.sorted_captures())], custom_id=cid)
        assert table.game.plays[-1] == wanted, "the rank chosen in the menu was played"
        # before the computer answers: the table, its picture and «¿Por qué?» show the joker's play
        public = public_message(world, table)
        assert public.attachments, "the table picture"
        plan = layout(table_scene(table, "es"))
        assert wanted.card.code in plan.faces, "the joker is drawn as the last play"
        assert t("play.joker_as", "es", card=world.bot.faces.card(wanted.card),
                 rank=words.rank_word(info.joker_rank, "es")) in message_text(public)
        asked = await world.caro.click(public, custom_id="c4:y:1")
        assert asked.ephemeral
        text = asked.response.content
        assert t("why.joker", "en", card=world.bot.faces.card(wanted.card), rank=words.rank_word(info.joker_rank, "en"),
                 base=world.bot.faces.cards(info.base)) in text, text
        assert "Caída:" not in text and "IndexError" not in text
        joker_played += 1
        await let_the_computer_play(world, 1)
    table = table_of(world, 1)
    assert table.status == FINISHED, "the mesa was played to the end"
    assert jokers_seen and joker_played == 1
    assert sum(1 for p in table.game.plays if p.card.is_joker) >= 1
    assert world.env.errors == []
    no_errors_logged(caplog)


# ---------------------------------------------------------------------- a periquito, announced and counted


async def test_a_periquito_is_taken_announced_and_counted_in_the_hand_record(world, caplog):
    await open_with_house_rule(world, "periquito")
    await world.beto.slash(world.channel, "cuarenta join")
    table = table_of(world, 1)
    assert table.status == "playing" and table.game.rules.periquito
    members = {world.ana.id: world.ana, world.beto.id: world.beto}
    event = None
    for _ in range(400):
        table = table_of(world, 1)
        game = table.game
        seat = game.to_play
        hand_number = game.hand_number
        before = len(game.events)
        await play_through_ui(members[table.seats[seat].user_id], table, periquito_policy(game))
        event = next((e for e in table.game.events[before:] if e.kind == K.PERIQUITO), None)
        if event is not None:
            break
    assert event is not None, "a periquito was taken"
    rules = table.game.rules
    assert event.points == rules.periquito_points == 6 and event.blocked is None
    assert event.scores[event.team] >= 6, "the bonus is in the score"
    name = table.seats[event.seat].name
    rank = words.rank_word(event.rank, "es")
    live = message_text(public_message(world, table))
    assert tn("play.periquito", 1, "es", ranks=rank, points="(+6)") in live, live  # the public drama line
    assert "riquito!**" in live
    callout = " ".join(s.value for s in layout(table_scene(table, "es")).role("callout"))
    assert "periquito" in callout.lower(), callout  # the picture calls it out too
    assert_no_hidden_cards_in_public(world, table)
    # play the hand out: its record counts the periquito for the player who took it
    for _ in range(200):
        table = table_of(world, 1)
        if table.status == FINISHED or table.game.hand_number > hand_number:
            break
        seat, play = pick_play(table)
        await play_through_ui(members[table.seats[seat].user_id], table, play)
    title = t("sum.title", "es", hand=hand_number, table=1)
    record = next(m for m in world.channel.history() if title in message_text(m))
    text = message_text(record).replace("\u00a0", " ")  # no-break spaces keep a kind and its points
    part = tn("sum.periquito", 1, "es", n=1, points=6)
    dot = "🟦" if event.team == 0 else "🟧"  # the side's line; in 1 v 1 the player is the side
    assert any(line.startswith(f"{dot} **{name} +") and part in line for line in text.splitlines()), text
    assert world.env.errors == []
    no_errors_logged(caplog)


# ---------------------------------------------------------------------- words


@pytest.mark.parametrize(("lang", "then"), [("es", "luego"), ("en", "then"), ("pt", "depois")])
def test_capture_words_for_a_joker_name_its_card_then_the_escalera_never_a_sum(lang, then):
    taken = [Card.parse(c) for c in ("5C", "6D", "7S")]
    assert words.capture_words(W1, taken, lang, words.plain_card) == f"5♣, {then} 6♦ 7♠"
    assert words.capture_words(W1, [Card.parse("JH")], lang, words.plain_card) == "J♥"
    assert words.capture_words(W1, [W2], lang, words.plain_card) == "🃏2"
    game = Game.from_position(Rules(comodines=True), hands=["W1 2C", "AS KH"], table="5C 6D 7S 3H", to_play=0,
                              dealer=1)
    view = game.view(0)
    labels = [render.describe_capture(p, view, lang) for p in view.legal_plays if p.card is W1 and p.captures]
    assert f"🃏1 → 5♣, {then} 6♦ 7♠" in labels and "🃏1 → 3♥" in labels
    assert all("+" not in label for label in labels)


@pytest.mark.parametrize("lang", LANGS)
def test_rank_word_of_the_jokers_rank_is_a_word(lang):
    assert words.rank_word(JOKER_RANK, lang) == {"es": "comodín", "en": "joker", "pt": "coringa"}[lang]
    assert words.rank_word(JOKER_RANK) == "comodín"
    assert words.rank_word(4) == "5" and words.rank_word(None) == "?"
    assert words.by_rank([W2, Card.parse("KH"), W1, Card.parse("AS")]) == [Card.parse("AS"), Card.parse("KH"), W1, W2]


def periquito_game(scores=(10, 0), hands=("4C 2C", "AS KH"), table="4H 5S 5H 5D 5C KD", **kw) -> tuple[Game, list]:
    """4♣ takes the 4♥ and, up the escalera, all four 5s: a periquito (the K♦ stays: no limpia)."""
    rules = Rules(periquito=True, comodines=True)
    game = Game.from_position(rules, players=2, hands=list(hands), table=table, to_play=0, dealer=1, scores=scores,
                              **kw)
    return game, game.play(Play.parse("4C", "4H 5S 5H 5D 5C"), seat=0)


@pytest.mark.parametrize(("lang", "call", "said"), [
    ("es", "¡Periquito!", "y se llevó el periquito de 5 (+6)"),
    ("en", "Periquito!", "and took the periquito of rank 5 (+6)"),
    ("pt", "Periquito!", "e levou o periquito de 5 (+6)"),
])
def test_a_periquito_is_called_out_and_said(lang, call, said):
    game, events = periquito_game()
    assert [e.kind for e in events if e.kind == K.PERIQUITO] == [K.PERIQUITO]
    table = table_with(game, {"periquito": True, "comodines": True})
    record = words.records(events)[0]
    assert record.periquito == (4,) and record.points == 6 and record.bonus == {"periquito": 6}
    assert record.dramatic and record.capture_points == 0
    assert words.callout(record, lang) == call
    line = words.sentence(table, record, lang)
    assert line.startswith(f"**{call}** p0 ") and line.endswith(said), line
    assert call in words.log_token(table, record, lang)
    shown = table_scene(table, lang).last_play
    assert shown is not None and shown.callout == call


@pytest.mark.parametrize(("lang", "call"), [("es", "¡Limpia y periquito!"), ("en", "Limpia and periquito!"),
                                            ("pt", "Limpia e periquito!")])
def test_a_limpia_with_a_periquito_and_a_blocked_periquito_at_38(lang, call):
    _, events = periquito_game(table="4H 5S 5H 5D 5C")
    record = words.records(events)[0]
    assert record.limpia and record.points == 2 + 6 and words.callout(record, lang) == call
    game, events = periquito_game(scores=(38, 0))
    record = words.records(events)[0]
    assert record.periquito == (4,) and record.points == 0 and record.periquito_blocked == "38"
    line = words.sentence(table_with(game, {"periquito": True}), record, lang)
    assert line.endswith(tn("play.periquito", 1, lang, ranks="5", points=t("play.blocked_score", lang, score=38))), line


@pytest.mark.parametrize("lang", LANGS)
def test_a_caida_with_a_periquito_is_called_out_as_both(lang):
    rules = Rules(periquito=True)
    game = Game.from_position(rules, players=2, hands=["5C 2C", "AS"], table="5H 6S 6H 6D 6C KD", last_trail="5H",
                              trailed_by=1, to_play=0, dealer=0)
    events = game.play(Play.parse("5C", "5H 6S 6H 6D 6C"), seat=0)
    record = words.records(events)[0]
    assert record.caida and record.periquito == (5,) and record.points == 2 + 6
    assert words.callout(record, lang) == t("call.caida_periquito", lang)
    line = words.sentence(table_with(game, {"periquito": True}), record, lang)
    assert t("play.points", lang, points=2) in line and line.endswith(
        tn("play.periquito", 1, lang, ranks="6", points="(+6)"))


def test_the_hand_record_counts_periquito_points_per_player():
    pile = "AC 2C 3C 4D 6D 7C JC QC KC AD 2D 3D 6H 7D JD QD KD AH 2H 3H 7H 6C"
    game = Game.from_position(Rules(periquito=True), players=2, hands=["4C", "JH"], table="4H 5S 5H 5D 5C KS",
                              dealer=1, to_play=0, deal_number=4, stock="", piles=(pile, "QH KH"), scores=(10, 0))
    game.play(Play.parse("4C", "4H 5S 5H 5D 5C"), seat=0)
    game.play(Play.trail(Card.parse("JH")), seat=1)
    table = table_with(game, {"periquito": True})
    for lang in LANGS:
        text = records.hand_record_payload(table, 1, lang).embed.description.replace("\u00a0", " ")
        line = next(x for x in text.splitlines() if x.startswith("🟦 "))
        assert tn("sum.periquito", 1, lang, n=1, points=6) in line, text
        assert t("sum.side_parts", lang, side="p0", points=6 + 14, parts="") in line, "the bonus is in the hand's total"


# ---------------------------------------------------------------------- a joker is never a caída; hints


def test_a_joker_on_the_joker_just_trailed_is_not_a_caida():
    game = Game.from_position(Rules(comodines=True), players=2, hands=["W1 2C", "AS"], table="3H W2",
                              last_trail="W2", trailed_by=1, to_play=0, dealer=0)
    view = game.view(0)
    play = Play.parse("W1", "W2")
    assert play in view.legal_plays and not game.explain(play).caida
    assert not hints.is_caida(play, view) and not table_choices.is_caida(play, view)
    assert render.describe_capture(play, view, "es") == "🃏1 → 🃏2"
    assert hints.play_points(play, view) == (0, False, False), "the 3♥ stays: no limpia either"


def test_hints_add_the_periquito_bonus_and_the_38_blocks_it():
    for scores, want in (((10, 0), 6), ((38, 0), 0)):
        game = Game.from_position(Rules(periquito=True), players=2, hands=["4C 2C", "AS KH"],
                                  table="4H 5S 5H 5D 5C KD", to_play=0, dealer=1, scores=scores)
        view = game.view(0)
        play = Play.parse("4C", "4H 5S 5H 5D 5C")
        assert hints.periquito_bonus(play, view) == want
        assert hints.play_points(play, view) == (want, False, False)
        table = table_with(game, {"periquito": True})
        table.options = replace(table.options, hints=True)
        for lang in LANGS:
            line = next(x for x in hints.hint_lines(table, view, lang) if x.startswith("• 4♣"))
            assert (t("hint.periquito", lang, points=6) in line) == bool(want), line


# ---------------------------------------------------------------------- «¿Por qué?»


def steered_game(rules: Rules, wanted, policy, seeds=range(1, 40)) -> Game:
    """A game from a seed, played by ``policy`` until its last play is ``wanted`` (a predicate on the game
    before the play and the play)."""
    for s in seeds:
        game = Game.new(rules, 2, f"why-{s}")
        for _ in range(600):
            if game.is_over:
                break
            play = policy(game)
            hit = wanted(game, play)
            game.play(play)
            if hit:
                return game
    raise AssertionError("no seed gave the wanted play")


def joker_or_greedy(game: Game) -> Play:
    return joker_menu_play(game) or keeping_jokers(game)


@pytest.mark.parametrize(("lang", "stood"), [("es", "hizo de {rank}"), ("en", "stood for rank {rank}"),
                                             ("pt", "valeu {rank}")])
def test_why_names_the_rank_a_joker_stood_for(lang, stood):
    game = steered_game(Rules(comodines=True), lambda g, p: p.card.is_joker and p.joker_rank is not None,
                        joker_or_greedy)
    play = game.plays[-1]
    table = table_with(game, {"comodines": True})
    text = why.explain_last_play(table, lang)
    assert text is not None
    assert stood.format(rank=words.rank_word(play.joker_rank, lang)) in text, text
    assert t("why.no_points", lang) in text or "(+" in text
    assert "Caída:" not in text


@pytest.mark.parametrize("lang", LANGS)
def test_why_describes_a_periquito_with_its_bonus(lang):
    game = steered_game(Rules(periquito=True), lambda g, p: bool(p.captures and g.explain(p).periquito),
                        periquito_policy)
    events = game.events[max(i for i, e in enumerate(game.events) if e.kind == K.PLAYED):]
    got = [e for e in events if e.kind == K.PERIQUITO]
    text = why.explain_last_play(table_with(game, {"periquito": True}), lang)
    assert text is not None
    rank = words.rank_word(got[0].rank, lang) if got else "?"
    if got and got[0].blocked is None:
        assert tn("why.periquito", 1, lang, ranks=rank, points="(+6)") in text, text
    assert t("why.no_points", lang) not in text or not got


# ---------------------------------------------------------------------- card art, picture, emojis


def test_the_jokers_are_drawn_distinct_from_every_card_and_from_each_other():
    faces = {c.code: card_image(c.code, 80).tobytes() for c in (*[Card.parse(x) for x in ("KH", "KS", "JD")], W1, W2)}
    assert len(set(faces.values())) == 5
    for joker in (W1, W2):
        for height in (24, 52, 140):
            assert card_image(joker.code, height).size == card_fanned(joker.code, height).size
        data = emoji_png(joker.code)
        image = Image.open(io.BytesIO(data))
        assert image.size == (EMOJI_SIZE, EMOJI_SIZE) and image.mode == "RGBA" and len(data) <= 256 * 1024
    red = card_image("W1", 80).convert("RGB").getcolors(1 << 16)
    assert any(rgb[0] > 150 and rgb[1] < 90 and n > 20 for n, rgb in red), "🃏1 is the red joker"


def test_the_picture_draws_jokers_on_the_table_and_in_the_last_play():
    def seat(name: str, team: int) -> SeatScene:
        return SeatScene(name=name, cards_left=3, team=team, dealer=False, mano=team == 0, to_play=team == 0,
                         level=None, away=False)

    def side(label: str) -> SideScene:
        return SideScene(label=label, perros=1, tantos=2, chicas=0, at38=False, captured=4)

    picture = TableScene("Mesa #1 · quito · casa", ("5C", "W2", "KH"), "W2", "¡cae!", (seat("ana", 0), seat("beto", 1)),
                         (side("ana"), side("beto")), LastPlay(1, "W1", ("4H", "5S", "5H", "5D", "5C"),
                                                               "¡Limpia y periquito!"), None)
    plan = layout(picture)
    assert plan.cards == ("5C", "W2", "KH") and "W1" in plan.faces and plan.trail == "W2"
    png = render_table(picture)
    assert png.startswith(b"\x89PNG") and Image.open(io.BytesIO(png)).size == SIZE


async def test_the_joker_emojis_are_uploaded_with_the_cards(env):
    env.backend.application_emojis.clear()
    emojis = CardEmojis()
    assert await emojis.sync(env.bot) is True
    names = {e.name for e in env.backend.application_emojis.values()}
    assert {"c4_W1", "c4_W2"} <= names and len(names) == 42 and emojis.available and len(emojis) == 42
    assert emojis.inline("W1").startswith("<:c4_W1:") and emojis.get("W2") is not None
    assert CardEmojis().inline("W1") == "🃏1", "text until synced"


def test_a_periquito_event_without_a_rank_still_reads():
    """An event stored with its cards only (the rank left out) is still a periquito of that rank."""
    fours = tuple(Card.parse(c) for c in ("5S", "5H", "5D", "5C"))
    events = [Event(K.PLAYED, 0, 0, Card.parse("4C")), Event(K.CAPTURED, 0, 0, Card.parse("4C"), (Card.parse("4H"), *fours)),
              Event(K.PERIQUITO, 0, 0, cards=fours, points=6, scores=(6, 0))]
    assert words.records(events)[0].periquito == (4,)


def test_the_capture_menu_marks_the_option_that_takes_a_periquito():
    """The 7♣ can match the 7♦ (nothing more) or sum 5 + 2, which reaches the four 5s on the table and
    takes them all (§9): only that option says «periquito» in the capture menu."""
    from bot.engine import periquito_ranks
    from bot.ui.render import describe_capture

    game = Game.from_position(Rules(periquito=True), players=2, hands=["7C 2C", "AS KH"],
                              table="7D 5S 5H 5D 5C 2S KD", to_play=0, dealer=1)
    view = game.view(0)
    options = [p for p in game.plays_for("7C") if p.captures]
    marked = {bool(periquito_ranks(p.captures)): "periquito" in describe_capture(p, view, "es") for p in options}
    assert marked == {True: True, False: False}, [describe_capture(p, view, "es") for p in options]
