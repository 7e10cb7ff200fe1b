"""Creating tables, joining, leaving, starting: each refusal is a clear ephemeral message."""

from __future__ import annotations

from bot.i18n import t
from bot.ui.words import level_word
from tests.support.helpers import (
    click_raw,
    message_text,
    play_to_end,
    production_bot,
    public_message,
    table_of,
    texts_of,
)


async def test_new_table_posts_lobby_with_rules_seats_host_and_buttons(world):
    result = await world.ana.slash(world.channel, "cuarenta new", players=4, rules="cuenca")
    assert result.ephemeral and "Table #1" in result.response.content
    lobby = world.channel.last_message
    embed = lobby.embeds[0]
    assert "cuenca" in embed.description
    assert world.ana.mention in embed.description, "the host"
    assert [f.name for f in embed.fields] == ["Equipo A", "Equipo B"]
    assert world.ana.mention in embed.fields[0].value
    labels = [b.label for b in lobby.components[0].children]
    assert labels == ["Unirse al equipo A", "Unirse al equipo B", "Salir", "Empezar",
                      "Reglas de la casa"], "no silent computer button"
    levels = [o.value for o in lobby.components[1].children[0].options]
    assert levels == ["facil", "medio", "dificil"], "the one way to seat a computer asks for its level"


async def test_a_computer_shows_its_level_in_the_lobby(world):
    await world.ana.slash(world.channel, "cuarenta new", players=4)
    lobby = world.channel.last_message
    await world.ana.select(lobby, ["dificil"], custom_id="c4:v:1")
    table = table_of(world, 1)
    assert [s.ai for s in table.seats if s is not None and s.is_ai] == ["dificil"]
    lobby = next(m for m in world.channel.history() if m.id == table.messages.lobby)
    assert "Compu 1 (difícil)" in lobby.embeds[0].fields[1].value


async def test_a_one_v_one_lobby_names_seats_not_teams(world):
    await world.ana.slash(world.channel, "cuarenta new", players=2)
    lobby = world.channel.last_message
    assert [f.name for f in lobby.embeds[0].fields] == ["Puesto 1", "Puesto 2"]
    assert [b.label for b in lobby.components[0].children] == ["Sentarme", "Salir", "Empezar", "Reglas de la casa"]


async def test_join_picks_the_emptier_team_and_updates_the_lobby(world):
    await world.ana.slash(world.channel, "cuarenta new")
    result = await world.beto.slash(world.channel, "cuarenta join")
    assert "team B" in result.response.content
    await world.caro.click(world.channel.history()[-1], custom_id="c4:l:1:a")
    table = table_of(world, 1)
    assert [s.user_id if s else None for s in table.seats] == [world.ana.id, world.beto.id, world.caro.id, None]
    lobby = next(m for m in world.channel.history() if m.id == table.messages.lobby)
    assert world.caro.mention in lobby.embeds[0].fields[0].value


async def test_full_team_and_joining_twice_are_refused(world):
    await world.ana.slash(world.channel, "cuarenta new")
    await world.beto.slash(world.channel, "cuarenta join", team="A")
    full = await world.caro.slash(world.channel, "cuarenta join", team="A")
    assert full.ephemeral and full.response.content == "Team A is full."
    twice = await world.beto.slash(world.channel, "cuarenta join", team="B")
    assert twice.ephemeral and twice.response.content == "You are already seated at Table #1."


async def test_sitting_at_two_tables_is_refused(world):
    other = world.guild.create_text_channel("otra")
    await world.ana.slash(world.channel, "cuarenta new")
    await world.beto.slash(other, "cuarenta new")
    result = await world.ana.slash(other, "cuarenta join")
    assert result.ephemeral
    assert f"already seated at Table #1, in <#{world.channel.id}>" in result.response.content
    again = await world.ana.slash(other, "cuarenta new")
    assert "Table #2" in again.response.content, "the channel's table is pointed at first"


async def test_host_leaving_passes_the_table_on(world):
    await world.ana.slash(world.channel, "cuarenta new")
    await world.beto.slash(world.channel, "cuarenta join")
    result = await world.ana.click(world.channel.history()[-1], custom_id="c4:l:1:x")
    assert result.ephemeral and "beto is now the host" in result.response.content
    table = table_of(world, 1)
    assert table.host_id == world.beto.id
    assert table.seat_of(world.ana.id) is None


async def test_host_leaving_alone_closes_the_table(world):
    await world.ana.slash(world.channel, "cuarenta new")
    result = await world.ana.slash(world.channel, "cuarenta leave")
    assert "closed" in result.response.content
    assert table_of(world, 1).status == "closed"
    assert (await world.bot.store.load_table(1)).status == "closed"
    lobby = next(m for m in world.channel.history() if m.embeds and "#1" in (m.embeds[0].title or ""))
    assert not lobby.components, "a closed lobby has no buttons"
    help_text = t("lobby.help_levels", "es", level="media").split(".")[0]
    assert help_text not in lobby.embeds[0].description, "nor does it still say how to join (QA pass 6)"
    again = await world.beto.slash(world.channel, "cuarenta new")
    assert "Table #2" in again.response.content


async def test_leave_when_not_seated_is_refused_and_after_start_hands_the_seat_over(world):
    await world.ana.slash(world.channel, "cuarenta new", players=2)
    not_seated = await world.beto.slash(world.channel, "cuarenta leave")
    assert not_seated.response.content == "You are not seated at this table."
    await world.beto.slash(world.channel, "cuarenta join")
    started = await world.beto.slash(world.channel, "cuarenta leave")
    assert "a computer player takes over your seat" in started.response.content  # no longer refused


async def test_only_the_host_starts_and_computers_fill_the_seats(world):
    await world.ana.slash(world.channel, "cuarenta new")
    await world.beto.slash(world.channel, "cuarenta join")
    refused = await world.beto.slash(world.channel, "cuarenta start")
    assert refused.response.content == "Only the host can do that."
    assert table_of(world, 1).status == "lobby"
    ok = await world.ana.click(world.channel.history()[-1], custom_id="c4:l:1:s")
    assert ok.ephemeral and "is starting" in ok.response.content
    table = table_of(world, 1)
    assert table.status == "playing"
    assert [s.is_ai for s in table.seats] == [False, False, True, True]
    assert [s.ai for s in table.seats if s.is_ai] == ["medio", "medio"], "start seats medio, never greedy"
    assert "Mesa #1 · quito · chica 1 · mano 1" in message_text(public_message(world, table)).splitlines()


async def test_no_table_here(world):
    result = await world.ana.slash(world.channel, "cuarenta join")
    assert result.ephemeral and "no open table in this channel" in result.response.content


async def test_rematch_against_computers_deals_at_once_with_the_same_seats(world):
    await world.ana.slash(world.channel, "cuarenta new", players=2)
    await world.ana.select(world.channel.last_message, ["medio"], custom_id="c4:v:1")

    table = await play_to_end(world, 1, {world.ana.id: world.ana})
    final = next(m for m in world.channel.history() if m.id == table.messages.public)
    refused = await world.caro.click(final, custom_id="c4:r:1")
    assert refused.response.content == "You are not playing at this table."
    result = await world.ana.click(final, custom_id="c4:r:1")
    assert "Table #2" in result.response.content, "computers accept: no one else to ask"
    table = table_of(world, 2)
    assert table.status == "playing"
    assert [s.user_id for s in table.seats] == [world.ana.id, None]


async def test_only_the_host_adds_computer_players(world):
    await world.ana.slash(world.channel, "cuarenta new", players=4)
    await world.beto.slash(world.channel, "cuarenta join")
    lobby = world.channel.last_message
    refused = await world.beto.select(lobby, ["medio"], custom_id="c4:v:1")
    table = table_of(world, 1)
    assert refused.ephemeral and refused.response.content == "Only the host can add computer players."
    assert not any(s is not None and s.is_ai for s in table.seats)
    added = await world.ana.select(lobby, ["medio"], custom_id="c4:v:1")
    assert added.ephemeral and added.response.content == "CPU 1 (medium) sat down on team A.", "its one name, its level"
    assert sum(1 for s in table.seats if s is not None and s.is_ai) == 1
    assert world.env.errors == []


@production_bot
async def test_kicking_yourself_says_to_leave_only_to_someone_seated(world, locales):
    locales[world.eva.id] = "es-ES"
    locales[world.ana.id] = "es-ES"
    await world.ana.slash(world.channel, "cuarenta new", players=4)
    result = await world.eva.slash(world.channel, "cuarenta kick", player=world.eva)  # a manager, not seated
    assert result.response.content == "Esa persona no juega en esta mesa."
    result = await world.ana.slash(world.channel, "cuarenta kick", player=world.ana)  # the seated host
    assert "/cuarenta salir" in result.response.content


async def test_the_spanish_lobby_says_de_dificultad_media(world):
    await world.ana.slash(world.channel, "cuarenta new", players=2)
    text = "\n".join(texts_of(world.channel.last_message))
    assert "nivel media" not in text, [line for line in text.splitlines() if "nivel media" in line]
    assert t("lobby.help_levels", "es", level=level_word("medio", "es")) in text
    assert f"de dificultad {level_word('medio', 'es')}" in text


async def test_a_stale_lobby_leave_after_the_start_keeps_the_seat(world):
    await world.ana.slash(world.channel, "cuarenta new", players=2)
    lobby = world.channel.last_message
    await world.beto.slash(world.channel, "cuarenta join")  # the table fills and starts
    table = table_of(world, 1)
    result = await click_raw(world.env, world.ana, lobby, "c4:l:1:x")  # an old copy of the lobby's Leave
    assert result.ephemeral and result.response.content == t("err.not_lobby", "en")
    assert table.seats[0].user_id == world.ana.id and not table.casual
    on_table = await click_raw(world.env, world.ana, public_message(world, table), "c4:l:1:x")
    assert on_table.response.content == t("err.not_lobby", "en") and table.status == "playing"


async def test_a_refusal_about_this_channels_table_names_it_for_a_host_of_another(world):
    other = world.guild.create_text_channel("otra")
    await world.ana.slash(world.channel, "cuarenta new", players=2)
    await world.caro.slash(other, "cuarenta new", players=2)
    result = await world.ana.slash(other, "cuarenta start")
    assert "Table #2 in this channel; your table is #1" in result.response.content


async def test_a_seated_player_joining_again_after_the_start_is_told_where_they_sit(world):
    """`/cuarenta unirse` from a player of the table that already started says they are already seated at
    Mesa #N (not that the table started); someone not seated is still told it started."""
    await world.ana.slash(world.channel, "cuarenta new", players=2)
    await world.beto.slash(world.channel, "cuarenta join")  # full: it starts
    assert table_of(world, 1).status == "playing"
    again = await world.beto.slash(world.channel, "cuarenta join")
    assert again.ephemeral and again.response.content == "You are already seated at Table #1."
    other = await world.caro.slash(world.channel, "cuarenta join")
    assert other.response.content == t("err.not_lobby", "en")


async def test_a_closed_2v2_lobby_names_who_sat_and_a_free_seat_once_per_empty_side(world):
    """A 2 v 2 lobby closed before its start keeps one line of sides: the people who sat, and
    "— asiento libre —" once for a side nobody took (it read "— asiento libre —, — asiento libre —")."""
    await world.ana.slash(world.channel, "cuarenta new", players=4)
    await world.ana.slash(world.channel, "cuarenta end")
    await world.env.settle()
    lobby = next(m for m in world.channel.history() if m.embeds and "#1" in (m.embeds[0].title or ""))
    empty = t("lobby.empty_seat", "es")
    sides = t("lobby.sides", "es", a=f"<@{world.ana.id}>", b=empty)
    assert sides in lobby.embeds[0].description.splitlines()
    assert lobby.embeds[0].description.count(empty) == 1

    await world.ana.slash(world.channel, "cuarenta new", players=4)
    await world.beto.slash(world.channel, "cuarenta join")
    await world.ana.slash(world.channel, "cuarenta end")
    await world.env.settle()
    lobby = next(m for m in world.channel.history() if m.embeds and "#2" in (m.embeds[0].title or ""))
    assert t("lobby.sides", "es", a=f"<@{world.ana.id}>", b=f"<@{world.beto.id}>") in lobby.embeds[0].description
    assert empty not in lobby.embeds[0].description
