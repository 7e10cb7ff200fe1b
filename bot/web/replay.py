"""A finished mesa's replay: ``/s/{guild}/mesas/{mesa}?step=N``, one page per play (``N`` from 1, the
first play without it), stepped through with plain links (⏮ ◀ ▶ ⏭ and a link to the start of every hand).

The mesa comes from `bot.replays.load` under its rules: only a finished mesa of this server; a mesa in the
lobby or in play, closed unfinished, another server's or unknown is the 404, and nothing of it is computed.
A step shows what the replay command shows (`bot.replays.present`): where it is, what opened it, every
seat's cards before the play (a finished mesa has no secrets left) with the seat in turn marked, the table
before and after, the play and everything it closed, and the score. A step number past either end shows
the nearest step.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from html import escape

from aiohttp import web
from markupsafe import Markup

from bot.engine import Card
from bot.houserules.words import rules_label
from bot.i18n import t
from bot.replays import ReplayError, load
from bot.replays.present import _PLAY_KINDS, event_lines
from bot.tables import TEAMS
from bot.ui.words import by_rank, seat_name, side_name

from .context import NotFound, WebContext, query_int, scrub

RED_SUITS = ("H", "D")
"""Hearts and diamonds: the cards drawn in red."""

_BOLD = re.compile(r"(?<!\\)\*\*(.+?)(?<!\\)\*\*")
_ESCAPED = re.compile(r"\\([\\*_~`|>#\-\[\]()])")


def line_html(text: str, lang: str) -> Markup:
    """A line of the bot's message text as HTML: escaped, ``**bold**`` as ``<b>``, Discord's markdown
    escapes (``\\*``) dropped, any mention replaced by a neutral word."""
    html = _BOLD.sub(r"<b>\1</b>", escape(scrub(text, lang), quote=False))
    return Markup(_ESCAPED.sub(r"\1", html))


def card_html(cards: Sequence[Card]) -> Markup:
    """Cards as styled boxes (``<span class="card red">7♦</span>``), in the order given."""
    return Markup("".join(f'<span class="card{" red" if c.suit in RED_SUITS else ""}">{escape(str(c))}</span>'
                          for c in cards))


def add_pages(router: web.UrlDispatcher, ctx: WebContext) -> None:
    """Add ``GET /s/{guild}/mesas/{mesa}``."""

    async def mesa(request: web.Request) -> web.Response:
        guild = await ctx.guild(request)
        raw = request.match_info["mesa"]
        if not (raw.isascii() and raw.isdigit()) or len(raw) > 19:
            raise NotFound()
        try:
            shown = await load(ctx.store, guild.id, int(raw))
        except ReplayError:
            raise NotFound() from None
        lang = guild.lang
        replay, table = shown.replay, shown.table
        index = replay.clamp((query_int(request.query, "step", 1) or 1) - 1)
        step = replay.steps[index]

        def lines(events: Sequence, first: int) -> list[Markup]:
            return [line_html(x, lang) for x in event_lines(table, events, lang, first)]

        seats = [{"name": scrub(seat_name(table, seat, lang, step.index), lang),
                  "team": TEAMS[seat % 2] if table.players == 4 else None,
                  "turn": seat == step.seat, "cards": card_html(by_rank(hand)) if hand else None}
                 for seat, hand in enumerate(step.hands)]
        own = next((i for i, e in enumerate(step.events) if e.kind not in _PLAY_KINDS), len(step.events))
        base = guild.url(f"mesas/{table.id}")

        def href(target: int | None) -> str | None:
            return None if target is None else (base if target == 0 else f"{base}?step={target + 1}")

        nav = [("⏮", t("web.replay.previous_hand", lang), href(replay.previous_hand(index))),
               ("◀", t("web.replay.previous", lang), href(index - 1 if index > 0 else None)),
               ("▶", t("web.replay.next", lang), href(index + 1 if index < replay.last else None)),
               ("⏭", t("web.replay.next_hand", lang), href(replay.next_hand(index)))]
        hands = [(hand, href(replay.hand_start(hand)), hand == step.hand) for hand in replay.hand_numbers]
        title = t("replay.title", lang, table=table.id, preset=rules_label(table, lang))
        return ctx.render(
            "replay.html", guild, scrub(title, lang), step=step, seats=seats, nav=nav, hands=hands,
            where=line_html(t("replay.where", lang, hand=step.hand, chica=step.chica, deal=step.deal), lang),
            opening=lines(step.opening, step.index),
            table_cards=card_html(step.table), after_cards=card_html(step.after) if step.play is not None else None,
            played=lines(step.events[:own], step.index), closed=lines(step.events[own:], step.index + 1),
            no_play=step.play is None,
            score=scrub(t("replay.score", lang, a=side_name(table, 0, lang), sa=step.scores[0],
                          b=side_name(table, 1, lang), sb=step.scores[1], ca=step.chicas[0], cb=step.chicas[1]), lang),
            footer=t("replay.footer", lang, step=index + 1, steps=len(replay.steps), hand=step.hand,
                     hands=replay.steps[-1].hand),
        )

    router.add_get("/s/{guild}/mesas/{mesa}", mesa)


__all__ = ["RED_SUITS", "add_pages", "card_html", "line_html"]
