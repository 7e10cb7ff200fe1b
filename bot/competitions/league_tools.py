"""The organizer's tools of a league: extend the round's deadline, award a walkover, remove or
replace a player, cancel. A mixin of `bot.competitions.leagues.LeagueService`, whose lock, repository,
alarms and announcements it uses."""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING, Any

from .league_repo import Fixture, League, LeagueError, LeagueRepo, Side

DAY = 86400.0
"""Seconds in a day (round lengths and deadline extensions are in days)."""


class LeagueOrganizerTools:
    """What the organizer (the creator, a member with Manage Server, or the organizers' role) may do to a
    league. Each tool checks the caller (`can_organize`), then changes the league under its lock."""

    leagues: dict[int, League]
    repo: LeagueRepo
    _lock: asyncio.Lock

    if TYPE_CHECKING:  # provided by the service and its `Background`
        @staticmethod
        def can_organize(league: League, user_id: int, can_manage: bool) -> bool: ...
        def _arm(self, league: League) -> None: ...
        def _tell(self, method: str, *args: Any) -> None: ...
        async def _maybe_next_round(self, league: League) -> None: ...

    def _organizer(self, league: League, user_id: int, can_manage: bool) -> None:
        if not self.can_organize(league, user_id, can_manage):
            raise LeagueError("err.league_not_organizer")

    async def extend(self, league: League, *, user_id: int, can_manage: bool, days: int) -> League:
        """Move the current round's deadline ``days`` later (1–30).

        Raises:
            LeagueError: ``err.league_not_organizer``, ``err.league_not_running``, ``err.league_bad``.
        """
        self._organizer(league, user_id, can_manage)
        if not 1 <= days <= 30:
            raise LeagueError("err.league_bad", what="days")
        async with self._lock:
            if league.status != "running" or league.round_deadline is None:
                raise LeagueError("err.league_not_running", league=league.id)
            league.round_deadline += days * DAY
            league.reminded = False
            await self.repo.save_league(league)
            self._arm(league)
            self._tell("round_changed", league, league.current_round)
        return league

    async def award_walkover(self, league: League, *, user_id: int, can_manage: bool, winner_user: int) -> Fixture:
        """Give the current-round fixture of ``winner_user``'s side to that side as a walkover.

        Raises:
            LeagueError: ``err.league_not_organizer``, ``err.league_not_in``, ``err.league_no_fixture``.
        """
        self._organizer(league, user_id, can_manage)
        async with self._lock:
            side = league.side_of(winner_user)
            if side is None or not side.accepted:
                raise LeagueError("err.league_not_in", league=league.id)
            fixture = next((f for f in league.fixtures if f.round == league.current_round and not f.resolved
                            and side.side_no in (f.side_a, f.side_b)), None)
            if fixture is None:
                raise LeagueError("err.league_no_fixture", league=league.id, round=league.current_round)
            fixture.status, fixture.winner = "walkover", side.side_no
            await self.repo.save_fixture(fixture)
            self._tell("result", league, fixture)
            await self._maybe_next_round(league)
        return fixture

    async def remove(self, league: League, *, user_id: int, can_manage: bool, target_user: int) -> Side:
        """Take a side out of a league: in sign-up it is dropped; running, its fixtures without a result
        become walkovers for its opponents.

        Raises:
            LeagueError: ``err.league_not_organizer``, ``err.league_not_in``.
        """
        self._organizer(league, user_id, can_manage)
        async with self._lock:
            side = league.side_of(target_user)
            if side is None:
                raise LeagueError("err.league_not_in", league=league.id)
            if league.status == "signup":
                league.sides.remove(side)
                await self.repo.delete_side(league.id, side.side_no)
                self._tell("signup_changed", league)
                return side
            side.removed = True
            await self.repo.save_side(league.id, side)
            for fixture in [f for f in league.fixtures if not f.resolved and side.side_no in (f.side_a, f.side_b)]:
                fixture.status = "walkover"
                fixture.winner = fixture.side_b if fixture.side_a == side.side_no else fixture.side_a
                await self.repo.save_fixture(fixture)
                if fixture.round == league.current_round:
                    self._tell("result", league, fixture)
            await self._maybe_next_round(league)
        return side

    async def replace(self, league: League, *, user_id: int, can_manage: bool, old_user: int, new_user: int,
                      new_name: str, new_locale: str = "es") -> Side:
        """Put ``new_user`` in ``old_user``'s place in their side (results and fixtures stay the side's).

        Raises:
            LeagueError: ``err.league_not_organizer``, ``err.league_not_in``, ``err.league_signed`` (the
            newcomer already plays in this league).
        """
        self._organizer(league, user_id, can_manage)
        async with self._lock:
            side = league.side_of(old_user)
            if side is None:
                raise LeagueError("err.league_not_in", league=league.id)
            if league.side_of(new_user) is not None:
                raise LeagueError("err.league_signed", league=league.id)
            if side.user1 == old_user:
                side.user1, side.name1, side.locale1 = new_user, new_name, new_locale
            else:
                side.user2, side.name2, side.locale2 = new_user, new_name, new_locale
            await self.repo.replace_user(league.id, side)
        self._tell("signup_changed", league)
        if league.status == "running":
            self._tell("round_changed", league, league.current_round)  # the newcomer's name in the round
        return side

    async def cancel(self, league: League, *, user_id: int, can_manage: bool) -> League:
        """Cancel the league (no champion; its tables in play go on as casual mesas).

        Raises:
            LeagueError: ``err.league_not_organizer``.
        """
        self._organizer(league, user_id, can_manage)
        async with self._lock:
            league.status, league.round_deadline = "cancelled", None
            await self.repo.save_league(league)
            self._arm(league)
            self.leagues.pop(league.id, None)
        self._tell("finished", league)
        return league
