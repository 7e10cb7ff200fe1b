"""Tournaments refereed by the bot: single elimination or Swiss, 1 v 1, a match the best of 1 or 3
mesas, players seeded by the server's 1 v 1 rating.

The written rules, as built:

- Seeding: by the server's current-season 1 v 1 rating at the draw (unrated players count as 1500), ties
  by sign-up order. Elimination: the bracket is the next power of two; the usual seeding order (1 v 8,
  4 v 5, 2 v 7, 3 v 6 …), so the byes go to the top seeds. Swiss: `swiss.pair_round` each round, a bye
  (one point) to the lowest-ranked player without one; standings by points, Buchholz, seed.
- A match is played like a league fixture: both players press «Jugar» and the table opens in a thread
  of the tournament channel. Each mesa's result is recorded in the transaction of its last play
  (a `TableService.mesa_hooks` hook); a best-of-3 match goes on (press «Jugar» again) until one player
  has two mesas. A table that ends without a winner records nothing.
- At a round's deadline an unfinished match follows the policy: a walkover for the player who pressed
  «Jugar» (neither or both: a double loss), or always a double loss. In elimination, a double loss sends
  nobody through: the next opponent advances by bye.
- The organizer (creator or Manage Server) can award a walkover and cancel.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Protocol

from bot.engine import Rules, RulesError
from bot.store import Store, storable_id
from bot.store.db import Database, rows_of
from bot.tables import Table, TableService
from bot.tables.timers import Clock, Scheduler

from .background import Background
from .referee import RECHECK_AFTER, Place, ResultsFromElsewhere, finished_table, table_in_play
from .repo import QueueRepo
from .swiss import SwissRow, pair_round
from .tournament_model import (
    Match,
    Player,
    Tournament,
    TournamentError,
    bracket_order,
    champion_of,
    swiss_table,
)

log = logging.getLogger(__name__)

DAY = 86400.0


class TournamentPresenter(Protocol):
    """What tournaments tell Discord (`bot.competitions.tournament_present.TournamentDiscord`)."""

    async def signup_changed(self, tournament: Tournament) -> None:
        """Post or edit the sign-up message."""

    async def round_started(self, tournament: Tournament) -> None:
        """Post the round's matches with «Jugar»."""

    async def result(self, tournament: Tournament, match: Match) -> None:
        """A match (or one of its mesas) got a result."""

    async def round_changed(self, tournament: Tournament, rnd: int) -> None:
        """Round ``rnd`` changed without a result (a player pressed «Jugar», a table opened): bring its
        message up to date."""

    async def reminder(self, tournament: Tournament, matches: list[Match]) -> None:
        """A day before the deadline: ping the players of these unfinished matches."""

    async def finished(self, tournament: Tournament) -> None:
        """The champion and the final bracket or standings (or the cancellation)."""

    async def make_channel(self, tournament: Tournament, match: Match) -> Place:
        """Open the place of a match's table."""


class TournamentService(ResultsFromElsewhere, Background):
    """Every tournament of every server (a small repository of its own SQL is at the end)."""

    def __init__(self, store: Store, tables: TableService, clock: Clock,
                 presenter: TournamentPresenter | None = None) -> None:
        self.store = store
        self.ratings = QueueRepo(store)
        self.tables = tables
        self.clock = clock
        self.presenter = presenter
        self.tournaments: dict[int, Tournament] = {}
        self._lock = asyncio.Lock()
        self._init_background()
        self.scheduler = Scheduler(clock, self._spawn)
        self._init_results()

    async def load(self) -> int:
        """Restore the open tournaments of the servers this process runs (`TableService.serves_guild`) and
        re-arm their deadlines. A match whose table's mesa ended meanwhile is recorded from the stored
        table."""
        for t in await self._load_open():
            if not self.tables.serves_guild(t.guild_id):
                continue  # another process runs that server, and its tournaments (docs/SCALING.md §7)
            self.tournaments[t.id] = t
            self._arm(t)
            for m in t.matches:
                if m.status == "playing" and m.table_id is not None:
                    self._watched.add(m.table_id)
                    self._spawn(self.settle(m.table_id))
        return len(self.tournaments)

    # ------------------------------------------------------------------ queries

    def pick(self, guild_id: int, tournament_id: int | None, user_id: int | None = None) -> Tournament:
        """The tournament a command means (named, else the caller's, else the server's only open one).

        Raises:
            TournamentError: ``err.tournament_unknown``, ``err.tournament_none``, ``err.tournament_which``.
        """
        if tournament_id is not None:
            found = self.tournaments.get(tournament_id)
            if found is None or found.guild_id != guild_id:
                raise TournamentError("err.tournament_unknown", tournament=tournament_id)
            return found
        here = [t for t in self.tournaments.values() if t.guild_id == guild_id]
        mine = [t for t in here if user_id is not None and t.player(user_id) is not None]
        if len(mine) == 1:
            return mine[0]
        if len(here) == 1:
            return here[0]
        if not here:
            raise TournamentError("err.tournament_none")
        raise TournamentError("err.tournament_which", tournaments=", ".join(f"#{t.id} {t.name}" for t in here))

    def swiss_standings(self, t: Tournament) -> list[SwissRow[int]]:
        """Swiss standings by points, Buchholz, seed (byes one point)."""
        return swiss_table(t)

    # ------------------------------------------------------------------ creating and signing up

    async def create(self, *, guild_id: int, channel_id: int, organizer_id: int, name: str, format: str,
                     swiss_rounds: int = 0, best_of: int = 1, preset: str = "quito", round_days: int = 3,
                     policy: str = "walkover") -> Tournament:
        """Create a tournament in sign-up.

        Raises:
            TournamentError: ``err.league_bad`` (params: what) for a bad name, format, rounds, preset,
            best-of, days or policy.
        """
        name = name.strip()
        if not 1 <= len(name) <= 60:
            raise TournamentError("err.league_bad", what="name")
        if format not in ("elimination", "swiss") or (format == "swiss" and not 1 <= swiss_rounds <= 12):
            raise TournamentError("err.league_bad", what="rounds")
        try:
            Rules.preset(preset)
        except RulesError:
            raise TournamentError("err.league_bad", what="preset") from None
        if best_of not in (1, 3) or not 1 <= round_days <= 60 or policy not in ("walkover", "double_loss"):
            raise TournamentError("err.league_bad", what="days")
        t = Tournament(0, guild_id, channel_id, name, format, swiss_rounds if format == "swiss" else 0, best_of,
                       preset, round_days, policy, "signup", organizer_id)
        async with self._lock:
            t.id = await self._insert(t)
            self.tournaments[t.id] = t
        self._tell("signup_changed", t)
        return t

    async def sign_up(self, t: Tournament, *, user_id: int, name: str, locale: str) -> Player:
        """Sign up.

        Raises:
            TournamentError: ``err.tournament_closed``, ``err.tournament_signed``.
        """
        async with self._lock:
            if t.status != "signup":
                raise TournamentError("err.tournament_closed", tournament=t.id)
            if t.player(user_id) is not None:
                raise TournamentError("err.tournament_signed", tournament=t.id)
            player = Player(user_id, name, locale)
            t.players.append(player)
            await self._exec([("INSERT INTO tournament_players (tournament_id, user_id, name, locale, position)"
                                " VALUES (?, ?, ?, ?, ?)", (t.id, user_id, name, locale, len(t.players)))])
        self._tell("signup_changed", t)
        return player

    async def close_signup(self, t: Tournament, *, user_id: int, can_manage: bool) -> Tournament:
        """Seed the players by rating and start round 1.

        Raises:
            TournamentError: ``err.tournament_not_organizer``, ``err.tournament_closed``, ``err.league_few``.
        """
        if not (can_manage or t.organizer_id == user_id):
            raise TournamentError("err.tournament_not_organizer")
        async with self._lock:
            if t.status != "signup":
                raise TournamentError("err.tournament_closed", tournament=t.id)
            if len(t.players) < 2:
                raise TournamentError("err.league_few")
            ratings = await self.ratings.ratings(t.guild_id, "1v1", [p.user_id for p in t.players])
            order = sorted(range(len(t.players)), key=lambda i: (-ratings.get(t.players[i].user_id, 1500.0), i))
            for seed, i in enumerate(order, start=1):
                t.players[i].seed = seed
            t.status = "running"
            await self._exec([("UPDATE tournament_players SET seed = ? WHERE tournament_id = ? AND user_id = ?",
                               (p.seed, t.id, p.user_id)) for p in t.players])
            await self._start_round(t, 1)
        self._tell("signup_changed", t)
        return t

    # ------------------------------------------------------------------ rounds

    async def _start_round(self, t: Tournament, rnd: int) -> None:
        """Under the lock: make round ``rnd``'s matches and arm its deadline."""
        by_seed = {p.seed: p.user_id for p in t.players}
        pairs: list[tuple[int | None, int | None]] = []
        if t.format == "elimination":
            if rnd == 1:
                size = 2 ** t.total_rounds
                order = bracket_order(size)
                pairs = [(by_seed.get(order[2 * k]), by_seed.get(order[2 * k + 1])) for k in range(size // 2)]
            else:
                prev = sorted((m for m in t.matches if m.round == rnd - 1), key=lambda m: m.slot)
                pairs = [(prev[2 * k].winner, prev[2 * k + 1].winner) for k in range(len(prev) // 2)]
        else:
            ranked = [r.player for r in self.swiss_standings(t)]
            met: dict[int, set[int]] = {p.user_id: set() for p in t.players}
            for m in t.matches:
                if m.a_user is not None and m.b_user is not None:
                    met[m.a_user].add(m.b_user)
                    met[m.b_user].add(m.a_user)
            had_bye = {m.a_user for m in t.matches if m.b_user is None and m.a_user is not None}
            found, bye = pair_round(ranked, met, had_bye)
            pairs = [(a, b) for a, b in found] + ([(bye, None)] if bye is not None else [])
        t.current_round = rnd
        t.round_deadline = self.clock.now() + t.round_days * DAY
        t.reminded = False
        async with self._db.transaction():  # the round's matches and the tournament's new state: one commit
            for slot, (a, b) in enumerate(pairs):
                if a is None and b is not None:
                    a, b = b, None
                m = Match(0, rnd, slot, a, b)
                if b is None:  # a bye (or, in a bracket, nobody at all when both fed a double loss)
                    m.status, m.winner = ("walkover", a) if a is not None else ("double_loss", None)
                t.matches.append(m)
                m.id = await self._insert_match(t, m)
            await self._exec([("UPDATE tournaments SET status = ?, current_round = ?, round_deadline = ?,"
                               " reminded = 0 WHERE id = ?", (t.status, t.current_round, t.round_deadline, t.id))])
        self._arm(t)
        log.info("tournament %d: round %d with %d matches", t.id, rnd, len(pairs))
        self._tell("round_started", t)
        await self._maybe_next_round(t)

    async def _maybe_next_round(self, t: Tournament) -> None:
        if t.status != "running" or any(not m.resolved for m in t.matches if m.round == t.current_round):
            return
        if t.current_round >= t.total_rounds:
            t.status, t.round_deadline = "finished", None
            await self._exec([("UPDATE tournaments SET status = 'finished', round_deadline = NULL WHERE id = ?",
                               (t.id,))])
            self._arm(t)
            self.tournaments.pop(t.id, None)
            log.info("tournament %d finished", t.id)
            self._tell("finished", t)
            return
        await self._start_round(t, t.current_round + 1)

    def champion(self, t: Tournament) -> int | None:
        """The winner: the final's winner, or the top of the Swiss standings (`tournament_model.champion_of`)."""
        return champion_of(t)

    # ------------------------------------------------------------------ playing

    async def play(self, t: Tournament, *, user_id: int) -> tuple[str, Match]:
        """«Jugar» for the caller's match of this round (its next mesa).

        Returns:
            ``("waiting" | "opened" | "playing", match)``.

        Raises:
            TournamentError: ``err.tournament_not_running``, ``err.tournament_no_match``,
            ``err.league_seated`` (params: table).
        """
        async with self._lock:
            if t.status != "running":
                raise TournamentError("err.tournament_not_running", tournament=t.id)
            m = next((m for m in t.matches if m.round == t.current_round and not m.resolved
                      and user_id in (m.a_user, m.b_user)), None)
            if m is None:
                raise TournamentError("err.tournament_no_match", tournament=t.id, round=t.current_round)
            if m.status == "playing":
                if await table_in_play(self.tables, m.table_id):
                    return "playing", m
                m.status, m.table_id, m.ready_a, m.ready_b = "pending", None, None, None
            now = self.clock.now()
            if user_id == m.a_user:
                m.ready_a = now
            else:
                m.ready_b = now
            if m.ready_a is None or m.ready_b is None:
                await self._save_match(m)
                self._tell("round_changed", t, m.round)  # everyone sees who is ready
                return "waiting", m
            for person in (m.a_user, m.b_user):
                seated = self.tables.table_of_user(person)  # type: ignore[arg-type]
                if seated is not None:
                    await self._save_match(m)
                    raise TournamentError("err.league_seated", table=seated.id)
            if self.presenter is None:
                raise TournamentError("err.generic")
            place = await self.presenter.make_channel(t, m)
            a, b = t.player(m.a_user), t.player(m.b_user)
            assert a is not None and b is not None
            table = await self.tables.create(guild_id=t.guild_id, channel_id=place.channel_id, user_id=a.user_id,
                                             name=a.name, locale=a.locale, players=2, preset=t.preset,
                                             guild_name=place.guild_name, channel_name=place.channel_name,
                                             refereed="tournament")
            m.status, m.table_id = "playing", table.id
            self._watched.add(table.id)
            await self._save_match(m)
            await self.tables.join(table.id, user_id=b.user_id, name=b.name, locale=b.locale)
            self._tell("round_changed", t, m.round)
            return "opened", m

    def _playing(self, table_id: int) -> tuple[Tournament, Match] | None:
        """The tournament and match still ``playing`` on table ``table_id``, if any."""
        for t in self.tournaments.values():
            m = next((m for m in t.matches if m.table_id == table_id and m.status == "playing"), None)
            if m is not None:
                return t, m
        return None

    async def _record(self, t: Tournament, m: Match, table: Table) -> None:
        """Count the mesa won on ``table`` for match ``m``, inside the caller's transaction: the match is
        won, or (best of 3) goes on to the next mesa; the next round and the announcements follow after
        it (`_after_result`)."""
        game = table.game
        assert game is not None and game.winner is not None
        if game.winner == 0:
            m.wins_a += 1
        else:
            m.wins_b += 1
        need = 2 if t.best_of == 3 else 1
        if max(m.wins_a, m.wins_b) >= need:
            m.status, m.winner = "done", m.a_user if m.wins_a >= need else m.b_user
        else:  # best of 3 goes on: the next mesa, when both press «Jugar» again
            m.status, m.table_id, m.ready_a, m.ready_b = "pending", None, None, None
        self._watched.discard(table.id)
        await self._db.execute(_MATCH_UPDATE, *_match_params(m))  # in the mesa's save transaction
        self._spawn(self._after_result(t, m))

    async def _after_result(self, t: Tournament, m: Match) -> None:
        self._tell("result", t, m)
        async with self._lock:
            await self._maybe_next_round(t)

    # ------------------------------------------------------------------ deadlines and organizer tools

    def _arm(self, t: Tournament) -> None:
        tid, rnd = t.id, t.current_round
        if t.status == "running" and t.round_deadline is not None:
            self.scheduler.arm(("deadline", tid), t.round_deadline, lambda: self._deadline(tid, rnd))
            if not t.reminded and t.round_days > 1:
                self.scheduler.arm(("remind", tid), t.round_deadline - DAY, lambda: self._remind(tid, rnd))
        else:
            self.scheduler.cancel(("deadline", tid))
            self.scheduler.cancel(("remind", tid))

    async def _remind(self, tournament_id: int, rnd: int) -> None:
        """A day before the deadline (once per round, stored): ping the players of unfinished matches."""
        t = self.tournaments.get(tournament_id)
        if t is None or t.status != "running" or t.current_round != rnd or t.reminded:
            return
        t.reminded = True
        await self._exec([("UPDATE tournaments SET reminded = 1 WHERE id = ?", (t.id,))])
        waiting = [m for m in t.matches if m.round == rnd and not m.resolved]
        if waiting:
            self._tell("reminder", t, waiting)

    async def _deadline(self, tournament_id: int, rnd: int) -> None:
        """The round's deadline: every match of the round not decided and not in play is decided
        (`_decide_at_deadline`), after its last mesa is counted if it ended in another process unseen. A
        match still in play is looked at again (`RECHECK_AFTER`)."""
        async with self._lock:
            t = self.tournaments.get(tournament_id)
            if t is None or t.status != "running" or t.current_round != rnd:
                return
            if t.round_deadline is not None and self.clock.now() < t.round_deadline:
                self._arm(t)
                return
            in_play = False
            for m in [m for m in t.matches if m.round == rnd and not m.resolved]:
                if m.status == "playing" and await table_in_play(self.tables, m.table_id):
                    in_play = True  # its result comes with its last play, or it is looked at again
                    continue
                table = await finished_table(self.tables, m.table_id) if m.status == "playing" else None
                if table is not None:  # its mesa ended in another process, whose notice did not come
                    async with self._db.transaction():
                        await self._record(t, m, table)
                    if not m.resolved:  # best of 3: the next mesa was not played in time
                        await self._decide_at_deadline(t, m)
                    continue
                await self._decide_at_deadline(t, m)  # unplayed, or its table ended without a result
            if in_play:
                self.scheduler.arm(("deadline", tournament_id), self.clock.now() + RECHECK_AFTER,
                                   lambda: self._deadline(tournament_id, rnd))
            await self._maybe_next_round(t)

    async def _decide_at_deadline(self, t: Tournament, m: Match) -> None:
        """Under the lock, at the deadline: match ``m`` was not played out. In a best of 3 the side ahead on
        mesas won takes it; otherwise the policy: a walkover for the only player who pressed «Jugar», else
        a double loss."""
        showed = [u for u, r in ((m.a_user, m.ready_a), (m.b_user, m.ready_b)) if r]
        ahead = m.a_user if m.wins_a > m.wins_b else m.b_user if m.wins_b > m.wins_a else None
        if ahead is not None:
            m.status, m.winner = "done", ahead
        elif t.policy == "walkover" and len(showed) == 1:
            m.status, m.winner = "walkover", showed[0]
        else:
            m.status, m.winner = "double_loss", None
        await self._save_match(m)
        self._tell("result", t, m)

    async def award_walkover(self, t: Tournament, *, user_id: int, can_manage: bool, winner_user: int) -> Match:
        """The organizer gives ``winner_user``'s match of this round to them.

        Raises:
            TournamentError: ``err.tournament_not_organizer``, ``err.tournament_no_match``.
        """
        if not (can_manage or t.organizer_id == user_id):
            raise TournamentError("err.tournament_not_organizer")
        async with self._lock:
            m = next((m for m in t.matches if m.round == t.current_round and not m.resolved
                      and winner_user in (m.a_user, m.b_user)), None)
            if m is None:
                raise TournamentError("err.tournament_no_match", tournament=t.id, round=t.current_round)
            m.status, m.winner = "walkover", winner_user
            await self._save_match(m)
            self._tell("result", t, m)
            await self._maybe_next_round(t)
        return m

    async def cancel(self, t: Tournament, *, user_id: int, can_manage: bool) -> Tournament:
        """Cancel (no champion).

        Raises:
            TournamentError: ``err.tournament_not_organizer``.
        """
        if not (can_manage or t.organizer_id == user_id):
            raise TournamentError("err.tournament_not_organizer")
        async with self._lock:
            t.status, t.round_deadline = "cancelled", None
            await self._exec([("UPDATE tournaments SET status = 'cancelled', round_deadline = NULL WHERE id = ?",
                               (t.id,))])
            self._arm(t)
            self.tournaments.pop(t.id, None)
        self._tell("finished", t)
        return t

    # ------------------------------------------------------------------ SQL (migration 0006)

    @property
    def _db(self) -> Database:
        return self.store.db

    async def _exec(self, statements: list[tuple[str, tuple[object, ...]]]) -> None:
        async with self._db.transaction():
            for sql, params in statements:
                await self._db.execute(sql, *params)

    async def _insert(self, t: Tournament) -> int:
        return await self._db.insert(
            "INSERT INTO tournaments (guild_id, channel_id, name, format, swiss_rounds, best_of, preset, round_days,"
            " policy, organizer_id) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            t.guild_id, t.channel_id, t.name, t.format, t.swiss_rounds, t.best_of, t.preset, t.round_days,
            t.policy, t.organizer_id)

    async def save_signup_message(self, t: Tournament) -> None:
        """Store the sign-up message id."""
        await self._exec([("UPDATE tournaments SET signup_message_id = ? WHERE id = ?", (t.signup_message_id, t.id))])

    async def _insert_match(self, t: Tournament, m: Match) -> int:
        return await self._db.insert(
            "INSERT INTO tournament_matches (tournament_id, round, slot, a_user, b_user, status, winner)"
            " VALUES (?, ?, ?, ?, ?, ?, ?)", t.id, m.round, m.slot, m.a_user, m.b_user, m.status, m.winner)

    async def _save_match(self, m: Match) -> None:
        await self._exec([(_MATCH_UPDATE, _match_params(m))])

    async def why_not_open(self, tournament_id: int, guild_id: int) -> TournamentError:
        """Why tournament ``tournament_id`` of this server is not open: ``err.tournament_over`` or
        ``err.tournament_was_cancelled`` (with its name) when it ended, else ``err.tournament_unknown``.
        Reads the store: for a refusal only (an old button or a command that names an ended tournament)."""
        if not storable_id(tournament_id):
            return TournamentError("err.tournament_unknown", tournament=tournament_id)
        async with rows_of(self._db, "SELECT guild_id, status, name FROM tournaments WHERE id = ?",
                           (tournament_id,)) as cursor:
            row = await cursor.fetchone()
        if row is not None and int(row[0]) == guild_id and str(row[1]) in ("finished", "cancelled"):
            key = "err.tournament_over" if row[1] == "finished" else "err.tournament_was_cancelled"
            return TournamentError(key, tournament=tournament_id, name=str(row[2]))
        return TournamentError("err.tournament_unknown", tournament=tournament_id)

    async def _load_open(self) -> list[Tournament]:
        async with rows_of(self._db,
                "SELECT id, guild_id, channel_id, name, format, swiss_rounds, best_of, preset, round_days, policy,"
                " status, organizer_id, signup_message_id, current_round, round_deadline, reminded FROM tournaments"
                " WHERE status IN ('signup', 'running') ORDER BY id") as cursor:
            rows = await cursor.fetchall()
        out = []
        for r in rows:
            t = Tournament(int(r[0]), int(r[1]), int(r[2]), str(r[3]), str(r[4]), int(r[5]), int(r[6]), str(r[7]),
                           int(r[8]), str(r[9]), str(r[10]), int(r[11]), int(r[12]) if r[12] is not None else None,
                           int(r[13]), float(r[14]) if r[14] is not None else None, bool(r[15]))
            async with rows_of(self._db, "SELECT user_id, name, locale, seed FROM tournament_players"
                                        " WHERE tournament_id = ? ORDER BY position, user_id", (t.id,)) as cursor:
                t.players = [Player(int(p[0]), str(p[1]), str(p[2]), int(p[3])) for p in await cursor.fetchall()]
            async with rows_of(self._db,
                    "SELECT id, round, slot, a_user, b_user, status, wins_a, wins_b, winner, table_id, ready_a, ready_b"
                    " FROM tournament_matches WHERE tournament_id = ? ORDER BY round, slot", (t.id,)) as cursor:
                t.matches = [Match(int(m[0]), int(m[1]), int(m[2]), m[3], m[4], str(m[5]), int(m[6]), int(m[7]),
                                   m[8], m[9], m[10], m[11]) for m in await cursor.fetchall()]
            out.append(t)
        return out


_MATCH_UPDATE = ("UPDATE tournament_matches SET status = ?, wins_a = ?, wins_b = ?, winner = ?, table_id = ?,"
                 " ready_a = ?, ready_b = ? WHERE id = ?")


def _match_params(m: Match) -> tuple[object, ...]:
    return (m.status, m.wins_a, m.wins_b, m.winner, m.table_id, m.ready_a, m.ready_b, m.id)
