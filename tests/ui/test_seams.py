"""The words a player reads, the same in es, en and pt-BR: one name per seat with the computer's level
everywhere; the turn alert opens with "¡Te toca, <name>!"; a computer seated in 1 v 1 names no team; the
score line reads "your team (B): nothing"; phone users tap; a caída en ronda is summed apart from the
plain caídas; the lobby fits a phone with its menu placeholder uncut."""

from __future__ import annotations

import random
import re

import pytest

from bot.engine import Card, Event, EventKind, Game, Rules
from bot.i18n import t
from bot.tables import Seat, Table
from bot.tables.model import TableOptions
from bot.ui import render
from bot.ui.records import _bonus_lines
from bot.ui.table_scene import table_scene
from bot.ui.words import log_token, records, seat_name

LANGS = ("es", "en", "pt")


def table_with_computer(players: int = 2, plays: int = 6, seed: str = "seams") -> Table:
    game = Game.new(Rules.preset("quito"), players, seed)
    rng = random.Random(seed)
    for _ in range(plays):
        game.play(rng.choice(game.legal_plays()))
    seats = [Seat(1, "ana"), Seat(None, ai="dificil", ai_number=1), Seat(2, "caro"), Seat(None, ai="facil", ai_number=2)]
    return Table(id=3, guild_id=1, channel_id=2, host_id=1, players=players, preset="quito", status="playing",
                 seats=seats[:players], game=game, options=TableOptions(guild_name="Quito Club", channel_name="mesa"))


def test_one_seat_name_with_the_level_in_record_table_picture_and_replay():
    table = table_with_computer(plays=8)
    assert seat_name(table, 1, "es") == "Compu 1 (difícil)"
    assert seat_name(table, 1, "en") == "CPU 1 (hard)" and seat_name(table, 1, "pt") == "PC 1 (difícil)"
    computer_plays = [r for r in records(table.game.events, 0) if r.kind == "play" and r.seat == 1]
    assert computer_plays
    assert log_token(table, computer_plays[0], "es").startswith("Compu 1 (difícil) "), "the record's log"
    scene = table_scene(table, "es").seats[1]
    assert f"{scene.name} ({scene.level})" == "Compu 1 (difícil)", "the picture: the name, its level beside it"
    assert "Compu 1 (difícil)" in render.order_line(table, "es"), "the live table"
    from bot.replays.present import event_lines

    replay = "\n".join(event_lines(table, table.game.events, "es", 0))
    assert "Compu 1 (difícil)" in replay and "Computadora" not in replay, "the replay"


@pytest.mark.parametrize("lang,first", [("es", "**¡Te toca, ana!**"), ("en", "**Your turn, ana!**"),
                                        ("pt", "**Sua vez, ana!**")])
def test_the_turn_alerts_first_line_is_its_your_turn_then_table_server_and_channel(lang, first):
    table = table_with_computer(plays=0)
    game = table.game
    seat = game.to_play
    table.seats[seat] = Seat(1, "ana")
    lines = render.hand_payload(table, seat, game.view(seat), lang).content.splitlines()
    assert lines[0] == first
    assert lines[1] == "**" + t("dm.header", lang, table=3, guild="Quito Club", channel="mesa") + "**"
    ping = render.turn_ping_payload(table, seat, lang).content  # the channel's alert, for closed DMs
    assert ping.startswith("🔔 " + first.strip("*").replace("ana", "<@1>")), ping
    other = render.hand_payload(table, 1 - seat, game.view(1 - seat), lang).content.splitlines()
    assert other[0].startswith("**" + t("dm.header", lang, table=3, guild="Quito Club", channel="mesa")[:6]), \
        "not your turn: no «¡Te toca!»"


@pytest.mark.parametrize("lang", LANGS)
def test_a_computer_seated_in_1v1_names_no_team_and_in_2v2_its_team(lang):
    one = table_with_computer(players=2)
    text = render.computer_seated_text(one, 1, lang)
    assert text == t("ok.computer_seated", lang, name=seat_name(one, 1, lang))
    assert "B" not in text.replace(seat_name(one, 1, lang), "") and "(Comput" not in text
    four = table_with_computer(players=4)
    assert render.computer_seated_text(four, 1, lang) == t("ok.computer_seated_team", lang,
                                                            name=seat_name(four, 3, lang), team="B")
    assert render.computer_seated_text(one, 1, "es") == "Compu 1 (difícil) se sentó."


def test_the_2v2_score_line_reads_your_team_b_nothing():
    table = table_with_computer(players=4, plays=0)
    game = table.game
    assert render.score_line(table, game.view(1), "en") == "Score — your team (B): nothing · opponents: nothing"
    assert render.score_line(table, game.view(1), "es") == "Marcador — tu equipo (B): nada · los otros: nada"


def _msgstrs(lang: str):
    from bot.i18n.build import LOCALE_DIR

    for po in (LOCALE_DIR / lang / "LC_MESSAGES").glob("*.po"):
        for line in po.read_text().splitlines():
            if line.startswith("msgstr"):
                yield line


def test_english_and_portuguese_player_text_say_tap_not_press_or_click():
    assert not [line for line in _msgstrs("en") if re.search(r"\b[Pp]ress(es|ing)?\b|\b[Cc]lick", line)]
    assert not [line for line in _msgstrs("pt_BR") if re.search(r"\b[Cc]liqu|\b[Cc]lica|\b[Cc]lique", line)]
    assert t("dm.your_turn", "en") == "Tap a card to play it."


def test_a_caida_en_ronda_is_summed_apart_from_the_plain_caidas():
    """Two caídas (+2 each) and a caída en ronda (+4, R25) read "2 caídas +4 · 1 caída en ronda +4", not
    "3 caídas +8"."""
    table = table_with_computer(players=2, plays=0)
    c = [Card.parse(code) for code in ("5C", "5D", "6C", "6D", "7C", "7D")]
    events = []
    for (played, fallen), en_ronda in zip(((c[1], c[0]), (c[3], c[2]), (c[5], c[4])), (False, False, True), strict=True):
        events += [Event(EventKind.PLAYED, seat=0, team=0, card=played),
                   Event(EventKind.CAPTURED, seat=0, team=0, cards=(fallen,)),
                   Event(EventKind.CAIDA, seat=0, team=0, card=fallen, points=4 if en_ronda else 2, en_ronda=en_ronda)]
    recs = records(events)
    assert [r.bonus for r in recs] == [{"caida": 2}, {"caida": 2}, {"caida_en_ronda": 4}]
    assert _bonus_lines(table, recs, "es") == [t("sum.by_player", "es", name="ana",
                                                 parts="2 caídas +4 · 1 caída en ronda +4")]


@pytest.mark.parametrize("lang", LANGS)
def test_the_lobby_is_short_and_its_menu_placeholder_is_not_cut(lang):
    seats = [Seat(1, "ana"), None, None, None]
    table = Table(id=1, guild_id=1, channel_id=1, host_id=1, players=4, preset="quito", status="lobby", seats=seats)
    payload = render.lobby_payload(table, lang)
    lines = payload.embed.description.splitlines()
    assert len(lines) <= 3 and "" not in lines, lines
    assert t("rules.blurb.quito", lang) not in payload.embed.description, "the preset's blurb is /cuarenta rules'"
    rows = payload.view.to_components()
    assert len(rows) <= 3
    select = next(c for row in rows for c in row["components"] if c["type"] == 3)
    assert len(select["placeholder"]) <= 22, "a phone shows about 25 characters of a select's placeholder"
