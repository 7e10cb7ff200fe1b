"""Learning the game: ``/cuarenta ayuda`` (a paged ephemeral guide in the user's language, whose buttons
survive a restart) and ``/cuarenta reglas`` (each term explained, and what a preset changes from quito,
computed from the `Rules` fields)."""

from __future__ import annotations

import dataclasses
import re

import pytest

from bot.engine import PRESET_NAMES, Card, Game, Rules
from bot.i18n import message, t
from bot.learn import ASPECTS, EXAMPLES, PAGE_KEYS, difference_lines, differences, guide_pages
from bot.learn import present as learn_present
from bot.learn.present import rules_payload
from bot.learn.presets import uncovered_fields
from tests.support.helpers import (
    button_labels,
    click_raw,
    custom_ids,
    look,
    message_text,
    public_message,
    select_values,
    start_pair,
    table_of,
)

LOCALES = [("es-419", "es"), ("en-US", "en"), ("pt-BR", "pt")]
GLOSSARY = ("caída", "limpia", "ronda", "cartón", "38", "chica", "mesa", "zapatero")
"""Terms the guide must name in every language (they stay Spanish: Part 1 of the brief)."""




def words(text: str) -> int:
    """Words as a reader counts them (tokens with a letter or a digit; emoji and bullets are not words)."""
    return sum(1 for token in text.split() if re.search(r"\w", token))


def embed_text(message_like) -> str:
    embed = message_like.embeds[0]
    data = embed.to_dict() if hasattr(embed, "to_dict") else embed
    return "\n".join([data.get("title", ""), data.get("description", ""), data.get("footer", {}).get("text", "")])


def button(message_like, custom_id: str) -> dict:
    for row in message_like.components:
        children = row.get("components", []) if isinstance(row, dict) else row.children
        for item in children:
            data = item if isinstance(item, dict) else item.to_dict()
            if data.get("custom_id") == custom_id:
                return data
    raise AssertionError(f"no component {custom_id} on the message")


# ---------------------------------------------------------------------------------------- the guide


@pytest.mark.parametrize(("locale", "lang"), LOCALES)
async def test_the_guide_pages_back_and_forth_in_the_users_language(world, locales, locale, lang):
    locales[world.ana.id] = locale
    pages = guide_pages(lang)
    assert [p.key for p in pages] == list(PAGE_KEYS) and len(pages) >= 5
    shown = await world.ana.slash(world.channel, "cuarenta help")
    assert shown.ephemeral
    guide = shown.response
    assert guide.embeds[0].title == pages[0].title == t("learn.guide.goal.title", lang)
    others = {other for _, other in LOCALES if other != lang}
    assert all(guide.embeds[0].title != t("learn.guide.goal.title", other) for other in others), "not another language"
    assert button(guide, "c4:a:0:p")["disabled"] is True, "◀ is off on the first page"
    assert select_values(guide, "c4:a:s") == [str(i) for i in range(len(pages))]

    seen = [embed_text(guide)]
    for index in range(1, len(pages)):
        turned = await world.ana.click(guide, custom_id=f"c4:a:{index}:n")
        assert turned.response.id == guide.id, "the click edits the guide in place"
        guide = turned.response
        assert guide.embeds[0].title == pages[index].title
        assert f"{index + 1}" in guide.embeds[0].footer.text
        seen.append(embed_text(guide))
    last = len(pages) - 1
    assert button(guide, f"c4:a:{last}:n")["disabled"] is True, "▶ is off on the last page"
    for index in range(last - 1, -1, -1):
        guide = (await world.ana.click(guide, custom_id=f"c4:a:{index}:p")).response
        assert guide.embeds[0].title == pages[index].title
    assert guide.id == shown.response.id

    titles = [p.title for p in pages]
    assert len(set(titles)) == len(titles) and all(re.search(r"\w", title) for title in titles), \
        "every page names its own topic"
    text = "\n".join(seen).lower()
    missing = [term for term in GLOSSARY if term not in text]
    assert missing == [], f"{lang}: the guide never names {missing}"
    total = sum(words(p.text) for p in pages)
    assert total < 450, f"{lang}: {total} words is more than a two-minute read"
    assert world.env.errors == []


async def test_the_topic_select_jumps_to_a_page(world, locales):
    locales[world.ana.id] = "es-419"
    pages = guide_pages("es")
    shown = await world.ana.slash(world.channel, "cuarenta help")
    jumped = await world.ana.select(shown.response, ["3"], custom_id="c4:a:s")
    assert jumped.response.id == shown.response.id
    assert jumped.response.embeds[0].title == pages[3].title == t("learn.guide.end.title", "es")


async def test_the_guide_buttons_work_after_a_restart(world, make_bot):
    pages = guide_pages("en")
    shown = await world.ana.slash(world.channel, "cuarenta help")
    await world.env.restart_bot(make_bot())
    turned = await world.ana.click(shown.response, custom_id="c4:a:1:n")
    assert turned.acknowledged and turned.response.id == shown.response.id
    assert turned.response.embeds[0].title == pages[1].title
    chosen = await world.ana.select(turned.response, ["4"], custom_id="c4:a:s")
    assert chosen.response.embeds[0].title == pages[4].title
    # a button of the guide that this copy no longer shows (an older copy), and a forged page number
    older = await click_raw(world.env, world.ana, chosen.response, "c4:a:2:n")
    assert older.response.embeds[0].title == pages[2].title
    forged = await click_raw(world.env, world.ana, older.response, "c4:a:999:n")
    assert forged.response.embeds[0].title == pages[-1].title, "kept within the guide"
    assert world.env.errors == []


def test_the_guide_examples_are_real_captures():
    """The example captures (a 5 takes a 5; a 7 takes 5 + 2; the escalera A…7-J-Q-K) are legal plays in
    quito that take exactly those cards (R17, R18)."""
    for name, example in EXAMPLES.items():
        game = Game.from_position(Rules.preset("quito"), players=2, hands=[f"{example.played} KD", "QH QD"],
                                  table=" ".join(example.table), dealer=1, to_play=0)
        played = Card.parse(example.played)
        taken = {frozenset(p.captures) for p in game.legal_plays() if p.card is played}
        assert frozenset(Card.parse(c) for c in example.taken) in taken, name
    stair = EXAMPLES["stair"]
    assert len(stair.taken) == len(stair.table), "the escalera example empties the table (a limpia)"


def test_the_guide_uses_the_quito_numbers():
    quito = Rules.preset("quito")
    text = "\n".join(p.text for p in guide_pages("en"))
    assert f"**{quito.target} points**" in text and f"**{quito.chicas_to_win} chicas**" in text
    assert f"on {quito.score38} points only a caída scores" in text
    assert f"fewer than {quito.zapateria_below} points" in text
    assert f"**Caída** (+{quito.caida})" in text and f"**Limpia** (+{quito.limpia})" in text


async def test_the_read_page_names_what_the_table_message_shows(world):
    """The marks and labels the guide explains are the ones the public table message really carries (in
    its text, or in the table in words that stands for its picture: the picture's alt text, shown as text
    when there is no picture, as here)."""
    await world.ana.slash(world.channel, "cuarenta new", players=2)
    await world.beto.slash(world.channel, "cuarenta join")
    table = table_of(world, 1)
    public = public_message(world, table)
    shown = message_text(public)
    read = next(p for p in guide_pages("es") if p.key == "read").text
    buttons = next(p for p in guide_pages("es") if p.key == "buttons").text
    for mark in ("▶", "🟦", "🟧"):
        assert mark in shown and mark in read, mark
    assert t("table.on_table", "es") in shown and t("table.on_table", "es") in read
    assert "⚠️" not in read, "no mark the table message no longer has"
    assert f"{t('pic.dealer', 'es')} (reparte)" in read and f"{t('pic.mano', 'es')} (mano)" in read, \
        "the picture's dealer and mano badges, as the picture writes them"
    label = t("btn.my_hand", "es")
    assert label in button_labels(public)
    assert f"«{label}»" in buttons and "/cuarenta mano" in buttons
    why = t("btn.why", "es")
    assert why in button_labels(public)
    assert f"«{why}»" in buttons


# ---------------------------------------------------------------------------------------- the presets


def _differing_fields(preset: str) -> set[str]:
    rules, quito = Rules.preset(preset), Rules.preset("quito")
    return {f.name for f in dataclasses.fields(Rules) if getattr(rules, f.name) != getattr(quito, f.name)}


def _section(description: str, start: str, end: str) -> str:
    return description.split(start, 1)[1].split(end, 1)[0]


def test_every_rules_field_belongs_to_an_aspect():
    assert uncovered_fields() == set()


def test_a_host_customised_rules_set_lists_each_changed_field():
    """Fields no preset changes still read as words (a table's host may change single fields, Part 1 §8)."""
    custom = Rules.preset("quito").replace(forced_capture=True, caida_en_ronda_limpia=6, sequence_mode="optional")
    assert difference_lines(custom, "en") == [
        "Escalera: you may stop it early (in quito: always taken whole)",
        "The card played must capture if it can: yes (in quito: no)",
        "Caída en ronda: +4; with limpia, +6 (in quito: +4)",
    ]
    assert difference_lines(Rules.preset("quito"), "es") == []


@pytest.mark.parametrize("preset", [p for p in PRESET_NAMES if p != "quito"])
async def test_rules_lists_what_a_preset_changes_from_quito(world, preset):
    result = await world.ana.slash(world.channel, "cuarenta rules", preset=preset)
    assert result.ephemeral
    embed = result.response.embeds[0]
    assert embed.title == f'"{preset}" rules'
    changes = _section(embed.description, t("learn.rules.differences", "en", reference="quito"),
                       t("learn.rules.terms", "en"))
    listed = [line for line in changes.splitlines() if line.startswith("• ")]
    fields = _differing_fields(preset)
    assert fields, preset
    rules, quito = Rules.preset(preset), Rules.preset("quito")
    for aspect in ASPECTS:
        line = f"• {aspect.name('en')}: "
        if set(aspect.fields) & fields:
            assert any(x.startswith(line) for x in listed), (preset, aspect.key)
            shown = next(x for x in listed if x.startswith(line))
            assert aspect.words(aspect.value(rules), "en") in shown and aspect.words(aspect.value(quito), "en") in shown
        elif aspect.key != "rule38":  # the 38 rule moves with the target (rapido: 18)
            assert not any(x.startswith(line) for x in listed), (preset, aspect.key, "same as quito")
    assert len(listed) == len(differences(rules)) <= len(fields) + 1, "one line per aspect that changed"


async def test_rules_spells_out_two_presets_differences(world):
    cuenca = (await world.ana.slash(world.channel, "cuarenta rules", preset="cuenca")).response.embeds[0]
    assert "• Caída with limpia: +4 (in quito: +2)" in cuenca.description
    assert "• Four caídas in a row: wins the chica (in quito: nothing extra)" in cuenca.description
    assert "• Caída en ronda: wins the chica (in quito: +4)" in cuenca.description, "with or without limpia"
    rapido = (await world.ana.slash(world.channel, "cuarenta rules", preset="rapido")).response.embeds[0]
    assert "• Points to win a chica: 20 (in quito: 40)" in rapido.description
    assert "• 38 que no juega: on 18 points (in quito: on 38 points)" in rapido.description
    assert "• Zapatería: no (in quito: yes, under 10 points)" in rapido.description
    assert "Sums:" not in rapido.description, "rapido sums like quito"


async def test_rules_explains_every_term_and_quito_is_the_reference(world):
    quito = (await world.ana.slash(world.channel, "cuarenta rules", preset="quito")).response.embeds[0]
    assert "**quito** is the reference preset" in quito.description
    assert t("learn.rules.differences", "en", reference="quito") not in quito.description
    barrio = (await world.ana.slash(world.channel, "cuarenta rules", preset="barrio")).response.embeds[0]
    for embed in (quito, barrio):
        for term in ("Caída", "Limpia", "Ronda", "Caída en ronda", "Four caídas in a row", "Cartón",
                     "38 que no juega", "Zapatero"):
            assert re.search(rf"\*\*{re.escape(term)}\*\* \(\w[^)]+\)", embed.description), (embed.title, term)
        assert "**Chica**: won by the first side to reach 40 points" in embed.description
    assert "**Falla** (the other side didn't capture a single card" in barrio.description
    assert "**Cutoff at 30**" in barrio.description
    assert "Falla" not in quito.description and "Cutoff" not in quito.description, "only what the preset has"


async def test_rules_defaults_to_this_channels_table_else_quito(world, locales):
    alone = await world.ana.slash(world.channel, "cuarenta rules")
    assert alone.response.embeds[0].title == '"quito" rules'
    await world.ana.slash(world.channel, "cuarenta new", players=2, rules="barrio")
    here = await world.beto.slash(world.channel, "cuarenta rules")
    assert here.response.embeds[0].title == '"barrio" rules'
    locales[world.caro.id] = "pt-BR"
    pt = await world.caro.slash(world.channel, "cuarenta rules", preset="rapido")
    assert pt.response.embeds[0].title == 'Regulamento "rapido"'
    assert "• Pontos para ganhar a chica: 20 (no quito: 40)" in pt.response.embeds[0].description


async def test_the_commands_and_preset_choices_are_localized_in_the_sync(world):
    sync = next(r for r in world.env.http_requests if r.method == "PUT" and r.path.endswith("/commands"))
    root = next(c for c in sync.json if c["name"] == "cuarenta")
    subs = {o["name"]: o for o in root["options"]}
    assert subs["help"]["name_localizations"]["es-419"] == "ayuda"
    assert subs["help"]["name_localizations"]["pt-BR"] == "ajuda"
    assert subs["rules"]["name_localizations"]["es-419"] == "reglas"
    preset = next(o for o in subs["rules"]["options"] if o["name"] == "preset")
    assert [c["value"] for c in preset["choices"]] == list(PRESET_NAMES)
    for choice in preset["choices"]:
        key = f"learn.choice.{choice['value']}"
        assert choice["name"] == message(key, "en") and choice["name"].startswith(f"{choice['value']} — ")
        assert choice["name_localizations"]["es-419"] == choice["name_localizations"]["es-ES"] == t(key, "es")
        assert choice["name_localizations"]["pt-BR"] == t(key, "pt")
        assert len({choice["name"], t(key, "es"), t(key, "pt")}) == 3, "three languages, three texts"
        assert all(len(name) <= 100 for name in [choice["name"], *choice["name_localizations"].values()])


def test_the_learn_commands_fall_back_to_the_english_catalog():
    from discord import app_commands

    from cogs.learn import LearnCog

    strings = []
    for command in LearnCog.__cog_app_commands__:
        strings += [command._locale_name, command._locale_description]
        strings += [param.description for param in command._params.values()]
        strings += [choice._locale_name for param in command._params.values() for choice in param.choices]
    strings = [s for s in strings if isinstance(s, app_commands.locale_str) and s.extras.get("key")]
    assert len(strings) >= 4 + len(PRESET_NAMES)
    for s in strings:
        assert s.message == message(s.extras["key"], "en"), s.extras["key"]


def test_guide_custom_ids_fit_discord():
    from bot.learn.present import guide_payload

    for lang in ("es", "en", "pt"):
        for page in range(len(PAGE_KEYS)):
            rows = guide_payload(page, lang).view.to_components()
            ids = [item["custom_id"] for row in rows for item in row["components"]]
            assert ids and all(len(i) <= 100 and i.startswith("c4:a:") for i in ids)


def test_rules_text_carton_matches_R28():
    """R28: 20 cards = 6, then +1 per card over 20 rounded up to even (21 → 8)."""
    from bot.engine.game import carton_points

    assert carton_points(21) == 8
    en = learn_present.rules_payload("quito", "en").embed.description
    es = learn_present.rules_payload("quito", "es").embed.description
    assert "plus 2 for each pair of cards over 20" not in en, en
    assert "21 → 8" in en and "21 → 8" in es


def test_rules_text_rapido_says_the_38_rule_blocks_at_18():
    """Part 1 §1: rapido applies the 38 rule at 18."""
    for lang in ("en", "es"):
        text = learn_present.rules_payload("rapido", lang).embed.description
        assert "18" in text, text
    assert "18" not in learn_present.rules_payload("quito", "en").embed.description


async def _house_lobby(world, *choices):
    """ana opens a 1 v 1 lobby and sets ``(rule, token)`` house rules through the editor."""
    await world.ana.slash(world.channel, "cuarenta new", players=2)
    lobby = world.channel.last_message
    editor = (await world.ana.click(lobby, custom_id="c4:u:1:o")).response
    for rule, token in choices:
        picked = await world.ana.select(editor, [rule], custom_id="c4:u:1:r")
        editor = picked.response or editor
        chosen = await world.ana.select(editor, [token], custom_id=f"c4:u:1:v:{rule}")
        editor = chosen.response or editor
    return editor


async def test_rules_of_a_table_with_the_ronda_off_do_not_say_the_ronda_scores_plus_0(world):
    """ana sets the house rule «Ronda: no» in her lobby and asks `/cuarenta rules` there. The lobby said
    "Ronda: no", but the rules' term line said the ronda scores "+0". It now says "no", as the lobby and
    the difference lines do (`bot.learn.presets.term_lines`)."""
    await _house_lobby(world, ("ronda", "0"))
    shown = await world.ana.slash(world.channel, "cuarenta rules")
    text = shown.response.embeds[0].description
    ronda_line = next(line for line in text.splitlines() if line.startswith("• **Ronda**"))
    assert "+0" not in ronda_line, ronda_line


async def test_rules_with_comodines_and_periquito_list_them_with_one_bullet(world):
    """ana sets «Comodines: yes» and «Periquito» in her lobby and asks `/cuarenta rules` (any language).
    The two lines used to read "• • **Comodines** …": their catalog texts started with "• " and
    `rules_payload` adds another. Each term now has one bullet like the others."""
    await _house_lobby(world, ("comodines", "1"), ("periquito", "1"))
    shown = await world.ana.slash(world.channel, "cuarenta rules")
    text = shown.response.embeds[0].description
    assert "• •" not in text, [line for line in text.splitlines() if line.startswith("• •")]


async def test_the_guide_names_the_table_buttons_as_the_table_message_shows_them(world):
    """ana's Discord is in English, the server's public language is Spanish (the default). She opens
    `/cuarenta help` and goes to its last page ("The buttons"): it used to tell her to press "See my hand"
    and "Why?" on the table message, which carries «Ver mi mano» and «¿Por qué?» (public messages use the
    server's language). The guide now quotes the table message's words in the server's language."""
    await world.ana.slash(world.channel, "cuarenta new", players=2)
    await world.beto.slash(world.channel, "cuarenta join")
    public = next(m for m in world.channel.history() if "c4:y:1" in custom_ids(m))
    labels = button_labels(public)
    assert labels == [t("btn.my_hand", "es"), t("btn.why", "es")]
    guide = await world.ana.slash(world.channel, "cuarenta help")
    last = await world.ana.select(guide.response, ["5"], custom_id="c4:a:s")
    page = (last.response or guide.response).embeds[0].description
    for label in labels:
        assert label in page, f"the guide never names the {label!r} button the table shows: {page}"


async def test_a_guide_id_on_the_public_table_message_leaves_it_and_answers_the_presser(world):
    await start_pair(world)
    table = table_of(world, 1)
    before = look(public_message(world, table))
    result = await click_raw(world.env, world.eva, public_message(world, table), "c4:a:3:n")
    assert look(public_message(world, table)) == before, "the public table message changed"
    assert result.ephemeral and result.response.embeds[0].title == guide_pages("en")[3].title
    assert world.env.errors == []


async def test_the_guide_names_commands_as_a_client_without_a_catalog_shows_them(world, locales):
    """A fr client shows Discord's default (English) command names; the guide, in the server's language
    (Spanish), writes `/cuarenta hand`, never `/cuarenta mano`."""
    locales[world.ana.id] = "fr"
    sync = next(r for r in world.env.http_requests if r.method == "PUT" and r.path.endswith("/commands"))
    root = next(c for c in sync.json if c["name"] == "cuarenta")
    names = {o["name"] for o in root["options"]}  # what a client without a localization shows
    shown = await world.ana.slash(world.channel, "cuarenta help")
    typed = []
    for page in range(len(guide_pages("es"))):
        answer = (await world.ana.select(shown.response, [str(page)], custom_id="c4:a:s")).response
        assert answer.embeds[0].title == guide_pages("es")[page].title, "the text is in the server's Spanish"
        typed += re.findall(r"/cuarenta (\w+)", answer.embeds[0].description or "")
    assert t("cmd.hand.name", "en") in typed, typed
    assert t("cmd.hand.name", "es") not in typed, typed
    assert all(name in names for name in typed), (typed, sorted(names))
    assert world.env.errors == []


async def test_rules_without_a_preset_outside_a_table_explain_the_servers_default_preset(world):
    await world.eva.slash(world.channel, "cuarenta settings", preset="barrio")
    other = world.guild.create_text_channel("otra")
    await world.ana.slash(other, "cuarenta new", players=2)
    assert table_of(world, 1).preset == "barrio", "the server's default preset is barrio"
    shown = await world.beto.slash(world.channel, "cuarenta rules")  # no table in this channel
    expected = rules_payload("barrio", "en").embed
    assert shown.response.embeds[0].title == expected.title
    assert shown.response.embeds[0].description == expected.description


async def test_a_gone_guide_button_is_answered_without_talking_about_hands(world):
    shown = await world.ana.slash(world.channel, "cuarenta help")
    result = await click_raw(world.env, world.ana, shown.response, "c4:a:1000:n")  # no such button anywhere
    text = result.response.content
    assert result.ephemeral
    assert text != t("err.button_gone", "en") and t("cmd.hand.name", "en") not in text, text
    assert text == t("err.button_gone_other", "en")
    assert world.env.errors == []


async def test_a_non_ascii_digit_as_the_topic_is_still_answered_with_the_first_page(world):
    shown = await world.ana.slash(world.channel, "cuarenta help")
    result = await click_raw(world.env, world.ana, shown.response, "c4:a:s", component_type=3, values=["²"])
    assert result.response is not None, "no answer: the user sees «This interaction failed»"
    assert result.response.embeds[0].title == guide_pages("en")[0].title
    assert world.env.errors == []
