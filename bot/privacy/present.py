"""The messages of ``/cuarenta privacidad``: what is kept about the member (counted, with their names),
the confirmation of a deletion, and the answers to an export and a deletion. Each is a `bot.ui.render.Payload`
(checked against Discord's limits), ephemeral, in the member's language."""

from __future__ import annotations

import discord

from bot.i18n import t
from bot.ui import limits
from bot.ui.render import Payload, make_view
from bot.ui.words import clean

from .items import PrivacyButton
from .repo import Summary

EXPORT_FILENAME = "cuarenta-data.json"
"""The name of the exported file."""
SHOWN = 6
"""Ratings and names listed in the summary (the export holds them all)."""


def summary_lines(summary: Summary, lang: str) -> list[str]:
    """The lines that say what is kept about a member (``privacy.*`` messages)."""
    if summary.empty:
        return [t("privacy.title", lang), t("privacy.empty", lang)]
    ratings = ", ".join(t("privacy.rating", lang, mode=mode, season=season, display=display, games=games)
                        for _, season, mode, display, games in summary.ratings[:SHOWN]) or "—"
    if len(summary.ratings) > SHOWN:
        ratings += ", …"
    names = ", ".join(clean(n) for n in summary.names[:SHOWN]) or "—"
    if len(summary.names) > SHOWN:
        names += ", …"
    return [
        t("privacy.title", lang),
        t("privacy.line.ratings", lang, count=len(summary.ratings), ratings=ratings),
        t("privacy.line.standings", lang, count=summary.standings),
        t("privacy.line.chicas", lang, count=summary.chicas),
        t("privacy.line.mesas", lang, finished=summary.finished_mesas, open=summary.open_tables),
        t("privacy.line.competitions", lang, leagues=summary.leagues, tournaments=summary.tournaments,
          organized=summary.organized),
        t("privacy.line.queue", lang, queued=t("privacy.yes" if summary.queued else "privacy.no", lang)),
        t("privacy.line.names", lang, names=names),
        t("privacy.line.servers", lang, count=len(summary.servers)),
        "",
        t("privacy.footer", lang),
    ]


def summary_payload(summary: Summary, lang: str) -> Payload:
    """What is kept, with «Exportar» and «Borrar mis datos»."""
    text = limits.clip("\n".join(summary_lines(summary, lang)), limits.CONTENT)
    return Payload(content=text, view=make_view([
        PrivacyButton("e", t("privacy.export", lang), style=discord.ButtonStyle.primary),
        PrivacyButton("a", t("privacy.delete", lang), style=discord.ButtonStyle.danger),
    ]))


def confirm_payload(lang: str) -> Payload:
    """The question before a deletion, with its confirmation button."""
    return Payload(content=t("privacy.confirm", lang), view=make_view([
        PrivacyButton("c", t("privacy.confirm_button", lang), style=discord.ButtonStyle.danger),
    ]))


def export_payload(data: bytes, lang: str) -> Payload:
    """The exported file, with a line that says what it is."""
    return Payload(content=t("privacy.exported", lang), files=[(EXPORT_FILENAME, data)])


def deleted_payload(lang: str) -> Payload:
    """The answer once the data is deleted."""
    return Payload(content=t("privacy.deleted", lang))


__all__ = ["EXPORT_FILENAME", "confirm_payload", "deleted_payload", "export_payload", "summary_lines",
           "summary_payload"]
