"""The organizer's tools on Discord: a corrected result announced in the competition's channel with
its reason, a finished league's or tournament's archive (champion and final standings or bracket), a
player's results in a league or tournament.
Public text in the server's language; the command answers in the caller's."""

from __future__ import annotations

import logging

import discord

from bot.competitions.league_present import fixture_line, standings_text
from bot.competitions.league_repo import Fixture, League
from bot.competitions.leagues import LeagueService
from bot.competitions.tournament_model import Match, Tournament
from bot.competitions.tournament_present import board_text, match_line
from bot.competitions.tournaments import TournamentService
from bot.i18n import t
from bot.tables import TableService
from bot.ui import limits
from bot.ui.budget import WriteBudget
from bot.ui.words import clean

from .repo import Correction

log = logging.getLogger(__name__)

ARCHIVE_SHOWN = 10
"""How many finished leagues the archive lists."""


def correction_text(league: League, fixture: Fixture, correction: Correction, lang: str) -> str:
    """The announcement of a corrected result: the league, the round, the fixture's new result and the
    reason (clipped to a message)."""
    text = t("organizer.corrected", lang, league=league.id, name=clean(league.name), round=fixture.round,
             line=fixture_line(league, fixture, lang), reason=clean(correction.reason))
    return limits.clip(text, limits.CONTENT)


def corrections_text(league: League, corrections: list[Correction], lang: str) -> str:
    """A league's corrections, one line each (round, the fixture's sides, the reason); empty when none."""
    if not corrections:
        return ""
    lines = [t("organizer.corrections_title", lang)]
    for c in corrections:
        fixture = next((f for f in league.fixtures if f.id == c.fixture_id), None)
        who = (f"{clean(league.side(fixture.side_a).name)} – {clean(league.side(fixture.side_b).name)}"
               if fixture is not None else "?")
        lines.append(t("organizer.correction_row", lang, round=c.round, fixture=who, reason=clean(c.reason)))
    return "\n".join(lines)


def archive_text(service: LeagueService, league: League, corrections: list[Correction], lang: str) -> str:
    """A finished or cancelled league, read-only: its title, the champion (or the cancellation), the
    final standings and the corrections made."""
    rows = service.standings(league)
    if league.status == "finished" and rows:
        head = t("league.champion", lang, name=clean(league.name), champion=clean(league.side(rows[0].side).name))
    else:
        head = t("league.cancelled", lang, name=clean(league.name))
    parts = [t("league.title", lang, league=league.id, name=clean(league.name)),
             t("organizer.archived", lang, rounds=league.rounds), head, standings_text(service, league, lang)]
    history = corrections_text(league, corrections, lang)
    if history:
        parts.append(history)
    return limits.clip("\n".join(parts), limits.CONTENT)


def finished_list_text(leagues: list[League], lang: str) -> str:
    """The last finished leagues of a server (newest first, at most `ARCHIVE_SHOWN`), and how to open one."""
    shown = leagues[:ARCHIVE_SHOWN]
    items = ", ".join(f"#{lg.id} {clean(lg.name)}" for lg in shown)
    return t("organizer.archive_list", lang, leagues=items)


def player_results_text(service: LeagueService, league: League, user_id: int, name: str, lang: str) -> str:
    """One player's fixtures and results in a league, round by round, with their line of the standings.
    Says so when they do not play in it."""
    side = next((s for s in league.sides if user_id in s.users and s.accepted), None)
    if side is None:
        return t("organizer.not_a_player", lang, name=clean(name), league=league.id)
    row = next((r for r in service.standings(league) if r.side == side.side_no), None)
    lines = [t("organizer.player_title", lang, name=clean(side.name), league=league.id, league_name=clean(league.name))]
    if row is not None:
        lines.append(t("organizer.player_row", lang, rank=row.rank, points=row.points, played=row.played,
                       won=row.won, lost=row.lost))
    for f in league.fixtures:
        if side.side_no in (f.side_a, f.side_b):
            lines.append(t("organizer.player_fixture", lang, round=f.round, line=fixture_line(league, f, lang)))
    for rnd, bye in sorted(league.byes.items()):
        if bye == side.side_no:
            lines.append(t("organizer.player_bye", lang, round=rnd))
    return limits.clip("\n".join(lines), limits.CONTENT)


def tournament_correction_text(tour: Tournament, match: Match, correction: Correction, lang: str) -> str:
    """The announcement of a tournament match's corrected result with its reason."""
    text = t("organizer.t_corrected", lang, tournament=tour.id, name=clean(tour.name), round=match.round,
             line=match_line(tour, match, lang), reason=clean(correction.reason))
    return limits.clip(text, limits.CONTENT)


def tournament_archive_text(service: TournamentService, tour: Tournament, corrections: list[Correction],
                            lang: str) -> str:
    """A finished or cancelled tournament, read-only: its champion (or the cancellation), the final bracket
    or Swiss standings, and the corrections made."""
    champion = service.champion(tour) if tour.status == "finished" else None
    head = (t("tournament.champion", lang, champion=clean(tour.name_of(champion)), name=clean(tour.name))
            if champion is not None else t("league.cancelled", lang, name=clean(tour.name)))
    parts = [t("tournament.title", lang, tournament=tour.id, name=clean(tour.name)), head,
             board_text(service, tour, lang)]
    if corrections:
        parts.append(t("organizer.corrections_title", lang))
        for c in corrections:
            match = next((m for m in tour.matches if m.id == c.fixture_id), None)
            who = (f"{clean(tour.name_of(match.a_user))} – {clean(tour.name_of(match.b_user))}"
                   if match is not None else "?")
            parts.append(t("organizer.t_correction_row", lang, round=c.round, fixture=who, reason=clean(c.reason)))
    return limits.clip("\n".join(parts), limits.CONTENT)


def finished_tournaments_text(tours: list[Tournament], lang: str) -> str:
    """The last finished tournaments of a server (newest first, at most `ARCHIVE_SHOWN`), and how to open one."""
    items = ", ".join(f"#{x.id} {clean(x.name)}" for x in tours[:ARCHIVE_SHOWN])
    return t("organizer.t_archive_list", lang, tournaments=items)


def tournament_player_text(tour: Tournament, user_id: int, name: str, lang: str) -> str:
    """One player's matches and results in a tournament, round by round (byes included)."""
    player = tour.player(user_id)
    if player is None:
        return t("organizer.t_not_a_player", lang, name=clean(name), tournament=tour.id)
    lines = [t("organizer.t_player_title", lang, name=clean(player.name), tournament=tour.id,
               tournament_name=clean(tour.name))]
    for m in tour.matches:
        if user_id in (m.a_user, m.b_user):
            lines.append(t("organizer.t_player_match", lang, round=m.round, line=match_line(tour, m, lang)))
    return limits.clip("\n".join(lines), limits.CONTENT)


class OrganizerDiscord:
    """Implements `bot.organizer.corrections.CorrectionPresenter` with the bot token."""

    def __init__(self, client: discord.Client, tables: TableService, *, budget: WriteBudget | None = None) -> None:
        self.client = client
        self.tables = tables
        self.budget = budget
        """The channels' write budget (`bot.ui.budget`), shared with the competitions' messages."""

    async def _post(self, guild_id: int, channel_id: int, text: str) -> None:
        """Post ``text`` in a competition's channel within its write budget, pinging no one.

        Raises:
            discord.HTTPException: Discord refused it.
        """
        if self.budget is not None:
            await self.budget.acquire(channel_id)
        channel = self.client.get_partial_messageable(channel_id, guild_id=guild_id)
        await channel.send(text, allowed_mentions=discord.AllowedMentions.none())

    async def league_corrected(self, league: League, fixture: Fixture, correction: Correction) -> None:
        """Post the correction, with its reason, in the league's channel (pinging no one)."""
        lang = await self.tables.public_language(league.guild_id)
        try:
            await self._post(league.guild_id, league.channel_id, correction_text(league, fixture, correction, lang))
        except discord.HTTPException as exc:
            log.warning("league %d: correction not announced (%s %s)", league.id, exc.status, exc.code)

    async def tournament_corrected(self, tour: Tournament, match: Match, correction: Correction) -> None:
        """Post the correction, with its reason, in the tournament's channel (pinging no one)."""
        lang = await self.tables.public_language(tour.guild_id)
        try:
            await self._post(tour.guild_id, tour.channel_id, tournament_correction_text(tour, match, correction, lang))
        except discord.HTTPException as exc:
            log.warning("tournament %d: correction not announced (%s %s)", tour.id, exc.status, exc.code)
