"""House rules in the lobby: the host's «Reglas de la casa» editor, the lobby listing what
differs, refusals, a started table's rules fixed, a server default applied to new tables, and mesas rated
or not by the server's setting."""

from __future__ import annotations

import pytest

from bot.engine import EventKind as K
from bot.engine import Rules
from bot.i18n import t
from tests.ratings.test_leaderboard import play_via_service, ratings
from tests.support.helpers import table_of


@pytest.fixture
def db_path(database_url):
    """These tests run the bot on each backend (SQLite, PostgreSQL)."""
    return database_url


def lobby_text(world) -> str:
    table = table_of(world, 1)
    lobby = next(m for m in world.channel.history() if m.id == table.messages.lobby)
    return lobby.embeds[0].description


async def open_editor(world, member):
    table = table_of(world, 1)
    lobby = next(m for m in world.channel.history() if m.id == table.messages.lobby)
    return await member.click(lobby, custom_id="c4:u:1:o")


async def set_rule(member, editor, rule: str, token: str):
    picked = await member.select(editor, [rule], custom_id="c4:u:1:r")
    shown = picked.response or editor
    return await member.select(shown, [token], custom_id=f"c4:u:1:v:{rule}")


async def test_a_host_sets_three_house_rules_and_the_lobby_lists_them(world):
    await world.ana.slash(world.channel, "cuarenta new", players=2)
    opened = await open_editor(world, world.ana)
    assert opened.ephemeral and opened.response.embeds[0].title == t("house.title", "en", table=1)
    editor = opened.response
    for rule, token in (("caida_limpia", "4"), ("target", "30"), ("falla", "2")):
        result = await set_rule(world.ana, editor, rule, token)
        editor = result.response or editor
    table = table_of(world, 1)
    assert table.house == {"caida_limpia": 4, "target": 30, "falla": 2}
    assert table.rules == Rules(caida_limpia=4, target=30, falla=2)
    text = lobby_text(world)
    assert t("lobby.house_title", "es", preset="quito") in text
    for aspect in ("Caída con limpia", "Puntos para ganar la chica", "Falla"):
        assert any(line.startswith(f"• {aspect}") for line in text.splitlines()), (aspect, text)
    assert t("lobby.house_unrated", "es") in text, "the lobby says whether it will be rated"
    assert "quito · 🏠 casa" in text


async def test_refusals_in_the_editor(world):
    await world.ana.slash(world.channel, "cuarenta new", players=4)
    refused = await open_editor(world, world.beto)
    assert refused.response.content == t("err.host_only_house", "en")
    editor = (await open_editor(world, world.ana)).response
    await set_rule(world.ana, editor, "target", "20")
    result = await set_rule(world.ana, editor, "carton_cutoff", "30")
    assert result.ephemeral and result.response.content == t("err.house_cutoff", "en", cutoff=30, target=20)
    assert table_of(world, 1).house == {"target": 20}, "a refused choice changes nothing"


async def test_a_started_tables_rules_never_change(world):
    await world.ana.slash(world.channel, "cuarenta new", players=2)
    editor = (await open_editor(world, world.ana)).response
    await set_rule(world.ana, editor, "chicas_to_win", "1")
    await world.beto.slash(world.channel, "cuarenta join")
    table = table_of(world, 1)
    assert table.status == "playing" and table.game.rules.chicas_to_win == 1
    late = await world.ana.select(editor, ["2"], custom_id="c4:u:1:v:chicas_to_win")
    assert late.ephemeral and late.response.content == t("err.not_lobby", "en")
    assert table.house == {"chicas_to_win": 1} and table.game.rules.chicas_to_win == 1


async def test_the_editor_of_a_closed_lobby_says_the_table_is_over(world):
    """QA: the editor left open on a lobby its host then closed said "the table has already started"."""
    await world.ana.slash(world.channel, "cuarenta new", players=2)
    editor = (await open_editor(world, world.ana)).response
    await world.ana.slash(world.channel, "cuarenta end")
    late = await world.ana.select(editor, ["chicas_to_win"], custom_id="c4:u:1:r")
    assert late.ephemeral and late.response.content == t("err.finished", "en")
    assert table_of(world, 1).house == {}


async def test_a_server_default_applies_to_new_tables_opened_with_the_default_preset(world):
    await world.eva.slash(world.channel, "cuarenta new", players=2)
    editor = (await open_editor(world, world.eva)).response
    await set_rule(world.eva, editor, "caida_by_sum", "1")
    saved = await world.eva.slash(world.channel, "cuarenta settings", house_rules="save", house_rated=True)
    assert saved.ephemeral
    text = "\n".join(f"{f.name} {f.value}" for f in saved.response.embeds[0].fields)
    assert "Server house rules" in text and "rated" in text
    await world.eva.slash(world.channel, "cuarenta end")
    await world.ana.slash(world.channel, "cuarenta new", players=2)
    table = table_of(world, 2)
    assert table.house == {"caida_by_sum": True} and table.rules.caida_by_sum
    assert table.options.house_rated is True
    await world.ana.slash(world.channel, "cuarenta end")
    await world.ana.slash(world.channel, "cuarenta new", players=2, rules="cuenca")
    assert table_of(world, 3).house == {}, "an explicit preset is played as it is"
    cleared = await world.eva.slash(world.channel, "cuarenta settings", house_rules="clear")
    assert cleared.ephemeral and (await world.bot.tables.house.get(world.guild.id)).house == {}


async def test_a_house_rule_mesa_is_unrated_by_default_and_rated_when_the_server_says_so(world):
    for number, rated in ((1, False), (2, True)):
        if rated:
            await world.eva.slash(world.channel, "cuarenta settings", house_rated=True)
        await world.ana.slash(world.channel, "cuarenta new", players=2)
        editor = (await open_editor_n(world, world.ana, number)).response
        picked = await world.ana.select(editor, ["target"], custom_id=f"c4:u:{number}:r")
        await world.ana.select(picked.response or editor, ["20"], custom_id=f"c4:u:{number}:v:target")
        await world.beto.slash(world.channel, "cuarenta join")
        table = table_of(world, number)
        assert table.status == "playing" and table.rules.target == 20
        await play_via_service(world, table.id)
    stats = await ratings(world).stats(world.guild.id, world.ana.id)
    second = [e for e in table_of_any(world, 2).game.events if e.kind == K.CHICA_WON]
    assert stats.modes["1v1"].rated_chicas == len(second) > 0, "only the second mesa (server rates house rules)"


async def open_editor_n(world, member, number: int):
    table = table_of(world, number)
    lobby = next(m for m in world.channel.history() if m.id == table.messages.lobby)
    return await member.click(lobby, custom_id=f"c4:u:{number}:o")


def table_of_any(world, table_id: int):
    return world.bot.tables.tables.get(table_id) or table_of(world, table_id)


# ---------------------------------------------------------------- faults found by the QA pass


def test_a_replay_step_names_the_periquito_and_its_bonus():
    from bot.replays.present import event_lines
    from tests.ui.test_variants_ui import periquito_game, table_with

    game, events = periquito_game()
    lines = event_lines(table_with(game, {"periquito": True}), events, "es")
    assert any("periquito" in line.lower() for line in lines), lines


async def test_saving_server_house_rules_without_a_table_or_without_house_rules_says_why(world):
    alone = await world.eva.slash(world.channel, "cuarenta settings", house_rules="save", house_rated=True)
    assert alone.response.content == t("err.house_no_table", "en")
    assert (await world.bot.tables.house.get(world.guild.id)).rated is False, "a refusal changes nothing"
    await world.ana.slash(world.channel, "cuarenta new", players=2)
    plain = await world.eva.slash(world.channel, "cuarenta settings", house_rules="save")
    assert plain.response.content == t("err.house_no_table", "en")


async def test_the_lobbys_rated_line_follows_the_server_setting_at_once(world):
    await world.ana.slash(world.channel, "cuarenta new", players=2)
    await set_rule(world.ana, (await open_editor(world, world.ana)).response, "falla", "2")
    assert t("lobby.house_unrated", "es") in lobby_text(world)
    await world.eva.slash(world.channel, "cuarenta settings", house_rated=True)
    await world.env.settle()
    assert t("lobby.house_rated", "es") in lobby_text(world)
    assert table_of(world, 1).options.house_rated is True


async def test_ronda_off_reads_no_for_the_ronda_and_the_doble_ronda(world):
    await world.ana.slash(world.channel, "cuarenta new", players=2)
    await set_rule(world.ana, (await open_editor(world, world.ana)).response, "ronda", "0")
    bullets = [line for line in lobby_text(world).splitlines() if line.startswith("• ")]
    assert bullets and not any("+0" in line for line in bullets), bullets
