"""Casual leagues refereed by the bot: sign-up (pairs in 2 v 2: one invites, the other accepts),
a round-robin draw by the circle method, rounds with deadlines, «Jugar» to open a fixture's table, results
recorded by the bot itself, standings with tiebreakers, walkovers, and a champion.

The written rules, as built:

- A fixture's result is recorded in the same transaction as the last play of its mesa (a
  `TableService.mesa_hooks` hook), exactly once. Team A of the table is the fixture's first side.
- A fixture's table that ends without a winner (``/cuarenta end``, or everyone left it to computers)
  records nothing: the fixture can be played again (press «Jugar» again) until the round's deadline. A
  mesa that finishes counts as played, whoever (person or substitute computer) finished it.
- At a round's deadline every fixture not played yet is decided by the league's policy: ``walkover``:
  the side that pressed «Jugar» (and waited) wins, 0 chicas to 0; if neither or both did, a double loss;
  ``double_loss``: a double loss. A fixture whose mesa is still being played is left to finish. The next
  round starts when every fixture of the round has a result; after the last one, the champion is posted.
- A reminder goes out a day before the deadline (for rounds longer than a day).
- The organizer (the creator, or a member with Manage Server) can extend the deadline, award a walkover,
  remove a side (its remaining fixtures become walkovers for its opponents) and cancel the league.
- Deadlines are absolute UTC seconds, stored, and re-armed after a restart like the turn timers.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Protocol

from bot.engine import EventKind, Rules, RulesError
from bot.store import Store
from bot.tables import Table, TableService
from bot.tables.timers import Clock, Scheduler

from .background import Background
from .fixtures import round_robin
from .league_repo import Fixture, League, LeagueError, LeagueRepo, Side, league_table
from .league_tools import DAY, LeagueOrganizerTools
from .referee import RECHECK_AFTER, Place, ResultsFromElsewhere, finished_table, table_in_play
from .standings import Row

log = logging.getLogger(__name__)

REMIND_BEFORE = DAY
"""Seconds before a round's deadline when the players of unplayed fixtures are reminded."""


class LeaguePresenter(Protocol):
    """What the leagues tell Discord (`bot.competitions.league_present.LeagueDiscord`)."""

    async def signup_changed(self, league: League) -> None:
        """Post or edit the sign-up message."""

    async def round_started(self, league: League) -> None:
        """Post the round's fixtures with the «Jugar» button."""

    async def result(self, league: League, fixture: Fixture) -> None:
        """A fixture got its result (played, walkover, double loss): announce it with the standings."""

    async def round_changed(self, league: League, rnd: int) -> None:
        """Round ``rnd`` changed without a result (a side pressed «Jugar», a table opened, the deadline
        moved): bring its message up to date."""

    async def reminder(self, league: League, fixtures: list[Fixture]) -> None:
        """A day before the deadline: ping the players of these unplayed fixtures."""

    async def finished(self, league: League) -> None:
        """The last round is over, or the league was cancelled: final standings and champion."""

    async def make_channel(self, league: League, fixture: Fixture) -> Place:
        """Open the place of a fixture's table (a thread of the league channel)."""


class LeagueService(ResultsFromElsewhere, LeagueOrganizerTools, Background):
    """Every league of every server.

    Args:
        store: the open store. tables: the table service (tables open through it; results come from
            its mesa hook). clock: the tables' `Clock`. presenter: the Discord side (set later is fine).
    """

    def __init__(self, store: Store, tables: TableService, clock: Clock,
                 presenter: LeaguePresenter | None = None) -> None:
        self.repo = LeagueRepo(store)
        self.tables = tables
        self.clock = clock
        self.presenter = presenter
        self.leagues: dict[int, League] = {}
        self._lock = asyncio.Lock()
        self._init_background()
        self.scheduler = Scheduler(clock, self._spawn)
        self._init_results()

    async def load(self) -> int:
        """Restore the leagues in sign-up or running of the servers this process runs
        (`TableService.serves_guild`) and re-arm their deadlines (after a restart). A fixture whose table's
        mesa ended meanwhile is recorded from the stored table."""
        for league in await self.repo.open_leagues():
            if not self.tables.serves_guild(league.guild_id):
                continue  # another process runs that server, and its leagues (docs/SCALING.md §7)
            self.leagues[league.id] = league
            self._arm(league)
            for fixture in league.fixtures:
                if fixture.status == "playing" and fixture.table_id is not None:
                    self._watched.add(fixture.table_id)
                    self._spawn(self.settle(fixture.table_id))
        return len(self.leagues)

    # ------------------------------------------------------------------ queries

    def get(self, league_id: int, guild_id: int) -> League:
        """An open league of this server.

        Raises:
            LeagueError: ``err.league_unknown`` (none with that id here; leagues never cross servers).
        """
        league = self.leagues.get(league_id)
        if league is None or league.guild_id != guild_id:
            raise LeagueError("err.league_unknown", league=league_id)
        return league

    def pick(self, guild_id: int, league_id: int | None, user_id: int | None = None) -> League:
        """The league a command means: the one named, else the caller's open league on this server, else
        the server's only open league.

        Raises:
            LeagueError: ``err.league_unknown``, or ``err.league_which`` (several open: name one).
        """
        if league_id is not None:
            return self.get(league_id, guild_id)
        here = [lg for lg in self.leagues.values() if lg.guild_id == guild_id]
        if user_id is not None:
            mine = [lg for lg in here if lg.side_of(user_id) is not None]
            if len(mine) == 1:
                return mine[0]
        if len(here) == 1:
            return here[0]
        if not here:
            raise LeagueError("err.league_none")
        raise LeagueError("err.league_which", leagues=", ".join(f"#{lg.id} {lg.name}" for lg in here))

    async def why_not_open(self, league_id: int, guild_id: int) -> LeagueError:
        """Why league ``league_id`` of this server is not open: ``err.league_over`` or
        ``err.league_was_cancelled`` (with its name) when it ended, else ``err.league_unknown``. Reads the
        store: for a refusal only (an old button or a command that names an ended league)."""
        found = await self.repo.status_of(league_id)
        if found is not None and found[0] == guild_id and found[1] in ("finished", "cancelled"):
            key = "err.league_over" if found[1] == "finished" else "err.league_was_cancelled"
            return LeagueError(key, league=league_id, name=found[2])
        return LeagueError("err.league_unknown", league=league_id)

    async def history(self, guild_id: int) -> list[League]:
        """Every league of a server, newest first (finished and cancelled included)."""
        return await self.repo.leagues_of(guild_id)

    def standings(self, league: League) -> list[Row[int]]:
        """The standings by side number (`league_repo.league_table`, see `bot.competitions.standings.table`)."""
        return league_table(league)

    def next_fixture(self, league: League, user_id: int) -> Fixture | None:
        """The caller's first fixture without a result, from the current round on."""
        side = league.side_of(user_id)
        if side is None:
            return None
        return next((f for f in league.fixtures if not f.resolved and f.round >= league.current_round
                     and side.side_no in (f.side_a, f.side_b)), None)

    @staticmethod
    def can_organize(league: League, user_id: int, can_manage: bool) -> bool:
        """The creator, or a member with Manage Server."""
        return can_manage or league.organizer_id == user_id

    # ------------------------------------------------------------------ creating and signing up

    async def create(self, *, guild_id: int, channel_id: int, organizer_id: int, name: str, mode: str,
                     preset: str, double: bool = False, round_days: int = 7, win_points: int = 2,
                     loss_points: int = 0, zapateria_bonus: int = 0, policy: str = "walkover") -> League:
        """Create a league in sign-up; its sign-up message is posted in ``channel_id``.

        Raises:
            LeagueError: ``err.league_bad`` (params: what) for a bad name, mode, preset, round length,
            points or policy.
        """
        name = name.strip()
        if not 1 <= len(name) <= 60:
            raise LeagueError("err.league_bad", what="name")
        if mode not in ("1v1", "2v2"):
            raise LeagueError("err.league_bad", what="mode")
        try:
            Rules.preset(preset)
        except RulesError:
            raise LeagueError("err.league_bad", what="preset") from None
        if not 1 <= round_days <= 60:
            raise LeagueError("err.league_bad", what="days")
        if not (0 <= loss_points < win_points <= 10 and 0 <= zapateria_bonus <= 5):
            raise LeagueError("err.league_bad", what="points")
        if policy not in ("walkover", "double_loss"):
            raise LeagueError("err.league_bad", what="policy")
        league = League(0, guild_id, channel_id, name, mode, preset, double, round_days, win_points, loss_points,
                        zapateria_bonus, policy, "signup", organizer_id)
        async with self._lock:
            league.id = await self.repo.create(league)
            self.leagues[league.id] = league
        log.info("league %d created in guild %d", league.id, guild_id)
        self._tell("signup_changed", league)
        return league

    async def sign_up(self, league: League, *, user_id: int, name: str, locale: str = "es",
                      partner_id: int | None = None, partner_name: str | None = None) -> Side:
        """Sign up (1 v 1), or in 2 v 2 invite a partner, or accept the partner's invitation.

        Returns:
            The side: ``accepted`` False while the invited partner has not accepted.

        Raises:
            LeagueError: ``err.league_closed`` (sign-up is over), ``err.league_signed`` (already signed),
            ``err.league_partner_needed`` (2 v 2 without a partner), ``err.league_partner_self``,
            ``err.league_partner_taken`` (params: name).
        """
        async with self._lock:
            if league.status != "signup":
                raise LeagueError("err.league_closed", league=league.id)
            if league.mode == "1v1":
                if league.side_of(user_id) is not None:
                    raise LeagueError("err.league_signed", league=league.id)
                side = Side(_next_no(league), user_id, name, locale1=locale)
            else:
                if partner_id is None:
                    raise LeagueError("err.league_partner_needed")
                if partner_id == user_id:
                    raise LeagueError("err.league_partner_self")
                invite = next((s for s in league.sides if not s.accepted and s.user1 == partner_id
                               and s.user2 == user_id), None)
                if invite is not None:
                    invite.accepted, invite.name2, invite.locale2 = True, name, locale
                    await self.repo.save_side(league.id, invite)
                    for other in [s for s in league.sides if s is not invite and not s.accepted
                                  and user_id in s.users]:  # any invitation of theirs lapses
                        league.sides.remove(other)
                        await self.repo.delete_side(league.id, other.side_no)
                    self._tell("signup_changed", league)
                    return invite
                mine = league.side_of(user_id)
                if mine is not None and mine.accepted:
                    raise LeagueError("err.league_signed", league=league.id)
                theirs = league.side_of(partner_id)
                if theirs is not None and theirs.accepted:
                    raise LeagueError("err.league_partner_taken", name=partner_name or "?")
                if mine is not None:  # a new invitation replaces the old one
                    league.sides.remove(mine)
                    await self.repo.delete_side(league.id, mine.side_no)
                side = Side(_next_no(league), user_id, name, partner_id, partner_name, accepted=False,
                            locale1=locale)
            league.sides.append(side)
            await self.repo.save_side(league.id, side)
        self._tell("signup_changed", league)
        return side

    async def close_signup(self, league: League, *, user_id: int, can_manage: bool) -> League:
        """Close the sign-up, draw the fixtures and start round 1.

        Raises:
            LeagueError: ``err.league_not_organizer``, ``err.league_closed``, ``err.league_few``.
        """
        if not self.can_organize(league, user_id, can_manage):
            raise LeagueError("err.league_not_organizer")
        async with self._lock:
            if league.status != "signup":
                raise LeagueError("err.league_closed", league=league.id)
            sides = [s for s in league.sides if s.accepted]
            if len(sides) < 2:
                raise LeagueError("err.league_few")
            for stale in [s for s in league.sides if not s.accepted]:
                league.sides.remove(stale)
                await self.repo.delete_side(league.id, stale.side_no)
            for number, (fixtures, bye) in enumerate(round_robin([s.side_no for s in sides], double=league.double),
                                                     start=1):
                league.fixtures += [Fixture(0, number, a, b) for a, b in fixtures]
                if bye is not None:
                    league.byes[number] = bye
            league.status, league.current_round = "running", 1
            league.round_deadline = self.clock.now() + league.round_days * DAY
            await self.repo.draw(league)
            self._arm(league)
        log.info("league %d: draw made, %d rounds", league.id, league.rounds)
        self._tell("signup_changed", league)
        self._tell("round_started", league)
        return league

    # ------------------------------------------------------------------ playing

    async def play(self, league: League, *, user_id: int, locale: str | None = None) -> tuple[str, Fixture]:
        """«Jugar»: the caller's side is ready for its fixture of the current round. When the other side
        is ready too, the table opens (a thread of the league channel, the league's rules). ``locale``: the
        caller's language, kept as their seat's from now on (a newcomer put in by the organizer's
        `replace` had none of their own).

        Returns:
            ``("waiting", fixture)``, ``("opened", fixture)`` (``table_id`` set) or ``("playing",
            fixture)`` (its table is already open).

        Raises:
            LeagueError: ``err.league_not_running``, ``err.league_not_in``, ``err.league_no_fixture``
            (nothing to play this round), ``err.league_seated`` (params: table; seated elsewhere).
        """
        async with self._lock:
            if league.status != "running":
                raise LeagueError("err.league_not_running", league=league.id)
            side = league.side_of(user_id)
            if side is None or not side.accepted:
                raise LeagueError("err.league_not_in", league=league.id)
            if locale is not None:
                await self._keep_locale(league, side, user_id, locale)
            fixture = next((f for f in league.fixtures if f.round == league.current_round and not f.resolved
                            and side.side_no in (f.side_a, f.side_b)), None)
            if fixture is None:
                raise LeagueError("err.league_no_fixture", league=league.id, round=league.current_round)
            if fixture.status == "playing":
                if await table_in_play(self.tables, fixture.table_id):
                    return "playing", fixture
                # ended without a result: the fixture is to play again, and both sides press «Jugar» anew
                fixture.status, fixture.table_id, fixture.ready_a, fixture.ready_b = "pending", None, None, None
            now = self.clock.now()
            if side.side_no == fixture.side_a:
                fixture.ready_a = now
            else:
                fixture.ready_b = now
            if fixture.ready_a is None or fixture.ready_b is None:
                await self.repo.save_fixture(fixture)
                self._tell("round_changed", league, fixture.round)  # everyone sees who is ready
                return "waiting", fixture
            for person in [*league.side(fixture.side_a).users, *league.side(fixture.side_b).users]:
                seated = self.tables.table_of_user(person)
                if seated is not None:
                    await self.repo.save_fixture(fixture)
                    self._tell("round_changed", league, fixture.round)
                    raise LeagueError("err.league_seated", table=seated.id)
            await self._open(league, fixture)
            self._tell("round_changed", league, fixture.round)
            return "opened", fixture

    async def _keep_locale(self, league: League, side: Side, user_id: int, locale: str) -> None:
        """Under the lock: ``locale`` becomes the language of ``user_id``'s seat in ``side``."""
        if side.user1 == user_id and side.locale1 != locale:
            side.locale1 = locale
        elif side.user2 == user_id and side.locale2 != locale:
            side.locale2 = locale
        else:
            return
        await self.repo.replace_user(league.id, side)

    async def _open(self, league: League, fixture: Fixture) -> None:
        """Under the lock: open the fixture's table and seat both sides (side A on team A)."""
        if self.presenter is None:
            raise LeagueError("err.generic")
        place = await self.presenter.make_channel(league, fixture)
        a, b = league.side(fixture.side_a), league.side(fixture.side_b)
        people: list[tuple[int | None, str | None, str, int]] = [(a.user1, a.name1, a.locale1, 0),
                                                                 (b.user1, b.name1, b.locale1, 1)]
        if league.mode == "2v2":
            people = [(a.user1, a.name1, a.locale1, 0), (a.user2, a.name2, a.locale2, 0),
                      (b.user1, b.name1, b.locale1, 1), (b.user2, b.name2, b.locale2, 1)]
        user, name, locale, _ = people[0]
        table = await self.tables.create(guild_id=league.guild_id, channel_id=place.channel_id, user_id=user,  # type: ignore[arg-type]
                                         name=name or "?", locale=locale, players=len(people), preset=league.preset,
                                         guild_name=place.guild_name, channel_name=place.channel_name,
                                         refereed="league")
        fixture.status, fixture.table_id = "playing", table.id
        self._watched.add(table.id)
        await self.repo.save_fixture(fixture)
        for user, name, locale, team in people[1:]:
            await self.tables.join(table.id, user_id=user, name=name or "?", locale=locale,  # type: ignore[arg-type]
                                   team=team if league.mode == "2v2" else None)
        log.info("league %d: fixture %d opened table %d", league.id, fixture.id, table.id)

    def _playing(self, table_id: int) -> tuple[League, Fixture] | None:
        """The league and fixture still ``playing`` on table ``table_id``, if any."""
        for league in self.leagues.values():
            fixture = next((f for f in league.fixtures if f.table_id == table_id and f.status == "playing"), None)
            if fixture is not None:
                return league, fixture
        return None

    async def _record(self, league: League, fixture: Fixture, table: Table) -> None:
        """Record the result of ``fixture`` from its finished ``table``, inside the caller's transaction;
        the next round and the announcements follow after it (`_after_result`)."""
        game = table.game
        assert game is not None and game.winner is not None
        tantos = [0, 0]
        zapateria = False
        for event in game.events:
            if event.kind == EventKind.CHICA_WON and event.scores:
                tantos[0] += event.scores[0]
                tantos[1] += event.scores[1]
            elif event.kind == EventKind.MESA_WON:
                zapateria = bool(event.zapatero)
        fixture.status = "done"
        fixture.winner = fixture.side_a if game.winner == 0 else fixture.side_b
        fixture.chicas = (game.chicas[0], game.chicas[1])
        fixture.tantos = (tantos[0], tantos[1])
        fixture.zapateria = zapateria
        self._watched.discard(table.id)
        await self.repo.record_result(fixture)
        log.info("league %d: fixture %d played", league.id, fixture.id)
        self._spawn(self._after_result(league, fixture))

    async def _after_result(self, league: League, fixture: Fixture) -> None:
        self._tell("result", league, fixture)
        async with self._lock:
            await self._maybe_next_round(league)

    # ------------------------------------------------------------------ rounds and deadlines

    def _arm(self, league: League) -> None:
        lid = league.id
        if league.status != "running" or league.round_deadline is None:
            self.scheduler.cancel(("deadline", lid))
            self.scheduler.cancel(("remind", lid))
            return
        rnd = league.current_round
        self.scheduler.arm(("deadline", lid), league.round_deadline, lambda: self._deadline(lid, rnd))
        if not league.reminded and league.round_days > 1:
            self.scheduler.arm(("remind", lid), league.round_deadline - REMIND_BEFORE, lambda: self._remind(lid, rnd))

    async def _remind(self, league_id: int, rnd: int) -> None:
        league = self.leagues.get(league_id)
        if league is None or league.current_round != rnd or league.reminded or league.status != "running":
            return
        league.reminded = True
        await self.repo.save_league(league)
        waiting = [f for f in league.fixtures if f.round == rnd and f.status == "pending"]
        if waiting:
            self._tell("reminder", league, waiting)

    async def _deadline(self, league_id: int, rnd: int) -> None:
        async with self._lock:
            league = self.leagues.get(league_id)
            if league is None or league.status != "running" or league.current_round != rnd:
                return
            if league.round_deadline is not None and self.clock.now() < league.round_deadline:
                self._arm(league)
                return
            in_play = False
            for fixture in [f for f in league.fixtures if f.round == rnd and not f.resolved]:
                if fixture.status == "playing" and await table_in_play(self.tables, fixture.table_id):
                    in_play = True  # its result comes with its last play, or it is looked at again
                    continue
                table = await finished_table(self.tables, fixture.table_id) if fixture.status == "playing" else None
                if table is not None:  # its mesa ended in another process, whose notice did not come
                    async with self.repo.store.db.transaction():
                        await self._record(league, fixture, table)
                    continue
                await self._decide_by_policy(league, fixture)  # unplayed, or its table ended without a result
            if in_play:
                self.scheduler.arm(("deadline", league_id), self.clock.now() + RECHECK_AFTER,
                                   lambda: self._deadline(league_id, rnd))
            await self._maybe_next_round(league)

    async def _decide_by_policy(self, league: League, fixture: Fixture) -> None:
        showed = [s for s, ready in ((fixture.side_a, fixture.ready_a), (fixture.side_b, fixture.ready_b)) if ready]
        if league.policy == "walkover" and len(showed) == 1:
            fixture.status, fixture.winner = "walkover", showed[0]
        else:
            fixture.status, fixture.winner = "double_loss", None
        await self.repo.save_fixture(fixture)
        log.info("league %d: fixture %d decided at the deadline (%s)", league.id, fixture.id, fixture.status)
        self._tell("result", league, fixture)

    async def _maybe_next_round(self, league: League) -> None:
        """Under the lock: when every fixture of the current round has a result, start the next round, or
        finish the league after the last one."""
        if league.status != "running":
            return
        if any(not f.resolved for f in league.fixtures if f.round == league.current_round):
            return
        if league.current_round >= league.rounds:
            league.status, league.round_deadline = "finished", None
            await self.repo.save_league(league)
            self._arm(league)
            self.leagues.pop(league.id, None)
            log.info("league %d finished", league.id)
            self._tell("finished", league)
            return
        league.current_round += 1
        league.round_deadline = self.clock.now() + league.round_days * DAY
        league.reminded = False
        await self.repo.save_league(league)
        self._arm(league)
        self._tell("round_started", league)


def _next_no(league: League) -> int:
    return 1 + max((s.side_no for s in league.sides), default=0)
