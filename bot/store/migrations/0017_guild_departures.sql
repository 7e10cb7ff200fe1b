-- Migration 17: when the bot left a server, so that the server's data is pruned a number of days later
-- (PRUNE_DAYS_AFTER_LEAVE, `bot.privacy`). left_at: UTC seconds. The row goes when the bot joins the server
-- again, or with the server's data when it is pruned.
CREATE TABLE guild_departures (
    guild_id INTEGER PRIMARY KEY,
    left_at REAL NOT NULL
);
