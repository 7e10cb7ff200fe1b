"""«¿Por qué?» on the public table: the last play explained ephemerally, through `Game.explain`.
Two people play a 1 v 1 through their DM hands, steering toward a caída, a limpia, a sum
with an escalera and a trail; after each, a spectator clicks «¿Por qué?»."""

from __future__ import annotations

import pytest

from bot.engine import DECK, Game
from bot.i18n import t
from tests.support.helpers import (
    assert_no_hidden_cards_in_public,
    button_labels,
    click_raw,
    hidden_cards,
    pick_play,
    play_through_ui,
    public_message,
    seated_member,
    table_of,
)


def kind_of(game: Game, play) -> str | None:
    """Which of the four wanted kinds ``play`` would be, by the engine's own explanation."""
    if play.is_trail:
        return "trail"
    info = game.explain(play)
    if info.caida:
        return "caida"
    if info.limpia:
        return "limpia"
    if len(info.base) > 1 and info.escalera:
        return "sum_escalera"
    return None


def steer(table, wanted: set[str]):
    """A legal play of the seat in turn that is one of the kinds still ``wanted``, else the greedy one."""
    game = table.game
    for play in game.legal_plays():
        if kind_of(game, play) in wanted:
            return play
    return pick_play(table)[1]


@pytest.mark.slow
async def test_why_explains_a_caida_a_limpia_a_sum_with_escalera_and_a_trail(world):
    await world.ana.slash(world.channel, "cuarenta new", players=2)
    await world.beto.slash(world.channel, "cuarenta join")
    await world.ana.slash(world.channel, "cuarenta start")
    members = {world.ana.id: world.ana, world.beto.id: world.beto}
    wanted = {"caida", "limpia", "sum_escalera", "trail"}
    card_text = world.bot.faces.card  # cards as the bot writes them (its card emojis)
    seen: dict[str, str] = {}
    for _ in range(600):
        table = table_of(world, 1)
        if not wanted or table.status != "playing":
            break
        game = table.game
        seat = game.to_play
        play = steer(table, wanted)
        kind = kind_of(game, play)
        info = None if play.is_trail else game.explain(play)
        trailed = game.last_trail if game.last_trail_seat == (seat - 1) % 2 else None
        could = [p for p in game.plays_for(play.card) if p.captures]
        await play_through_ui(members[table.seats[seat].user_id], table, play)
        if kind not in wanted:
            continue
        wanted.discard(kind)
        table = table_of(world, 1)
        result = await world.caro.click(public_message(world, table), custom_id="c4:y:1")
        assert result.ephemeral, "the explanation is for the one who asked"
        text = result.response.content
        seen[kind] = text
        name = table.seats[seat].name
        assert text.startswith(f"**{name}** played {card_text(play.card)}."), text
        if kind == "trail":
            assert ("Trailed, though they could have taken" in text) == bool(could), text
        if kind == "caida":
            assert f"it caught the {card_text(trailed)} that {table.seats[(seat - 1) % 2].name} had just trailed" in text
            assert "(+" in text and text.splitlines()[-1].startswith("-# R17 · R2"), "the rule ids: a footnote"
            assert "(R" not in text, "no rule code in the words"
        if kind == "limpia":
            assert "cleared the table" in text
        if kind == "sum_escalera":
            assert "Captured by sum: " + " + ".join(card_text(c) for c in info.base) in text, text
            assert "Escalera: it then took " + " ".join(card_text(c) for c in info.escalera) in text, text
        if kind in ("limpia", "sum_escalera") and not info.caida:
            assert "Caída" not in text
        assert not [c for c in hidden_cards(table) if card_text(c) in text], "no hand or stock card is named"
        assert_no_hidden_cards_in_public(world, table)
    assert not wanted, f"never saw {wanted}"


async def test_why_before_any_play_says_so_and_a_spanish_user_reads_spanish(world):
    await world.ana.slash(world.channel, "cuarenta new", players=2)
    await world.beto.slash(world.channel, "cuarenta join")
    await world.ana.slash(world.channel, "cuarenta start")
    table = table_of(world, 1)
    result = await world.caro.click(public_message(world, table), custom_id="c4:y:1")
    assert result.response.content == "No card has been played at this table yet."
    labels = button_labels(public_message(world, table))
    assert labels == ["Ver mi mano", "¿Por qué?"], "public buttons are in the server's language only"


def named_cards(text: str) -> set:
    """The cards a text names, as a label (``7♦``) or as a card emoji (``<:c4_7D:…>``)."""
    return {c for c in DECK if str(c) in text or f"c4_{c.code}:" in text}


async def test_why_answers_only_for_a_table_of_the_servers_own(world):
    """`c4:y:<table>` pressed in one server for a table of another server is refused as a button no longer
    in use: no card of that table's play, no name of its players. On the table's own server it explains."""
    other = world.env.create_guild("Cuenca Club")
    chan = other.create_text_channel("mesa")
    xavi = other.add_member(world.env.create_user("xavi"))
    yoli = other.add_member(world.env.create_user("yoli"))
    await xavi.slash(chan, "cuarenta new", players=2)
    await yoli.slash(chan, "cuarenta join")
    tid = next(iter(world.bot.tables.tables))
    table = table_of(world, tid)
    assert table.guild_id == other.id
    seat, play = pick_play(table)
    await play_through_ui(seated_member(table, seat, xavi, yoli), table, play)

    rules = await world.ana.slash(world.channel, "cuarenta rules")  # a message of ana's, in Quito Club
    forged = await click_raw(world.env, world.ana, rules.response, f"c4:y:{tid}")
    text = forged.response.content
    assert forged.ephemeral
    assert play.card not in named_cards(text), f"another server's play is explained: {text}"
    assert "xavi" not in text and "yoli" not in text, text
    assert text == t("err.button_gone_other", "en"), text

    own = await click_raw(world.env, yoli, next(m for m in chan.history() if m.id == table.messages.public),
                          f"c4:y:{tid}")
    assert own.response.content.startswith(f"**{table.seats[seat].name}**"), own.response.content
    assert world.env.errors == []


@pytest.mark.slow
async def test_why_after_a_play_that_wins_the_chica_says_so_with_the_score_it_reached(world):
    """A capture that takes its side to the target wins the chica (R33): «¿Por qué?» says so and shows
    the score right after the play, not the new chica's 0–0."""
    from bot.engine import EventKind as K

    await world.ana.slash(world.channel, "cuarenta new", players=2)
    await world.beto.slash(world.channel, "cuarenta join")
    members = {world.ana.id: world.ana, world.beto.id: world.beto}
    for _ in range(900):
        table = table_of(world, 1)
        assert table.status == "playing", "no chica was won by a play"
        seat, play = pick_play(table)
        start = len(table.game.events)
        await play_through_ui(members[table.seats[seat].user_id], table, play)
        table = table_of(world, 1)
        new = table.game.events[start:]
        kinds = [e.kind for e in new]
        if K.CHICA_WON in kinds and K.HAND_END not in kinds[:kinds.index(K.CHICA_WON)]:
            reached = next(e.scores for e in reversed(new[:kinds.index(K.CHICA_WON)]) if e.scores is not None)
            result = await click_raw(world.env, world.eva, public_message(world, table), "c4:y:1")
            text = result.response.content
            assert t("why.wins_chica", "en") in text, text
            from bot.ui.words import score_words, side_name

            shown = " · ".join(f"{side_name(table, team, 'en')}: {score_words(reached[team], 'en')}" for team in (0, 1))
            assert text.splitlines()[-2] == t("why.score", "en", scores=shown), "the score the play reached"
            assert max(reached) >= table.rules.target
            return
    raise AssertionError("no play won a chica")


def select_of(message):
    """The one string select of a message: (custom_id, [(label, value, description, default)])."""
    selects = [c for row in message.components for c in row["components"] if c.get("options")]
    assert len(selects) == 1, message.components
    return selects[0]["custom_id"], [(o["label"], o["value"], o.get("description"), o.get("default", False))
                                     for o in selects[0]["options"]]


async def test_why_menu_lists_the_hands_last_plays_and_explains_a_caida_with_its_cards(world):
    """«¿Por qué?» offers the hand's last plays (at most 5, newest first, "ana · 7♦ → 7♣"); picking an
    older one, a caída, explains it in place in words with its cards: the card it fell on, who had just
    trailed it, the +2; the rule numbers only as a footnote."""
    await world.ana.slash(world.channel, "cuarenta new", players=2)
    await world.beto.slash(world.channel, "cuarenta join")
    members = {world.ana.id: world.ana, world.beto.id: world.beto}
    card_text = world.bot.faces.card
    caida = None
    for _ in range(600):
        table = table_of(world, 1)
        assert table.status == "playing", "no caída in the mesa"
        game = table.game
        seat = game.to_play
        play = steer(table, {"caida"}) if caida is None else pick_play(table)[1]
        if caida is None and kind_of(game, play) == "caida":
            caida = (len(game.plays), seat, play, game.last_trail, game.hand_number)
        await play_through_ui(members[table.seats[seat].user_id], table, play)
        table = table_of(world, 1)
        if caida is not None and len(table.game.plays) >= caida[0] + 2:
            break
    index, seat, play, fallen, hand = caida
    table = table_of(world, 1)
    assert table.game.hand_number == hand, "still the caída's hand"
    result = await world.caro.click(public_message(world, table), custom_id="c4:y:1")
    assert result.ephemeral
    newest = len(table.game.plays) - 1
    custom_id, options = select_of(result.response)
    assert custom_id == f"c4:e:1:{newest}"
    assert 2 <= len(options) <= 5
    assert [value for _, value, _, _ in options] == [str(k) for k in range(len(options))], "newest first"
    assert [default for *_, default in options] == [True] + [False] * (len(options) - 1)
    label, value, note, _ = options[newest - index]
    taken = " ".join(str(c) for c in sorted(play.captures, key=lambda c: (c.rank, c.suit, c.index)))
    assert label == f"{table.seats[seat].name} · {play.card} → {taken}", label
    assert note and "Caída" in note, note
    picked = await world.caro.select(result.response, [value], custom_id=custom_id)
    text = picked.response.content
    assert text.startswith(f"**{table.seats[seat].name}** played {card_text(play.card)}."), text
    victim = table.seats[1 - seat].name
    assert f"it caught the {card_text(fallen)} that {victim} had just trailed" in text, text
    assert "(+2)" in text or "(+4)" in text, text
    assert text.splitlines()[-1].startswith("-# ") and "R22" in text.splitlines()[-1], text
    assert "(R" not in text
    assert select_of(picked.response)[1][newest - index][3], "the play explained is the one marked"
    assert not [c for c in hidden_cards(table) if card_text(c) in text or str(c) in label]
    assert world.env.errors == []
