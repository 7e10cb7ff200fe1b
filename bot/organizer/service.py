"""The organizer's tools as one service: corrections (`bot.organizer.corrections`), the archive of
finished leagues and tournaments, and the data of the exports. Reads the store for what has left the
competition services' memory (finished and cancelled leagues and tournaments)."""

from __future__ import annotations

from bot.competitions.league_repo import League
from bot.competitions.leagues import LeagueService
from bot.competitions.tournament_model import Tournament
from bot.competitions.tournaments import TournamentService
from bot.i18n import t
from bot.ratings import Ratings
from bot.ratings.model import BoardRow
from bot.store import Store

from .corrections import CorrectionPresenter, LeagueCorrections, TournamentCorrections
from .repo import Correction, CorrectionRepo, ended_names

ENDED = ("finished", "cancelled")
"""The statuses of a league or tournament in the archive."""
ARCHIVE_CHOICES = 10
"""How many ended leagues (or tournaments) an option offers to choose from."""
EXPORT_PAGES = 200
"""The most leaderboard pages an export reads (`bot.ratings` pages of 10: 2,000 players)."""


class OrganizerService:
    """Corrections, the archive and the exports' data.

    Args:
        store: the open store. leagues: the league service. presenter: the corrections' announcement.
    """

    def __init__(self, store: Store, leagues: LeagueService, tournaments: TournamentService,
                 presenter: CorrectionPresenter | None = None) -> None:
        self.leagues = leagues
        self.tournaments = tournaments
        self.repo = CorrectionRepo(store)
        self.corrections = LeagueCorrections(leagues, self.repo, presenter)
        self.tournament_corrections = TournamentCorrections(tournaments, self.repo, presenter)

    async def close(self) -> None:
        """Stop the pending announcements."""
        await self.corrections.close()
        await self.tournament_corrections.close()

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

    async def history(self, league_id: int, kind: str = "league") -> list[Correction]:
        """A league's (or, with ``kind`` ``tournament``, a tournament's) corrections, oldest first."""
        return await self.repo.of(kind, league_id)

    async def reasons(self, kind: str, competition_id: int) -> dict[int, str]:
        """The organizer's latest reason per fixture (``kind`` ``league``) or match (``tournament``) id whose
        result was entered or corrected by hand (`bot.competitions.live_messages.FixtureNotes`)."""
        return {c.fixture_id: c.reason for c in await self.repo.of(kind, competition_id)}

    async def ended_tournaments(self, guild_id: int) -> list[Tournament]:
        """A server's finished and cancelled tournaments, whole, newest first."""
        return await self.repo.ended_tournaments(guild_id)

    async def tournament(self, guild_id: int, tournament_id: int) -> Tournament | None:
        """Tournament ``tournament_id`` of this server, open (the live one) or ended (from the store); None
        when the server has no such tournament."""
        live = self.tournaments.tournaments.get(tournament_id)
        if live is not None:
            return live if live.guild_id == guild_id else None
        return next((t for t in await self.ended_tournaments(guild_id) if t.id == tournament_id), None)


async def archive_choices(service: OrganizerService, kind: str, guild_id: int, typed: str,
                          lang: str) -> list[tuple[int, str]]:
    """The choices of a ``league`` or ``tournament`` option that may name an ended one: the server's open
    ones, then its last `ARCHIVE_CHOICES` ended ones (marked finished or cancelled), as ``(id, label)``,
    those whose number or name contains ``typed`` (any case), at most 25 (Discord's limit)."""
    if kind == "league":
        open_ = [(lg.id, lg.name) for lg in service.leagues.leagues.values() if lg.guild_id == guild_id]
    else:
        open_ = [(x.id, x.name) for x in service.tournaments.tournaments.values() if x.guild_id == guild_id]
    table = "leagues" if kind == "league" else "tournaments"
    ended = await ended_names(service.repo.store.db, table, guild_id, ARCHIVE_CHOICES)
    labels = [(i, f"#{i} {name}") for i, name in sorted(open_, reverse=True)]
    key = "organizer.choice_" if kind == "league" else "organizer.t_choice_"
    labels += [(i, t(key + status, lang, number=i, name=name)) for i, name, status in ended]
    needle = typed.strip().lower()
    return [(i, label[:100]) for i, label in labels if needle in label.lower()][:25]


async def leaderboard_rows(ratings: Ratings, guild_id: int, mode: str) -> list[BoardRow]:
    """Every row of a server's current leaderboard in ``mode`` (every page, up to `EXPORT_PAGES`)."""
    first = await ratings.leaderboard(guild_id, mode)
    rows = list(first.rows)
    for page in range(1, min(first.pages, EXPORT_PAGES)):
        rows += (await ratings.leaderboard(guild_id, mode, page=page)).rows
    return rows
