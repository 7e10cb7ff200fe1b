-- Migration 5 (issue 11): casual leagues, refereed by the bot.
-- leagues: one per competition of a server. mode 1v1 or 2v2 (fixed pairs); preset: the rules of every
--   mesa; double: double round robin; round_days: the length of a round; points: win / loss / bonus for
--   a win by zapatería; policy at a round's deadline: 'walkover' (the side that pressed «Jugar» and waited
--   wins; neither: a double loss) or 'double_loss'. status: signup, running, finished, cancelled.
--   round_deadline (UTC seconds) and reminded belong to current_round (0 before the draw).
-- league_sides: the players (1v1) or fixed pairs (2v2), in sign-up order (side_no); pending pairs have
--   accepted = 0 until the partner accepts the invitation. removed: taken out by the organizer.
-- league_fixtures: the draw. status pending, playing (table_id set), done, walkover (winner set, no
--   chicas), double_loss. ready_a / ready_b: UTC seconds when each side pressed «Jugar».
CREATE TABLE leagues (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    guild_id INTEGER NOT NULL,
    channel_id INTEGER NOT NULL,
    name TEXT NOT NULL,
    mode TEXT NOT NULL CHECK (mode IN ('1v1', '2v2')),
    preset TEXT NOT NULL,
    double INTEGER NOT NULL DEFAULT 0 CHECK (double IN (0, 1)),
    round_days INTEGER NOT NULL CHECK (round_days BETWEEN 1 AND 60),
    win_points INTEGER NOT NULL DEFAULT 2,
    loss_points INTEGER NOT NULL DEFAULT 0,
    zapateria_bonus INTEGER NOT NULL DEFAULT 0,
    policy TEXT NOT NULL DEFAULT 'walkover' CHECK (policy IN ('walkover', 'double_loss')),
    status TEXT NOT NULL DEFAULT 'signup' CHECK (status IN ('signup', 'running', 'finished', 'cancelled')),
    organizer_id INTEGER NOT NULL,
    signup_message_id INTEGER,
    current_round INTEGER NOT NULL DEFAULT 0,
    round_deadline REAL,
    reminded INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX leagues_guild ON leagues (guild_id, status);
CREATE TABLE league_sides (
    league_id INTEGER NOT NULL REFERENCES leagues (id),
    side_no INTEGER NOT NULL,
    user1 INTEGER NOT NULL,
    user2 INTEGER,
    name1 TEXT NOT NULL,
    name2 TEXT,
    locale1 TEXT NOT NULL DEFAULT 'es',
    locale2 TEXT NOT NULL DEFAULT 'es',
    accepted INTEGER NOT NULL DEFAULT 1 CHECK (accepted IN (0, 1)),
    removed INTEGER NOT NULL DEFAULT 0 CHECK (removed IN (0, 1)),
    PRIMARY KEY (league_id, side_no)
);
CREATE TABLE league_fixtures (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    league_id INTEGER NOT NULL REFERENCES leagues (id),
    round INTEGER NOT NULL,
    side_a INTEGER NOT NULL,
    side_b INTEGER NOT NULL,
    status TEXT NOT NULL DEFAULT 'pending'
        CHECK (status IN ('pending', 'playing', 'done', 'walkover', 'double_loss')),
    table_id INTEGER,
    winner INTEGER,
    chicas_a INTEGER NOT NULL DEFAULT 0,
    chicas_b INTEGER NOT NULL DEFAULT 0,
    tantos_a INTEGER NOT NULL DEFAULT 0,
    tantos_b INTEGER NOT NULL DEFAULT 0,
    zapateria INTEGER NOT NULL DEFAULT 0,
    ready_a REAL,
    ready_b REAL
);
CREATE INDEX league_fixtures_round ON league_fixtures (league_id, round);
CREATE UNIQUE INDEX league_fixtures_table ON league_fixtures (table_id) WHERE table_id IS NOT NULL;
CREATE TABLE league_byes (
    league_id INTEGER NOT NULL REFERENCES leagues (id),
    round INTEGER NOT NULL,
    side_no INTEGER NOT NULL,
    PRIMARY KEY (league_id, round)
);
