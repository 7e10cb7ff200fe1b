"""One translation layer: complete catalogs, command localizations, the user's and the guild's language."""

from __future__ import annotations

import pytest
import simcord.interactions

from bot.i18n import lang_of, message, t
from tests.support.helpers import (
    alt_texts,
    latest_hand,
    latest_with,
    layout_texts,
    member_of,
    message_text,
    pick_play,
    play_through_ui,
    production_bot,
    public_message,
    slow_down,
    start_1v1,
    table_of,
)


def test_discord_locales_map_to_catalogs():
    assert lang_of("es-ES") == "es" and lang_of("es-419") == "es"
    assert lang_of("en-US") == "en" and lang_of("en-GB") == "en"
    assert lang_of("pt-BR") == "pt"
    assert lang_of("fr") == "es", "Spanish is the default"
    assert lang_of("fr", "en") == "en", "a locale without a catalog gets the server's language"
    assert t("err.finished", "en") == "This table has already finished."


async def test_commands_carry_spanish_and_english_localizations(world):
    sync = next(r for r in world.env.http_requests if r.method == "PUT" and r.path.endswith("/commands"))
    root = next(c for c in sync.json if c["name"] == "cuarenta")
    subs = {o["name"]: o for o in root["options"]}
    assert {"new", "join", "leave", "start", "hand", "table", "end", "rules", "language"} <= set(subs)
    assert subs["new"]["name_localizations"]["es-ES"] == "nueva"
    assert subs["new"]["name_localizations"]["es-419"] == "nueva"
    assert subs["new"]["description_localizations"]["es-ES"].startswith("Abre una mesa")
    players = next(o for o in subs["new"]["options"] if o["name"] == "players")
    assert players["name_localizations"]["es-419"] == "jugadores"
    assert {c["name_localizations"]["es-ES"] for c in players["choices"]} == {"1 contra 1", "2 contra 2"}


@pytest.fixture
def spanish_users(monkeypatch):
    """Users whose Discord client is in Spanish (SimCord sends en-US by default)."""
    users: set[int] = set()
    original = simcord.interactions.base_payload

    def base_payload(backend, **kwargs):
        record, payload = original(backend, **kwargs)
        if kwargs.get("user_id") in users:
            payload["locale"] = "es-419"
        return record, payload

    monkeypatch.setattr(simcord.interactions, "base_payload", base_payload)
    return users


async def test_ephemeral_messages_and_dms_follow_the_users_locale(world, spanish_users):
    spanish_users.add(world.beto.id)
    await world.ana.slash(world.channel, "cuarenta new", players=2)
    joined = await world.beto.slash(world.channel, "cuarenta join")
    assert joined.response.content == "Te sentaste en la Mesa #1. Tu mano llegará por mensaje directo."
    table = table_of(world, 1)
    beto_dm = [message_text(m) for m in world.beto.user.dm_channel.history()]
    ana_dm = [message_text(m) for m in world.ana.user.dm_channel.history()]
    assert any("Tu mano:" in c for c in beto_dm)
    assert any("Your hand:" in c for c in ana_dm)
    refused = await world.caro.slash(world.channel, "cuarenta end")
    assert refused.response.content.startswith("Only the host")
    spanish_users.add(world.caro.id)
    refused = await world.caro.slash(world.channel, "cuarenta end")
    assert refused.response.content.startswith("Solo quien abrió la mesa")
    assert table.status == "playing"


async def test_public_messages_are_spanish_by_default_and_a_guild_can_switch(world):
    await world.ana.slash(world.channel, "cuarenta new", players=2)
    assert world.channel.last_message.embeds[0].title.startswith("Mesa #1 de Cuarenta")
    refused = await world.ana.slash(world.channel, "cuarenta language", language="en")
    assert refused.response.content == "You need the Manage Server permission."
    done = await world.eva.slash(world.channel, "cuarenta language", language="en")
    assert done.response.content == "This server's public messages will be in English."
    await world.beto.slash(world.channel, "cuarenta join")
    table = table_of(world, 1)
    message = public_message(world, table)
    (words,) = layout_texts(message)[1:] or alt_texts(message)  # the table in words (no picture in tests)
    assert words.startswith("Table #1 · quito · chica 1 · hand 1\n") and "\nOrder: " in words
    assert "to play" in layout_texts(message)[0]


async def test_rules_explains_a_preset_in_the_users_language(world, spanish_users):
    result = await world.ana.slash(world.channel, "cuarenta rules", preset="cuenca")
    assert result.ephemeral
    embed = result.response.embeds[0]
    assert embed.title == '"cuenca" rules'
    assert "**Four caídas in a row** (by one side, turn after turn): wins the chica." in embed.description
    assert "• Four caídas in a row: wins the chica (in quito: nothing extra)" in embed.description
    spanish_users.add(world.beto.id)
    result = await world.beto.slash(world.channel, "cuarenta rules", preset="rapido")
    embed = result.response.embeds[0]
    assert embed.title == "Reglamento «rapido»"
    assert "la gana el lado que llega primero a 20 puntos" in embed.description
    assert "• Zapatería: no (en quito: sí, por debajo de 10 puntos)" in embed.description
    assert "**Zapatero** (perder una chica con menos de 10 puntos): aquí no gana la mesa." in embed.description


def test_command_fallback_texts_are_the_english_catalog():
    """Locales without a localization see the fallback text: it must be the catalog's, never a stale copy."""
    from discord import app_commands

    from cogs.leaderboard import LeaderboardCog
    from cogs.tables import TablesCog

    strings = []
    for cog in (TablesCog, LeaderboardCog):
        for command in cog.__cog_app_commands__:
            items = command.walk_commands() if isinstance(command, app_commands.Group) else [command]
            for item in [command, *items]:
                strings += [item._locale_name, item._locale_description]
                strings += [param.description for param in getattr(item, "_params", {}).values()]
    strings = [s for s in strings if isinstance(s, app_commands.locale_str) and s.extras.get("key")]
    assert strings
    for s in strings:
        assert s.message == message(s.extras["key"], "en"), s.extras["key"]


@production_bot
async def test_the_first_command_in_a_server_with_a_slow_language_read_is_acknowledged_in_time(world, monkeypatch):
    """The server's language is read from the store the first time a process answers there: that read is
    under the 3-second guard."""
    guild = world.env.create_guild("Cuenca Club")  # a server the bot has not answered in yet
    channel = guild.create_text_channel("mesa")
    fer = guild.add_member(world.env.create_user("fer"))
    await world.bot.tree.sync()
    slow_down(monkeypatch, world.bot.store, "guild_language")
    result = await fer.slash(channel, "cuarenta new", players=2)
    await world.env.advance_time(5)
    assert result.acknowledged
    assert world.bot.tables.table_in_channel(channel.id) is not None, "the lobby opened"


@production_bot
async def test_a_failing_language_read_still_plays_and_answers_the_click(world, monkeypatch, caplog):
    """A store that fails when the server's language is read (not cached in this process) costs the
    language only: the click plays and is answered, and one warning says why."""
    table = await start_1v1(world)
    seat, play = pick_play(table)
    member = member_of(world, table, seat)
    world.bot.tables._languages.clear()

    async def broken(guild_id):
        raise OSError("the database went away")

    monkeypatch.setattr(world.bot.store, "guild_language", broken)
    before = table.nonce
    await play_through_ui(member, table, play)
    await world.env.advance_time(1)
    assert table.nonce == before + 1, "the play was made"
    assert any("language could not be read" in r.getMessage() for r in caplog.records)


async def test_a_league_newcomer_gets_the_table_in_their_own_language(world):
    """G6: the organizer replaces beto with caro (her client in English, as everyone's here). When caro's
    fixture opens, her seat, her welcome and her DM hand must be in English, like ana's. The newcomer's
    language used to be never taken, so everything she got from the table was in Spanish; it is taken
    when she presses «Jugar»."""
    await world.eva.slash(world.channel, "cuarenta league create", name="Liga", rules="rapido")
    for member in (world.ana, world.beto):
        await member.slash(world.channel, "cuarenta league signup")
    await world.eva.slash(world.channel, "cuarenta league close")
    await world.eva.slash(world.channel, "cuarenta league replace", player=world.beto, newcomer=world.caro)
    for member in (world.ana, world.caro):
        await member.click(latest_with(world, "c4:g:1:p"), custom_id="c4:g:1:p")
    await world.env.advance_time(3)
    table = world.bot.tables.table_of_user(world.caro.id)
    assert table is not None and table.status == "playing"
    locales = {s.user_id: s.locale for s in table.seats}
    caro_dm = [message_text(m) for m in world.caro.user.dm_channel.history() if message_text(m)]
    ana_dm = [message_text(m) for m in world.ana.user.dm_channel.history() if message_text(m)]
    assert locales[world.caro.id] == locales[world.ana.id] == "en", (locales, caro_dm[:2], ana_dm[:2])

    header = next(line for line in message_text(latest_hand(world.caro)).splitlines()  # G7 at a league's table too
                  if line.startswith("**Table #"))  # after "Your turn, caro!" on her turn
    assert world.guild.name in header and "#?" not in header, header


async def test_every_command_group_stays_within_discords_25_subcommands(world):
    """Discord refuses a command with more than 25 subcommands or options (the schema's ``maxItems``); the
    ``/cuarenta`` group is close to it, so a new subcommand that would be the 26th fails here by name."""
    from discord import app_commands

    for command in world.bot.tree.get_commands():
        if isinstance(command, app_commands.Group):
            assert len(command.commands) <= 25, (command.name, len(command.commands))
            for sub in command.commands:
                if isinstance(sub, app_commands.Group):
                    assert len(sub.commands) <= 25, (command.name, sub.name, len(sub.commands))
    cuarenta = world.bot.tree.get_command("cuarenta")
    assert isinstance(cuarenta, app_commands.Group) and len(cuarenta.commands) >= 20
