"""The SQL of a member's data and of a server's data: what the bot keeps about one person (summary and
export), their deletion (ratings and names deleted, seats in finished mesas anonymized), and the pruning of
a server's rows after the bot left it (``guild_departures``, migration 17).

Every table of the schema is named in `SCHEMA`: how its rows belong to a server (for `PrivacyRepo.prune_guild`)
and which of its columns hold a person (`USER_COLUMNS`, for the export and the deletion).
``tests/privacy/test_repo.py`` reads the migrated schema and fails when a table or a person's column is
missing here, so a new table is not forgotten.

Person columns are of three kinds: ``id`` (a Discord user id), ``name`` (a display name kept with it) and
``json`` (a JSON document holding user ids and names: a table's seats, its seat history, a mesa's seats,
a rematch check). A deleted person's user id becomes an *anonymous id*: a negative number (no Discord id
is negative) drawn once per deletion, the same in every row of that deletion, so the mesas and
competitions they played keep one consistent, nameless player; their name becomes `ANONYMOUS_NAME`.
"""

from __future__ import annotations

import json
import secrets
from dataclasses import dataclass, field
from typing import Any

from bot.store.db import Database

ANONYMOUS_NAME = "Jugador anónimo"
"""The name a deleted person's seats and competition entries keep (the same in every language: it is
stored data, not a message)."""

OPEN_TABLE_STATUSES = ("lobby", "playing")
ENDED_COMPETITION = ("finished", "cancelled")

USER_COLUMNS: dict[str, dict[str, str]] = {
    "tables": {"host_id": "id", "seats": "json", "meta": "json"},
    "mesas": {"seats": "json"},
    "ratings": {"user_id": "id"},
    "chica_players": {"user_id": "id"},
    "season_standings": {"user_id": "id"},
    "queue_entries": {"user_id": "id", "name": "name"},
    "leagues": {"organizer_id": "id"},
    "league_sides": {"user1": "id", "user2": "id", "name1": "name", "name2": "name"},
    "tournaments": {"organizer_id": "id"},
    "tournament_players": {"user_id": "id", "name": "name"},
    "tournament_matches": {"a_user": "id", "b_user": "id"},
    "rematch_checks": {"state": "json"},
    "result_corrections": {"by_user": "id"},
}
"""Per table, its columns that hold a person: ``id``, ``name`` or ``json`` (see the module docstring)."""

SCHEMA: dict[str, str] = {
    "guild_settings": "guild_id",
    "tables": "guild_id",
    "plays": "table_id",
    "mesas": "guild_id",
    "table_messages": "table_id",
    "rematch_checks": "table_id",
    "seasons": "guild_id",
    "ratings": "season_id",
    "season_standings": "season_id",
    "chicas": "guild_id",
    "chica_players": "guild_id",
    "queue_entries": "guild_id",
    "queue_channels": "guild_id",
    "queue_pings": "guild_id",
    "leagues": "guild_id",
    "league_sides": "league_id",
    "league_fixtures": "league_id",
    "league_byes": "league_id",
    "tournaments": "guild_id",
    "tournament_players": "tournament_id",
    "tournament_matches": "tournament_id",
    "competition_settings": "guild_id",
    "house_settings": "guild_id",
    "competition_messages": "guild_id",
    "live_leaderboards": "guild_id",
    "guild_departures": "guild_id",
    "result_corrections": "guild_id",
}
"""Every table of the schema (but the migrations' own ``schema_version``) and the column that ties its rows
to a server: ``guild_id`` directly, or the id of its parent (``table_id`` → ``tables``, ``season_id`` →
``seasons``, ``league_id`` → ``leagues``, ``tournament_id`` → ``tournaments``)."""

_PARENTS = {"table_id": "tables", "season_id": "seasons", "league_id": "leagues", "tournament_id": "tournaments"}

PRUNE_ORDER: tuple[str, ...] = (
    "chica_players", "chicas", "ratings", "season_standings", "seasons",
    "league_byes", "league_fixtures", "league_sides", "leagues",
    "tournament_matches", "tournament_players", "tournaments",
    "queue_entries", "queue_channels", "queue_pings", "competition_settings", "house_settings", "guild_settings",
    "competition_messages", "live_leaderboards", "rematch_checks", "table_messages", "plays", "mesas", "tables",
    "guild_departures", "result_corrections",
)
"""The order `PrivacyRepo.prune_guild` deletes in: children before their parents."""


def anonymous_id() -> int:
    """A fresh anonymous user id: a negative 62-bit number (Discord ids are positive), random so that it
    tells nothing about the person."""
    return -(secrets.randbits(62) + 1)


def _holds(value: Any, user_id: int) -> bool:
    """Whether the JSON value (decoded) names ``user_id`` anywhere (as a number)."""
    if isinstance(value, bool):
        return False
    if isinstance(value, int):
        return value == user_id
    if isinstance(value, dict):
        return any(_holds(v, user_id) for v in value.values())
    if isinstance(value, list):
        return any(_holds(v, user_id) for v in value)
    return False


def _own_seats(seats: list[Any], user_id: int) -> list[dict[str, Any]]:
    """The seats of a table's ``seats`` JSON that are ``user_id``'s, with their index."""
    return [{"seat": i, **s} for i, s in enumerate(seats) if isinstance(s, dict) and s.get("user_id") == user_id]


def _anonymize_seat(seat: Any, user_id: int, anon: int, names: frozenset[str] = frozenset()) -> Any:
    """A seat's JSON with ``user_id`` replaced by ``anon`` and their name by `ANONYMOUS_NAME`; a computer
    player that took their seat (``stands_for``, one of their ``names``) stands for the anonymous player."""
    if isinstance(seat, dict) and seat.get("user_id") == user_id:
        return {**seat, "user_id": anon, "name": ANONYMOUS_NAME, "locale": "es"}
    if isinstance(seat, dict) and seat.get("stands_for") in names:
        return {**seat, "stands_for": ANONYMOUS_NAME}
    return seat


def _names_in(seats: list[Any], history: Any, user_id: int) -> frozenset[str]:
    """Every name ``user_id`` had at a table: their seats' and their seat history's."""
    held = [h.get("held_by") for h in history if isinstance(h, dict)] if isinstance(history, list) else []
    return frozenset(s["name"] for s in [*seats, *held]
                     if isinstance(s, dict) and s.get("user_id") == user_id and s.get("name"))


@dataclass
class Summary:
    """What the bot keeps about one person, counted (for `bot.privacy.present`).

    Attributes:
        ratings: ``(guild_id, season number, mode, display, games)`` per rating row.
        chicas: finished chicas they played (rows of their statistics).
        finished_mesas, open_tables: finished mesas and open tables (lobby or in play) with their seat.
        leagues, tournaments: their entries (sides, players); ``organized``: competitions they organize.
        queued: they wait in the queue. names: every name kept with their seats and entries.
        servers: the servers all this belongs to.
    """

    ratings: list[tuple[int, int, str, int, int]] = field(default_factory=list)
    standings: int = 0
    chicas: int = 0
    finished_mesas: int = 0
    open_tables: int = 0
    leagues: int = 0
    tournaments: int = 0
    organized: int = 0
    queued: bool = False
    rematch_checks: int = 0
    names: list[str] = field(default_factory=list)
    servers: list[int] = field(default_factory=list)

    @property
    def empty(self) -> bool:
        """Nothing is kept about them."""
        return not (self.ratings or self.standings or self.chicas or self.finished_mesas or self.open_tables
                    or self.leagues or self.tournaments or self.organized or self.queued or self.rematch_checks)


@dataclass(frozen=True)
class Blockers:
    """What keeps a person's data from being deleted now: an open table (lobby or in play) they sit at, host or
    held a seat at earlier in its mesa (its seat history is rewritten only once it ends), an open rematch
    check, the queue, an unfinished league or tournament they play in or organize."""

    open_tables: list[int]
    queued: bool
    competitions: int
    rematch_checks: int

    @property
    def any(self) -> bool:
        """Something blocks the deletion."""
        return bool(self.open_tables or self.queued or self.competitions or self.rematch_checks)


class PrivacyRepo:
    """Reads, exports, anonymizes and prunes, over the store's `Database` (SQLite or PostgreSQL).

    Args:
        db: the open database.
    """

    def __init__(self, db: Database) -> None:
        self.db = db

    # ---------------------------------------------------------------- rows of one person

    async def _json_rows(self, table: str, key: str, column: str, user_id: int,
                         extra: str = "") -> list[tuple[Any, Any]]:
        """``(key, decoded column)`` of the rows of ``table`` whose JSON ``column`` names ``user_id`` (a text
        match narrows them, the decoded JSON decides)."""
        rows = await self.db.fetch(
            f"SELECT {key}, {column} FROM {table} WHERE {column} LIKE ?{extra}", f"%{user_id}%")
        out = []
        for row in rows:
            value = json.loads(row[1]) if row[1] else None
            if _holds(value, user_id):
                out.append((row[0], value))
        return out

    async def _tables(self, user_id: int) -> list[dict[str, Any]]:
        """Tables where they sat (now or earlier in the mesa) or that they opened, each with only their own
        seats."""
        rows = await self.db.fetch(
            "SELECT id, guild_id, channel_id, host_id, status, preset, players, seats, meta, created_at"
            " FROM tables WHERE host_id = ? OR seats LIKE ? OR meta LIKE ? ORDER BY id",
            user_id, f"%{user_id}%", f"%{user_id}%")
        out = []
        for row in rows:
            seats = json.loads(row["seats"])
            history = (json.loads(row["meta"]) or {}).get("seat_history") or []
            earlier = [{"seat": h.get("seat"), "until_play": h.get("until"), **h["held_by"]}
                       for h in history if isinstance(h, dict) and isinstance(h.get("held_by"), dict)
                       and h["held_by"].get("user_id") == user_id]
            own = _own_seats(seats, user_id)
            if not own and not earlier and row["host_id"] != user_id:
                continue
            out.append({"id": row["id"], "guild_id": row["guild_id"], "channel_id": row["channel_id"],
                        "status": row["status"], "preset": row["preset"], "players": row["players"],
                        "created_at": row["created_at"], "host": row["host_id"] == user_id,
                        "seats": own, "earlier_seats": earlier})
        return out

    async def _mesas(self, user_id: int) -> list[dict[str, Any]]:
        """Finished mesas where they held a seat: the result, and which seats were theirs."""
        out = []
        for table_id, seats in await self._json_rows("mesas", "table_id", "seats", user_id):
            row = await self.db.fetchrow(
                "SELECT table_id, guild_id, channel_id, preset, players, winner, chicas_a, chicas_b, zapateria,"
                " finished_at FROM mesas WHERE table_id = ?", table_id)
            if row is not None:
                out.append({**dict(row), "seats": [i for i, u in enumerate(seats) if u == user_id]})
        return out

    async def rows(self, user_id: int) -> dict[str, list[dict[str, Any]]]:
        """Every row that names ``user_id``, table by table, cut to what is theirs: a mesa's or table's
        other seats, a league side's partner, a match's opponent are left out. The export's content."""
        db = self.db
        out: dict[str, list[dict[str, Any]]] = {}
        out["ratings"] = [dict(r) for r in await db.fetch(
            "SELECT seasons.guild_id, seasons.number AS season, ratings.mode, ratings.mu, ratings.sigma,"
            " ratings.display, ratings.games, ratings.wins, ratings.losses, ratings.streak, ratings.best_streak,"
            " ratings.peak, ratings.last_active FROM ratings JOIN seasons ON seasons.id = ratings.season_id"
            " WHERE ratings.user_id = ? ORDER BY seasons.guild_id, seasons.number, ratings.mode", user_id)]
        out["season_standings"] = [dict(r) for r in await db.fetch(
            "SELECT seasons.guild_id, seasons.number AS season, s.mode, s.rank, s.display, s.sigma, s.games,"
            " s.wins, s.losses, s.last_active FROM season_standings s JOIN seasons ON seasons.id = s.season_id"
            " WHERE s.user_id = ? ORDER BY seasons.guild_id, seasons.number, s.mode", user_id)]
        out["chicas"] = [dict(r) for r in await db.fetch(
            "SELECT p.guild_id, c.table_id, c.chica_number, c.mode, c.rated, p.seat, p.team, p.won, p.caidas,"
            " p.limpias, p.rondas, p.doble_rondas, p.mu_before, p.sigma_before, p.mu_after, p.sigma_after,"
            " p.display_before, p.display_after, c.finished_at FROM chica_players p"
            " JOIN chicas c ON c.id = p.chica_id WHERE p.user_id = ? ORDER BY c.id, p.seat", user_id)]
        out["tables"] = await self._tables(user_id)
        out["mesas"] = await self._mesas(user_id)
        out["queue"] = [dict(r) for r in await db.fetch(
            "SELECT guild_id, mode, name, locale, joined_at, renewed_at FROM queue_entries WHERE user_id = ?",
            user_id)]
        sides = []
        for r in await db.fetch(
                "SELECT l.guild_id, s.league_id, l.name AS league, l.status, s.side_no, s.user1, s.user2,"
                " s.name1, s.name2, s.locale1, s.locale2, s.accepted, s.removed FROM league_sides s"
                " JOIN leagues l ON l.id = s.league_id WHERE s.user1 = ? OR s.user2 = ?"
                " ORDER BY s.league_id, s.side_no", user_id, user_id):
            n = "1" if r["user1"] == user_id else "2"
            sides.append({"guild_id": r["guild_id"], "league_id": r["league_id"], "league": r["league"],
                          "status": r["status"], "side_no": r["side_no"], "name": r[f"name{n}"],
                          "locale": r[f"locale{n}"], "accepted": r["accepted"], "removed": r["removed"]})
        out["league_sides"] = sides
        out["tournament_players"] = [dict(r) for r in await db.fetch(
            "SELECT t.guild_id, p.tournament_id, t.name AS tournament, t.status, p.name, p.locale, p.seed"
            " FROM tournament_players p JOIN tournaments t ON t.id = p.tournament_id WHERE p.user_id = ?"
            " ORDER BY p.tournament_id", user_id)]
        matches = []
        for r in await db.fetch(
                "SELECT tournament_id, round, slot, a_user, status, wins_a, wins_b, winner, table_id"
                " FROM tournament_matches WHERE a_user = ? OR b_user = ? ORDER BY tournament_id, round, slot",
                user_id, user_id):
            mine = "a" if r["a_user"] == user_id else "b"
            matches.append({"tournament_id": r["tournament_id"], "round": r["round"], "slot": r["slot"],
                            "side": mine, "status": r["status"], "wins_a": r["wins_a"], "wins_b": r["wins_b"],
                            "winner": r["winner"], "table_id": r["table_id"]})
        out["tournament_matches"] = matches
        out["organized"] = [
            *({"kind": "league", **dict(r)} for r in await db.fetch(
                "SELECT id, guild_id, name, status FROM leagues WHERE organizer_id = ? ORDER BY id", user_id)),
            *({"kind": "tournament", **dict(r)} for r in await db.fetch(
                "SELECT id, guild_id, name, status FROM tournaments WHERE organizer_id = ? ORDER BY id", user_id)),
        ]
        out["result_corrections"] = [dict(r) for r in await db.fetch(
            "SELECT guild_id, kind, competition_id, fixture_id, round, at, reason, before_result, after_result"
            " FROM result_corrections WHERE by_user = ? ORDER BY id", user_id)]
        checks = await self._json_rows("rematch_checks", "table_id", "state", user_id)
        out["rematch_checks"] = [{"table_id": table_id} for table_id, _ in checks]
        return out

    async def summary(self, user_id: int) -> Summary:
        """What is kept about ``user_id``, counted, in every server."""
        rows = await self.rows(user_id)
        s = Summary()
        s.ratings = [(r["guild_id"], r["season"], r["mode"], r["display"], r["games"]) for r in rows["ratings"]]
        s.standings = len(rows["season_standings"])
        s.chicas = len(rows["chicas"])
        s.finished_mesas = len(rows["mesas"])
        s.open_tables = sum(1 for t in rows["tables"] if t["status"] in OPEN_TABLE_STATUSES)
        s.leagues = len(rows["league_sides"])
        s.tournaments = len(rows["tournament_players"])
        s.organized = len(rows["organized"])
        s.queued = bool(rows["queue"])
        s.rematch_checks = len(rows["rematch_checks"])
        names = [seat.get("name") for t in rows["tables"] for seat in (*t["seats"], *t["earlier_seats"])]
        names += [r["name"] for key in ("queue", "league_sides", "tournament_players") for r in rows[key]]
        s.names = sorted({n for n in names if n})
        servers = {r["guild_id"] for key, items in rows.items() for r in items if "guild_id" in r}
        s.servers = sorted(servers)
        return s

    async def blockers(self, user_id: int) -> Blockers:
        """What keeps ``user_id``'s data from being deleted now (`Blockers`)."""
        tables = [t["id"] for t in await self._tables(user_id) if t["status"] in OPEN_TABLE_STATUSES]
        queued = await self.db.fetchval("SELECT 1 FROM queue_entries WHERE user_id = ?", user_id) is not None
        competitions = int(await self.db.fetchval(
            "SELECT COUNT(*) FROM league_sides s JOIN leagues l ON l.id = s.league_id"
            " WHERE (s.user1 = ? OR s.user2 = ?) AND s.removed = 0 AND l.status NOT IN ('finished', 'cancelled')",
            user_id, user_id) or 0)
        competitions += int(await self.db.fetchval(
            "SELECT COUNT(*) FROM tournament_players p JOIN tournaments t ON t.id = p.tournament_id"
            " WHERE p.user_id = ? AND t.status NOT IN ('finished', 'cancelled')", user_id) or 0)
        competitions += int(await self.db.fetchval(
            "SELECT (SELECT COUNT(*) FROM leagues WHERE organizer_id = ? AND status NOT IN ('finished', 'cancelled'))"
            " + (SELECT COUNT(*) FROM tournaments WHERE organizer_id = ? AND status NOT IN ('finished', 'cancelled'))",
            user_id, user_id) or 0)
        checks = len(await self._json_rows("rematch_checks", "table_id", "state", user_id))
        return Blockers(tables, queued, competitions, checks)

    # ---------------------------------------------------------------- deletion

    async def delete_user(self, user_id: int, anon: int) -> dict[str, int]:
        """Delete ``user_id``'s ratings and names and anonymize what others' histories need, in one
        transaction: their rating rows and closed-season standings go; their statistics rows of finished
        chicas, their seats in finished or closed tables and mesas, their entries in ended leagues and
        tournaments and the competitions they organized take the anonymous id ``anon`` and
        `ANONYMOUS_NAME`. The plays of a mesa are untouched (they name seats, not people), so its replay
        still works. The caller checks `blockers` first (in the same transaction). Returns the rows changed
        per table."""
        db = self.db
        done: dict[str, int] = {}
        async with db.transaction():
            done["ratings"] = await db.execute("DELETE FROM ratings WHERE user_id = ?", user_id)
            places = await db.fetch("SELECT season_id, mode, rank FROM season_standings WHERE user_id = ?", user_id)
            done["season_standings"] = await db.execute("DELETE FROM season_standings WHERE user_id = ?", user_id)
            for place in places:  # the others below move up one: a closed season's list has no gap
                below = await db.fetch("SELECT rank FROM season_standings WHERE season_id = ? AND mode = ?"
                                       " AND rank > ? ORDER BY rank", place["season_id"], place["mode"], place["rank"])
                for row in below:  # one at a time, upwards: (season, mode, rank) is the key
                    await db.execute("UPDATE season_standings SET rank = ? WHERE season_id = ? AND mode = ?"
                                     " AND rank = ?", row["rank"] - 1, place["season_id"], place["mode"], row["rank"])
            done["chica_players"] = await db.execute(
                "UPDATE chica_players SET user_id = ? WHERE user_id = ?", anon, user_id)
            done["queue_entries"] = await db.execute("DELETE FROM queue_entries WHERE user_id = ?", user_id)
            changed = 0
            for n in ("1", "2"):
                changed += await db.execute(
                    f"UPDATE league_sides SET user{n} = ?, name{n} = ?, locale{n} = 'es' WHERE user{n} = ?",
                    anon, ANONYMOUS_NAME, user_id)
            done["league_sides"] = changed
            done["tournament_players"] = await db.execute(
                "UPDATE tournament_players SET user_id = ?, name = ?, locale = 'es' WHERE user_id = ?",
                anon, ANONYMOUS_NAME, user_id)
            done["tournament_matches"] = (
                await db.execute("UPDATE tournament_matches SET a_user = ? WHERE a_user = ?", anon, user_id)
                + await db.execute("UPDATE tournament_matches SET b_user = ? WHERE b_user = ?", anon, user_id))
            done["leagues"] = await db.execute("UPDATE leagues SET organizer_id = ? WHERE organizer_id = ?",
                                               anon, user_id)
            done["tournaments"] = await db.execute(
                "UPDATE tournaments SET organizer_id = ? WHERE organizer_id = ?", anon, user_id)
            done["result_corrections"] = await db.execute(
                "UPDATE result_corrections SET by_user = ? WHERE by_user = ?", anon, user_id)
            done["tables"] = await self._anonymize_tables(user_id, anon)
            mesas = 0
            for table_id, seats in await self._json_rows("mesas", "table_id", "seats", user_id):
                await db.execute("UPDATE mesas SET seats = ? WHERE table_id = ?",
                                 json.dumps([anon if u == user_id else u for u in seats]), table_id)
                mesas += 1
            done["mesas"] = mesas
        return done

    async def _anonymize_tables(self, user_id: int, anon: int) -> int:
        """Rewrite the finished and closed tables that name ``user_id`` (host, seats, seat history)."""
        rows = await self.db.fetch(
            "SELECT id, host_id, seats, meta FROM tables WHERE status NOT IN ('lobby', 'playing')"
            " AND (host_id = ? OR seats LIKE ? OR meta LIKE ?)", user_id, f"%{user_id}%", f"%{user_id}%")
        changed = 0
        for row in rows:
            seats = json.loads(row["seats"])
            meta = json.loads(row["meta"]) or {}
            if not (row["host_id"] == user_id or _holds(seats, user_id) or _holds(meta, user_id)):
                continue
            history = meta.get("seat_history")
            names = _names_in(seats, history, user_id)
            seats = [_anonymize_seat(s, user_id, anon, names) for s in seats]
            if isinstance(history, list):
                meta["seat_history"] = [
                    {**h, "held_by": _anonymize_seat(h.get("held_by"), user_id, anon, names)}
                    if isinstance(h, dict) else h
                    for h in history]
            channel = meta.get("channel_name")
            if row["host_id"] == user_id and isinstance(channel, str) and any(n in channel for n in names):
                del meta["channel_name"]  # a table's thread is named for its host (`bot.ui.places.thread_name`)
            host = anon if row["host_id"] == user_id else row["host_id"]
            await self.db.execute("UPDATE tables SET host_id = ?, seats = ?, meta = ?, version = version + 1"
                                  " WHERE id = ?", host, json.dumps(seats), json.dumps(meta), row["id"])
            changed += 1
        return changed

    # ---------------------------------------------------------------- servers the bot left

    async def mark_left(self, guild_id: int, when: float) -> None:
        """Remember that the bot left server ``guild_id`` at ``when`` (UTC seconds); an earlier mark stays."""
        await self.db.execute("INSERT OR IGNORE INTO guild_departures (guild_id, left_at) VALUES (?, ?)",
                              guild_id, float(when))

    async def mark_joined(self, guild_id: int) -> None:
        """The bot is in server ``guild_id`` (again): its data is not to be pruned."""
        await self.db.execute("DELETE FROM guild_departures WHERE guild_id = ?", guild_id)

    async def left_at(self, guild_id: int) -> float | None:
        """When the bot left server ``guild_id`` (UTC seconds), or None when it has not (or came back)."""
        value = await self.db.fetchval("SELECT left_at FROM guild_departures WHERE guild_id = ?", guild_id)
        return float(value) if value is not None else None

    async def known_guilds(self) -> set[int]:
        """Every server the database holds something of: tables, settings, seasons, competitions, queues."""
        rows = await self.db.fetch(
            "SELECT guild_id FROM tables UNION SELECT guild_id FROM guild_settings UNION SELECT guild_id FROM seasons"
            " UNION SELECT guild_id FROM leagues UNION SELECT guild_id FROM tournaments"
            " UNION SELECT guild_id FROM queue_channels UNION SELECT guild_id FROM house_settings"
            " UNION SELECT guild_id FROM competition_settings")
        return {int(r[0]) for r in rows}

    async def departed_before(self, when: float) -> list[int]:
        """The servers the bot left at or before ``when`` (UTC seconds), by id."""
        rows = await self.db.fetch("SELECT guild_id FROM guild_departures WHERE left_at <= ? ORDER BY guild_id",
                                   float(when))
        return [int(r[0]) for r in rows]

    async def prune_guild(self, guild_id: int) -> int:
        """Delete every row of server ``guild_id``, in every table of `SCHEMA` (children first,
        `PRUNE_ORDER`), in one transaction. Returns the number of rows deleted."""
        total = 0
        async with self.db.transaction():
            for table in PRUNE_ORDER:
                key = SCHEMA[table]
                if key == "guild_id":
                    total += await self.db.execute(f"DELETE FROM {table} WHERE guild_id = ?", guild_id)
                else:
                    parent = _PARENTS[key]
                    total += await self.db.execute(
                        f"DELETE FROM {table} WHERE {key} IN (SELECT id FROM {parent} WHERE guild_id = ?)", guild_id)
        return total

    async def guild_rows(self, guild_id: int) -> int:
        """How many rows of every table of `SCHEMA` belong to server ``guild_id`` (tests and the log)."""
        total = 0
        for table, key in SCHEMA.items():
            if key == "guild_id":
                total += int(await self.db.fetchval(f"SELECT COUNT(*) FROM {table} WHERE guild_id = ?", guild_id))
            else:
                total += int(await self.db.fetchval(
                    f"SELECT COUNT(*) FROM {table} WHERE {key} IN (SELECT id FROM {_PARENTS[key]} WHERE guild_id = ?)",
                    guild_id))
        return total


__all__ = ["ANONYMOUS_NAME", "PRUNE_ORDER", "SCHEMA", "USER_COLUMNS", "Blockers", "PrivacyRepo", "Summary",
           "anonymous_id"]
