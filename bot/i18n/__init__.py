"""The one translation layer: every user-facing string comes from here.

``t(key, lang, **params)`` formats the message ``key`` in ``lang`` ("es" or "en"). Spanish is the default
and the fallback. ``lang_of(locale)`` maps a Discord locale (``"es-ES"``, ``"es-419"``, ``"en-US"`` …) to a
catalog. Command localizations for Discord live in `bot.i18n.translator` (it imports discord).
"""

from __future__ import annotations

from . import en, es

DEFAULT_LANG = "es"
LANGUAGES: tuple[str, ...] = ("es", "en")
CATALOGS: dict[str, dict[str, str]] = {"es": es.MESSAGES, "en": en.MESSAGES}


class MissingMessageError(KeyError):
    """A message key is in no catalog: a programming error, caught by the catalog tests."""


def lang_of(locale: object) -> str:
    """The catalog for a Discord locale or language code: ``"en"`` for any English locale, ``"es"``
    for Spanish and for everything else (Spanish is the default)."""
    text = str(getattr(locale, "value", locale) or "").lower()
    if text.startswith("en"):
        return "en"
    return DEFAULT_LANG


def t(key: str, lang: str = DEFAULT_LANG, /, **params: object) -> str:
    """The message ``key`` in ``lang``, formatted with ``params``.

    Falls back to Spanish when ``lang`` is unknown.

    Raises:
        MissingMessageError: no catalog has ``key``.
    """
    catalog = CATALOGS.get(lang, CATALOGS[DEFAULT_LANG])
    try:
        template = catalog[key]
    except KeyError:
        try:
            template = CATALOGS[DEFAULT_LANG][key]
        except KeyError:
            raise MissingMessageError(key) from None
    return template.format(**params) if params else template


__all__ = ["CATALOGS", "DEFAULT_LANG", "LANGUAGES", "MissingMessageError", "lang_of", "t"]
