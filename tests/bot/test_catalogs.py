"""The gettext catalogs: every message in every language, with the same placeholders and the right number
of plural forms; the install compiles them; counted nouns agree with their number in each language."""

from __future__ import annotations

import string
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

from bot.i18n import LANGUAGES, LOCALE_DIRS, build, tn

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


@pytest.mark.parametrize(("lang", "one", "two"), [
    ("es", "1 chica", "2 chicas"),
    ("en", "1 chica", "2 chicas"),
    ("pt", "1 chica", "2 chicas"),
])
def test_a_counted_noun_agrees_with_its_number(lang, one, two):
    assert one in tn("stats.partner_line", 1, lang, name="ana", chicas=1)
    assert two in tn("stats.partner_line", 2, lang, name="ana", chicas=2)
