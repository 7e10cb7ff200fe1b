-- Migration 6 (issue 11): tournaments, refereed by the bot.
-- tournaments: format 'elimination' (single elimination, byes to the top seeds) or 'swiss' (swiss_rounds
--   rounds); best_of 1 or 3 mesas per match; the same deadline policy as leagues. status: signup,
--   running, finished, cancelled.
-- tournament_players: seed 1 = best (by the server's 1v1 rating at the draw), 0 before it.
-- tournament_matches: slot orders the matches of a round (in elimination, the winners of slots 2k and
--   2k+1 meet in slot k of the next round). b_user NULL: a bye. status pending, playing, done, walkover,
--   double_loss. wins_a / wins_b: mesas won in this match.
CREATE TABLE tournaments (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    guild_id INTEGER NOT NULL,
    channel_id INTEGER NOT NULL,
    name TEXT NOT NULL,
    format TEXT NOT NULL CHECK (format IN ('elimination', 'swiss')),
    swiss_rounds INTEGER NOT NULL DEFAULT 0,
    best_of INTEGER NOT NULL DEFAULT 1 CHECK (best_of IN (1, 3)),
    preset TEXT NOT NULL,
    round_days INTEGER NOT NULL CHECK (round_days BETWEEN 1 AND 60),
    policy TEXT NOT NULL DEFAULT 'walkover' CHECK (policy IN ('walkover', 'double_loss')),
    status TEXT NOT NULL DEFAULT 'signup' CHECK (status IN ('signup', 'running', 'finished', 'cancelled')),
    organizer_id INTEGER NOT NULL,
    signup_message_id INTEGER,
    current_round INTEGER NOT NULL DEFAULT 0,
    round_deadline REAL,
    reminded INTEGER NOT NULL DEFAULT 0 CHECK (reminded IN (0, 1))
);
CREATE TABLE tournament_players (
    tournament_id INTEGER NOT NULL REFERENCES tournaments (id),
    user_id INTEGER NOT NULL,
    name TEXT NOT NULL,
    locale TEXT NOT NULL DEFAULT 'es',
    seed INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (tournament_id, user_id)
);
CREATE TABLE tournament_matches (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    tournament_id INTEGER NOT NULL REFERENCES tournaments (id),
    round INTEGER NOT NULL,
    slot INTEGER NOT NULL,
    a_user INTEGER,
    b_user INTEGER,
    status TEXT NOT NULL DEFAULT 'pending'
        CHECK (status IN ('pending', 'playing', 'done', 'walkover', 'double_loss')),
    wins_a INTEGER NOT NULL DEFAULT 0,
    wins_b INTEGER NOT NULL DEFAULT 0,
    winner INTEGER,
    table_id INTEGER,
    ready_a REAL,
    ready_b REAL,
    UNIQUE (tournament_id, round, slot)
);
