"""Results entered or corrected by hand by a league's organizer, with a reason, kept in the history.

The written rules, as built:

- Only the organizer (the league's creator, a member with Manage Server or the server's organizers' role:
  the caller's `can_manage` comes from the interaction) may enter or correct a result, and only in a
  running league of the server the command came from.
- The fixture is named by its round and one of its players; the outcome is that player's: ``win``,
  ``loss`` or ``double_loss``. With a score (chicas of the player and of the opponent, the winner's
  higher) the fixture becomes ``done`` with that score and no tantos; without one, a ``walkover`` (a
  double loss has no score).
- A fixture whose mesa is being played cannot be changed (its result comes with its last play), nor a
  fixture of a round not started yet, nor a result to the same result.
- The reason is required: 1–200 characters after trimming.
- The fixture and its history row are written in one transaction. The standings are computed from the
  fixtures, so they follow at once; a result entered in the current round may close it (the next round
  starts, or the league finishes). The league's presenter is told the result (its messages) and the
  correction is announced in the league's channel with the reason.
"""

from __future__ import annotations

import logging
from dataclasses import replace
from typing import Protocol

from bot.competitions.background import Background
from bot.competitions.league_repo import Fixture, League, LeagueError
from bot.competitions.leagues import LeagueService
from bot.competitions.tournament_model import Match, Tournament, TournamentError
from bot.competitions.tournaments import TournamentService

from .repo import Correction, CorrectionRepo, result_code

log = logging.getLogger(__name__)

REASON_MAX = 200
"""The longest reason, in characters."""
OUTCOMES = ("win", "loss", "double_loss")
"""A corrected result, as the named player's outcome."""


class CorrectionPresenter(Protocol):
    """What a correction tells Discord (`bot.organizer.present.OrganizerDiscord`)."""

    async def league_corrected(self, league: League, fixture: Fixture, correction: Correction) -> None:
        """Announce a league fixture's corrected result with its reason in the league's channel."""

    async def tournament_corrected(self, tour: Tournament, match: Match, correction: Correction) -> None:
        """Announce a tournament match's corrected result with its reason in the tournament's channel."""


class LeagueCorrections(Background):
    """Enter or correct league results by hand.

    Args:
        leagues: the league service (its lock, repository, clock and presenter). repo: the history.
        presenter: the announcement (set later is fine).
    """

    def __init__(self, leagues: LeagueService, repo: CorrectionRepo,
                 presenter: CorrectionPresenter | None = None) -> None:
        self.leagues = leagues
        self.repo = repo
        self.presenter = presenter
        self._init_background()

    async def correct(self, league: League, *, user_id: int, can_manage: bool, round_no: int, player_id: int,
                      outcome: str, reason: str, score: tuple[int, int] | None = None) -> tuple[Fixture, Correction]:
        """Set the result of ``player_id``'s fixture of round ``round_no`` to ``outcome`` (theirs), with
        ``score`` (their chicas, the opponent's) or without.

        Returns:
            The fixture, changed, and the history row stored with it.

        Raises:
            LeagueError: ``err.league_not_organizer``, ``err.league_not_running``, ``err.correct_reason``
            (params: max), ``err.correct_outcome``, ``err.correct_score``, ``err.league_not_in``,
            ``err.correct_no_fixture`` (params: round), ``err.correct_future`` (params: round),
            ``err.correct_in_play`` (params: table), ``err.correct_same``.
        """
        if not self.leagues.can_organize(league, user_id, can_manage):
            raise LeagueError("err.league_not_organizer")
        reason = " ".join(reason.split())
        if not 1 <= len(reason) <= REASON_MAX:
            raise LeagueError("err.correct_reason", max=REASON_MAX)
        if outcome not in OUTCOMES:
            raise LeagueError("err.correct_outcome")
        if score is not None and (outcome == "double_loss" or min(score) < 0 or max(score) > 99
                                  or (outcome == "win") != (score[0] > score[1]) or score[0] == score[1]):
            raise LeagueError("err.correct_score")
        async with self.leagues._lock:
            if league.status != "running":
                raise LeagueError("err.league_not_running", league=league.id)
            side = league.side_of(player_id)
            if side is None or not side.accepted:
                raise LeagueError("err.league_not_in", league=league.id)
            fixture = next((f for f in league.fixtures if f.round == round_no and side.side_no in (f.side_a, f.side_b)),
                           None)
            if fixture is None:
                raise LeagueError("err.correct_no_fixture", round=round_no)
            if round_no > league.current_round:
                raise LeagueError("err.correct_future", round=round_no)
            if fixture.status == "playing":
                raise LeagueError("err.correct_in_play", table=fixture.table_id or 0)
            before = result_code(fixture.status, fixture.winner, fixture.chicas)
            status, winner, chicas = _result(fixture, side.side_no, outcome, score)
            after = result_code(status, winner, chicas)
            if after == before:
                raise LeagueError("err.correct_same")
            changed = replace(fixture, status=status, winner=winner, chicas=chicas, tantos=(0, 0), zapateria=False)
            correction = Correction(0, league.guild_id, "league", league.id, fixture.id, fixture.round, user_id,
                                    self.leagues.clock.now(), reason, before, after)
            async with self.leagues.repo.store.db.transaction():  # stored first: a failed write changes nothing
                await self.leagues.repo.record_result(changed)
                correction_id = await self.repo.add(correction)
            correction = replace(correction, id=correction_id)
            fixture.status, fixture.winner, fixture.chicas = status, winner, chicas
            fixture.tantos, fixture.zapateria = (0, 0), False
            log.info("league %d: fixture %d corrected by the organizer (%s → %s)", league.id, fixture.id, before, after)
            self.leagues._tell("result", league, fixture)
            self._tell("league_corrected", league, fixture, correction)
            await self.leagues._maybe_next_round(league)
        return fixture, correction

    async def history(self, league_id: int) -> list[Correction]:
        """A league's corrections, oldest first."""
        return await self.repo.of("league", league_id)


def _result(fixture: Fixture, side_no: int, outcome: str,
            score: tuple[int, int] | None) -> tuple[str, int | None, tuple[int, int]]:
    """``(status, winner, chicas as (side A, side B))`` of ``outcome`` for ``side_no`` in ``fixture``."""
    if outcome == "double_loss":
        return "double_loss", None, (0, 0)
    other = fixture.side_b if fixture.side_a == side_no else fixture.side_a
    winner = side_no if outcome == "win" else other
    if score is None:
        return "walkover", winner, (0, 0)
    mine, theirs = score
    return "done", winner, (mine, theirs) if fixture.side_a == side_no else (theirs, mine)


class TournamentCorrections(Background):
    """Enter or correct tournament match results by hand (the league's rules, and the bracket's).

    A match of an earlier round may change only while the match it feeds (elimination: the next round's
    match of its winner; Swiss: any match of a later round) has not been played nor started: then, in
    elimination, the new winner takes the old one's place in that match. Otherwise the correction is
    refused with the reason (``err.correct_later_played``). A bye cannot be corrected.

    Args:
        tournaments: the tournament service (its lock, clock and presenter). repo: the history.
        presenter: the announcement (set later is fine).
    """

    def __init__(self, tournaments: TournamentService, repo: CorrectionRepo,
                 presenter: CorrectionPresenter | None = None) -> None:
        self.tournaments = tournaments
        self.repo = repo
        self.presenter = presenter
        self._init_background()

    async def correct(self, tour: Tournament, *, user_id: int, can_manage: bool, round_no: int, player_id: int,
                      outcome: str, reason: str, score: tuple[int, int] | None = None) -> tuple[Match, Correction]:
        """Set ``player_id``'s match of round ``round_no`` to ``outcome`` (theirs), with ``score`` (mesas
        won by them and by the opponent, the winner's reaching the best-of's majority) or without (a
        walkover).

        Raises:
            TournamentError: ``err.league_not_organizer``, ``err.tournament_not_running``,
            ``err.correct_reason``, ``err.correct_outcome``, ``err.correct_match_score`` (params: need,
            best_of), ``err.correct_no_match``,
            ``err.correct_round_future``, ``err.correct_match_in_play``, ``err.correct_bye``,
            ``err.correct_match_same``,
            ``err.correct_later_played`` (params: round).
        """
        if not (can_manage or tour.organizer_id == user_id):
            raise TournamentError("err.league_not_organizer")
        reason = " ".join(reason.split())
        if not 1 <= len(reason) <= REASON_MAX:
            raise TournamentError("err.correct_reason", max=REASON_MAX)
        if outcome not in OUTCOMES:
            raise TournamentError("err.correct_outcome")
        need = tour.best_of // 2 + 1
        if score is not None and (outcome == "double_loss" or min(score) < 0 or max(score) != need
                                  or (outcome == "win") != (score[0] > score[1]) or score[0] == score[1]):
            raise TournamentError("err.correct_match_score", need=need, best_of=tour.best_of)
        async with self.tournaments._lock:
            if tour.status != "running":
                raise TournamentError("err.tournament_not_running", tournament=tour.id)
            match = next((m for m in tour.matches if m.round == round_no and player_id in (m.a_user, m.b_user)), None)
            if match is None:
                if round_no > tour.current_round:
                    raise TournamentError("err.correct_round_future", round=round_no)
                raise TournamentError("err.correct_no_match", round=round_no)
            if match.b_user is None or match.a_user is None:
                raise TournamentError("err.correct_bye")
            if match.status == "playing":
                raise TournamentError("err.correct_match_in_play", table=match.table_id or 0)
            before = result_code(match.status, match.winner, (match.wins_a, match.wins_b))
            other = match.b_user if match.a_user == player_id else match.a_user
            if outcome == "double_loss":
                status, winner, wins = "double_loss", None, (0, 0)
            else:
                winner = player_id if outcome == "win" else other
                status = "done" if score is not None else "walkover"
                mine, theirs = score if score is not None else (0, 0)
                wins = (mine, theirs) if match.a_user == player_id else (theirs, mine)
            after = result_code(status, winner, wins)
            if after == before:
                raise TournamentError("err.correct_match_same")
            fed = self._fed(tour, match)
            if round_no < tour.current_round and winner != match.winner:
                later = [m for m in tour.matches if m.round > round_no] if tour.format == "swiss" else fed
                if any(m.resolved or m.status == "playing" or m.ready_a or m.ready_b for m in later):
                    raise TournamentError("err.correct_later_played", round=round_no + 1)
            correction = Correction(0, tour.guild_id, "tournament", tour.id, match.id, match.round, user_id,
                                    self.tournaments.clock.now(), reason, before, after)
            moves = [(nxt, (winner, nxt.b_user) if match.slot % 2 == 0 else (nxt.a_user, winner))
                     for nxt in (fed if tour.format == "elimination" and round_no < tour.current_round else [])]
            async with self.tournaments.store.db.transaction():  # stored first: a failed write changes nothing
                await self.tournaments._save_match(replace(match, status=status, winner=winner, wins_a=wins[0],
                                                           wins_b=wins[1]))
                for nxt, (a_user, b_user) in moves:
                    await self.repo.move_player(nxt.id, a_user, b_user)
                correction = replace(correction, id=await self.repo.add(correction))
            match.status, match.winner, match.wins_a, match.wins_b = status, winner, wins[0], wins[1]
            for nxt, (a_user, b_user) in moves:
                nxt.a_user, nxt.b_user = a_user, b_user
            log.info("tournament %d: match %d corrected by the organizer (%s → %s)", tour.id, match.id, before, after)
            self.tournaments._tell("result", tour, match)
            self._tell("tournament_corrected", tour, match, correction)
            if round_no == tour.current_round:
                await self.tournaments._maybe_next_round(tour)
        return match, correction

    @staticmethod
    def _fed(tour: Tournament, match: Match) -> list[Match]:
        """In elimination, the next round's match that ``match``'s winner plays (none in the final)."""
        if tour.format != "elimination":
            return []
        return [m for m in tour.matches if m.round == match.round + 1 and m.slot == match.slot // 2]
