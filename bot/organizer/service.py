"""The organizer's tools as one service: corrections (`bot.organizer.corrections`), the archive of
finished leagues, and the data of the exports. Reads the store for what has left the league service's
memory (finished and cancelled leagues)."""

from __future__ import annotations

from bot.competitions.league_repo import League
from bot.competitions.leagues import LeagueService
from bot.ratings import Ratings
from bot.ratings.model import BoardRow
from bot.store import Store

from .corrections import CorrectionPresenter, LeagueCorrections
from .repo import Correction, CorrectionRepo

ENDED = ("finished", "cancelled")
"""The statuses of a league in the archive."""
EXPORT_PAGES = 200
"""The most leaderboard pages an export reads (`bot.ratings` pages of 10: 2,000 players)."""


class OrganizerService:
    """Corrections, the archive and the exports' data.

    Args:
        store: the open store. leagues: the league service. presenter: the corrections' announcement.
    """

    def __init__(self, store: Store, leagues: LeagueService, presenter: CorrectionPresenter | None = None) -> None:
        self.leagues = leagues
        self.repo = CorrectionRepo(store)
        self.corrections = LeagueCorrections(leagues, self.repo, presenter)

    async def close(self) -> None:
        """Stop the pending announcements."""
        await self.corrections.close()

    async def ended_leagues(self, guild_id: int) -> list[League]:
        """A server's finished and cancelled leagues, whole, newest first."""
        return [lg for lg in await self.leagues.history(guild_id) if lg.status in ENDED]

    async def league(self, guild_id: int, league_id: int) -> League | None:
        """League ``league_id`` of this server, open (the live one) or from the store; None when the
        server has no such league (leagues never cross servers)."""
        live = self.leagues.leagues.get(league_id)
        if live is not None:
            return live if live.guild_id == guild_id else None
        return next((lg for lg in await self.leagues.history(guild_id) if lg.id == league_id), None)

    async def history(self, league_id: int) -> list[Correction]:
        """A league's corrections, oldest first."""
        return await self.repo.of("league", league_id)


async def leaderboard_rows(ratings: Ratings, guild_id: int, mode: str) -> list[BoardRow]:
    """Every row of a server's current leaderboard in ``mode`` (every page, up to `EXPORT_PAGES`)."""
    first = await ratings.leaderboard(guild_id, mode)
    rows = list(first.rows)
    for page in range(1, min(first.pages, EXPORT_PAGES)):
        rows += (await ratings.leaderboard(guild_id, mode, page=page)).rows
    return rows
