"""``/cuarenta privacidad`` end to end through SimCord: the summary shows the member's own data only (two
members, two servers), «Exportar» sends a JSON file of their rows and nobody else's, «Borrar mis datos»
(confirmed) deletes ratings, statistics and names and anonymizes their seat, while the other player's replay
of that mesa still works; a deletion is refused at an open table; a forged custom_id acts on the clicker
only; and a server's data is pruned PRUNE_DAYS_AFTER_LEAVE days after the bot left it (virtual time), not
before, and not once the bot came back."""

from __future__ import annotations

import json

from bot.i18n import t
from bot.privacy import ANONYMOUS_NAME
from bot.privacy.service import DAY
from tests.support.helpers import click_raw, custom_ids, play_to_end, table_of


async def privacy(member, channel):
    """``/cuarenta privacy`` by ``member`` in ``channel``: the ephemeral answer."""
    shown = await member.slash(channel, "cuarenta privacy")
    assert shown.ephemeral and shown.response is not None
    return shown.response


async def exported(member, message) -> dict:
    """Click «Export» on ``message``: the JSON document of the ephemeral follow-up."""
    return await document_of(await member.click(message, custom_id="c4:d:e"))


async def document_of(result) -> dict:
    """The JSON document of the one ephemeral answer with a file (after a deferral, the answer that
    replaces «thinking…»)."""
    answers = [m for m in [result.response, *result.followups] if m is not None and m.attachments]
    assert len(answers) == 1 and answers[0].ephemeral
    [attachment] = answers[0].attachments
    assert attachment.filename == "cuarenta-data.json"
    return json.loads(await attachment.read())


async def finished_1v1(world, channel=None) -> int:
    """ana and beto play a 1 v 1 to its end; the table id."""
    channel = channel or world.channel
    await world.ana.slash(channel, "cuarenta new", players=2, rules="rapido")
    await world.beto.slash(channel, "cuarenta join")
    table = world.bot.tables.table_in_channel(channel.id)
    await play_to_end(world, table.id, {world.ana.id: world.ana, world.beto.id: world.beto})
    await world.env.settle()
    return table.id


async def test_the_summary_shows_the_members_own_data_in_both_servers_and_nobody_elses(world):
    await finished_1v1(world)
    other = world.env.create_guild("Cuenca Club")
    channel_b = other.create_text_channel("mesa")
    ana_b = other.add_member(world.ana.user)
    await world.bot.tree.sync()
    await ana_b.slash(channel_b, "cuarenta new", players=2)  # an open lobby in B

    ana = await privacy(world.ana, world.channel)
    assert "Seats at finished mesas: 1 · at open tables: 1" in ana.content
    assert "Servers: 2" in ana.content and "ana" in ana.content
    assert "beto" not in ana.content
    assert set(custom_ids(ana)) == {"c4:d:e", "c4:d:a"}
    beto = await privacy(world.beto, world.channel)
    assert "Seats at finished mesas: 1 · at open tables: 0" in beto.content and "Servers: 1" in beto.content
    assert "ana" not in beto.content
    caro = await privacy(world.caro, world.channel)
    assert t("privacy.empty", "en") in caro.content
    assert world.env.errors == []


async def test_the_export_holds_the_members_rows_and_nobody_elses(world):
    table_id = await finished_1v1(world)
    message = await privacy(world.ana, world.channel)
    document = await exported(world.ana, message)
    assert document["user_id"] == world.ana.id
    data = document["data"]
    assert [m["table_id"] for m in data["mesas"]] == [table_id]
    assert data["chicas"] and {c["table_id"] for c in data["chicas"]} == {table_id}
    assert [s["name"] for t_ in data["tables"] for s in t_["seats"]] == ["ana"]
    text = json.dumps(document)
    assert str(world.beto.id) not in text and "beto" not in text
    assert world.env.errors == []


async def test_deleting_anonymizes_the_seat_and_the_other_players_replay_still_works(world):
    table_id = await finished_1v1(world)
    store = world.bot.store
    before = await store.mesa(table_id)
    beto_ratings = await world.bot.privacy.repo.rows(world.beto.id)

    message = await privacy(world.ana, world.channel)
    asked = await world.ana.click(message, custom_id="c4:d:a")
    confirm = asked.followups[0] if asked.followups else asked.response
    assert confirm.ephemeral and custom_ids(confirm) == ["c4:d:c"]
    done = await world.ana.click(confirm, custom_id="c4:d:c")
    assert done.response.id == confirm.id, "the question gives way to the answer"
    assert done.response.content == t("privacy.deleted", "en") and custom_ids(done.response) == []

    rows = await world.bot.privacy.repo.rows(world.ana.id)
    assert all(v == [] for v in rows.values()), "nothing about ana remains"
    after = await store.mesa(table_id)
    anon = [u for u in after["seats"] if u != world.beto.id]
    assert len(anon) == 1 and anon[0] < 0 and world.ana.id in before["seats"]
    row = await store.load_table(table_id)
    assert [s["name"] for s in row.seats if s["user_id"] != world.beto.id] == [ANONYMOUS_NAME]
    assert await world.bot.privacy.repo.rows(world.beto.id) == beto_ratings, "beto's data is whole"

    shown = await world.beto.slash(world.channel, "cuarenta replay", mesa=table_id)
    replay = shown.response
    assert replay.embeds and ANONYMOUS_NAME in json.dumps([e.to_dict() for e in replay.embeds], ensure_ascii=False)
    step = await world.beto.click(replay, label="⏭")
    assert step.response.embeds, "the replay steps on"
    summary = await privacy(world.ana, world.channel)
    assert t("privacy.empty", "en") in summary.content
    assert world.env.errors == []


async def test_deleting_is_refused_at_an_open_table(world):
    await world.ana.slash(world.channel, "cuarenta new", players=2)
    message = await privacy(world.ana, world.channel)
    asked = await world.ana.click(message, custom_id="c4:d:a")
    done = await world.ana.click(asked.response, custom_id="c4:d:c")
    answer = done.followups[0] if done.followups else done.response
    assert answer.content == t("privacy.err.open_table", "en", tables="#1")
    assert table_of(world, 1).seats[0].user_id == world.ana.id
    assert (await world.bot.store.load_table(1)).seats[0]["user_id"] == world.ana.id, "nothing changed"
    assert world.env.errors == []


async def test_a_forged_custom_id_acts_on_the_clicker_only(world):
    table_id = await finished_1v1(world)
    public = world.channel.last_message
    ana_before = await world.bot.privacy.repo.rows(world.ana.id)
    # beto presses «Export» and the confirmation with ids he copied, on a public message
    document = await document_of(await click_raw(world.env, world.beto, public, "c4:d:e"))
    assert document["user_id"] == world.beto.id and str(world.ana.id) not in json.dumps(document)
    await click_raw(world.env, world.beto, public, "c4:d:c")
    assert all(v == [] for v in (await world.bot.privacy.repo.rows(world.beto.id)).values())
    rows = await world.bot.privacy.repo.rows(world.ana.id)
    assert rows == ana_before and rows["ratings"] and rows["chicas"], "ana keeps all her data"
    assert [m["table_id"] for m in rows["mesas"]] == [table_id]
    seats = (await world.bot.store.mesa(table_id))["seats"]
    assert world.ana.id in seats and world.beto.id not in seats, "beto's seat at the mesa is anonymous"
    assert world.env.errors == []


async def test_a_servers_data_is_pruned_days_after_the_bot_left_not_before_nor_once_it_came_back(world):
    env = world.env
    repo = world.bot.privacy.repo
    gone = env.create_guild("Cuenca Club")
    back = env.create_guild("Loja Club")
    members = []
    for guild, person in ((gone, world.ana), (back, world.beto)):
        channel = guild.create_text_channel("mesa")
        members.append((guild.add_member(person.user), channel))
    await world.bot.tree.sync()
    for member, channel in members:  # a lobby in each (one open table per person)
        await member.slash(channel, "cuarenta new", players=2)
    await world.caro.slash(world.channel, "cuarenta new", players=2)
    kept = {g.id: await repo.guild_rows(g.id) for g in (gone, back, world.guild)}
    assert all(n > 0 for n in kept.values())

    from simcord.backend import serializers

    back_id = back.id
    env.backend.remove_guild(gone.id)
    env.backend.emit("GUILD_DELETE", {"id": str(back_id)})  # removed from Loja, which SimCord keeps for its return
    await env.settle()
    assert await repo.left_at(gone.id) is not None and await repo.left_at(back_id) is not None
    payload = dict(serializers.guild_create_payload(env.backend, env.backend.get_guild(back_id)))
    payload.pop("unavailable", None)  # a guild joined, not one back from an outage
    env.backend.emit("GUILD_CREATE", payload)
    await env.settle()  # invited back to Loja
    assert await repo.left_at(back_id) is None

    await env.advance_time(29 * DAY)
    assert await repo.guild_rows(gone.id) == kept[gone.id] + 1, "not before the days are up"
    await env.advance_time(2 * DAY)
    assert await repo.guild_rows(gone.id) == 0, "gone, in every table"
    assert await repo.guild_rows(back_id) == kept[back_id], "the server the bot came back to keeps its data"
    assert await repo.guild_rows(world.guild.id) == kept[world.guild.id]
    assert env.errors == []


async def test_a_server_left_while_the_bot_was_down_is_found_at_the_next_start(world, make_bot):
    env = world.env
    other = env.create_guild("Cuenca Club")
    channel = other.create_text_channel("mesa")
    ana_b = other.add_member(world.ana.user)
    await world.bot.tree.sync()
    await ana_b.slash(channel, "cuarenta new", players=2)
    await world.beto.slash(world.channel, "cuarenta new", players=2)
    env.backend.guilds.pop(other.id)  # removed from Cuenca while the bot was down: no GUILD_DELETE reached it
    await env.restart_bot(make_bot())
    repo = env.bot.privacy.repo
    assert await repo.left_at(other.id) is not None
    assert await repo.left_at(world.guild.id) is None, "the bot is still in Quito"
    await env.advance_time(31 * DAY)
    assert await repo.guild_rows(other.id) == 0 and await repo.guild_rows(world.guild.id) > 0
