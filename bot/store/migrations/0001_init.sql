-- Migration 1: tables in play, their plays, finished mesas, per-guild settings.
CREATE TABLE guild_settings (
    guild_id INTEGER PRIMARY KEY,
    language TEXT NOT NULL DEFAULT 'es'
);

CREATE TABLE tables (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    guild_id INTEGER NOT NULL,
    channel_id INTEGER NOT NULL,
    host_id INTEGER,
    players INTEGER NOT NULL CHECK (players IN (2, 4)),
    preset TEXT NOT NULL,
    status TEXT NOT NULL CHECK (status IN ('lobby', 'playing', 'finished', 'closed')),
    seed TEXT,
    seats TEXT NOT NULL,                 -- JSON list, one entry per seat (null when empty)
    game TEXT,                           -- JSON of Game.to_dict(), null before the deal
    messages TEXT NOT NULL DEFAULT '{}', -- JSON: lobby / public message ids, per-seat DM ids
    meta TEXT NOT NULL DEFAULT '{}',     -- JSON: guild and channel names for DMs
    created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ', 'now')),
    updated_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ', 'now'))
);

-- A channel holds one open table.
CREATE UNIQUE INDEX tables_one_open_per_channel ON tables (channel_id) WHERE status IN ('lobby', 'playing');
CREATE INDEX tables_status ON tables (status);

CREATE TABLE plays (
    table_id INTEGER NOT NULL REFERENCES tables (id) ON DELETE CASCADE,
    seq INTEGER NOT NULL,                -- 0-based index in Game.plays
    seat INTEGER NOT NULL,
    card TEXT NOT NULL,
    captures TEXT NOT NULL,              -- space-separated card codes, '' for a trail
    played_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ', 'now')),
    PRIMARY KEY (table_id, seq)
);

CREATE TABLE mesas (
    table_id INTEGER PRIMARY KEY REFERENCES tables (id) ON DELETE CASCADE,
    guild_id INTEGER NOT NULL,
    channel_id INTEGER NOT NULL,
    preset TEXT NOT NULL,
    players INTEGER NOT NULL,
    seed TEXT NOT NULL,
    winner INTEGER NOT NULL,             -- team 0 (A) or 1 (B)
    chicas_a INTEGER NOT NULL,
    chicas_b INTEGER NOT NULL,
    zapateria INTEGER NOT NULL,
    seats TEXT NOT NULL,                 -- JSON: user ids (null for computer players) by seat
    finished_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ', 'now'))
);
CREATE INDEX mesas_guild ON mesas (guild_id);
