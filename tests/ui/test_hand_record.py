"""The short record a finished hand leaves in the channel (`bot.ui.records.hand_record_payload`) and its
«Ver jugadas» button (`bot.ui.items.PlaysButton`, answered by `cogs.tables.TablesCog.on_plays`): the
record adds up, fits about six lines at phone width, is of the table message's kind (Components V2 or an
embed), and the play-by-play is one ephemeral click away, only on the table's own server, with no hidden
card (issue 33, item 4)."""

from __future__ import annotations

import math
import random
import re

import discord
import pytest

from bot.engine import EventKind as K
from bot.engine import Game, Rules
from bot.i18n import t
from bot.replays.present import replay_command
from bot.tables import Seat, Table, TableOptions
from bot.ui import records
from tests.support.helpers import (
    click_raw,
    custom_ids,
    hidden_cards,
    pick_play,
    play_through_ui,
    public_message,
    table_of,
)

LANGS = ("es", "en", "pt")
PHONE_CHARS = 40
"""Characters of body text a 390 px phone shows on one line of an embed or a container (about 16 px text
in about 330 px of width: about 40 characters, emoji counted as two)."""


def random_mesa(players: int, seed: int) -> Table:
    """A whole mesa of random legal plays, at a table of a person and computers (names as in the bot)."""
    rng = random.Random(seed)
    game = Game.new(Rules.preset("quito"), players, f"record-{seed}")
    while game.winner is None:
        game.play(rng.choice(game.legal_plays()))
    seats = [Seat(1, "ana"), Seat(None, ai="dificil", ai_number=1), Seat(2, "caro"),
             Seat(None, ai="facil", ai_number=2)]
    return Table(id=7, guild_id=1, channel_id=2, host_id=1, players=players, preset="quito", status="finished",
                 seats=seats[:players], game=game, options=TableOptions(guild_name="Quito Club", channel_name="mesa"))


def engine_points(game: Game, number: int) -> tuple[int, int]:
    """The points each side scored in hand ``number``, straight from the engine's events (every event of
    the hand that carries points for a side)."""
    got = [0, 0]
    for e in records.hand_slice(game.events, number):
        if e.team is not None and e.points and e.kind not in (K.CHICA_WON, K.MESA_WON):
            got[e.team] += e.points
    return got[0], got[1]


def side_line(text: str, team: int) -> str | None:
    """The side's line of a record; None when the side scored nothing and had no points that did not count."""
    dot = "🟦" if team == 0 else "🟧"
    return next((line for line in text.splitlines() if line.startswith(dot)), None)


def phone_lines(text: str) -> int:
    """Lines ``text`` takes at phone width (`PHONE_CHARS` a line; markdown marks take no room)."""
    total = 0
    for line in text.splitlines():
        plain = line.replace("**", "")
        width = len(plain) + sum(1 for ch in plain if ord(ch) > 0x2FFF)  # emoji are wide
        total += max(1, math.ceil(width / PHONE_CHARS))
    return total


SEEDED = [(players, seed) for players in (2, 4) for seed in range(6)]


@pytest.mark.parametrize(("players", "seed"), SEEDED)
def test_the_record_adds_up_to_the_hands_points_from_the_engine(players, seed):
    """Each side's line gives its total, and the points by player and kind (and the count's) that follow it
    add up to that total, which is what the engine's events scored for the side in that hand (a side with
    no line scored nothing)."""
    table = random_mesa(players, seed)
    game = table.game
    for number in range(1, game.hand_number + 1):
        text = records.hand_record_payload(table, number, "es").embed.description
        want = engine_points(game, number)
        for team in (0, 1):
            line = side_line(text, team)
            if line is None:
                assert want[team] == 0, f"hand {number}: side {team} scored {want[team]}, not in\n{text}"
                continue
            header, _, parts = line.partition(":**")
            total = int(re.search(r"\+(\d+)", header)[1])
            assert total == want[team], f"hand {number}, side {team}: {line} (engine: {want[team]})"
            assert sum(int(n) for n in re.findall(r"\+(\d+)", parts)) == total, f"hand {number}: {line}"


@pytest.mark.parametrize(("players", "seed"), SEEDED)
@pytest.mark.parametrize("lang", LANGS)
def test_the_record_fits_six_lines_at_phone_width_and_holds_no_play_by_play(players, seed, lang):
    """The points and the score fit six lines at phone width; a chica, zapatero or mesa called out adds its
    own line (two at most, wrapped). No play of the hand is written out."""
    table = random_mesa(players, seed)
    game = table.game
    for number in range(1, game.hand_number + 1):
        payload = records.hand_record_payload(table, number, lang)
        text = payload.embed.description
        hand = records.hand_slice(game.events, number)
        ends = [e for e in hand if e.kind in (K.CHICA_WON, K.MESA_WON)]
        called = [line for e in ends for line in (records.chica_lines if e.kind == K.CHICA_WON else records.mesa_lines)(
            table, e, lang, by_side=True)]
        points = "\n".join(line for line in text.splitlines() if line not in called)
        assert phone_lines(points) <= 6, f"hand {number}: {phone_lines(points)} phone lines:\n{text}"
        assert phone_lines(text) <= 6 + 2 * len(called), f"hand {number}: {phone_lines(text)} phone lines:\n{text}"
        played = [e for e in records.hand_slice(game.events, number) if e.kind == K.PLAYED]
        assert not any(f"{e.card}→" in text for e in played), "no play-by-play in the channel"


def test_the_record_names_the_chica_zapatero_and_mesa_when_they_happen():
    for seed in range(20):
        table = random_mesa(2, seed)
        won = [e for e in table.game.events if e.kind == K.CHICA_WON and e.zapatero]
        if won:
            break
    else:
        pytest.skip("no zapatero in 20 random mesas")
    game = table.game
    last = records.hand_record_payload(table, game.hand_number, "es").embed.description
    mesa = next(e for e in game.events if e.kind == K.MESA_WON)
    assert records.mesa_lines(table, mesa, "es", by_side=True)[0] in last
    chica_hand = next(n for n in range(1, game.hand_number + 1)
                      if any(e.kind == K.CHICA_WON and e.zapatero for e in records.hand_slice(game.events, n)))
    text = records.hand_record_payload(table, chica_hand, "es").embed.description
    assert "Zapatero" in text, text


@pytest.mark.parametrize("layout", [False, True])
def test_the_record_is_v2_or_an_embed_as_the_table_message_is(layout):
    """A table whose message was sent as Components V2 gets a V2 record (a container: the text, then the
    score in a section beside «Ver jugadas», or the button in a row when the hand ended a chica); an older
    table, an embed with the score in its text and the button below."""
    table = random_mesa(4, 1)
    chica = any(e.kind == K.CHICA_WON for e in records.hand_slice(table.game.events, 2))
    payload = records.hand_record_payload(table, 2, "es", layout=layout)
    assert payload.layout is layout
    if layout:
        assert payload.embed is None and payload.content is None
        (container,) = payload.view.to_components()
        assert container["type"] == 17
        kinds = [c["type"] for c in container["components"]]
        assert container["components"][0]["content"].startswith("**Mano 2 · Mesa #7**")
        if chica:
            assert kinds == [10, 1], kinds
            assert [b["custom_id"] for b in container["components"][1]["components"]] == ["c4:j:7:2"]
        else:
            assert kinds == [10, 9], kinds
            section = container["components"][1]
            assert section["accessory"]["custom_id"] == "c4:j:7:2"
            assert re.fullmatch(r"🟦 \*\*\d+\*\* · 🟧 \*\*\d+\*\* de 40", section["components"][0]["content"])
    else:
        assert payload.embed.title == "Mano 2 · Mesa #7"
        rows = payload.view.to_components()
        assert [b["custom_id"] for row in rows for b in row["components"]] == ["c4:j:7:2"]


def test_the_last_record_of_a_mesa_also_offers_the_rematch():
    table = random_mesa(2, 2)
    for layout in (False, True):
        payload = records.hand_record_payload(table, table.game.hand_number, "es", layout=layout)
        ids = re.findall(r"'custom_id': '([^']+)'", str(payload.view.to_components()))
        assert ids == ["c4:j:7:" + str(table.game.hand_number), "c4:r:7"], ids


async def _first_hand_over(world) -> Table:
    await world.ana.slash(world.channel, "cuarenta new", players=2)
    await world.beto.slash(world.channel, "cuarenta join")
    table = table_of(world, 1)
    members = {world.ana.id: world.ana, world.beto.id: world.beto}
    while table.game.hand_number == 1 and table.status == "playing":
        seat, play = pick_play(table)
        await play_through_ui(members[table.seats[seat].user_id], table, play)
    await world.env.advance_time(3)
    return table


def _record(world, number: int):
    return next(m for m in world.channel.history() if f"c4:j:1:{number}" in custom_ids(m))


async def test_ver_jugadas_answers_ephemerally_with_the_hands_plays_in_the_clickers_language(world):
    table = await _first_hand_over(world)
    record = _record(world, 1)
    result = await world.eva.click(record, custom_id="c4:j:1:1")  # a spectator
    assert result.ephemeral
    embed = result.response.embeds[0]
    assert embed.title == t("sum.title", "en", hand=1, table=1), "the clicker's language (en)"
    played = [e.card for e in records.hand_slice(table.game.events, 1) if e.kind == K.PLAYED]
    assert played and all(str(card) in embed.description for card in played)
    assert replay_command(1, "en") in result.response.content, "the replay is pointed to"
    assert world.env.errors == []


async def test_ver_jugadas_is_refused_from_another_server(world):
    table = await _first_hand_over(world)
    other = world.env.create_guild("Cuenca Club")
    chan = other.create_text_channel("mesa")
    xavi = other.add_member(world.env.create_user("xavi"))
    rules = await xavi.slash(chan, "cuarenta rules")
    forged = await click_raw(world.env, xavi, rules.response, f"c4:j:{table.id}:1")
    assert forged.ephemeral and not forged.response.embeds
    assert forged.response.content == t("err.button_gone_other", "en")
    assert "ana" not in forged.response.content and "beto" not in forged.response.content


async def test_ver_jugadas_reveals_no_hidden_card(world):
    """Even forged for the hand in play, the answer names only cards played in the open: none that is now
    in a hand or the stock."""
    table = await _first_hand_over(world)
    members = {world.ana.id: world.ana, world.beto.id: world.beto}
    for _ in range(5):
        seat, play = pick_play(table)
        await play_through_ui(members[table.seats[seat].user_id], table, play)
    number = table.game.hand_number
    for hand in (1, number):
        result = await click_raw(world.env, world.eva, public_message(world, table), f"c4:j:1:{hand}")
        assert result.ephemeral
        text = result.response.content + "\n" + result.response.embeds[0].description
        if hand == number:
            shown = [c for c in hidden_cards(table) if str(c) in text]
            assert not shown, f"hidden cards in «Ver jugadas»: {shown}"
            played = [e.card for e in records.hand_slice(table.game.events, number) if e.kind == K.PLAYED]
            assert played and all(str(card) in text for card in played)


@pytest.mark.simcord_bot(pictures=False)
async def test_the_notifier_writes_a_v2_record_for_a_v2_table(world):
    """`DiscordNotifier._write_record` builds the record of the table message's kind: a table whose message
    is marked V2 (`Messages.public_layout`) gets a V2 record."""
    await world.ana.slash(world.channel, "cuarenta new", players=2)
    await world.beto.slash(world.channel, "cuarenta join")
    table = table_of(world, 1)
    table.messages.public_layout = True
    members = {world.ana.id: world.ana, world.beto.id: world.beto}
    while table.game.hand_number == 1 and table.status == "playing":
        seat, play = pick_play(table)
        await play_through_ui(members[table.seats[seat].user_id], table, play)
    await world.env.advance_time(3)
    v2 = [m for m in world.channel.history() if m.flags.value & discord.MessageFlags.components_v2.flag]
    assert any("Mano 1 · Mesa #1" in str(m.components) for m in v2), [m.components for m in v2]
    assert world.env.errors == []
