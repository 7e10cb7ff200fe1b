"""The leaderboard page: ``/s/{guild}/leaderboard?mode=1v1&season=N&page=P``.

The figures are the bot's own (`bot.ratings.Ratings.leaderboard`, the same page of ten rows as
``/cuarenta leaderboard``): ranked players numbered, then provisional ones (fewer rated chicas than the
server's minimum) unnumbered and marked 🌱; a rating still uncertain is marked ``?``. Without ``mode``, the
mode with the most rated chicas this season; without ``season``, the current one (a closed season shows
its frozen standings). ``page`` counts from 1. An unknown mode or season, or a page number that is not a
number, is the 404.
"""

from __future__ import annotations

from aiohttp import web

from bot.i18n import t
from bot.ratings import MODES, RatingsError
from bot.ui.boards import season_label

from .context import NotFound, WebContext, query_int


def add_pages(router: web.UrlDispatcher, ctx: WebContext) -> None:
    """Add ``GET /s/{guild}/leaderboard``."""

    async def leaderboard(request: web.Request) -> web.Response:
        guild = await ctx.guild(request)
        mode = request.query.get("mode") or await ctx.ratings.busiest_mode(guild.id)
        if mode not in MODES:
            raise NotFound()
        season = query_int(request.query, "season")
        page = query_int(request.query, "page", 1) or 1
        try:
            board = await ctx.ratings.leaderboard(guild.id, mode, season=season, page=page - 1)
        except RatingsError:
            raise NotFound() from None
        users = [r.user_id for r in board.rows]
        names = await ctx.names(guild, users)
        links = await ctx.player_links(guild, users)
        seasons = await ctx.ratings.seasons(guild.id)
        number = board.season.number if board.season is not None else None
        lang = guild.lang

        def href(mode: str = mode, season: int | None = number, page: int = 1) -> str:
            query = f"?mode={mode}" + (f"&season={season}" if season is not None else "")
            return guild.url("leaderboard") + query + (f"&page={page}" if page > 1 else "")

        rows = [{"rank": r.rank if r.ranked else None, "name": names[r.user_id], "href": links.get(r.user_id),
                 "rating": r.rating, "uncertain": r.provisional and r.ranked, "ranked": r.ranked,
                 "wins": r.wins, "losses": r.losses, "games": r.games, "win_rate": round(100 * r.win_rate)}
                 for r in board.rows]
        title = t("board.title", lang, mode=board.mode, season=season_label(board.season, lang))
        if board.frozen:
            title = t("board.title_frozen", lang, title=title)
        return ctx.render(
            "leaderboard.html", guild, title, board=board, rows=rows,
            modes=[(m, href(m), m == mode) for m in MODES],
            seasons=[(season_label(s, lang), href(mode, s.number), s.number == number) for s in seasons],
            previous=href(page=board.page) if board.page > 0 else None,
            next=href(page=board.page + 2) if board.page < board.pages - 1 else None,
            any_uncertain=any(r["uncertain"] for r in rows), any_provisional=any(not r.ranked for r in board.rows),
        )

    router.add_get("/s/{guild}/leaderboard", leaderboard)


__all__ = ["add_pages"]
