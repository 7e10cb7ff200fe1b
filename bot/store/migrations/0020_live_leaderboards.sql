-- Migration 19: the live leaderboard messages an admin pinned with /cuarenta leaderboard pinned:yes, at
-- most one per server and mode, so that a restarted bot goes on editing them. mode: '1v1' or '2v2'.
CREATE TABLE live_leaderboards (
    guild_id INTEGER NOT NULL,
    mode TEXT NOT NULL CHECK (mode IN ('1v1', '2v2')),
    channel_id INTEGER NOT NULL,
    message_id INTEGER NOT NULL,
    PRIMARY KEY (guild_id, mode)
);
