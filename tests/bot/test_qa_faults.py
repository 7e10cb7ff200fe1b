"""Faults found by QA (seating races, rematch, wording against RULES.md, the capture menu past 25
options, /cuarenta table flooding, who adds computer players), each pinned by a test."""

from __future__ import annotations

import asyncio

import pytest

from bot.engine import Card, Event, Game, Play, Rules
from bot.engine import EventKind as K
from bot.i18n import t
from bot.learn import present as learn_present
from bot.tables import FINISHED, Choice, Seat, Table, TableError
from bot.tables.choices import outcome
from bot.ui import records, render

from .helpers import (
    click_raw,
    custom_ids,
    double_click,
    latest_hand,
    pick_play,
    play_through_ui,
    play_to_end,
    public_message,
    table_of,
)

# ---------------------------------------------------------------------- helpers


def table_with(game: Game, preset: str) -> Table:
    seats = [Seat(100 + i, f"p{i}") for i in range(game.players)]
    return Table(id=1, guild_id=1, channel_id=1, host_id=100, players=game.players, preset=preset,
                 status="playing", seed="x", seats=seats, game=game)


def mesa_announcements(world):
    """The records of mesas' last hands (they name the winner and carry «Revancha»)."""
    return [m for m in world.channel.history() if m.embeds and ("gana la mesa" in (m.embeds[0].description or "")
            or "wins the mesa" in (m.embeds[0].description or ""))]


def many_captures_choice() -> tuple[Table, Choice]:
    """Ten small cards on the table: the 7 of clubs has 35 different captures."""
    game = Game.from_position(Rules.preset("quito"), players=2, hands=["7C 2C", "KH QH"],
                              table="AS AH AD 2S 2H 3S 3H 4S 5S 6S", dealer=1, to_play=0)
    card = Card.parse("7C")
    options = tuple(p for p in game.plays_for(card) if p.captures)
    return table_with(game, "quito"), Choice(card, options, True, game.view(0))


def select_values(select) -> list[str]:
    """The option values of a capture menu (`render.capture_select`)."""
    return [o["value"] for o in select["options"]]


# ---------------------------------------------------------------------- seating races


async def test_two_simultaneous_new_tables_seat_a_user_once(service):
    results = await asyncio.gather(
        service.create(guild_id=1, channel_id=2, user_id=10, name="ana", locale="es", players=2),
        service.create(guild_id=1, channel_id=3, user_id=10, name="ana", locale="es", players=2),
        return_exceptions=True,
    )
    opened = [r for r in results if not isinstance(r, BaseException)]
    assert len(opened) == 1, f"ana now sits at {len(opened)} open tables"
    assert all(isinstance(r, TableError) for r in results if isinstance(r, BaseException))


async def test_join_while_opening_another_table_seats_a_user_once(service):
    first = await service.create(guild_id=1, channel_id=2, user_id=10, name="ana", locale="es", players=4)
    results = await asyncio.gather(
        service.create(guild_id=1, channel_id=3, user_id=20, name="beto", locale="es", players=2, preset="quito"),
        service.join(first.id, user_id=20, name="beto", locale="es"),
        return_exceptions=True,
    )
    seated = sum(1 for t in service.tables.values() if t.is_open and t.seat_of(20) is not None)
    assert seated == 1, f"beto sits at {seated} open tables ({results})"


# ---------------------------------------------------------------------- rematch


async def test_double_click_on_rematch_opens_one_table_and_names_it(world):
    await world.ana.slash(world.channel, "cuarenta new", players=2)
    await world.ana.select(world.channel.last_message, ["medio"], custom_id="c4:v:1")
    await play_to_end(world, 1, {world.ana.id: world.ana})
    announcement = mesa_announcements(world)[-1]
    first, second = await double_click(world.env, world.ana, announcement, "c4:r:1")
    texts = [first.response.content, second.response.content]
    assert len([tb for tb in world.bot.tables.tables.values() if tb.is_open]) == 1
    assert not any("went wrong" in x for x in texts), texts
    assert not any("#?" in x for x in texts), texts
    assert all("#2" in x for x in texts), texts
    assert world.env.errors == []


@pytest.mark.slow
async def test_rematch_refusal_names_the_busy_player(world):
    """Ana and Beto finish a 1v1; Beto sits at a table in another channel; Ana asks for a rematch."""
    other = world.guild.create_text_channel("otra")
    await world.ana.slash(world.channel, "cuarenta new", players=2)
    await world.beto.slash(world.channel, "cuarenta join")
    table = table_of(world, 1)
    await play_to_end(world, 1, {world.ana.id: world.ana, world.beto.id: world.beto})
    assert table.status == FINISHED
    await world.beto.slash(other, "cuarenta new", players=2)
    announcement = mesa_announcements(world)[-1]
    result = await world.ana.click(announcement, custom_id="c4:r:1")
    text = result.response.content
    assert result.ephemeral
    assert not text.startswith("You are already seated"), text
    assert "beto" in text.lower() and "#2" in text, text


# ---------------------------------------------------------------------- wording (RULES.md)


def test_fourth_caida_that_wins_the_chica_says_it_wins_the_chica():
    """cuenca: four consecutive caídas win the chica (R26); the line must not read "caída +0"."""
    game = Game.from_position(Rules.preset("cuenca"), players=2, hands=["5C 6D", "7H"],
                              table="5H 2S", last_trail="5H", trailed_by=1, to_play=0, dealer=0,
                              streaks=(3, 0), scores=(10, 10))
    events = game.play(Play.parse("5C", ["5H"]), seat=0)
    assert any(e.kind == K.CHICA_WON and e.reason == "four_caidas" for e in events)
    for lang, wins in (("es", "gana la chica"), ("en", "wins the chica")):
        text = "\n".join(render.play_lines(table_with(game, "cuenca"), events, lang))
        assert "+0" not in text and wins in text, text


def test_end_of_hand_summary_explains_a_blocked_carton_at_38():
    """R30: at 38 the cartón does not count; the summary says why, like the play lines."""
    pile_a = "AC 2C 3C 4C 5C 6C 7C JC QC KC AD 2D 3D 4D 5D 6D 7D JD QD KD AH 2H"
    game = Game.from_position(Rules.preset("quito"), players=2, hands=["3H", "4H"], table="",
                              dealer=1, to_play=0, deal_number=4, stock="", piles=(pile_a, "5H 6H"),
                              scores=(38, 0))
    events = game.play(Play.trail(game.hands[0][0]), seat=0)
    events += game.play(Play.trail(game.hands[1][0]), seat=1)
    carton = next(e for e in events if e.kind == K.CARTON)
    assert carton.blocked == "38" and carton.points == 0
    hand = [e for e in game.events if e.kind != K.HAND_START]
    end = next(i for i, e in enumerate(hand) if e.kind == K.HAND_END)
    del hand, end
    for lang, why in (("es", "no cuenta: 38 no juega"), ("en", "does not count: on 38, only a caída scores")):
        payload = records.hand_record_payload(table_with(game, "quito"), 1, lang)
        line = next(x for x in payload.embed.description.splitlines() if "cartón" in x)
        assert why in line, line


def test_blocked_limpia_in_rapido_says_the_blocking_score_is_18():
    """rapido applies the 38 rule at 18: a limpia at 18 does not count, and the line says 18."""
    game = Game.from_position(Rules.preset("rapido"), players=2, hands=["5C 2C", "KH QH"], table="5H",
                              dealer=1, to_play=0, scores=(18, 0))
    events = game.play(Play.parse("5C", ["5H"]), seat=0)
    assert any(e.kind == K.LIMPIA and e.blocked == "38" for e in events)
    for lang in ("es", "en"):
        line = render.play_lines(table_with(game, "rapido"), events, lang)[0]
        assert "18" in line and "38" not in line, line


def test_chica_announcement_gives_the_winners_score_first():
    """An instant chica (caída en ronda, cuenca) won by B with 0 points against A's 6."""
    event = Event(K.CHICA_WON, team=1, reason="caida_en_ronda", scores=(6, 0), counts=(0, 2), number=2,
                  zapatero=True)
    game = Game.from_position(Rules.preset("cuenca"), players=2, hands=["5C", "7H"], to_play=0, dealer=1)
    es = records.chica_lines(table_with(game, "cuenca"), event, "es")[0]
    en = records.chica_lines(table_with(game, "cuenca"), event, "en")[0]
    assert "(0 a 6)" in es, es
    assert "(0 to 6)" in en, en


def test_mesa_won_with_one_chica_says_chica_in_the_singular():
    event = Event(K.MESA_WON, team=0, counts=(1, 0), zapatero=True)
    game = Game.from_position(Rules.preset("quito"), players=2, hands=["5C", "7H"], to_play=0, dealer=1)
    es = "\n".join(records.mesa_lines(table_with(game, "quito"), event, "es"))
    en = "\n".join(records.mesa_lines(table_with(game, "quito"), event, "en"))
    assert "1 chicas" not in es and "1 chica a 0" in es, es
    assert "1 chicas" not in en and "1 chica to 0" in en, en
    two = Event(K.MESA_WON, team=1, counts=(1, 2), zapatero=False)
    assert "2 chicas a 1" in records.mesa_lines(table_with(game, "quito"), two, "es")[0]


def test_rules_text_carton_matches_R28():
    """R28: 20 cards = 6, then +1 per card over 20 rounded up to even (21 → 8)."""
    from bot.engine.game import carton_points

    assert carton_points(21) == 8
    en = learn_present.rules_payload("quito", "en").embed.description
    es = learn_present.rules_payload("quito", "es").embed.description
    assert "plus 2 for each pair of cards over 20" not in en, en
    assert "21 → 8" in en and "21 → 8" in es


def test_rules_text_rapido_says_the_38_rule_blocks_at_18():
    """Part 1 §1: rapido applies the 38 rule at 18."""
    for lang in ("en", "es"):
        text = learn_present.rules_payload("rapido", lang).embed.description
        assert "18" in text, text
    assert "18" not in learn_present.rules_payload("quito", "en").embed.description


def test_match_with_escalera_is_written_like_the_capture_menu_not_as_a_sum():
    """A 5 matching a 5 and taking 6, 7 by escalera: "llevó 5♥, luego 6♠ 7♣ con 5♣"."""
    game = Game.from_position(Rules.preset("quito"), players=2, hands=["5C 2C", "KH QH"],
                              table="6S 5H 7C", dealer=1, to_play=0)
    events = game.play(Play.parse("5C", ["5H", "6S", "7C"]), seat=0)
    line = render.play_lines(table_with(game, "quito"), events, "es")[0]
    assert "5♥, luego 6♠ 7♣" in line, line
    assert "6♠ + 5♥" not in line and "5♥ + 6♠" not in line, line
    en = render.play_lines(table_with(game, "quito"), events, "en")[0]
    assert "5♥, then 6♠ 7♣" in en, en


# ---------------------------------------------------------------------- capture menu past 25 options


def test_capture_menu_pages_offer_every_capture():
    """35 captures do not fit in one select (Discord allows 25 options): every capture is on a page, and
    each page links to the others."""
    table, choice = many_captures_choice()
    assert len(choice.options) == 35
    pages = render.capture_pages(choice)
    offered: list[str] = []
    for page in range(len(pages)):
        values = select_values(render.capture_select(table, choice, "es", page=page))
        assert len(values) <= 25
        assert "-" in values, "the trail is on every page"
        links = {v for v in values if v.startswith(render.PAGE_VALUE_PREFIX)}
        assert links == {f"{render.PAGE_VALUE_PREFIX}{p}" for p in (page - 1, page + 1) if 0 <= p < len(pages)}
        offered += [v for v in values if v != "-" and v not in links]
    expected = [".".join(c.code for c in p.sorted_captures()) for p in choice.options]
    assert sorted(offered) == sorted(expected)


def test_capture_menu_that_fits_has_one_page_and_no_links():
    game = Game.from_position(Rules.preset("quito"), players=2, hands=["7C 2C", "KH QH"],
                              table="AS 6S 3H 4S", dealer=1, to_play=0)
    card = Card.parse("7C")
    options = tuple(p for p in game.plays_for(card) if p.captures)
    choice = Choice(card, options, True, game.view(0))
    values = select_values(render.capture_select(table_with(game, "quito"), choice, "en"))
    assert len(values) == len(options) + 1
    assert not any(v.startswith(render.PAGE_VALUE_PREFIX) for v in values)


# ---------------------------------------------------------------------- /cuarenta table flooding


async def test_table_command_reposts_once_per_cooldown_for_spectators_players_and_managers(world):
    await world.ana.slash(world.channel, "cuarenta new", players=2)
    await world.ana.slash(world.channel, "cuarenta start")
    table = table_of(world, 1)
    before = len(list(world.channel.history()))
    first = await world.caro.slash(world.channel, "cuarenta table")
    assert first.ephemeral
    for member in (world.caro, world.caro, world.ana, world.eva):
        refused = await member.slash(world.channel, "cuarenta table")
        assert refused.ephemeral
        assert "Table #1" in refused.response.content and str(table.messages.public) in refused.response.content
    after = len(list(world.channel.history()))
    assert after - before == 1, f"the table was re-posted {after - before} times"
    await world.env.advance_time(31)
    again = await world.caro.slash(world.channel, "cuarenta table")
    assert "reposted the table" in again.response.content
    assert len(list(world.channel.history())) == after + 1
    assert world.env.errors == []


# ---------------------------------------------------------------------- computer players: host only


async def test_only_the_host_adds_computer_players(world):
    await world.ana.slash(world.channel, "cuarenta new", players=4)
    await world.beto.slash(world.channel, "cuarenta join")
    lobby = world.channel.last_message
    refused = await world.beto.select(lobby, ["medio"], custom_id="c4:v:1")
    table = table_of(world, 1)
    assert refused.ephemeral and refused.response.content == "Only the host can add computer players."
    assert not any(s is not None and s.is_ai for s in table.seats)
    added = await world.ana.select(lobby, ["medio"], custom_id="c4:v:1")
    assert added.ephemeral and "computer player" in added.response.content
    assert sum(1 for s in table.seats if s is not None and s.is_ai) == 1
    assert world.env.errors == []


async def test_capture_menu_on_the_hand_merges_suit_only_twins_and_a_choice_plays(world):
    """Through Discord: ten small cards give the 7 of clubs 35 captures, but far fewer different
    outcomes; the menu on the hand offers each outcome once, and a choice there is played."""
    await world.ana.slash(world.channel, "cuarenta new", players=2)
    await world.beto.slash(world.channel, "cuarenta join")  # two people: nothing is played before the swap
    table = table_of(world, 1)
    assert table.nonce == 0
    table.game = Game.from_position(Rules.preset("quito"), players=2, hands=["7C 2C", "KH QH"],
                                    table="AS AH AD 2S 2H 3S 3H 4S 5S 6S", dealer=1, to_play=0)
    assert table.seat_of(world.ana.id) == 0
    nonce = table.nonce
    hand = await world.ana.slash(world.channel, "cuarenta hand")
    menu = await world.ana.click(hand.response, custom_id=f"c4:p:1:{nonce}:7C")
    cid = f"c4:c:1:{nonce}:7C"
    assert menu.response.id == hand.response.id, "the menu is on the hand itself"
    values = [o["value"] for row in menu.response.components for item in row["components"]
              if item.get("custom_id") == cid for o in item.get("options", [])]
    captures = [v for v in values if v != "-"]
    view = table.game.view(0)
    plays = [Play.parse(Card.parse("7C"), v.split(".")) for v in captures]
    assert len({outcome(p, view) for p in plays}) == len(plays), "no two choices with the same outcome"
    assert 1 < len(plays) < 35 and not any(v.startswith(render.PAGE_VALUE_PREFIX) for v in values)
    await world.ana.select(menu.response, [captures[-1]], custom_id=cid)
    assert table.nonce == nonce + 1
    played = table.game.plays[-1]
    assert ".".join(c.code for c in played.sorted_captures()) == captures[-1]
    assert world.env.errors == []


@pytest.mark.slow
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
        assert card.code in (result.response.content or "") or any(card.code in c for c in
                                                                   custom_ids(result.response))
        if kind == "play":
            assert table.nonce == nonce + 1, "the card was played"
        pressed[kind] = True
        await world.env.advance_time(2)
        seen = next(m for m in world.channel.history(viewer=world.eva) if m.id == table.messages.public)
        assert not any(c.startswith(("c4:p:", "c4:c:", "c4:t:")) for c in custom_ids(seen)), \
            f"{kind}: no hand control on the public table message"
        assert not any(f"c4_{c.code}:" in (seen.content or "") for c in table.game.hands[seat])
    assert all(pressed.values()), pressed
    assert world.env.errors == []


async def _hand_at(world, hands: list[str], on_table: str):
    """ana (seat 0) to play from a fixed position of a 1 v 1 between people; her ephemeral hand."""
    await world.ana.slash(world.channel, "cuarenta new", players=2)
    await world.beto.slash(world.channel, "cuarenta join")
    table = table_of(world, 1)
    table.game = Game.from_position(Rules.preset("quito"), players=2, hands=hands, table=on_table, dealer=1,
                                    to_play=0)
    return table, (await world.ana.slash(world.channel, "cuarenta hand")).response


async def test_a_capture_menu_page_value_for_a_card_without_a_menu_plays_nothing(world):
    """QA: a capture menu's page value ("~<page>") only turns the page, but for a card with one capture (5♣
    takes the 5♥) or none (K♣) it played the card. Now it is refused ("That play is not allowed."),
    ephemerally, and the game is as it was."""
    table, hand = await _hand_at(world, ["5C 2C KC", "KH QH JH"], "5H 3S")
    for card, page in (("5C", "~1"), ("KC", "~0")):
        nonce, before = table.nonce, table.game.snapshot()
        result = await click_raw(world.env, world.ana, hand, f"c4:c:1:{nonce}:{card}", component_type=3,
                                 values=[page])
        assert result.acknowledged and result.ephemeral
        assert result.response.content == t("err.illegal", "en")
        assert table.nonce == nonce and table.game.snapshot() == before, f"the page value {page} played {card}"
    assert world.env.errors == []


async def test_a_capture_menu_with_no_value_or_a_card_twice_plays_nothing(world):
    """QA: the capture select sent with no value trailed the 7♣, which could capture (4♥+3♠ or 6♦+A♠); a
    trail on purpose is the "-" value or the trail control. An empty choice, or one naming a card twice,
    is refused ephemerally and changes nothing; the real choice then plays."""
    table, hand = await _hand_at(world, ["7C 2C KC", "KH QH JH"], "4H 3S AS 6D")
    nonce, before = table.nonce, table.game.snapshot()
    for values in ([], ["4H.4H.3S"]):
        result = await click_raw(world.env, world.ana, hand, f"c4:c:1:{nonce}:7C", component_type=3,
                                 values=values)
        assert result.acknowledged and result.ephemeral, values
        assert table.nonce == nonce and table.game.snapshot() == before, values
    played = await click_raw(world.env, world.ana, hand, f"c4:c:1:{nonce}:7C", component_type=3, values=["3S.4H"])
    assert played.acknowledged and table.nonce == nonce + 1
    assert {c.code for c in table.game.table} == {"AS", "6D"}, "the 7♣ took the 4♥ and the 3♠"
    assert world.env.errors == []


@pytest.mark.parametrize("status,code", [(500, 0), (404, 10062)], ids=["5xx", "unknown-interaction"])
async def test_a_play_whose_answer_discord_refuses_stands_and_nobody_is_told_of_an_error(world, caplog, status,
                                                                                        code):
    """QA: when Discord refused the answer of a card click (a 5xx after discord.py's retries, or 10062 when
    the answer came too late), the card was played but the player was told "something went wrong" and an
    ERROR was logged. The play stands: no error is shown or logged, and the presenter writes the DM hand
    again, so it shows the game as it is."""
    import logging

    await world.ana.slash(world.channel, "cuarenta new", players=2, rules="quito")
    await world.beto.slash(world.channel, "cuarenta join")
    table = table_of(world, 1)
    members = {world.ana.id: world.ana, world.beto.id: world.beto}
    while True:
        game = table.game
        card = next((c for c in game.hands[game.to_play] if len([p for p in game.plays_for(c) if p.captures]) <= 1),
                    None)
        if card is not None:
            break
        seat, play = pick_play(table)
        await play_through_ui(members[table.seats[seat].user_id], table, play)
    member = members[table.seats[table.game.to_play].user_id]
    plays = len(table.game.plays)
    world.env.inject_error("POST", "/interactions/*/callback", status=status, code=code, times=1)
    result = await member.user.click(latest_hand(member), custom_id=f"c4:p:1:{table.nonce}:{card.code}")
    await world.env.advance_time(2)
    assert len(table.game.plays) == plays + 1, "the play stands"
    generic = {t("err.generic", lang) for lang in ("es", "en", "pt")}
    said = [result.response.content if result.response else None] + [f.content for f in result.followups]
    assert not generic & set(said), said
    assert [r for r in caplog.records if r.levelno >= logging.ERROR] == []
    hand = latest_hand(member)
    assert card.code not in " ".join(custom_ids(hand)), "the DM hand was written again without the card played"
