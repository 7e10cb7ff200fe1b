"""The one translation layer: every user-facing string comes from here.

The catalogs are gettext files, ``locale/<locale>/LC_MESSAGES/<domain>.po`` (msgid = the message key,
msgstr = the text, Python ``{name}`` placeholders), compiled to ``.mo`` with Babel by the install (see
`bot.i18n.build`). A language may spread its messages over several domains (``cuarenta``, ``learn`` …);
they are looked up in turn.

- ``t(key, lang, **params)`` formats the message ``key`` in ``lang`` (``"es"``, ``"en"`` or ``"pt"``).
- ``tn(key, n, lang, **params)`` is the same for a counted message: the form follows ``lang``'s plural
  rule for ``n`` (the catalog's ``Plural-Forms``).
- ``lang_of(locale, fallback)`` maps a Discord locale (``"es-419"``, ``"en-GB"``, ``"pt-BR"`` …) to a
  catalog; a locale without one gets ``fallback`` (the server's public language).

Spanish is the default; a message missing from a catalog falls back to Spanish. Command localizations
for Discord live in `bot.i18n.translator` (it imports discord).
"""

from __future__ import annotations

import gettext
import io
import logging
from contextvars import ContextVar
from functools import cache
from pathlib import Path

from .build import LOCALE_DIR, compile_po

log = logging.getLogger(__name__)

DEFAULT_LANG = "es"
LANGUAGES: tuple[str, ...] = ("es", "en", "pt")
"""Our language codes, in the order they are offered."""
LOCALE_DIRS: dict[str, str] = {"es": "es", "en": "en", "pt": "pt_BR"}
"""Each language's directory under ``locale/``."""


COMMAND_LANG: ContextVar[str | None] = ContextVar("cuarenta_command_lang", default=None)
"""The language whose command names the user's Discord client shows, for the interaction being answered:
their locale's catalog, or English (Discord's default names) when we have none. Set by
`bot.ui.answer.language`; unset outside an interaction."""


def command_lang(lang: str) -> str:
    """The language to write ``/cuarenta …`` command names in: the client's (`COMMAND_LANG`) while
    answering an interaction, else ``lang``."""
    return COMMAND_LANG.get() or lang


class MissingMessageError(KeyError):
    """A message key is in no catalog: a programming error, caught by the catalog tests."""


def _load_domain(po_path: Path) -> gettext.GNUTranslations:
    mo_path = po_path.with_suffix(".mo")
    if mo_path.exists() and mo_path.stat().st_mtime >= po_path.stat().st_mtime:
        with mo_path.open("rb") as handle:
            return gettext.GNUTranslations(handle)
    log.debug("compiling %s in memory (no up-to-date .mo)", po_path)
    return gettext.GNUTranslations(io.BytesIO(compile_po(po_path)))


@cache
def translations(lang: str) -> gettext.NullTranslations:
    """``lang``'s catalogs, every domain chained (a `gettext.NullTranslations` when it has none).

    Raises:
        KeyError: ``lang`` is not one of `LANGUAGES`.
    """
    directory = LOCALE_DIR / LOCALE_DIRS[lang] / "LC_MESSAGES"
    chain: gettext.NullTranslations | None = None
    for po_path in sorted(directory.glob("*.po")):
        domain = _load_domain(po_path)
        if chain is None:
            chain = domain
        else:
            chain.add_fallback(domain)
    return chain or gettext.NullTranslations()


def lang_of(locale: object, fallback: str = DEFAULT_LANG) -> str:
    """Our language for a Discord locale or language code: ``"en"`` for any English locale, ``"es"`` for
    any Spanish one, ``"pt"`` for Portuguese (pt-BR), and ``fallback`` for everything else."""
    text = str(getattr(locale, "value", locale) or "").lower()
    for lang in LANGUAGES:
        if text.startswith(lang):
            return lang
    return fallback if fallback in LOCALE_DIRS else DEFAULT_LANG


def message(key: str, lang: str) -> str | None:
    """The raw text of ``key`` in ``lang`` (unformatted; a counted message's singular), or None when
    ``lang``'s catalog lacks it."""
    if lang not in LOCALE_DIRS:
        return None
    text = translations(lang).gettext(key)
    return None if text == key else text


def _template(key: str, lang: str, n: int | None) -> str:
    for candidate in (lang if lang in LOCALE_DIRS else DEFAULT_LANG, DEFAULT_LANG):
        catalog = translations(candidate)
        text = catalog.gettext(key) if n is None else catalog.ngettext(key, key, n)
        if text != key:
            return text
    raise MissingMessageError(key)


_TEMPLATES: dict[tuple[str, str], str] = {}
"""``(key, lang)`` → the template `t` formats, for our languages: catalogs do not change while the bot
runs (`translations` loads each once), and a play writes some 40 messages."""


def t(key: str, lang: str = DEFAULT_LANG, /, **params: object) -> str:
    """The message ``key`` in ``lang``, formatted with ``params`` (``str.format``).

    Falls back to Spanish when ``lang`` is unknown or its catalog lacks ``key``.

    Raises:
        MissingMessageError: no catalog has ``key``.
    """
    template = _TEMPLATES.get((key, lang))
    if template is None:
        template = _template(key, lang, None)
        if lang in LOCALE_DIRS:
            _TEMPLATES[(key, lang)] = template
    return template.format(**params) if params else template


def tn(key: str, n: int, lang: str = DEFAULT_LANG, /, **params: object) -> str:
    """The counted message ``key`` in ``lang``, in the plural form ``lang`` uses for ``n``, formatted
    with ``params`` (which name the count too: the catalog decides where it goes).

    Raises:
        MissingMessageError: no catalog has ``key``.
    """
    return _template(key, lang, n).format(**params)


__all__ = ["COMMAND_LANG", "command_lang", "DEFAULT_LANG", "LANGUAGES", "LOCALE_DIRS", "MissingMessageError", "lang_of", "message", "t", "tn",
           "translations"]
