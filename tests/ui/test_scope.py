"""No custom_id and no command option carries authority: the server, channel and user an action applies to
come from the interaction (and the stored row it names), never from an id alone.

Server A ("Quito Club") has a lobby, a mesa in play, a queue, a league and a tournament. zoe is a member
of server B only (an admin there), with her own lobby in B and a DM from the bot. She forges every
registered `DynamicItem` template (hypothesis draws the ids, so a template added tomorrow is covered the day
it is registered) naming A's objects, from B's channel and from her DM, and runs every command option that
names an object with A's ids. Each attempt gets exactly one answer, ephemeral in a server, in her language;
no row of the database changes and no request goes to A's channels or to A's members."""

from __future__ import annotations

import re
import sqlite3
import string
from typing import Any

import discord
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.i18n import t
from bot.ui.router import component_type_of
from tests.support.helpers import click_raw, custom_ids, table_of

OBJECT_GROUPS = ("table", "guild", "league", "tournament", "match")
"""Template groups that name a stored object (or a server)."""
OBJECT_OPTIONS = ("table", "mesa", "league", "tournament", "match")
"""Command parameters that name a stored object."""


def snapshot(db_path: str) -> dict[str, list[tuple[Any, ...]]]:
    """Every row of every table of the bot's SQLite file."""
    with sqlite3.connect(db_path) as db:
        names = [r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")]
        return {name: sorted(map(repr, db.execute(f'SELECT * FROM "{name}"'))) for name in names}


class Attack:
    """Server A's objects and server B's attacker, built once per test (a refusal changes nothing, so
    every example runs on the same world)."""

    def __init__(self, world: Any, db_path: str, locales: dict[int, str]) -> None:
        self.world = world
        self.db_path = db_path
        self.locales = locales
        self.ready = False

    async def build(self) -> None:
        world = self.world
        if self.ready:
            return
        env, a = world.env, world.guild
        # A: a lobby (table 1) in #cuarenta, a mesa in play (table 2) in #mesa2, a queue, a league, a tournament
        await world.ana.slash(world.channel, "cuarenta new", players=4)
        self.mesa2 = a.create_text_channel("mesa2")
        await world.beto.slash(self.mesa2, "cuarenta new", players=2)
        await world.beto.select(self.mesa2.last_message, ["medio"], custom_id="c4:v:2")
        self.queue_channel = a.create_text_channel("cola")
        await world.eva.slash(self.queue_channel, "cuarenta queue")
        await world.caro.click(self.queue_channel.last_message, custom_id=f"c4:q:{a.id}:a")
        await world.eva.slash(world.channel, "cuarenta league create", name="Liga de Quito")
        await world.eva.slash(world.channel, "cuarenta tournament create", name="Copa de Quito")
        # B: zoe, an admin of B only, with her own lobby and the bot's DM
        self.b = env.create_guild("Guayaquil")
        self.b_channel = self.b.create_text_channel("juego")
        admins = self.b.create_role("Admins", permissions=discord.Permissions(manage_guild=True))
        self.zoe = self.b.add_member(env.create_user("zoe"), roles=[admins])
        self.locales[self.zoe.id] = "es-ES"
        await self.zoe.slash(self.b_channel, "cuarenta new", players=2)
        self.b_lobby = self.b_channel.last_message
        self.zoe_dm = self.zoe.user.dm_channel.last_message
        self.a_ids = {str(c.id) for c in a.channels.values()}
        self.a_ids |= {str(m.user.dm_channel.id) for m in (world.ana, world.beto, world.caro, world.dani, world.eva)
                       if m.user.dm_channel is not None}
        self.a_ids.add(str(a.id))
        self.ready = True

    def requests_to_a(self, since: int) -> list[str]:
        """The bot's requests since ``since`` whose path names one of A's channels, DMs or A itself."""
        return [f"{r.method} {r.path}" for r in self.world.env.http_requests[since:]
                if any(part in self.a_ids for part in re.split(r"[/?]", r.path))]


@pytest.fixture
async def attack(world, db_path, locales):
    state = Attack(world, db_path, locales)
    await state.build()
    return state


def _forged(template: re.Pattern[str], example: str, ids: list[int]) -> str:
    """``example`` (a full match of ``template``) with every object-naming group replaced by A's ids."""
    match = template.fullmatch(example)
    assert match is not None
    out = example
    spans = [(match.span(name), ids[i % len(ids)]) for i, name in enumerate(OBJECT_GROUPS)
             if name in template.groupindex and match.group(name) is not None]
    for (start, end), value in sorted(spans, reverse=True):
        out = out[:start] + str(value) + out[end:]
    return out


def _templates(bot: Any) -> list[tuple[type, re.Pattern[str]]]:
    return [(f, f.__discord_ui_compiled_template__) for f in bot.dynamic_factories]


async def test_every_registered_template_names_an_object_or_nothing(world):
    """The property test below forges the groups in `OBJECT_GROUPS`; a template that names an object
    under another group name would escape it."""
    for factory, template in _templates(world.bot):
        for name in template.groupindex:
            assert name in OBJECT_GROUPS + ("action", "nonce", "card", "vote", "step", "k", "season", "mode",
                                            "page", "rule", "hand"), (factory.__name__, name)  # hand: of the table named


@pytest.mark.slow
@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture,
                                                                 HealthCheck.too_slow])
@given(data=st.data(), from_dm=st.booleans())
async def test_property_a_forged_component_from_another_server_changes_nothing(attack, data, from_dm):
    """Every registered template, with A's ids, clicked by zoe (B only) in B's channel or her DM: exactly
    one answer, ephemeral in a server, in Spanish; no row changed; no request to A's channels or members.
    An id that names one of A's objects is answered "this button is no longer in use"."""
    world = attack.world
    factory, template = data.draw(st.sampled_from(_templates(world.bot)), label="template")
    example = data.draw(st.from_regex(template, fullmatch=True), label="example")
    a_id = world.guild.id
    ids = data.draw(st.lists(st.sampled_from([1, 2, a_id]), min_size=len(OBJECT_GROUPS),
                             max_size=len(OBJECT_GROUPS)), label="ids")
    custom_id = _forged(template, example, ids)
    component_type = component_type_of(factory) or 2
    values = [data.draw(st.text(string.ascii_letters + string.digits + ".-", min_size=1, max_size=8),
                        label="value")] if component_type == 3 else []
    before, since, cursor = snapshot(attack.db_path), len(world.env.http_requests), world.env.error_cursor
    clicker, message = (attack.zoe.user, attack.zoe_dm) if from_dm else (attack.zoe, attack.b_lobby)
    result = await click_raw(world.env, clicker, message, custom_id, component_type=component_type, values=values)
    assert result.acknowledged, custom_id
    answers = ([result.response] if result.response is not None else []) + list(result.followups)
    assert len(answers) <= 1 or result.deferred, (custom_id, answers)
    if not from_dm:
        assert result.ephemeral, custom_id
    assert world.env.errors_since(cursor) == (), custom_id
    assert snapshot(attack.db_path) == before, f"{custom_id} changed the database"
    assert attack.requests_to_a(since) == [], custom_id
    match = template.fullmatch(custom_id)
    named = {g: int(match.group(g)) for g in OBJECT_GROUPS if g in template.groupindex and match.group(g)}
    names_a = named.get("table") in (1, 2) or named.get("guild") == a_id or named.get("league") == 1 \
        or named.get("tournament") == 1
    if names_a and result.response is not None and result.response.content:
        text = result.response.content
        assert text in (t("err.button_gone_other", "es"), t("err.button_gone", "es")), (custom_id, text)


def _object_commands(bot: Any) -> list[tuple[str, str]]:
    """``(qualified command name, parameter)`` for every slash command option that names an object."""
    out = []
    for command in bot.tree.walk_commands():
        for parameter in getattr(command, "parameters", ()):
            if parameter.name in OBJECT_OPTIONS:
                out.append((command.qualified_name, parameter.name))
    return out


def _required(bot: Any, name: str, option: str, attack: Attack) -> dict[str, Any]:
    """Plausible values for the other required options of command ``name``."""
    command = next(c for c in bot.tree.walk_commands() if c.qualified_name == name)
    out: dict[str, Any] = {}
    for parameter in command.parameters:
        if not parameter.required or parameter.name == option:
            continue
        kind = parameter.type
        if parameter.choices:
            out[parameter.name] = parameter.choices[0].value
        elif kind is discord.AppCommandOptionType.integer:
            out[parameter.name] = int(parameter.min_value or 1)
        elif kind is discord.AppCommandOptionType.user:
            out[parameter.name] = attack.zoe
        else:
            out[parameter.name] = "x"
    return out


async def test_object_commands_found(world):
    """The option test below needs the commands that name objects: leagues', tournaments' and replays'."""
    found = {name.split()[1] for name, _ in _object_commands(world.bot)}
    assert {"league", "tournament", "replay"} <= found, found


async def test_every_command_option_naming_another_servers_object_changes_nothing(attack):
    """zoe runs, in B, every command whose option names an object, with the ids of A's league, tournament
    and mesas: one ephemeral answer each, in Spanish; no row changed; nothing sent to A."""
    world = attack.world
    for name, option in _object_commands(world.bot):
        for object_id in (1, 2):
            before, since = snapshot(attack.db_path), len(world.env.http_requests)
            result = await attack.zoe.slash(attack.b_channel, name, **{option: object_id,
                                                                        **_required(world.bot, name, option, attack)})
            assert result.acknowledged and result.ephemeral, (name, object_id)
            assert result.response.content, (name, object_id)
            assert not result.response.content.startswith(t("err.generic", "es")[:12]), (name, result.response.content)
            assert snapshot(attack.db_path) == before, f"{name} {option}:{object_id} changed the database"
            assert attack.requests_to_a(since) == [], (name, object_id)
    assert world.env.errors == []


@pytest.mark.slow
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture,
                                                                 HealthCheck.too_slow])
@given(data=st.data())
async def test_property_a_forged_component_from_another_channel_of_the_server_takes_no_seat(attack, data):
    """Every registered template naming A's tables, clicked by dani (a member of A, seated nowhere) in
    #mesa2, a channel that is not table 1's: exactly one answer, ephemeral; she takes no seat, no table
    changes (the queue's, a league's and a tournament's sign-up buttons are the server's, wherever they are
    pressed: joining is hers to do; her league sides and tournament entries are left out of the comparison,
    so examples stay independent),
    and nothing is sent to another server."""
    world = attack.world
    factory, template = data.draw(st.sampled_from(_templates(world.bot)), label="template")
    example = data.draw(st.from_regex(template, fullmatch=True), label="example")
    ids = data.draw(st.lists(st.sampled_from([1, 2, world.guild.id]), min_size=len(OBJECT_GROUPS),
                             max_size=len(OBJECT_GROUPS)), label="ids")
    custom_id = _forged(template, example, ids)
    component_type = component_type_of(factory) or 2
    values = [data.draw(st.sampled_from(["medio", "-", "7D", "1", "x"]), label="value")] if component_type == 3 else []
    kept = ("tables", "mesas", "plays", "leagues", "league_sides", "tournaments", "tournament_players",
            "house_settings", "guild_settings", "ratings", "chicas")
    before, cursor = snapshot(attack.db_path), world.env.error_cursor
    since = len(world.env.http_requests)
    result = await click_raw(world.env, world.dani, attack.mesa2.last_message, custom_id,
                             component_type=component_type, values=values)
    assert result.acknowledged and result.ephemeral, custom_id
    assert world.env.errors_since(cursor) == (), custom_id
    after = snapshot(attack.db_path)
    for rows in (before, after):  # signing up for her own server's league or tournament is hers to do, as the queue is
        for table in ("league_sides", "tournament_players"):
            rows[table] = [r for r in rows.get(table, []) if str(world.dani.id) not in r]
    assert {k: after[k] for k in kept if k in after} == {k: before[k] for k in kept if k in before}, custom_id
    assert world.bot.tables.table_of_user(world.dani.id) is None, custom_id
    b_ids = {str(attack.b.id), str(attack.b_channel.id)}
    assert not [r.path for r in world.env.http_requests[since:] if set(re.split(r"[/?]", r.path)) & b_ids]
    if world.dani.id in world.bot.queue.entries:  # leave the world as it was for the next example
        await world.bot.queue.leave(world.dani.id)


async def test_queue_join_forged_from_another_server_does_not_enter_its_queue(attack):
    """What used to fail: zoe (B only) sent ``c4:q:<A>:a`` from B's channel and was put in A's queue; a
    member of A then got matched with her, her forged ``c4:m:<match>:y`` counted, and a match thread was
    opened in A's channel with her seated. Now the click is refused as a button no longer in use, and she
    is in no queue."""
    world = attack.world
    result = await click_raw(world.env, attack.zoe, attack.b_lobby, f"c4:q:{world.guild.id}:a")
    assert result.response.content == t("err.button_gone_other", "es")
    assert attack.zoe.id not in world.bot.queue.entries
    found = await world.dani.slash(attack.queue_channel, "cuarenta find")
    assert found.acknowledged
    assert all(attack.zoe.id not in getattr(m, "users", ()) for m in getattr(world.bot.queue, "matches", {}).values())


async def test_a_card_click_on_a_lobby_by_someone_not_seated_says_not_playing(attack):
    """What used to fail: a forged card id on a lobby answered "La mesa todavía no empezó" to someone who
    is not even seated. It says "No estás jugando en esta mesa" (to dani, of A, not seated at table 1)."""
    world = attack.world
    attack.locales[world.dani.id] = "es-ES"
    lobby = next(m for m in world.channel.history() if "c4:l:1:a" in custom_ids(m))
    result = await click_raw(world.env, world.dani, lobby, "c4:p:1:1:7D")
    assert result.response.content == t("err.not_playing", "es")


async def test_a_forged_board_id_is_a_button_no_longer_in_use_not_an_internal_error(attack):
    """What used to fail: a leaderboard id naming A, clicked in B, answered "Algo salió mal…", the text of
    an internal error. It is the "no longer in use" answer."""
    world = attack.world
    result = await click_raw(world.env, attack.zoe, attack.b_lobby, f"c4:b:{world.guild.id}:0:1v1:0:p")
    assert result.response.content == t("err.button_gone_other", "es")


async def test_a_lobby_button_from_another_channel_of_the_same_server_is_refused(attack):
    """dani, a member of A, forges table 1's join button from #mesa2: the lobby's buttons live in the lobby's
    own channel; she is not seated and nothing is stored."""
    world = attack.world
    before = snapshot(attack.db_path)
    result = await click_raw(world.env, world.dani, attack.mesa2.last_message, "c4:l:1:a")
    assert result.ephemeral
    assert world.bot.tables.table_of_user(world.dani.id) is None
    assert snapshot(attack.db_path) == before


@pytest.fixture
def unchecked_options(monkeypatch):
    """Options sent as forged, past the checks Discord's clients make (SimCord validates like a client)."""
    import simcord.interactions

    monkeypatch.setattr(simcord.interactions, "validate_option_value", lambda command, option, value: value)


@pytest.mark.parametrize("command, options", [
    ("cuarenta new", {"players": 3}),
    ("cuarenta new", {"rules": "ninguna"}),
    ("cuarenta new", {"turn_timer": 5}),
    ("cuarenta join", {"team": "Z"}),
    ("cuarenta replay", {"mesa": 0}),
    ("cuarenta league create", {"name": "Liga", "days": 1000}),
])
async def test_a_forged_out_of_range_or_unlisted_option_gets_the_options_refusal(world, unchecked_options, locales,
                                                                                   command, options):
    """What used to fail: a bad slash option (a choice the command does not list, a number outside its
    range) ran the command (`/cuarenta new players:3`) or answered "Esa jugada no es válida", a play's
    refusal. Every command's options are now checked against what it declares: one ephemeral answer, in
    the user's language, that the option is not valid; nothing is stored."""
    locales[world.eva.id] = "es-ES"
    result = await world.eva.slash(world.channel, command, **options)
    assert result.ephemeral
    assert result.response.content == t("err.bad_option", "es")
    assert world.bot.tables.table_in_channel(world.channel.id) is None
    assert world.env.errors == []


@pytest.mark.parametrize("action", ["s", "x"])
async def test_a_queue_dm_button_naming_another_server_is_a_button_no_longer_in_use(attack, action):
    """What the property test once drew: zoe (queued nowhere) pressed ``c4:q:<A>:s`` from her DM and was
    told "No estás en ninguna cola" — an answer about A's queue. A DM's queue buttons act only on the
    user's own entry in the server they name; anything else is a button no longer in use."""
    world = attack.world
    result = await click_raw(world.env, attack.zoe.user, attack.zoe_dm, f"c4:q:{world.guild.id}:{action}")
    assert result.ephemeral
    assert result.response.content == t("err.button_gone_other", "es")
    # (a queued member's own DM buttons still work: tests/competitions/test_queue.py, the "still here" tests)


async def test_a_lobby_click_from_another_server_is_refused_and_seats_nobody(world):
    guild2 = world.env.create_guild("Cuenca Club")
    chan2 = guild2.create_text_channel("juegos")
    zoe = guild2.add_member(world.env.create_user("zoe"))  # not a member of Quito Club
    await world.ana.slash(world.channel, "cuarenta new", players=2)
    await zoe.slash(chan2, "cuarenta new", players=2)  # any bot message zoe can click on
    carrier = chan2.last_message
    await zoe.slash(chan2, "cuarenta leave")
    joined = await click_raw(world.env, zoe, carrier, "c4:l:1:a")  # Quito Club's table #1
    table = table_of(world, 1)
    assert joined.acknowledged and joined.ephemeral
    assert table.seat_of(zoe.id) is None, f"zoe sat at Quito Club's table: {joined.response.content!r}"
    assert table.status == "lobby"


async def test_a_lobby_click_from_another_channel_of_the_server_is_refused_and_seats_nobody(world):
    """The lobby's buttons exist only on its message, in the table's channel: the same id sent from a
    message in another channel (one the table's channel may hide from that member) seats nobody."""
    other = world.guild.create_text_channel("otro")
    await world.ana.slash(world.channel, "cuarenta new", players=2)
    await world.caro.slash(other, "cuarenta new", players=2)  # a bot message caro can click on, elsewhere
    carrier = other.last_message
    await world.caro.slash(other, "cuarenta leave")
    joined = await click_raw(world.env, world.caro, carrier, "c4:l:1:a")
    table = table_of(world, 1)
    assert joined.acknowledged and joined.ephemeral
    assert table.seat_of(world.caro.id) is None and table.status == "lobby"
    assert world.env.errors == []
