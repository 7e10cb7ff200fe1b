"""Hostile QA across two servers.

Server A is `world` ("Quito Club": ana, beto, caro, dani, eva). Server B ("Guayaquil") has zoe, an admin of B
only, whose client is in Spanish, and ana is a member of both servers. Every attempt must get exactly one
answer, ephemeral, in the user's language; no row changes; nothing is sent to the other server's channels;
no exception is logged."""

from __future__ import annotations

import re
import sqlite3
from typing import Any

import discord
import pytest

from bot.i18n import t
from tests.support.helpers import (
    click_raw,
    clicks_together,
    custom_ids,
    double_click,
    latest_hand,
    pick_play,
    play_through_ui,
    table_of,
)

HUGE = 2**64 + 7  # past SQLite's 64-bit integers; Discord's custom_id is any string of up to 100 characters
ENGLISH = ("Something went wrong", "You ", "This button", "There is", "It's not", " the ", "your ")


def snapshot(db_path: str) -> dict[str, list[str]]:
    with sqlite3.connect(db_path) as db:
        names = [r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")]
        return {name: sorted(map(repr, db.execute(f'SELECT * FROM "{name}"'))) for name in names}


class Two:
    def __init__(self, world: Any, db_path: str, locales: dict[int, str]) -> None:
        self.world, self.db_path, self.locales = world, db_path, locales

    async def build(self) -> Two:
        world, env = self.world, self.world.env
        self.b = env.create_guild("Guayaquil")
        self.b_channel = self.b.create_text_channel("juego")
        admins = self.b.create_role("Admins", permissions=discord.Permissions(manage_guild=True))
        self.zoe = self.b.add_member(env.create_user("zoe"), roles=[admins])
        self.ana_b = self.b.add_member(world.ana.user)  # ana is in both servers
        self.locales[self.zoe.id] = "es-ES"
        await self.zoe.slash(self.b_channel, "cuarenta new", players=2)  # B's lobby: table 1
        self.b_lobby = self.b_channel.last_message
        self.zoe_dm = self.zoe.user.dm_channel.last_message
        return self

    def ids_of(self, guild: Any) -> set[str]:
        ids = {str(guild.id)} | {str(c.id) for c in guild.channels.values()}
        return ids

    def requests_to(self, ids: set[str], since: int) -> list[str]:
        return [f"{r.method} {r.path}" for r in self.world.env.http_requests[since:]
                if set(re.split(r"[/?]", r.path)) & ids]

    def mark(self) -> tuple[dict[str, list[str]], int, Any]:
        return snapshot(self.db_path), len(self.world.env.http_requests), self.world.env.error_cursor

    def check(self, result: Any, mark: tuple[Any, int, Any], *, other: Any, lang: str = "es",
              ephemeral: bool = True, db_same: bool = True, text: str | None = None) -> str:
        """One answer, ephemeral, in ``lang``; no DB change; nothing to ``other``'s channels; no error."""
        before, since, cursor = mark
        assert result.acknowledged
        answers = ([result.response] if result.response is not None else []) + list(result.followups)
        assert len(answers) == 1, [getattr(a, "content", a) for a in answers]
        if ephemeral:
            assert result.ephemeral
        content = answers[0].content or ""
        errors = self.world.env.errors_since(cursor)
        _ = self.world.env.errors  # acknowledged here: a failure is reported once, by the test, not again at teardown
        assert errors == (), errors
        if db_same:
            assert snapshot(self.db_path) == before, "the database changed"
        assert self.requests_to(self.ids_of(other), since) == []
        if lang == "es":
            assert not any(w in content for w in ENGLISH), content
        assert content != t("err.generic", lang), "an internal error answered"
        if text is not None:
            assert content == text
        return content


@pytest.fixture
async def two(world, db_path, locales):
    return await Two(world, db_path, locales).build()


@pytest.fixture
def unchecked_options(monkeypatch):
    """Options sent as forged, past the checks Discord's clients make (as in test_scope)."""
    import simcord.interactions

    monkeypatch.setattr(simcord.interactions, "validate_option_value", lambda command, option, value: value)


# ---------------------------------------------------------------------------- numbers out of range in ids


async def test_league_button_with_an_id_past_64_bits(world, two):
    """c4:g:<2**64>:j in B: the league is not in memory, so `explain` asks the store (why_not_open)."""
    mark = two.mark()
    result = await click_raw(world.env, two.zoe, two.b_lobby, f"c4:g:{HUGE}:j")
    two.check(result, mark, other=world.guild)


async def test_tournament_button_with_an_id_past_64_bits(world, two):
    mark = two.mark()
    result = await click_raw(world.env, two.zoe, two.b_lobby, f"c4:o:{HUGE}:j")
    two.check(result, mark, other=world.guild)


async def test_board_button_of_own_server_with_a_season_past_64_bits(world, two):
    """A leaderboard id naming zoe's own server B, with a season number no server has."""
    mark = two.mark()
    result = await click_raw(world.env, two.zoe, two.b_lobby, f"c4:b:{two.b.id}:{HUGE}:1v1:0:p")
    two.check(result, mark, other=world.guild)


async def test_board_button_of_own_server_with_a_page_past_64_bits(world, two):
    mark = two.mark()
    result = await click_raw(world.env, two.zoe, two.b_lobby, f"c4:b:{two.b.id}:0:1v1:{HUGE}:n")
    two.check(result, mark, other=world.guild)


@pytest.mark.parametrize("custom_id", [
    f"c4:l:{HUGE}:a", f"c4:p:{HUGE}:{HUGE}:7D", f"c4:h:{HUGE}", f"c4:y:{HUGE}", f"c4:r:{HUGE}", f"c4:b:{HUGE}",
    f"c4:k:{HUGE}:y", f"c4:u:{HUGE}:o", f"c4:u:{HUGE}:v:ronda", f"c4:w:{HUGE}:{HUGE}:n", f"c4:m:{HUGE}:y",
    f"c4:q:{HUGE}:a", "c4:l:0:a", "c4:h:0", "c4:p:1:99999999999999999999999:7D",
])
async def test_other_ids_past_64_bits_are_refused_quietly(world, two, custom_id):
    mark = two.mark()
    result = await click_raw(world.env, two.zoe, two.b_lobby, custom_id)
    two.check(result, mark, other=world.guild)


@pytest.mark.parametrize("custom_id", ["c4:v:1", "c4:t:1:1", "c4:c:1:1:7D", "c4:u:1:r"])
async def test_select_ids_with_empty_or_junk_values(world, two, custom_id):
    """zoe's own lobby (table 1 in B): a select sent with no value, or with junk."""
    for values in ([], ["x" * 100], ["7D.7D.7D"]):
        mark = two.mark()
        result = await click_raw(world.env, two.zoe, two.b_lobby, custom_id, component_type=3, values=values)
        two.check(result, mark, other=world.guild)


async def test_select_id_sent_as_a_button_and_a_button_id_sent_as_a_select(world, two):
    for custom_id, kind in (("c4:v:1", 2), ("c4:l:1:s", 3), ("c4:h:1", 3)):
        mark = two.mark()
        result = await click_raw(world.env, two.zoe, two.b_lobby, custom_id, component_type=kind,
                                 values=["medio"])
        two.check(result, mark, other=world.guild)


# ---------------------------------------------------------------------------- slash options out of range


@pytest.mark.parametrize("command, options", [
    ("cuarenta league view", {"league": HUGE}),
    ("cuarenta league signup", {"league": HUGE}),
    ("cuarenta league close", {"league": -1}),
    ("cuarenta tournament view", {"tournament": HUGE}),
    ("cuarenta tournament signup", {"tournament": HUGE}),
    ("cuarenta tournament cancel", {"tournament": 0}),
    ("cuarenta leaderboard", {"season": HUGE}),
    ("cuarenta leaderboard", {"season": 0}),
    ("cuarenta leaderboard", {"mode": "3v3"}),
    ("cuarenta replay", {"mesa": HUGE}),
    ("cuarenta replay", {"mesa": -5}),
    ("cuarenta find", {"mode": "9v9"}),
    ("cuarenta language", {"language": "xx"}),
    ("cuarenta new", {"players": HUGE}),
    ("cuarenta new", {"turn_timer": HUGE}),
])
async def test_forged_slash_options(world, two, unchecked_options, command, options):
    """zoe (B, Spanish) runs commands in B with forged values."""
    mark = two.mark()
    result = await two.zoe.slash(two.b_channel, command, **options)
    two.check(result, mark, other=world.guild)


# ---------------------------------------------------------------------------- across servers


async def test_member_of_both_servers_back_from_the_other_server(world, two, locales):
    """A 1 v 1 in A with 30 s turns; one player's turn runs out twice: the seat is away (a computer plays
    it). That player, also a member of B, runs /cuarenta back in B's channel. `/cuarenta hand`, `leave` and
    «Ver mi mano» refuse A's table from B (`_own_table`, `_scoped`); does `back`?"""
    await world.ana.slash(world.channel, "cuarenta new", players=2, turn_timer=30)
    await world.beto.slash(world.channel, "cuarenta join")
    table = next(tb for tb in world.bot.tables.tables.values() if tb.guild_id == world.guild.id)
    afk = table.game.to_play
    members = {world.ana.id: world.ana, world.beto.id: world.beto}
    for _ in range(2):
        await world.env.advance_time(30)
        seat, play = pick_play(table)
        await play_through_ui(members[table.seats[seat].user_id], table, play)
        if table.seats[afk].away:
            break
    assert table.seats[afk].away
    user = members[table.seats[afk].user_id].user
    locales[user.id] = "es-ES"
    in_b = two.ana_b if user.id == world.ana.id else two.b.add_member(user)
    mark = two.mark()
    result = await in_b.slash(two.b_channel, "cuarenta back")
    await world.env.settle()
    content = two.check(result, mark, other=world.guild, db_same=False)
    assert table.seats[afk].away, f"her seat in A was taken back from B's channel: {content!r}"


async def test_hand_of_server_a_from_server_b_by_a_member_of_both(world, two, locales):
    locales[world.ana.id] = "es-ES"
    await world.ana.slash(world.channel, "cuarenta new", players=2)
    await world.beto.slash(world.channel, "cuarenta join")
    a_table = next(tb for tb in world.bot.tables.tables.values() if tb.guild_id == world.guild.id)
    mark = two.mark()
    result = await two.ana_b.slash(two.b_channel, "cuarenta hand")
    content = two.check(result, mark, other=world.guild)
    for card in a_table.game.hands[a_table.seat_of(world.ana.id)]:
        assert str(card) not in content
    mark = two.mark()
    result = await click_raw(world.env, two.ana_b, two.b_lobby, f"c4:h:{a_table.id}")
    two.check(result, mark, other=world.guild, text=t("err.button_gone_other", "es"))


async def test_end_and_kick_from_server_b_do_not_reach_server_a(world, two, locales):
    """zoe (admin of B) and ana (both) try to end/kick A's table from B."""
    await world.ana.slash(world.channel, "cuarenta new", players=2)
    await world.beto.slash(world.channel, "cuarenta join")
    a_table = next(tb for tb in world.bot.tables.tables.values() if tb.guild_id == world.guild.id)
    b_before = {tb.id for tb in world.bot.tables.tables.values() if tb.guild_id == two.b.id}
    for actor, command, options in ((two.zoe, "cuarenta kick", {"player": world.beto.user}),
                                    (two.zoe, "cuarenta end", {}),
                                    (two.ana_b, "cuarenta kick", {"player": world.beto.user})):
        mark = two.mark()
        result = await actor.slash(two.b_channel, command, **options)
        await world.env.settle()
        two.check(result, mark, other=world.guild, db_same=False, lang="es" if actor is two.zoe else "en")
        assert a_table.is_open and a_table.seat_of(world.beto.id) is not None
        assert not a_table.seats[a_table.seat_of(world.beto.id)].is_ai
    assert b_before  # zoe's lobby


async def test_end_in_b_by_member_of_both_who_hosts_in_a(world, two):
    """ana hosts A's lobby and is a member of B; B's channel has its own lobby (zoe's). `/cuarenta end` in B
    names B's table (the channel's), which ana does not host: refused, A untouched."""
    await world.ana.slash(world.channel, "cuarenta new", players=2)
    mark = two.mark()
    result = await two.ana_b.slash(two.b_channel, "cuarenta end")
    two.check(result, mark, other=world.guild, lang="en")
    other_channel = two.b.create_text_channel("vacio")
    mark = two.mark()
    result = await two.ana_b.slash(other_channel, "cuarenta end")  # no table in this channel of B
    two.check(result, mark, other=world.guild, lang="en")
    assert any(tb.is_open and tb.guild_id == world.guild.id for tb in world.bot.tables.tables.values())


async def test_league_and_tournament_of_a_named_from_b(world, two):
    await world.eva.slash(world.channel, "cuarenta league create", name="Liga A")
    await world.eva.slash(world.channel, "cuarenta tournament create", name="Copa A")
    for command, options in (("cuarenta league signup", {"league": 1}), ("cuarenta league close", {"league": 1}),
                             ("cuarenta league cancel", {"league": 1}), ("cuarenta league view", {"league": 1}),
                             ("cuarenta tournament signup", {"tournament": 1}),
                             ("cuarenta tournament close", {"tournament": 1}),
                             ("cuarenta tournament cancel", {"tournament": 1}),
                             ("cuarenta tournament view", {"tournament": 1})):
        mark = two.mark()
        result = await two.zoe.slash(two.b_channel, command, **options)
        content = two.check(result, mark, other=world.guild)
        assert "Liga A" not in content and "Copa A" not in content, (command, content)
    for custom_id in ("c4:g:1:j", "c4:g:1:c", "c4:g:1:p", "c4:o:1:j", "c4:o:1:c", "c4:o:1:p"):
        mark = two.mark()
        result = await click_raw(world.env, two.zoe, two.b_lobby, custom_id)
        two.check(result, mark, other=world.guild, text=t("err.button_gone_other", "es"))


async def test_ended_league_of_a_named_from_b_says_nothing_of_it(world, two):
    """A's league is cancelled (so it is no longer in memory). zoe names it from B."""
    await world.eva.slash(world.channel, "cuarenta league create", name="Liga Secreta")
    await world.eva.slash(world.channel, "cuarenta league cancel", league=1)
    for custom_id in ("c4:g:1:j", "c4:g:1:p"):
        mark = two.mark()
        result = await click_raw(world.env, two.zoe, two.b_lobby, custom_id)
        content = two.check(result, mark, other=world.guild)
        assert "Secreta" not in content
    mark = two.mark()
    result = await two.zoe.slash(two.b_channel, "cuarenta league view", league=1)
    content = two.check(result, mark, other=world.guild)
    assert "Secreta" not in content


async def test_queue_of_a_from_b_member_of_both_and_dm(world, two):
    """ana is in both servers: A's queue via B's channel with A's id, and the queue buttons from her DM."""
    queue_channel = world.guild.create_text_channel("cola")
    await world.eva.slash(queue_channel, "cuarenta queue")
    mark = two.mark()
    result = await click_raw(world.env, two.ana_b, two.b_lobby, f"c4:q:{world.guild.id}:a")
    two.check(result, mark, other=world.guild, lang="en", text=t("err.button_gone_other", "en"))
    assert world.ana.id not in world.bot.queue.entries
    mark = two.mark()
    result = await click_raw(world.env, two.zoe.user, two.zoe_dm, f"c4:q:{world.guild.id}:a")
    two.check(result, mark, other=world.guild, ephemeral=False)
    assert two.zoe.id not in world.bot.queue.entries


# ---------------------------------------------------------------------------- double clicks, stale, turns


async def test_double_click_join_on_a_lobby(world, two):
    await world.ana.slash(world.channel, "cuarenta new", players=4)
    lobby = next(m for m in world.channel.history() if "c4:l:2:a" in custom_ids(m))
    since = len(world.env.http_requests)
    results = await double_click(world.env, world.caro, lobby, "c4:l:2:a")
    await world.env.settle()
    table = table_of(world, 2)
    assert sum(1 for s in table.seats if s is not None and s.user_id == world.caro.id) == 1
    for r in results:
        answers = ([r.response] if r.response is not None else []) + list(r.followups)
        assert len(answers) <= 2 and r.ephemeral  # the join's answer (and the DM-closed line at most)
    assert world.env.errors == []
    assert two.requests_to(two.ids_of(two.b), since) == []


async def test_double_click_start(world, two):
    await world.ana.slash(world.channel, "cuarenta new", players=4)
    lobby = next(m for m in world.channel.history() if "c4:l:2:s" in custom_ids(m))
    results = await double_click(world.env, world.ana, lobby, "c4:l:2:s")
    await world.env.settle()
    assert table_of(world, 2).status == "playing"
    for r in results:
        answers = ([r.response] if r.response is not None else []) + list(r.followups)
        assert r.acknowledged and r.ephemeral and len(answers) == 1, [a.content for a in answers]
        assert r.response.content != t("err.generic", "en")
    assert world.env.errors == []
    assert sum(1 for tb in world.bot.tables.tables.values() if tb.status == "playing") == 1


async def test_wrong_turn_and_someone_elses_card_and_seated_elsewhere(world, two, locales):
    """beto clicks ana's card while it is ana's turn; zoe (B) forges the current nonce's card from her DM;
    caro (A, not seated) forges it in A's channel."""
    locales[world.beto.id] = "es-ES"
    await world.ana.slash(world.channel, "cuarenta new", players=2)
    await world.beto.slash(world.channel, "cuarenta join")
    table = next(tb for tb in world.bot.tables.tables.values() if tb.guild_id == world.guild.id)
    seat, play = pick_play(table)
    person = table.seats[seat]
    mover = world.ana if person.user_id == world.ana.id else world.beto
    waiter = world.beto if mover is world.ana else world.ana
    nonce = table.nonce
    cid = f"c4:p:{table.id}:{nonce}:{play.card.code}"
    mark = two.mark()
    result = await click_raw(world.env, waiter.user, latest_hand(waiter), cid)
    two.check(result, mark, other=two.b, ephemeral=False, lang="es" if waiter is world.beto else "en")
    mark = two.mark()
    result = await click_raw(world.env, two.zoe.user, two.zoe_dm, cid)
    two.check(result, mark, other=world.guild, ephemeral=False, text=t("err.button_gone_other", "es"))
    mark = two.mark()
    result = await click_raw(world.env, world.caro, next(m for m in world.channel.history()
                                                          if m.id == table.messages.public), cid)
    two.check(result, mark, other=two.b, lang="en")
    assert table.nonce == nonce


async def test_restart_mid_hand_then_forged_and_stale_clicks(world, two, make_bot):
    await world.ana.slash(world.channel, "cuarenta new", players=2)
    await world.beto.slash(world.channel, "cuarenta join")
    table = next(tb for tb in world.bot.tables.tables.values() if tb.guild_id == world.guild.id)
    seat, play = pick_play(table)
    mover = world.ana if table.seats[seat].user_id == world.ana.id else world.beto
    old_hand = latest_hand(mover)
    await play_through_ui(mover, table, play)
    tid = table.id
    await world.env.restart_bot(make_bot())
    await world.env.settle()
    table = table_of(world, tid)
    # the stale hand from before the play
    old_cid = next(c for c in custom_ids(old_hand) if c.startswith("c4:p:"))
    mark = two.mark()
    result = await click_raw(world.env, mover.user, old_hand, old_cid)
    answers = ([result.response] if result.response is not None else []) + list(result.followups)
    assert result.acknowledged and len(answers) <= 1
    assert world.env.errors_since(mark[2]) == ()
    assert snapshot(two.db_path)["plays"] == mark[0]["plays"]
    # zoe forges the current turn from B after the restart
    seat, play = pick_play(table)
    cid = f"c4:p:{tid}:{table.nonce}:{play.card.code}"
    mark = two.mark()
    result = await click_raw(world.env, two.zoe, two.b_lobby, cid)
    two.check(result, mark, other=world.guild, text=t("err.button_gone_other", "es"))


async def test_closed_dms_forged_click_from_b(world, two):
    """zoe closes her DMs; forged clicks in B are answered in the interaction, nothing else is tried."""
    dm = two.zoe.user.dm_channel
    world.env.inject_error("POST", f"/channels/{dm.id}/messages", status=403, code=50007,
                           message="Cannot send messages to this user", times=None)
    for cid in ("c4:l:1:a", "c4:l:1:s", "c4:r:1", "c4:k:1:y", "c4:h:1", "c4:y:1", f"c4:q:{two.b.id}:s"):
        mark = two.mark()
        result = await click_raw(world.env, two.zoe, two.b_lobby, cid)
        two.check(result, mark, other=world.guild, db_same=False)


async def test_rematch_and_vote_buttons_on_a_lobby(world, two):
    """c4:r and c4:k of B's lobby (not finished), by its host, and by ana (member of B, not seated)."""
    for actor, lang in ((two.zoe, "es"), (two.ana_b, "en")):
        for cid in ("c4:r:1", "c4:k:1:y", "c4:k:1:n", "c4:b:1"):
            mark = two.mark()
            result = await click_raw(world.env, actor, two.b_lobby, cid)
            two.check(result, mark, other=world.guild, lang=lang)


# ---------------------------------------------------------------------------- more


async def test_race_for_the_last_seat_of_a_1v1(world, two):
    await world.ana.slash(world.channel, "cuarenta new", players=2)
    lobby = next(m for m in world.channel.history() if "c4:l:2:a" in custom_ids(m))
    since = len(world.env.http_requests)
    results = await clicks_together(world.env, [(u, lobby, "c4:l:2:a") for u in [world.beto, world.caro]])
    await world.env.settle()
    table = table_of(world, 2)
    seated = {s.user_id for s in table.seats if s is not None}
    assert len(seated & {world.beto.id, world.caro.id}) == 1
    for r in results:
        answers = ([r.response] if r.response is not None else []) + list(r.followups)
        assert r.acknowledged and r.ephemeral and 1 <= len(answers) <= 2
        assert r.response.content != t("err.generic", "en")
    assert world.env.errors == []
    assert two.requests_to(two.ids_of(two.b), since) == []


async def test_seated_in_a_then_new_and_join_in_b(world, two, locales):
    """ana sits at A's lobby, then runs /cuarenta new and the join button in B."""
    locales[world.ana.id] = "es-ES"
    await world.ana.slash(world.channel, "cuarenta new", players=2)
    mark = two.mark()
    result = await two.ana_b.slash(two.b_channel, "cuarenta new", players=2)
    two.check(result, mark, other=world.guild, db_same=False)
    assert sum(1 for tb in world.bot.tables.tables.values() if tb.is_open and tb.seat_of(world.ana.id) is not None) == 1
    mark = two.mark()
    result = await click_raw(world.env, two.ana_b, two.b_lobby, "c4:l:1:a")
    two.check(result, mark, other=world.guild)
    assert table_of(world, 1).seat_of(world.ana.id) is None


@pytest.mark.parametrize("command", ["cuarenta hand", "cuarenta back", "cuarenta leave", "cuarenta find",
                                     "cuarenta leaderboard", "cuarenta league view"])
async def test_server_commands_are_not_offered_in_a_dm(world, two, command):
    """The table, leaderboard and league commands act on the interaction's server, so a DM has none to
    give them: they are guild-only, and Discord's client (SimCord's picker) neither lists nor sends them
    there. zoe (B only) tries each in her DM with the bot: it is not offered, and the attempt is refused
    before reaching the bot (no request to either server)."""
    from simcord.backend.errors import SetupError

    assert command in two.zoe.available_commands(two.b_channel), "offered in her server's channel"
    assert command not in two.zoe.user.available_commands()
    since = len(world.env.http_requests)
    with pytest.raises(SetupError, match="not visible to this user here"):
        await two.zoe.user.slash(command)
    assert world.env.http_requests[since:] == [] and world.env.errors == []


@pytest.mark.parametrize("custom_id", ["c4:l:\u0662:a", "c4:h:\u0662", "c4:l:0002:s", "c4:v:\uff12",
                                       "c4:y:\u0662", "c4:u:\u0662:o"])
async def test_unicode_and_zero_padded_digits_naming_a_from_b(world, two, custom_id):
    """Python's ``\\d`` matches any Unicode digit and ``int`` reads it: ``c4:l:٢:a`` is table 2 (A's lobby).
    zoe (B only) sends them from B."""
    await world.ana.slash(world.channel, "cuarenta new", players=2)
    mark = two.mark()
    kind = 3 if custom_id.startswith("c4:v:") else 2
    result = await click_raw(world.env, two.zoe, two.b_lobby, custom_id, component_type=kind, values=["medio"])
    two.check(result, mark, other=world.guild, text=t("err.button_gone_other", "es"))
    assert table_of(world, 2).seat_of(two.zoe.id) is None


async def test_hand_buttons_from_a_dm_for_a_table_not_seated(world, two):
    """ana sits in A (table 2) and uses her DM to forge B's table 1 controls."""
    await world.ana.slash(world.channel, "cuarenta new", players=2)
    dm_msg = world.ana.user.dm_channel.last_message
    for cid in ("c4:h:1", "c4:y:1", "c4:l:1:a", "c4:l:1:s", "c4:r:1", "c4:k:1:y", "c4:b:1", "c4:u:1:o",
                "c4:p:1:0:7D", f"c4:b:{two.b.id}:0:1v1:0:n", "c4:w:1:0:n"):
        mark = two.mark()
        result = await click_raw(world.env, world.ana.user, dm_msg, cid)
        two.check(result, mark, other=two.b, ephemeral=False, lang="en")
        assert table_of(world, 1).seat_of(world.ana.id) is None


async def _finished_1v1_in_a(world):
    from tests.support.helpers import play_to_end

    await world.ana.slash(world.channel, "cuarenta new", players=2)
    await world.beto.slash(world.channel, "cuarenta join")
    tid = next(tb.id for tb in world.bot.tables.tables.values() if tb.guild_id == world.guild.id)
    table = await play_to_end(world, tid, {world.ana.id: world.ana, world.beto.id: world.beto})
    await world.env.settle()
    final = next(m for m in world.channel.history() if m.id == table.messages.public)
    return table, final


@pytest.mark.slow
async def test_stale_rematch_buttons_after_the_rematch_was_dealt(world, two):
    table, final = await _finished_1v1_in_a(world)
    tid = table.id
    old_hand = world.ana.user.dm_channel.last_message
    await world.ana.click(final, custom_id=f"c4:r:{tid}")
    await world.env.advance_time(1)
    ready = next(m for m in reversed(world.channel.history()) if f"c4:k:{tid}:y" in custom_ids(m))
    # a double click on the last «Acepto»: one new mesa
    results = await double_click(world.env, world.beto, ready, f"c4:k:{tid}:y")
    await world.env.settle()
    for r in results:
        answers = ([r.response] if r.response is not None else []) + list(r.followups)
        assert r.acknowledged and r.ephemeral and len(answers) == 1
    open_tables = [tb for tb in world.bot.tables.tables.values() if tb.is_open and tb.guild_id == world.guild.id]
    assert len(open_tables) == 1, "one rematch dealt"
    new_id = open_tables[0].id
    assert world.env.errors == []
    # the old buttons, pressed again
    attempts = [(world.ana, final, f"c4:r:{tid}", "en"), (world.beto, ready, f"c4:k:{tid}:y", "en"),
                (world.beto, ready, f"c4:k:{tid}:n", "en"), (world.caro, final, f"c4:r:{tid}", "en"),
                (world.ana.user, old_hand, f"c4:p:{tid}:{table.nonce - 1}:7D", "en"),
                (world.ana.user, old_hand, f"c4:h:{tid}", "en"),
                (two.zoe, two.b_lobby, f"c4:r:{tid}", "es"), (two.zoe, two.b_lobby, f"c4:k:{tid}:y", "es")]
    for actor, message, cid, lang in attempts:
        mark = two.mark()
        result = await click_raw(world.env, actor, message, cid)
        await world.env.advance_time(1)
        content = two.check(result, mark, other=two.b if lang == "en" else world.guild, lang=lang,
                            ephemeral=actor is not world.ana.user, db_same=False)
        still = [tb for tb in world.bot.tables.tables.values() if tb.is_open and tb.guild_id == world.guild.id]
        assert [tb.id for tb in still] == [new_id], (cid, content)
        assert len(snapshot(two.db_path)["tables"]) == len(mark[0]["tables"]), (cid, content)
        assert snapshot(two.db_path)["plays"] == mark[0]["plays"], (cid, content)
        print("QA", cid, "->", content)
    # no second ready check was posted for the old table
    checks = [m for m in world.channel.history() if f"c4:k:{tid}:y" in custom_ids(m)]
    assert len(checks) <= 1


@pytest.mark.parametrize("custom_id, values", [
    ("c4:u:1:r", ["no_such_rule"]), ("c4:u:1:r", [""]), ("c4:u:1:r", ["x" * 100]),
    ("c4:u:1:v:no_such_rule", ["1"]), ("c4:u:1:v:ronda", ["999999999999999999999999"]),
    ("c4:u:1:v:ronda", [""]), ("c4:u:1:v:ronda", []),
])
async def test_house_rule_selects_of_own_lobby_with_junk(world, two, custom_id, values):
    """zoe hosts B's lobby (table 1): the house-rule editor's selects, sent with junk values."""
    mark = two.mark()
    result = await click_raw(world.env, two.zoe, two.b_lobby, custom_id, component_type=3, values=values)
    two.check(result, mark, other=world.guild)


@pytest.mark.parametrize("custom_id, kind, values", [
    ("c4:a:999:n", 2, []), ("c4:a:000:p", 2, []), ("c4:a:s", 3, ["999"]), ("c4:a:s", 3, ["-1"]),
    ("c4:a:s", 3, ["x"]), ("c4:a:s", 3, []),
])
async def test_guide_ids_out_of_range(world, two, custom_id, kind, values):
    mark = two.mark()
    result = await click_raw(world.env, two.zoe, two.b_lobby, custom_id, component_type=kind, values=values)
    two.check(result, mark, other=world.guild)


async def test_portuguese_user_gets_portuguese_refusals(world, two, locales):
    """caro (A) in pt-BR: forged ids from A's channel naming B's table, and a board of B."""
    locales[world.caro.id] = "pt-BR"
    await world.ana.slash(world.channel, "cuarenta new", players=4)
    for cid, key in (("c4:l:1:a", "err.button_gone_other"), (f"c4:b:{two.b.id}:0:1v1:0:p", "err.button_gone_other"),
                     (f"c4:q:{two.b.id}:a", "err.button_gone_other"), ("nonsense", "err.button_gone_other")):
        mark = two.mark()
        result = await click_raw(world.env, world.caro, world.channel.last_message, cid)
        two.check(result, mark, other=two.b, lang="pt", text=t(key, "pt"))


async def test_queue_in_both_servers_by_a_member_of_both(world, two, locales):
    """ana waits in A's queue, then runs /cuarenta find in B; zoe then finds in B."""
    locales[world.ana.id] = "es-ES"
    a_queue = world.guild.create_text_channel("cola")
    await world.eva.slash(a_queue, "cuarenta queue")
    b_queue = two.b.create_text_channel("cola-b")
    await two.zoe.slash(b_queue, "cuarenta queue")
    await world.ana.slash(a_queue, "cuarenta find")
    assert world.bot.queue.entries[world.ana.id].guild_id == world.guild.id
    mark = two.mark()
    result = await two.ana_b.slash(b_queue, "cuarenta find")
    content = two.check(result, mark, other=world.guild, db_same=False)
    print("QA find in B while in A's queue ->", content)
    entry = world.bot.queue.entries.get(world.ana.id)
    mark = two.mark()
    result = await two.zoe.slash(b_queue, "cuarenta find")
    content = two.check(result, mark, other=world.guild, db_same=False)
    print("QA zoe find in B ->", content, "| ana entry:", entry and entry.guild_id)
    for m in getattr(world.bot.queue, "matches", {}).values():
        assert getattr(m, "guild_id", two.b.id) in (two.b.id, world.guild.id)
    assert world.env.errors == []


@pytest.mark.slow
async def test_replay_steps_out_of_range_on_a_finished_mesa(world, two, unchecked_options):
    table, final = await _finished_1v1_in_a(world)
    tid = table.id
    shown = await world.ana.slash(world.channel, "cuarenta replay", mesa=tid)
    assert shown.ephemeral
    for cid in (f"c4:w:{tid}:{HUGE}:n", f"c4:w:{tid}:{HUGE}:f", f"c4:w:{tid}:0:b", f"c4:w:{tid}:{10**90}:p"):
        mark = two.mark()
        result = await click_raw(world.env, world.ana, shown.response, cid)
        answers = ([result.response] if result.response is not None else []) + list(result.followups)
        assert result.acknowledged and len(answers) <= 1, cid
        assert world.env.errors_since(mark[2]) == (), cid
        assert snapshot(two.db_path) == mark[0]
        if answers and answers[0].content:
            assert answers[0].content != t("err.generic", "en"), cid
    mark = two.mark()
    result = await two.zoe.slash(two.b_channel, "cuarenta replay", mesa=tid)
    two.check(result, mark, other=world.guild)
    for bad in (HUGE, 0, -1):
        mark = two.mark()
        result = await world.ana.slash(world.channel, "cuarenta replay", mesa=bad)
        two.check(result, mark, other=two.b, lang="en")


async def test_leaving_or_losing_server_b_does_not_touch_server_a(world, db_path, locales, make_bot):
    """With the members intent: ana (both servers) plays in A and waits in B's queue; she is removed from
    B, and then B's channel with zoe's lobby is deleted. A's mesa and its seat stay hers."""
    await world.env.restart_bot(make_bot(members_intent=True))
    two = await Two(world, db_path, locales).build()
    await world.ana.slash(world.channel, "cuarenta new", players=2)
    await world.beto.slash(world.channel, "cuarenta join")
    a_table = next(tb for tb in world.bot.tables.tables.values() if tb.guild_id == world.guild.id)
    b_queue = two.b.create_text_channel("cola-b")
    await two.zoe.slash(b_queue, "cuarenta queue")
    since = len(world.env.http_requests)
    two.b.remove_member(two.ana_b)
    await world.env.settle()
    world.env.backend.delete_channel(two.b_channel.id)
    await world.env.settle()
    seat = a_table.seat_of(world.ana.id)
    assert a_table.is_open and seat is not None and not a_table.seats[seat].is_ai and not a_table.seats[seat].away
    assert not table_of(world, 1).is_open, "B's lobby ended with its channel"
    writes_to_a = [r for r in two.requests_to(two.ids_of(world.guild), since) if not r.startswith("GET")]
    assert writes_to_a == [], writes_to_a
    assert world.env.errors == []


async def test_the_player_in_turn_sends_junk_to_the_trail_and_capture_menus(world, two):
    """The player whose turn it is sends forged values on their own hand: cards not in hand, jokers in a
    preset without them, empty values, capture-menu page values out of range."""
    await world.ana.slash(world.channel, "cuarenta new", players=2)
    await world.beto.slash(world.channel, "cuarenta join")
    table = next(tb for tb in world.bot.tables.tables.values() if tb.guild_id == world.guild.id)
    seat, _ = pick_play(table)
    mover = world.ana if table.seats[seat].user_id == world.ana.id else world.beto
    hand = latest_hand(mover)
    tid, nonce = table.id, table.nonce
    held = {c.code for c in table.game.hands[seat]}
    absent = next(c for c in ("7D", "AS", "KH", "2C", "3S") if c not in held)
    mine = sorted(held)[0]
    attempts = [
        (f"c4:t:{tid}:{nonce}", 3, [absent]), (f"c4:t:{tid}:{nonce}", 3, ["W1"]), (f"c4:t:{tid}:{nonce}", 3, []),
        (f"c4:t:{tid}:{nonce}", 3, ["zz"]),
        (f"c4:c:{tid}:{nonce}:{mine}", 3, ["~99999999999999999999999"]), (f"c4:c:{tid}:{nonce}:{mine}", 3, ["~x"]),
        (f"c4:c:{tid}:{nonce}:{mine}", 3, [f"{mine}.{mine}"]), (f"c4:c:{tid}:{nonce}:{absent}", 3, ["-"]),
        (f"c4:c:{tid}:{nonce}:{mine}", 3, [""]), (f"c4:c:{tid}:{nonce}:{mine}", 3, ["ZZ.QQ"]),
        (f"c4:p:{tid}:{nonce}:{absent}", 2, []), (f"c4:p:{tid}:{nonce}:W2", 2, []),
        (f"c4:p:{tid}:{nonce + 5}:{mine}", 2, []),
    ]
    for cid, kind, values in attempts:
        mark = two.mark()
        result = await click_raw(world.env, mover.user, hand, cid, component_type=kind, values=values)
        answers = ([result.response] if result.response is not None else []) + list(result.followups)
        assert result.acknowledged and len(answers) == 1, (cid, values, [a.content for a in answers])
        assert world.env.errors_since(mark[2]) == (), (cid, values)
        content = answers[0].content or ""
        assert content != t("err.generic", "en"), (cid, values)
        assert table.nonce == nonce, (cid, values, "a forged value made a play")
        assert snapshot(two.db_path)["plays"] == mark[0]["plays"], (cid, values)
        assert two.requests_to(two.ids_of(two.b), mark[1]) == []


from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture,
                                                                 HealthCheck.too_slow])
@given(data=st.data())
async def test_property_every_template_with_numbers_past_64_bits(world, db_path, locales, data):
    """Every registered template, every all-digit group set to a number past SQLite's 64 bits (or 0), from
    B's channel by zoe: one ephemeral answer, no internal error, nothing logged, nothing stored."""
    from bot.ui.router import component_type_of

    if not hasattr(world, "_qa_two"):
        world._qa_two = await Two(world, db_path, locales).build()
    two = world._qa_two
    factories = list(world.bot.dynamic_factories)
    factory = data.draw(st.sampled_from(factories), label="template")
    template = factory.__discord_ui_compiled_template__
    example = data.draw(st.from_regex(template, fullmatch=True), label="example")
    match = template.fullmatch(example)
    out = example
    spans = []
    for name in template.groupindex:
        value = match.group(name)
        if value is not None and value.isdigit() and name not in ("page",) or name in ("guild",):
            replacement = str(two.b.id) if name == "guild" else str(data.draw(st.sampled_from([HUGE, 2**63, 0])))
            spans.append((match.span(name), replacement))
    for (start, end), value in sorted(spans, reverse=True):
        out = out[:start] + value + out[end:]
    if not template.fullmatch(out):
        return
    kind = component_type_of(factory) or 2
    values = [data.draw(st.sampled_from(["medio", "-", "7D", "~1", "x"]))] if kind == 3 else []
    mark = two.mark()
    result = await click_raw(world.env, two.zoe, two.b_lobby, out, component_type=kind, values=values)
    two.check(result, mark, other=world.guild)


@pytest.mark.parametrize("command, option", [
    ("cuarenta league replace", "newcomer"), ("cuarenta league walkover", "player"),
    ("cuarenta league remove", "player"), ("cuarenta league signup", "partner"),
    ("cuarenta tournament walkover", "player"),
])
async def test_member_options_naming_someone_not_in_the_server(world, two, command, option):
    """A's running league (ana, beto); the organizer eva names zoe, who is not a member of A (as for a
    player who left the server: Discord then sends the user without member data). One ephemeral answer,
    and no exception logged."""
    await world.eva.slash(world.channel, "cuarenta league create", name="Liga A")
    for member in (world.ana, world.beto):
        await member.slash(world.channel, "cuarenta league signup")
    await world.eva.slash(world.channel, "cuarenta league close")
    options = {option: two.zoe.user}
    if command == "cuarenta league replace":
        options["player"] = world.ana
    mark = two.mark()
    result = await world.eva.slash(world.channel, command, **options)
    two.check(result, mark, other=two.b, lang="en")


async def test_one_person_joins_lobbies_in_both_servers_at_once(world, two):
    """ana (both servers) presses «join» on A's lobby and on B's lobby in the same instant: one seat."""
    await world.beto.slash(world.channel, "cuarenta new", players=2)
    a_lobby = next(m for m in world.channel.history() if "c4:l:2:a" in custom_ids(m))
    results = await clicks_together(world.env, [(world.ana, a_lobby, "c4:l:2:a"), (two.ana_b, two.b_lobby, "c4:l:1:a")])
    await world.env.settle()
    seats = [tb.id for tb in world.bot.tables.tables.values() if tb.is_open and tb.seat_of(world.ana.id) is not None]
    assert len(seats) == 1, seats
    for r in results:
        assert r.acknowledged and r.ephemeral
        assert r.response.content != t("err.generic", "en")
    assert world.env.errors == []


async def test_one_person_starts_a_queue_search_in_both_servers_at_once(world, two):
    a_queue = world.guild.create_text_channel("cola")
    await world.eva.slash(a_queue, "cuarenta queue")
    b_queue = two.b.create_text_channel("cola-b")
    await two.zoe.slash(b_queue, "cuarenta queue")
    results = await clicks_together(world.env, [(world.ana, a_queue.last_message, f"c4:q:{world.guild.id}:a"),
                                                 (two.ana_b, b_queue.last_message, f"c4:q:{two.b.id}:a")])
    await world.env.settle()
    entry = world.bot.queue.entries.get(world.ana.id)
    assert entry is not None
    for r in results:
        assert r.acknowledged and r.ephemeral
        assert r.response.content != t("err.generic", "en")
    assert world.env.errors == []
    # and then a member of each server looks for a match: ana is matched in at most one
    await world.beto.click(a_queue.last_message, custom_id=f"c4:q:{world.guild.id}:a")
    proposals = list(getattr(world.bot.queue, "proposals", {}).values())
    assert sum(1 for p in proposals if world.ana.id in getattr(p, "users", ())) <= 1
    assert world.env.errors == []


async def test_an_organizer_removes_a_player_who_left_the_server(world, two):
    """What used to fail: the `player` option of `league remove` was a Member, so a player who had left the
    server (Discord sends them without member data) could not be named at all: «That option is not valid»
    and a logged TransformerError. Now the organizer takes them out."""
    await world.eva.slash(world.channel, "cuarenta league create", name="Liga A")
    for member in (world.ana, world.beto, world.caro):
        await member.slash(world.channel, "cuarenta league signup")
    await world.eva.slash(world.channel, "cuarenta league close")
    world.guild.remove_member(world.caro)
    result = await world.eva.slash(world.channel, "cuarenta league remove", player=world.caro.user)
    league = world.bot.leagues.pick(world.guild.id, None)
    assert league.side_of(world.caro.id) is None, result.response.content
    assert result.ephemeral
    assert world.env.errors == []


@pytest.mark.parametrize(("command", "option"), [("cuarenta league signup", "partner"),
                                                 ("cuarenta league replace", "newcomer")])
async def test_a_partner_or_newcomer_who_is_not_a_member_is_named_in_the_refusal(world, two, command, option):
    """A 2 v 2 partner or a newcomer must be a member of the server: the refusal says who is not, in the
    user's language, and the league is unchanged."""
    await world.eva.slash(world.channel, "cuarenta league create", name="Liga A")
    for member in (world.ana, world.beto):
        await member.slash(world.channel, "cuarenta league signup")
    options = {option: two.zoe.user}
    if option == "newcomer":
        options["player"] = world.ana
    mark = two.mark()
    result = await world.eva.slash(world.channel, command, **options)
    text = two.check(result, mark, other=two.b, lang="en")
    assert text == t("err.not_a_member", "en", name="zoe"), text


async def test_back_from_another_server_takes_no_seat_back_there(world, two, locales):
    """`/cuarenta back` run in server B by ana, away at A's table: «not seated» (here), and A's seat stays
    with the computer (it is taken back in A, or with the button of A's hand)."""
    await world.ana.slash(world.channel, "cuarenta new", players=2)
    await world.beto.slash(world.channel, "cuarenta join")
    table = table_of(world, 2)
    seat = table.seat_of(world.ana.id)
    table.seats[seat].away = True
    mark = two.mark()
    result = await two.ana_b.slash(two.b_channel, "cuarenta back")
    two.check(result, mark, other=world.guild, lang="en", text=t("err.not_seated", "en"))
    assert table.seats[seat].away
