"""The SQL of members' data (`bot.privacy.repo`) and its service, on both backends: every table of the
migrated schema is classified (a new one fails here until it is), a member's rows hold nobody else's, a
deletion removes ratings and names and anonymizes seats while the other player's rows stay whole, a
deletion is refused while something of theirs is open, and a server's rows are pruned after the bot left it,
not before, and not once it came back."""

from __future__ import annotations

import json
import re

import pytest

from bot.privacy import ANONYMOUS_NAME, SCHEMA, USER_COLUMNS, PrivacyService, SeatedError
from bot.privacy.repo import PRUNE_ORDER, PrivacyRepo
from bot.privacy.service import DAY, CompetingError, QueuedError
from bot.store import Database, Store
from bot.tables.timers import ManualClock

ANA, BETO = 300000000000000001, 300000000000000002
GA, GB = 900000000000000001, 900000000000000002
PERSON_COLUMN = re.compile(r"(user|host|organizer|_by$|^name\d?$|^asked)")
"""Column names that would hold a person (or their name)."""
NOT_PEOPLE = {("seasons", "name"), ("leagues", "name"), ("tournaments", "name"),
              ("competition_settings", "organizer_role")}
"""Columns of that look that name things (a season, a competition, a role), not people."""


@pytest.fixture
async def store(database_url):
    store = await Store.open(database_url)
    yield store
    await store.close()


async def columns(db: Database) -> dict[str, list[str]]:
    """Every table of the migrated schema with its columns (but ``schema_version``)."""
    if db.dialect == "sqlite":
        names = [r[0] for r in await db.fetch(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")]
        out = {n: [c[1] for c in await db.fetch(f"PRAGMA table_info({n})")] for n in names}
    else:
        out = {}
        for r in await db.fetch("SELECT table_name, column_name FROM information_schema.columns"
                                " WHERE table_schema = 'public' ORDER BY ordinal_position"):
            out.setdefault(r[0], []).append(r[1])
    out.pop("schema_version", None)
    return out


async def test_every_table_and_every_column_holding_a_person_is_known(store):
    schema = await columns(store.db)
    assert set(schema) == set(SCHEMA), "classify the new table in bot.privacy.repo.SCHEMA (and USER_COLUMNS)"
    assert set(PRUNE_ORDER) == set(SCHEMA)
    for table, key in SCHEMA.items():
        assert key in schema[table], (table, key)
    for table, cols in schema.items():
        people = {c for c in cols if PERSON_COLUMN.search(c) and (table, c) not in NOT_PEOPLE}
        assert people <= set(USER_COLUMNS.get(table, {})), f"{table}: {people} hold a person: list them in USER_COLUMNS"
    for table, cols in USER_COLUMNS.items():
        assert set(cols) <= set(schema[table]), table


def seat(user_id, name):
    return {"user_id": user_id, "name": name, "ai": None, "ai_number": 0, "locale": "es"}


async def seed(db: Database, guild: int, tag: str) -> dict[str, int]:
    """A server's worth of rows where ana and beto played: a finished mesa (a table, its plays and result),
    an open lobby of beto's, a season with ratings, a chica with its two seats, closed standings, beto in
    the queue, a finished league and tournament ana played, server settings."""
    ids: dict[str, int] = {}
    ids["finished"] = await db.insert(
        "INSERT INTO tables (guild_id, channel_id, host_id, players, preset, status, seed, seats, meta)"
        " VALUES (?, ?, ?, 2, 'quito', 'finished', 's', ?, ?)", guild, guild + 10, ANA,
        json.dumps([seat(ANA, f"Ana {tag}"), seat(BETO, f"Beto {tag}")]),
        json.dumps({"guild_name": tag, "seat_history": [{"seat": 0, "until": 3, "held_by": seat(ANA, "Ana old")}]}))
    await db.execute("INSERT INTO plays (table_id, seq, seat, card, captures) VALUES (?, 0, 0, '7D', '')",
                     ids["finished"])
    await db.execute(
        "INSERT INTO mesas (table_id, guild_id, channel_id, preset, players, seed, winner, chicas_a, chicas_b,"
        " zapateria, seats) VALUES (?, ?, ?, 'quito', 2, 's', 0, 2, 1, 0, ?)",
        ids["finished"], guild, guild + 10, json.dumps([ANA, BETO]))
    ids["lobby"] = await db.insert(
        "INSERT INTO tables (guild_id, channel_id, host_id, players, preset, status, seats, meta)"
        " VALUES (?, ?, ?, 2, 'quito', 'lobby', ?, '{}')", guild, guild + 11, BETO,
        json.dumps([seat(BETO, f"Beto {tag}"), None]))
    ids["season"] = season = await db.insert(
        "INSERT INTO seasons (guild_id, number, reset_policy, started_at) VALUES (?, 1, 'soft', '2026-01-01T00:00:00Z')",
        guild)
    for user in (ANA, BETO):
        await db.execute("INSERT INTO ratings (season_id, mode, user_id, mu, sigma, display, peak, games)"
                         " VALUES (?, '1v1', ?, 25, 8, 1500, 1500, 3)", season, user)
        await db.execute("INSERT INTO season_standings (season_id, mode, rank, user_id, display, sigma, games,"
                         " wins, losses) VALUES (?, '1v1', ?, ?, 1500, 8, 3, 1, 2)", season, 1 if user == ANA else 2, user)
    chica = await db.insert(
        "INSERT INTO chicas (guild_id, table_id, chica_number, season_id, mode, rated, winner, score_a, score_b,"
        " zapatero, reason, finished_at) VALUES (?, ?, 1, ?, '1v1', 1, 0, 40, 20, 0, 'points', '2026-01-02T00:00:00Z')",
        guild, ids["finished"], season)
    for s, user in enumerate((ANA, BETO)):
        await db.execute("INSERT INTO chica_players (chica_id, seat, team, guild_id, user_id, won) VALUES (?, ?, ?, ?, ?, ?)",
                         chica, s, s, guild, user, int(s == 0))
    await db.execute("INSERT INTO queue_entries (user_id, guild_id, mode, name, locale, joined_at, renewed_at)"
                     " VALUES (?, ?, '1v1', ?, 'es', 1, 1)", BETO + guild % 7, guild, f"Beto {tag}")
    league = await db.insert(
        "INSERT INTO leagues (guild_id, channel_id, name, mode, preset, round_days, status, organizer_id)"
        " VALUES (?, ?, 'Liga', '1v1', 'quito', 7, 'finished', ?)", guild, guild + 10, BETO)
    await db.execute("INSERT INTO league_sides (league_id, side_no, user1, name1) VALUES (?, 0, ?, ?)",
                     league, ANA, f"Ana {tag}")
    await db.execute("INSERT INTO league_sides (league_id, side_no, user1, name1) VALUES (?, 1, ?, ?)",
                     league, BETO, f"Beto {tag}")
    await db.execute("INSERT INTO league_fixtures (league_id, round, side_a, side_b, status, winner)"
                     " VALUES (?, 1, 0, 1, 'done', 0)", league)
    tour = await db.insert(
        "INSERT INTO tournaments (guild_id, channel_id, name, format, preset, round_days, status, organizer_id)"
        " VALUES (?, ?, 'Copa', 'elimination', 'quito', 7, 'finished', ?)", guild, guild + 10, ANA)
    for user, name in ((ANA, f"Ana {tag}"), (BETO, f"Beto {tag}")):
        await db.execute("INSERT INTO tournament_players (tournament_id, user_id, name) VALUES (?, ?, ?)",
                         tour, user, name)
    await db.execute("INSERT INTO tournament_matches (tournament_id, round, slot, a_user, b_user, status, winner)"
                     " VALUES (?, 1, 0, ?, ?, 'done', 0)", tour, ANA, BETO)
    await db.execute("INSERT INTO result_corrections (guild_id, kind, competition_id, fixture_id, round, by_user, at,"
                     " reason, before_result, after_result) VALUES (?, 'tournament', ?, 1, 1, ?, 1, 'Mal anotado',"
                     " 'pending:-:0-0', 'walkover:1:0-0')", guild, tour, ANA)
    await db.execute("INSERT INTO guild_settings (guild_id, language) VALUES (?, 'es')", guild)
    await db.execute("INSERT INTO house_settings (guild_id) VALUES (?)", guild)
    await db.execute("INSERT INTO queue_channels (guild_id, channel_id) VALUES (?, ?)", guild, guild + 12)
    return ids


async def dump(db: Database) -> str:
    """Every row of every table, as text."""
    parts = []
    for table in SCHEMA:
        parts += [f"{table} {list(r)}" for r in await db.fetch(f"SELECT * FROM {table}")]
    return "\n".join(parts)


async def test_a_members_rows_hold_theirs_in_both_servers_and_nobody_elses(store):
    await seed(store.db, GA, "A")
    await seed(store.db, GB, "B")
    rows = await PrivacyRepo(store.db).rows(ANA)
    text = json.dumps(rows)
    assert str(BETO) not in text and "Beto" not in text, "nothing of beto's"
    assert len(rows["ratings"]) == 2 and {r["guild_id"] for r in rows["ratings"]} == {GA, GB}
    assert len(rows["chicas"]) == 2 and all(r["won"] == 1 for r in rows["chicas"])
    assert [m["seats"] for m in rows["mesas"]] == [[0], [0]]
    assert {s["name"] for t in rows["tables"] for s in t["seats"]} == {"Ana A", "Ana B"}
    assert rows["queue"] == [] and len(rows["league_sides"]) == 2 and len(rows["tournament_players"]) == 2
    assert len(rows["organized"]) == 2, "ana organized both tournaments"
    assert [r["reason"] for r in rows["result_corrections"]] == ["Mal anotado", "Mal anotado"], "her corrections"
    summary = await PrivacyRepo(store.db).summary(ANA)
    assert summary.servers == [GA, GB] and summary.names == ["Ana A", "Ana B", "Ana old"]
    assert (summary.finished_mesas, summary.open_tables, summary.chicas) == (2, 0, 2)


async def test_deleting_removes_ratings_and_names_anonymizes_seats_and_leaves_the_other_whole(store):
    await seed(store.db, GA, "A")
    await seed(store.db, GB, "B")
    beto_before = await PrivacyRepo(store.db).rows(BETO)
    service = PrivacyService(store, ManualClock())
    await service.delete(ANA)
    text = await dump(store.db)
    assert str(ANA) not in text and "Ana " not in text, "no row names ana, or her names"
    beto_after = await PrivacyRepo(store.db).rows(BETO)
    moved = [{**r, "rank": r["rank"] + 1} for r in beto_after.pop("season_standings")]
    assert moved == beto_before.pop("season_standings"), "beto moved up one place where ana was above him"
    assert beto_after == beto_before, "beto's other rows are untouched"
    assert await store.db.fetchval("SELECT COUNT(*) FROM ratings") == 2, "only beto's ratings remain"
    mesas = [json.loads(r[0]) for r in await store.db.fetch("SELECT seats FROM mesas ORDER BY table_id")]
    anon = mesas[0][0]
    assert anon < 0 and all(m == [anon, BETO] for m in mesas), "one anonymous id, in every mesa"
    row = await store.load_table(1)
    assert row.seats[0]["name"] == ANONYMOUS_NAME and row.seats[0]["user_id"] == anon and row.host_id == anon
    assert row.meta["seat_history"][0]["held_by"]["user_id"] == anon
    assert await store.db.fetchval("SELECT COUNT(*) FROM chica_players WHERE user_id = ?", anon) == 2
    assert len(await store.plays(1)) == 1, "the plays stay"


async def test_a_deletion_is_refused_while_something_of_theirs_is_open(store):
    await seed(store.db, GA, "A")
    service = PrivacyService(store, ManualClock())
    with pytest.raises(SeatedError) as refused:
        await service.delete(BETO)
    assert refused.value.params == {"tables": "#2"}
    await store.db.execute("UPDATE tables SET status = 'closed' WHERE id = 2")
    await store.db.execute("INSERT INTO queue_entries (user_id, guild_id, mode, name, locale, joined_at, renewed_at)"
                           " VALUES (?, ?, '1v1', 'b', 'es', 1, 1)", BETO, GA)
    with pytest.raises(QueuedError):
        await service.delete(BETO)
    await store.db.execute("DELETE FROM queue_entries")
    await store.db.execute("UPDATE leagues SET status = 'running'")
    with pytest.raises(CompetingError):
        await service.delete(BETO)
    assert await store.db.fetchval("SELECT COUNT(*) FROM ratings WHERE user_id = ?", BETO) == 1, "nothing deleted"


async def test_a_server_is_pruned_days_after_the_bot_left_not_before_and_not_once_it_came_back(store):
    await seed(store.db, GA, "A")
    await seed(store.db, GB, "B")
    repo = PrivacyRepo(store.db)
    kept_b = await repo.guild_rows(GB)
    assert await repo.guild_rows(GA) == kept_b > 20
    clock = ManualClock()
    service = PrivacyService(store, clock, prune_days=30)
    await service.guild_left(GA)
    await service.guild_left(GB)
    await service.guild_joined(GB)  # came back
    clock._now += 29 * DAY
    assert await service.prune_due() == []
    assert await repo.guild_rows(GA) == kept_b + 1, "all of A's rows, and the mark of the bot's leaving"
    clock._now += DAY
    assert await service.prune_due() == [GA]
    assert await repo.guild_rows(GA) == 0, "every row of A, in every table"
    assert await repo.guild_rows(GB) == kept_b, "B untouched"
    assert await service.prune_due() == []


async def test_a_seat_held_earlier_at_a_table_still_in_play_blocks_the_deletion_until_it_ends(store):
    table_id = await store.db.insert(
        "INSERT INTO tables (guild_id, channel_id, host_id, players, preset, status, seats, meta)"
        " VALUES (?, 5, ?, 2, 'quito', 'playing', ?, ?)", GA, BETO,
        json.dumps([seat(BETO, "Beto"), {"user_id": None, "name": "", "ai": "medio", "ai_number": 1, "locale": "es"}]),
        json.dumps({"seat_history": [{"seat": 1, "until": 4, "held_by": seat(ANA, "Ana")}]}))
    service = PrivacyService(store, ManualClock())
    with pytest.raises(SeatedError):
        await service.delete(ANA)
    await store.db.execute("UPDATE tables SET status = 'finished' WHERE id = ?", table_id)
    await service.delete(ANA)
    assert str(ANA) not in await dump(store.db) and "Ana" not in await dump(store.db)
