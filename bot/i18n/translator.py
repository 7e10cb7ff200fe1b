"""discord.py's `app_commands.Translator` backed by the catalogs: localizes command names,
descriptions, option names and choice names for Spanish (es-ES, es-419), English (en-US, en-GB) and
Portuguese (pt-BR).

Commands declare their strings as ``locale_str(default, key="cmd.new.name")``; strings without a key
are left as they are.
"""

from __future__ import annotations

import discord
from discord import app_commands

from . import message

_LOCALES: dict[discord.Locale, str] = {
    discord.Locale.spain_spanish: "es",
    discord.Locale.latin_american_spanish: "es",
    discord.Locale.american_english: "en",
    discord.Locale.british_english: "en",
    discord.Locale.brazil_portuguese: "pt",
}


class CatalogTranslator(app_commands.Translator):
    """Translate command strings that carry a ``key`` extra, for the locales we have catalogs for."""

    async def translate(
        self,
        string: app_commands.locale_str,
        locale: discord.Locale,
        context: app_commands.TranslationContextTypes,
    ) -> str | None:
        """Return the catalog text for ``string.extras["key"]`` in ``locale``, or None (no localization)."""
        key = string.extras.get("key")
        lang = _LOCALES.get(locale)
        if key is None or lang is None:
            return None
        return message(key, lang)
