-- Migration 4 (issue 11): the matchmaking queue.
-- queue_entries: who waits for a match. One entry per person (a person waits in one queue at a time,
--   across servers too). joined_at is the place in the queue (kept when a proposed match falls through);
--   renewed_at is when they joined or last said "still here" (the 30-minute expiry counts from it);
--   reminded: the 20-minute "still there?" went out for this renewal. Times are UTC seconds.
-- queue_channels: each server's queue channel (matches open as threads there) and its queue message.
CREATE TABLE queue_entries (
    user_id INTEGER PRIMARY KEY,
    guild_id INTEGER NOT NULL,
    mode TEXT NOT NULL CHECK (mode IN ('1v1', '2v2')),
    name TEXT NOT NULL,
    locale TEXT NOT NULL,
    joined_at REAL NOT NULL,
    renewed_at REAL NOT NULL,
    reminded INTEGER NOT NULL DEFAULT 0 CHECK (reminded IN (0, 1))
);
CREATE INDEX queue_entries_order ON queue_entries (guild_id, mode, joined_at);
CREATE TABLE queue_channels (
    guild_id INTEGER PRIMARY KEY,
    channel_id INTEGER NOT NULL,
    message_id INTEGER
);
