"""The gettext catalogs: every message in every language, with the same placeholders and the right number
of plural forms; the install compiles them; counted nouns agree with their number in each language."""

from __future__ import annotations

import re
import string
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

from bot.i18n import LANGUAGES, LOCALE_DIRS, build, tn
from tests.ratings.test_leaderboard import play_via_service
from tests.support.helpers import seated_member, table_of, texts_of

LOCALE = Path(build.__file__).with_name("locale")


def catalogs() -> dict[str, dict[str, object]]:
    """{lang: {key: text, or a tuple of plural forms}} read straight from the .po files (every domain)."""
    out: dict[str, dict[str, object]] = {}
    for lang in LANGUAGES:
        messages: dict[str, object] = {}
        for po in sorted((LOCALE / LOCALE_DIRS[lang] / "LC_MESSAGES").glob("*.po")):
            with po.open("rb") as handle:
                catalog = read_po(handle)
            for m in catalog:
                if m.id:
                    key = m.id[0] if isinstance(m.id, tuple) else m.id
                    assert key not in messages, f"{key} twice in {lang}"
                    messages[key] = m.string
        out[lang] = messages
    return out


def placeholders(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name}


CATALOGS = catalogs()


def test_every_language_has_every_message_with_the_same_placeholders():
    spanish = CATALOGS["es"]
    assert len(spanish) > 600
    for lang in LANGUAGES:
        assert set(CATALOGS[lang]) == set(spanish), (lang, set(CATALOGS[lang]) ^ set(spanish))
        for key, source in spanish.items():
            text = CATALOGS[lang][key]
            assert isinstance(text, tuple) == isinstance(source, tuple), (lang, key, "plural in one, not the other")
            forms = text if isinstance(text, tuple) else (text,)
            wanted = set().union(*(placeholders(f) for f in (source if isinstance(source, tuple) else (source,))))
            for form in forms:
                assert form.strip(), (lang, key, "untranslated")
                assert placeholders(form) <= wanted, (lang, key, form)
            assert set().union(*(placeholders(f) for f in forms)) == wanted, (lang, key)


def test_plural_messages_have_two_forms_in_each_language():
    plural = [k for k, v in CATALOGS["es"].items() if isinstance(v, tuple)]
    assert plural, "the counted nouns are plural messages"
    for lang in LANGUAGES:
        for key in plural:
            assert len(CATALOGS[lang][key]) == 2, (lang, key)


def test_command_names_are_valid_discord_names():
    import re

    for lang in LANGUAGES:
        for key, text in CATALOGS[lang].items():
            if (key.startswith("cmd.") or key.startswith("opt.")) and key.endswith(".name"):
                assert re.fullmatch(r"[-_\w]{1,32}", text) and text == text.lower(), (lang, key, text)
            if key.endswith(".desc"):
                assert 1 <= len(text) <= 100, (lang, key, len(text))


def test_the_install_compiles_every_catalog(tmp_path):
    """``build.compile_all`` (what setup.py runs) writes one .mo per .po, and gettext reads it back."""
    import gettext
    import shutil

    shutil.copytree(LOCALE, tmp_path / "locale", ignore=shutil.ignore_patterns("*.mo"))
    written = build.compile_all(tmp_path / "locale")
    assert len(written) == len(list((tmp_path / "locale").glob("*/LC_MESSAGES/*.po")))
    with (tmp_path / "locale" / "pt_BR" / "LC_MESSAGES" / "cuarenta.mo").open("rb") as handle:
        pt = gettext.GNUTranslations(handle)
    assert pt.gettext("cmd.new.desc") == CATALOGS["pt"]["cmd.new.desc"]


NOUNS = {
    # key: (params, {lang: (word for 1, word for 2)})
    "stats.partner_line": ({"name": "ana"}, "chicas", {"es": ("1 chica)", "2 chicas)"), "en": ("1 chica)", "2 chicas)"),
                                                      "pt": ("1 chica)", "2 chicas)")}),
    "table.side": ({"dot": "", "side": "A", "score": "0", "chicas": 0}, "cards",
                   {"es": ("1 carta", "2 cartas"), "en": ("1 card", "2 cards"), "pt": ("1 carta", "2 cartas")}),
    "sum.leftovers": ({}, "count", {"es": ("Quedó 1 carta", "Quedaron 2 cartas"),
                                    "en": ("1 card was", "2 cards were"), "pt": ("Sobrou 1 carta", "Sobraram 2 cartas")}),
    "score.perros": ({}, "n", {"es": ("1 perro", "2 perros"), "en": ("1 perro", "2 perros"), "pt": ("1 perro", "2 perros")}),
    "score.tantos": ({}, "n", {"es": ("1 tanto", "2 tantos"), "en": ("1 tanto", "2 tantos"), "pt": ("1 tanto", "2 tantos")}),
    "sum.caida": ({"points": 2}, "n", {"es": ("1 caída", "2 caídas"), "en": ("1 caída", "2 caídas"),
                                       "pt": ("1 caída", "2 caídas")}),
    "mesa.won.2": ({"winner": "ana", "b": 0}, "a", {"es": ("1 chica a", "2 chicas a"), "en": ("1 chica to", "2 chicas to"),
                                                   "pt": ("1 chica a", "2 chicas a")}),
    "league.view_signup": ({}, "count", {"es": ("1 inscrito.", "2 inscritos."), "en": ("1 player", "2 players"),
                                         "pt": ("1 inscrito.", "2 inscritos.")}),
}


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("key", sorted(NOUNS))
def test_counted_nouns_agree_with_1_and_2(key, lang):
    params, count_name, words = NOUNS[key]
    one, two = words[lang]
    assert one in tn(key, 1, lang, **params, **{count_name: 1})
    assert two in tn(key, 2, lang, **params, **{count_name: 2})


def test_every_plural_message_has_a_distinct_singular_and_brazilian_zero_is_singular():
    for lang in LANGUAGES:
        for key, forms in CATALOGS[lang].items():
            if isinstance(forms, tuple):
                assert forms[0] != forms[1], (lang, key)
    assert tn("sum.leftovers", 0, "pt", count=0) == "Sobrou 0 carta na mesa", "pt-BR: n > 1 is plural"
    assert tn("sum.leftovers", 0, "es", count=0) == "Quedaron 0 cartas en la mesa"


def test_counted_messages_are_formatted_with_tn_and_the_others_with_t():
    """A plural message read with ``t`` would always show its singular ("3 round"): the code calls ``tn``
    for every counted message and ``t`` for every other one (checked on the literal keys in the source)."""
    import re

    root = LOCALE.parents[2]
    plural = {k for k, v in CATALOGS["es"].items() if isinstance(v, tuple)}
    misused = []
    for path in [*root.glob("bot/**/*.py"), *root.glob("cogs/*.py")]:
        text = path.read_text(encoding="utf-8")
        for fn, key in re.findall(r"\b(tn?)\(\s*f?\"([a-z0-9_.]+)\"", text):
            if key in CATALOGS["es"] and (fn == "tn") != (key in plural):
                misused.append(f"{path.relative_to(root)}: {fn}({key!r})")
    assert misused == []


def filled(template: str, text: str) -> dict[str, str] | None:
    """The placeholders' values when ``text`` is catalog ``template`` filled in, else None."""
    pattern = ""
    for literal, name, _, _ in string.Formatter().parse(template):
        pattern += re.escape(literal) + (f"(?P<{name}>.+?)" if name else "")
    match = re.fullmatch(pattern, text, re.S)
    return match.groupdict() if match else None


@pytest.mark.parametrize(("locale", "lang"), [("es-419", "es"), ("pt-BR", "pt")])
async def test_stats_of_a_player_with_one_mesa_won_never_say_1_ganadas(world, locales, locale, lang):
    """The counted nouns of /cuarenta stats agree with one: «ganadas: 1», never «1 ganadas» («1 ganhas»)."""
    await world.ana.slash(world.channel, "cuarenta new", players=2, rules="rapido")
    await world.beto.slash(world.channel, "cuarenta join")
    await play_via_service(world, 1)
    table = table_of(world, 1)
    winner = seated_member(table, table.game.winner, world.ana, world.beto)
    locales[winner.id] = locale
    stats = await winner.slash(world.channel, "cuarenta stats")
    summary = filled(CATALOGS[lang]["stats.summary"], stats.response.embeds[0].description.splitlines()[0])
    assert summary is not None and summary["mesas_won"] == "1", stats.response.embeds[0].description
    text = "\n".join(texts_of(stats.response))
    assert not re.findall(r"\b1 (?:ganadas|ganhas)\b", text), text
    assert world.env.errors == []


@pytest.mark.parametrize(("locale", "lang"), [("es-419", "es"), ("en-US", "en"), ("pt-BR", "pt")])
async def test_closing_a_two_player_tournament_says_1_round(world, locales, locale, lang):
    locales[world.eva.id] = locale
    await world.eva.slash(world.channel, "cuarenta tournament create", name="Final", rules="rapido")
    for member in (world.ana, world.beto):
        await member.slash(world.channel, "cuarenta tournament signup")
    closed = await world.eva.slash(world.channel, "cuarenta tournament close")
    text = "\n".join(texts_of(closed.response))
    assert not re.search(r"\b1 (?:rondas|rounds|rodadas)\b", text), text
    assert text == tn("ok.tournament_drawn", 1, lang, tournament=1, rounds=1)
    assert world.env.errors == []
