"""The `/cuarenta ayuda` guide as plain text: short pages in the reader's language (RULES.md Part 1 and
R1–R36, with the points of the default preset, `quito`).

Pure text building: no Discord. Cards are written with the `bot.ui.faces.CardFaces` given (the
application's card emojis when the bot has them, else ``5♥``); the numbers come from ``Rules.preset("quito")``, the button
labels and command names from the same catalog keys the table and the hands use, so the guide cannot
drift from what the bot shows.

Shape: `guide_pages(lang, public, faces=…)` → a tuple of `GuidePage` (``key``, ``title``, ``body``), in reading order
(`PAGE_KEYS`). Each example capture is data (`EXAMPLES`), so a test can check it against the engine.
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.engine import Card, Rules
from bot.i18n import command_lang, t
from bot.ui.faces import CardFaces

from .presets import award_text

PAGE_KEYS: tuple[str, ...] = ("goal", "capture", "points", "end", "read", "buttons")
"""The guide's pages in order: the goal (R4, R5), capturing (R17, R18), points in play and the cartón
(R22–R28), how a chica and a mesa end (R30, R33–R36), reading the table and the hand, the buttons."""

PAGE_LINES: dict[str, int] = {"goal": 3, "capture": 5, "points": 5, "end": 3, "read": 3, "buttons": 5}
"""How many body lines (catalog keys ``learn.guide.<page>.<n>``, from 1) each page has."""


@dataclass(frozen=True)
class Example:
    """One example capture of the guide, as an engine position: ``played`` on a table holding ``table``
    (oldest first) takes exactly ``taken`` (R17 match or sum, then R18's escalera)."""

    played: str
    table: tuple[str, ...]
    taken: tuple[str, ...]


EXAMPLES: dict[str, Example] = {
    "match": Example("5H", ("5S",), ("5S",)),
    "sum": Example("7C", ("5D", "2H"), ("5D", "2H")),
    "stair": Example("5H", ("5S", "6D", "7C", "JS"), ("5S", "6D", "7C", "JS")),
}
"""By match (a 5 takes a 5), by sum (a 7 takes 5 + 2; only A–7 sum, R2), and the escalera (after the
match, 6, 7, J follow in the order A-2-3-4-5-6-7-J-Q-K, R3, R18; the table is left empty: a limpia)."""

TABLE_MARKS: tuple[str, ...] = ("▶", "⏳", "🟦", "🟧")
"""The marks of the public table message (`bot.ui.table_message`) that the "read" page names: whose turn,
the turn's clock, side A's and side B's scores (blue and orange, the sides' colours in the picture)."""


@dataclass(frozen=True)
class GuidePage:
    """One page of the guide: ``key`` (one of `PAGE_KEYS`), its ``title`` (an emoji and the topic) and
    its ``body`` (markdown lines), in one language."""

    key: str
    title: str
    body: tuple[str, ...]

    @property
    def text(self) -> str:
        """The title and the body as one text (for counting and searching)."""
        return "\n".join((self.title, *self.body))


def _card(code: str, faces: CardFaces) -> str:
    return faces.card(Card.parse(code))


def _cards(codes: tuple[str, ...], faces: CardFaces) -> str:
    return faces.cards(Card.parse(c) for c in codes)


def command(lang: str, key: str) -> str:
    """A ``/cuarenta …`` command as the reader's Discord shows it: ``"/cuarenta mano"``, ``"/cuarenta hand"``.

    Args:
        key: the subcommand's catalog key stem (``"hand"`` for ``cmd.hand.name``).
    """
    names = command_lang(lang)
    return f"/{t('cmd.cuarenta.name', names)} {t(f'cmd.{key}.name', names)}"


def _params(lang: str, public: str, faces: CardFaces) -> dict[str, dict[str, object]]:
    """Each page's placeholders, from the quito preset, the example cards and the bot's own labels: those
    of the table message in the server's language ``public`` (as the reader sees them there), those of the
    hand in the reader's ``lang``; the cards written with ``faces``."""
    quito = Rules.preset("quito")
    match, sums, stair = EXAMPLES["match"], EXAMPLES["sum"], EXAMPLES["stair"]
    return {
        "goal": {"target": quito.target, "chicas": quito.chicas_to_win},
        "capture": {
            "match": _card(match.played, faces), "matched": _cards(match.taken, faces),
            "sum": _card(sums.played, faces), "summed": " + ".join(_card(c, faces) for c in sums.taken),
            "stair": _card(stair.played, faces), "stair_table": _cards(stair.table, faces),
        },
        "points": {"caida": quito.caida, "limpia": quito.limpia, "caida_limpia": quito.caida_limpia,
                   "ronda": quito.ronda, "doble": award_text(quito.doble_ronda, lang)},
        "end": {"score38": quito.score38 or quito.target - 2, "below": quito.zapateria_below,
                "rules_cmd": command(lang, "rules")},
        "read": {"on_table": t("table.on_table", public), "dealer": t("pic.dealer", public),
                 "mano": t("pic.mano", public)},
        "buttons": {"trail": t("dm.trail_placeholder", lang), "my_hand": t("btn.my_hand", public),
                    "hand_cmd": command(lang, "hand"), "why": t("btn.why", public)},
    }


def guide_pages(lang: str, public: str | None = None, *,
                faces: CardFaces = CardFaces.TEXT) -> tuple[GuidePage, ...]:
    """The whole guide in ``lang`` (``"es"``, ``"en"`` or ``"pt"``), one `GuidePage` per `PAGE_KEYS`; the
    table message's words it quotes are in ``public``, the server's language (default ``lang``), because
    the table message is written in it. The example cards are written with ``faces``."""
    params = _params(lang, public or lang, faces)
    pages = []
    for key in PAGE_KEYS:
        values = params.get(key, {})
        body = tuple(t(f"learn.guide.{key}.{n}", lang, **values) for n in range(1, PAGE_LINES[key] + 1))
        pages.append(GuidePage(key, t(f"learn.guide.{key}.title", lang), body))
    return tuple(pages)


def page_count() -> int:
    """How many pages the guide has."""
    return len(PAGE_KEYS)


def clamp_page(page: int) -> int:
    """``page`` kept within the guide (a stale or forged custom_id never points outside it)."""
    return max(0, min(page, page_count() - 1))
