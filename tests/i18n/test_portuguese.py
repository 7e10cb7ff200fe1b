"""A Brazilian plays a whole mesa: every ephemeral answer and every DM is in Portuguese, and nothing in
them is Spanish or English catalog text. A locale without a catalog falls back to the server's
language."""

from __future__ import annotations

from bot.i18n import t, translations
from tests.support.helpers import (
    latest_hand,
    pick_play,
    play_through_ui,
    seated_member,
    start_pair,
    table_of,
    texts_of,
)

from .test_catalogs import CATALOGS


def foreign_phrases() -> set[str]:
    """Fixed Spanish and English catalog texts (no placeholders, long enough to be unmistakable) that
    Portuguese does not share: none may appear in a Portuguese player's messages."""
    pt = {v for v in CATALOGS["pt"].values() if isinstance(v, str)}
    out = set()
    for lang in ("es", "en"):
        for key, text in CATALOGS[lang].items():
            if isinstance(text, str) and "{" not in text and len(text) >= 12 and text not in pt \
                    and not key.startswith(("cmd.", "opt.", "choice.")):
                out.add(text)
    return out


async def test_a_brazilian_plays_a_whole_mesa_in_portuguese(world, locales):
    locales[world.ana.id] = "pt-BR"
    answers = []
    answers.append(await world.ana.slash(world.channel, "cuarenta new", players=2))
    answers.append(await world.ana.select(world.channel.last_message, ["facil"], custom_id="c4:v:1"))
    table = table_of(world, 1)
    assert table.status == "playing"
    answers.append(await world.ana.slash(world.channel, "cuarenta hand"))
    answers.append(await world.ana.slash(world.channel, "cuarenta rules"))
    answers.append(await world.ana.slash(world.channel, "cuarenta start"))  # refused: already started
    for _ in range(3000):
        table = table_of(world, 1)
        if table.status == "finished":
            break
        seat, play = pick_play(table)
        if table.seats[seat].is_ai:
            await world.env.settle()
            continue
        await play_through_ui(world.ana, table, play)
        if len(table.game.plays) % 40 == 1:
            answers.append(await world.ana.click(next(m for m in world.channel.history()
                                                      if m.id == table.messages.public), custom_id="c4:y:1"))
    assert table_of(world, 1).status == "finished"
    foreign = foreign_phrases()
    dms = list(world.ana.user.dm_channel.history())
    shown = [text for result in answers for text in texts_of(result.response) if result.response is not None]
    shown += [text for message in dms for text in texts_of(message)]
    assert len(dms) >= 2 and len(answers) >= 6
    leaks = sorted({phrase for phrase in foreign for text in shown if phrase in text})
    assert leaks == [], leaks
    assert any(t("dm.your_turn", "pt") in text for text in shown) or latest_hand(world.ana) is not None
    assert all(result.ephemeral for result in answers)
    header = t("dm.header", "pt", table=1, guild="Quito Club", channel="cuarenta")
    assert any(header in text for text in shown), "the DM hand speaks Portuguese"


async def test_a_locale_without_a_catalog_falls_back_to_the_servers_language(world, locales):
    await world.eva.slash(world.channel, "cuarenta language", language="pt")
    locales[world.beto.id] = "fr"
    result = await world.beto.slash(world.channel, "cuarenta end")
    assert result.response.content == t("err.no_table_here", "pt")
    locales[world.caro.id] = "de"
    await world.eva.slash(world.channel, "cuarenta language", language="en")
    result = await world.caro.slash(world.channel, "cuarenta end")
    assert result.response.content == t("err.no_table_here", "en")
    assert translations("pt").gettext("err.no_table_here") != translations("es").gettext("err.no_table_here")


async def test_portuguese_public_messages_when_the_server_chooses_it(world, locales):
    done = await world.eva.slash(world.channel, "cuarenta language", language="pt")
    assert done.response.content == t("ok.language_set", "en", language=t("language.pt", "en"))
    await world.ana.slash(world.channel, "cuarenta new", players=2)
    lobby = world.channel.last_message
    assert lobby.embeds[0].title == t("lobby.title", "pt", table=1, mode=t("lobby.mode.2", "pt"))
    foreign = foreign_phrases()
    assert not [p for p in foreign for text in texts_of(lobby) if p in text]


async def test_a_locale_without_a_catalog_gets_the_servers_language_after_a_click_in_a_dm(world, locales):
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
        member = seated_member(table, seat, world.ana, world.beto)
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
