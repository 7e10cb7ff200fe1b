"""A player's profile in one server: ``/s/{guild}/players/{number}`` (the opaque player number of
`bot.web.data`).

What it shows is the bot's own record (`bot.ratings.Ratings.stats`, as ``/cuarenta stats``): mesas and
chicas won, the streaks, the caídas of the last 7 days; per mode the chicas, the rating (``?`` while
uncertain) and its peak, and the rating after each rated chica as a small SVG chart; caídas, limpias,
rondas, dobles rondas, zapateros, the most frequent partner; and the last finished mesas
(`Ratings.history`, as ``/cuarenta history``), each linking to its replay page.
"""

from __future__ import annotations

from collections.abc import Mapping

from aiohttp import web

from bot.i18n import t, tn
from bot.ratings import MODES, MesaLine

from .chart import rating_svg
from .context import Guild, NotFound, WebContext
from .data import player_of, rating_history

RECENT_MESAS = 10
"""How many of the player's last finished mesas the page lists."""


def _names(users: tuple[int | None, ...], names: Mapping[int, str], lang: str) -> str:
    return ", ".join(names[u] if u is not None else t("board.computer", lang) for u in users) or "—"


def _mesa(line: MesaLine, guild: Guild, names: Mapping[int, str]) -> dict[str, object]:
    lang = guild.lang
    return {
        "href": guild.url(f"mesas/{line.table_id}"), "number": line.table_id,
        "when": line.finished_at.strftime("%Y-%m-%d"), "mode": line.mode, "preset": line.preset,
        "house": line.house, "won": line.won,
        "result": f"{t('history.won' if line.won else 'history.lost', lang)} {line.chicas[0]}–{line.chicas[1]}",
        "scores": ", ".join(f"{a}–{b}" for a, b in line.chica_scores) or "—",
        "zapateria": line.zapateria,
        "partners": t("history.with", lang, names=_names(line.partners, names, lang)) if line.partners else "",
        "opponents": t("web.against", lang, names=_names(line.opponents, names, lang)),
    }


def add_pages(router: web.UrlDispatcher, ctx: WebContext) -> None:
    """Add ``GET /s/{guild}/players/{player}``."""

    async def player(request: web.Request) -> web.Response:
        guild = await ctx.guild(request)
        raw = request.match_info["player"]
        if not (raw.isascii() and raw.isdigit()) or len(raw) > 19:
            raise NotFound()
        user = await player_of(ctx.store.db, guild.id, int(raw))
        if user is None:
            raise NotFound()
        lang = guild.lang
        stats = await ctx.ratings.stats(guild.id, user)
        mesas = await ctx.ratings.history(guild.id, user, limit=RECENT_MESAS)
        partner = stats.partner[0] if stats.partner else None
        users = {user, partner, *(u for m in mesas for u in (*m.partners, *m.opponents))}
        names = await ctx.names(guild, users)
        links = await ctx.player_links(guild, [partner])
        modes = []
        for mode in MODES:
            m = stats.modes[mode]
            if not m.chicas:
                continue
            history = await rating_history(ctx.store.db, guild.id, user, mode)
            chart = rating_svg([v for _, v in history], t("web.chart", lang, mode=mode))
            modes.append({"mode": mode, "stats": m, "chart": chart,
                          "since": history[0][0].strftime("%Y-%m-%d") if len(history) > 1 else None})
        run = stats.current_streak
        story = [tn("stats.streak_won", run, lang, n=run) if run > 0 else tn("stats.streak_lost", -run, lang, n=-run),
                 f"{t('stats.best_streak', lang)}: {stats.best_streak}",
                 tn("stats.week", stats.caidas_week, lang, n=stats.caidas_week) if stats.caidas_week
                 else t("stats.week_none", lang)]
        return ctx.render(
            "player.html", guild, names[user], stats=stats, story=story, modes=modes,
            pct=round(100 * stats.chicas_won / stats.chicas) if stats.chicas else 0,
            partner=(names[partner], links.get(partner), stats.partner[1]) if stats.partner and partner else None,
            mesas=[_mesa(m, guild, names) for m in mesas],
        )

    router.add_get("/s/{guild}/players/{player}", player)


__all__ = ["RECENT_MESAS", "add_pages"]
