"""The bracket message in Discord (through SimCord): 16 players' bracket comes as two pictures, each in an
embed of the one message, edited with every result in the same write; its pictures are the layout's
sections."""

from __future__ import annotations

import io

import pytest
from PIL import Image

from bot.competitions.bracket import elimination_layout
from bot.competitions.bracket_draw import bracket_pictures
from bot.competitions.tournament_present import BRACKET_FILE, picture_name
from bot.i18n import t


@pytest.fixture
def db_path(database_url):
    """These competitions tests run the bot on each backend (SQLite, PostgreSQL)."""
    return database_url


def bracket_message(world):
    title = t("tournament.bracket_title", "es", name="Copa Grande")
    found = [m for m in world.channel.history() if m.embeds and m.embeds[0].title == title]
    assert len(found) == 1, "one bracket message"
    return found[0]


async def test_a_16_player_bracket_message_carries_one_picture_per_section(world):
    people = [world.ana, world.beto, world.caro, world.dani, world.eva]
    people += [world.guild.add_member(world.env.create_user(f"p{i}")) for i in range(11)]
    await world.bot.tree.sync()
    await world.eva.slash(world.channel, "cuarenta tournament create", name="Copa Grande", format="elimination",
                          rules="rapido", best_of=3)
    for member in people:
        await member.slash(world.channel, "cuarenta tournament signup")
    await world.eva.slash(world.channel, "cuarenta tournament close")
    await world.env.settle()
    tour = world.bot.tournaments.tournaments[1]
    assert tour.total_rounds == 4

    shown = bracket_message(world)
    assert [a.filename for a in shown.attachments] == [BRACKET_FILE, picture_name(1)] == ["cuadro.png", "cuadro-2.png"]
    assert [e.image.url.rsplit("/", 1)[-1] for e in shown.embeds] == ["cuadro.png", "cuadro-2.png"]
    sizes = [Image.open(io.BytesIO(await a.read())).size for a in shown.attachments]
    assert all(w == 600 and h <= w for w, h in sizes), "each no taller than wide: shown whole at phone width"
    layout = elimination_layout(tour, "es")
    assert sizes == [Image.open(io.BytesIO(p)).size for p in bracket_pictures(layout)]
    assert sum(h for _, h in sizes) == layout.height

    by_id = {m.id: m for m in people}
    m = next(m for m in tour.matches if m.round == 1 and m.b_user is not None)
    await world.eva.slash(world.channel, "cuarenta tournament result", round=1, player=by_id[m.a_user],
                          outcome="win", reason="En el club", player_mesas=2, opponent_mesas=1)
    await world.env.settle()
    edited = bracket_message(world)
    assert edited.id == shown.id and len(edited.attachments) == 2, "the same message, edited with its pictures"
    first = await edited.attachments[0].read()
    assert first != await shown.attachments[0].read(), "the picture shows the result"
    assert world.env.errors == []
