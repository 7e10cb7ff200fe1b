"""Faults QA found in the learning features and the languages («¿Por qué?», the guide, the replay, /cuarenta
rules, what a locale without a catalog reads, counted nouns, the lobby's wording), each pinned by a test of
what is now guaranteed."""

from __future__ import annotations

import re
import string

import pytest

from bot.engine import DECK
from bot.i18n import t, tn
from bot.learn import guide_pages
from bot.learn.present import rules_payload
from bot.ui.words import level_word

from .helpers import (
    click_raw,
    custom_ids,
    latest_hand,
    pick_play,
    play_through_ui,
    play_to_end,
    public_message,
    table_of,
)
from .test_catalogs import CATALOGS
from .test_leaderboard import play_via_service
from .test_portuguese import texts_of

# ---------------------------------------------------------------------- helpers


def named_cards(text: str) -> set:
    """The cards a text names, as a label (``7♦``) or as a card emoji (``<:c4_7D:…>``)."""
    return {c for c in DECK if str(c) in text or f"c4_{c.code}:" in text}


def member_of(table, seat, *members):
    uid = table.seats[seat].user_id
    return next(m for m in members if m.id == uid)


async def start_pair(world, channel=None):
    channel = channel or world.channel
    await world.ana.slash(channel, "cuarenta new", players=2)
    await world.beto.slash(channel, "cuarenta join")


def look(message) -> tuple:
    """What everybody sees of a message: its content, its embeds and its components' custom_ids."""
    return (message.content, [e.to_dict() for e in message.embeds], custom_ids(message))


def filled(template: str, text: str) -> dict[str, str] | None:
    """The placeholders' values when ``text`` is catalog ``template`` filled in, else None."""
    pattern = ""
    for literal, name, _, _ in string.Formatter().parse(template):
        pattern += re.escape(literal) + (f"(?P<{name}>.+?)" if name else "")
    match = re.fullmatch(pattern, text, re.S)
    return match.groupdict() if match else None


# ---------------------------------------------------------------------- «¿Por qué?»


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
    await play_through_ui(member_of(table, seat, xavi, yoli), table, play)

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


# ---------------------------------------------------------------------- ids on someone else's message


async def test_a_guide_id_on_the_public_table_message_leaves_it_and_answers_the_presser(world):
    await start_pair(world)
    table = table_of(world, 1)
    before = look(public_message(world, table))
    result = await click_raw(world.env, world.eva, public_message(world, table), "c4:a:3:n")
    assert look(public_message(world, table)) == before, "the public table message changed"
    assert result.ephemeral and result.response.embeds[0].title == guide_pages("en")[3].title
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


# ---------------------------------------------------------------------- languages


async def test_a_locale_without_a_catalog_gets_the_servers_language_after_a_click_in_a_dm(world, locales):  # noqa: F811
    """fr has no catalog: what beto alone sees falls back to the server's language, Portuguese here, also
    when he clicks a card in his DM hand (a DM has no server: his table's server is used)."""
    await world.eva.slash(world.channel, "cuarenta language", language="pt")
    locales[world.ana.id] = "pt-BR"
    locales[world.beto.id] = "fr"
    await start_pair(world)
    table = table_of(world, 1)
    see_pt, see_es = t("btn.see_table", "pt"), t("btn.see_table", "es")
    assert see_pt != see_es
    clicked = 0
    for _ in range(8):
        seat, play = pick_play(table)
        member = member_of(table, seat, world.ana, world.beto)
        result = await play_through_ui(member, table, play)
        if member is world.beto:
            clicked += 1
            assert result.response is not None, "the click is answered"
            shown = texts_of(result.response)  # the answer to the click itself, not a pushed hand
            assert see_es not in shown, shown
            assert see_pt in shown, shown
            assert see_pt in texts_of(latest_hand(world.beto)), "his DM hand stays in Portuguese"
    assert clicked >= 3
    assert world.env.errors == []


async def test_the_guide_names_commands_as_a_client_without_a_catalog_shows_them(world, locales):  # noqa: F811
    """A fr client shows Discord's default (English) command names; the guide, in the server's language
    (Spanish), writes `/cuarenta hand`, never `/cuarenta mano`."""
    locales[world.ana.id] = "fr"
    sync = next(r for r in world.env.http_requests if r.method == "PUT" and r.path.endswith("/commands"))
    root = next(c for c in sync.json if c["name"] == "cuarenta")
    names = {o["name"] for o in root["options"]}  # what a client without a localization shows
    shown = await world.ana.slash(world.channel, "cuarenta help")
    typed = []
    for page in range(len(guide_pages("es"))):
        answer = (await world.ana.select(shown.response, [str(page)], custom_id="c4:a:s")).response
        assert answer.embeds[0].title == guide_pages("es")[page].title, "the text is in the server's Spanish"
        typed += re.findall(r"/cuarenta (\w+)", answer.embeds[0].description or "")
    assert t("cmd.hand.name", "en") in typed, typed
    assert t("cmd.hand.name", "es") not in typed, typed
    assert all(name in names for name in typed), (typed, sorted(names))
    assert world.env.errors == []


# ---------------------------------------------------------------------- /cuarenta rules, the guide's buttons


async def test_rules_without_a_preset_outside_a_table_explain_the_servers_default_preset(world):
    await world.eva.slash(world.channel, "cuarenta settings", preset="barrio")
    other = world.guild.create_text_channel("otra")
    await world.ana.slash(other, "cuarenta new", players=2)
    assert table_of(world, 1).preset == "barrio", "the server's default preset is barrio"
    shown = await world.beto.slash(world.channel, "cuarenta rules")  # no table in this channel
    expected = rules_payload("barrio", "en").embed
    assert shown.response.embeds[0].title == expected.title
    assert shown.response.embeds[0].description == expected.description


async def test_a_gone_guide_button_is_answered_without_talking_about_hands(world):
    shown = await world.ana.slash(world.channel, "cuarenta help")
    result = await click_raw(world.env, world.ana, shown.response, "c4:a:1000:n")  # no such button anywhere
    text = result.response.content
    assert result.ephemeral
    assert text != t("err.button_gone", "en") and t("cmd.hand.name", "en") not in text, text
    assert text == t("err.button_gone_other", "en")
    assert world.env.errors == []


async def test_a_non_ascii_digit_as_the_topic_is_still_answered_with_the_first_page(world):
    shown = await world.ana.slash(world.channel, "cuarenta help")
    result = await click_raw(world.env, world.ana, shown.response, "c4:a:s", component_type=3, values=["²"])
    assert result.response is not None, "no answer: the user sees «This interaction failed»"
    assert result.response.embeds[0].title == guide_pages("en")[0].title
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


# ---------------------------------------------------------------------- counted nouns, wording


@pytest.mark.parametrize(("locale", "lang"), [("es-419", "es"), ("pt-BR", "pt")])
async def test_stats_of_a_player_with_one_mesa_won_never_say_1_ganadas(world, locales, locale, lang):  # noqa: F811
    """The counted nouns of /cuarenta stats agree with one: «ganadas: 1», never «1 ganadas» («1 ganhas»)."""
    await world.ana.slash(world.channel, "cuarenta new", players=2, rules="rapido")
    await world.beto.slash(world.channel, "cuarenta join")
    await play_via_service(world, 1)
    table = table_of(world, 1)
    winner = member_of(table, table.game.winner, world.ana, world.beto)
    locales[winner.id] = locale
    stats = await winner.slash(world.channel, "cuarenta stats")
    summary = filled(CATALOGS[lang]["stats.summary"], stats.response.embeds[0].description)
    assert summary is not None and summary["mesas_won"] == "1", stats.response.embeds[0].description
    text = "\n".join(texts_of(stats.response))
    assert not re.findall(r"\b1 (?:ganadas|ganhas)\b", text), text
    assert world.env.errors == []


@pytest.mark.parametrize(("locale", "lang"), [("es-419", "es"), ("en-US", "en"), ("pt-BR", "pt")])
async def test_closing_a_two_player_tournament_says_1_round(world, locales, locale, lang):  # noqa: F811
    locales[world.eva.id] = locale
    await world.eva.slash(world.channel, "cuarenta tournament create", name="Final", rules="rapido")
    for member in (world.ana, world.beto):
        await member.slash(world.channel, "cuarenta tournament signup")
    closed = await world.eva.slash(world.channel, "cuarenta tournament close")
    text = "\n".join(texts_of(closed.response))
    assert not re.search(r"\b1 (?:rondas|rounds|rodadas)\b", text), text
    assert text == tn("ok.tournament_drawn", 1, lang, tournament=1, rounds=1)
    assert world.env.errors == []


async def test_the_spanish_lobby_says_de_dificultad_media(world):
    await world.ana.slash(world.channel, "cuarenta new", players=2)
    text = "\n".join(texts_of(world.channel.last_message))
    assert "nivel media" not in text, [line for line in text.splitlines() if "nivel media" in line]
    assert t("lobby.help_levels", "es", level=level_word("medio", "es")) in text
    assert f"de dificultad {level_word('medio', 'es')}" in text


# ---------------------------------------------------------------- QA faults 3 and 5 (why and hints)


def test_a_fourth_caida_that_wins_the_chica_is_hinted_as_winning_it():
    """cuenca: four caídas in a row win the chica (R26); side A has three and the 5♥ can take the 5♣ beto
    just trailed: the hint says it wins the chica (the streak is public), as the engine then decides."""
    from bot.engine import EventKind as K
    from bot.engine import Game, Rules
    from bot.tables import Seat, Table
    from bot.ui.hints import hint_lines

    game = Game.from_position(Rules.preset("cuenca"), players=2, hands=["5H KD", "QH QD"],
                              table="5C 2S", last_trail="5C", trailed_by=1, dealer=1, to_play=0,
                              streaks=(3, 0), scores=(10, 10))
    table = Table(id=1, guild_id=1, channel_id=1, host_id=100, players=2, preset="cuenca", status="playing",
                  seed="x", seats=[Seat(100, "ana"), Seat(101, "beto")], game=game, meta={"hints": True})
    line = next(x for x in hint_lines(table, game.view(0), "en") if x.startswith("• 5♥ →"))
    assert t("hint.wins_chica", "en") in line, line
    game.play(next(p for p in game.plays_for("5H") if p.captures))
    assert any(e.kind == K.CHICA_WON and e.reason == "four_caidas" for e in game.events), "the engine agrees"


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
            assert text.splitlines()[-1] == t("why.score", "en", scores=shown), "the score the play reached"
            assert max(reached) >= table.rules.target
            return
    raise AssertionError("no play won a chica")
