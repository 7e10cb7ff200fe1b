-- Ratings (issue 4): server settings, seasons, per-season ratings, finished chicas and their seats,
-- frozen season standings. Depends only on migration 1 (guild_settings, mesas).
-- Times are ISO-8601 UTC text 'YYYY-MM-DDTHH:MM:SSZ', like migration 1. Modes are '1v1' and '2v2'.

-- Server settings live beside the language (one row per guild; a missing row means the defaults).
ALTER TABLE guild_settings ADD COLUMN rate_bots INTEGER NOT NULL DEFAULT 0 CHECK (rate_bots IN (0, 1));
ALTER TABLE guild_settings ADD COLUMN min_games INTEGER NOT NULL DEFAULT 10 CHECK (min_games >= 0);
ALTER TABLE guild_settings ADD COLUMN active_days INTEGER NOT NULL DEFAULT 30 CHECK (active_days >= 0);
ALTER TABLE guild_settings ADD COLUMN reset_policy TEXT NOT NULL DEFAULT 'soft'
    CHECK (reset_policy IN ('none', 'soft', 'hard'));
ALTER TABLE guild_settings ADD COLUMN default_preset TEXT NOT NULL DEFAULT 'quito';

CREATE TABLE seasons (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    guild_id INTEGER NOT NULL,
    number INTEGER NOT NULL,             -- 1, 2, 3 … within the guild
    name TEXT,                           -- null: shown as "Season N"
    reset_policy TEXT NOT NULL CHECK (reset_policy IN ('none', 'soft', 'hard')),  -- applied at its start
    started_at TEXT NOT NULL,
    ended_at TEXT,                       -- null while it is the current season
    UNIQUE (guild_id, number)
);
CREATE UNIQUE INDEX seasons_one_current ON seasons (guild_id) WHERE ended_at IS NULL;

-- Current state per (season, mode, user); the season fixes the guild.
CREATE TABLE ratings (
    season_id INTEGER NOT NULL REFERENCES seasons (id),
    mode TEXT NOT NULL CHECK (mode IN ('1v1', '2v2')),
    user_id INTEGER NOT NULL,
    mu REAL NOT NULL,
    sigma REAL NOT NULL,
    display INTEGER NOT NULL,            -- cached 1500 + 24·(mu − 3·sigma), the leaderboard order
    games INTEGER NOT NULL DEFAULT 0,    -- rated chicas this season
    wins INTEGER NOT NULL DEFAULT 0,
    losses INTEGER NOT NULL DEFAULT 0,
    streak INTEGER NOT NULL DEFAULT 0,   -- +n: n wins in a row, -n: n losses in a row
    best_streak INTEGER NOT NULL DEFAULT 0,
    peak INTEGER NOT NULL,               -- highest display this season
    last_active TEXT,                    -- last rated chica (carried over by a reset)
    PRIMARY KEY (season_id, mode, user_id)
) WITHOUT ROWID;
-- Leaderboard pages walk this index in order; the viewer's rank counts rows ahead of them in it.
CREATE INDEX ratings_board ON ratings (season_id, mode, display DESC, user_id, games, last_active);

-- Finished chicas, rated or casual. (table_id, chica_number) makes recording exactly-once.
CREATE TABLE chicas (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    guild_id INTEGER NOT NULL,
    table_id INTEGER NOT NULL,           -- tables.id / mesas.table_id (no foreign key: ratings outlive tables)
    chica_number INTEGER NOT NULL,
    season_id INTEGER NOT NULL REFERENCES seasons (id),
    mode TEXT NOT NULL CHECK (mode IN ('1v1', '2v2')),
    rated INTEGER NOT NULL CHECK (rated IN (0, 1)),
    winner INTEGER NOT NULL CHECK (winner IN (0, 1)),
    score_a INTEGER NOT NULL,
    score_b INTEGER NOT NULL,
    zapatero INTEGER NOT NULL CHECK (zapatero IN (0, 1)),
    reason TEXT NOT NULL,
    finished_at TEXT NOT NULL,
    UNIQUE (table_id, chica_number)
);
CREATE INDEX chicas_guild_time ON chicas (guild_id, finished_at);

-- One row per seat of a finished chica (user_id null for a computer player), with the rating change
-- when the chica was rated.
CREATE TABLE chica_players (
    chica_id INTEGER NOT NULL REFERENCES chicas (id) ON DELETE CASCADE,
    seat INTEGER NOT NULL CHECK (seat BETWEEN 0 AND 3),
    team INTEGER NOT NULL CHECK (team IN (0, 1)),
    guild_id INTEGER NOT NULL,           -- copied from chicas for the per-user index
    user_id INTEGER,
    won INTEGER NOT NULL CHECK (won IN (0, 1)),
    caidas INTEGER NOT NULL DEFAULT 0,
    limpias INTEGER NOT NULL DEFAULT 0,
    rondas INTEGER NOT NULL DEFAULT 0,
    doble_rondas INTEGER NOT NULL DEFAULT 0,
    mu_before REAL, sigma_before REAL,   -- the update's input (sigma after idle-time growth); null if casual
    mu_after REAL, sigma_after REAL,
    display_before INTEGER,              -- shown rating before (as the leaderboard showed it) and after
    display_after INTEGER,
    PRIMARY KEY (chica_id, seat)
) WITHOUT ROWID;
CREATE INDEX chica_players_user ON chica_players (guild_id, user_id, chica_id) WHERE user_id IS NOT NULL;

-- The leaderboard of a closed season, as it stood when it was closed.
CREATE TABLE season_standings (
    season_id INTEGER NOT NULL REFERENCES seasons (id),
    mode TEXT NOT NULL CHECK (mode IN ('1v1', '2v2')),
    rank INTEGER NOT NULL,
    user_id INTEGER NOT NULL,
    display INTEGER NOT NULL,
    sigma REAL NOT NULL,
    games INTEGER NOT NULL,
    wins INTEGER NOT NULL,
    losses INTEGER NOT NULL,
    last_active TEXT,
    PRIMARY KEY (season_id, mode, rank),
    UNIQUE (season_id, mode, user_id)
);
