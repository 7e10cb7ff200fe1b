-- Migration 16: where `/cuarenta new` in a text channel opens its table, a server setting
-- (`bot.ratings.Settings.table_place`): 'channel' (the default: the table plays in that channel, in sight of
-- everyone) or 'thread' (a public thread of the channel is opened for each table, and the table plays there).
ALTER TABLE guild_settings ADD COLUMN table_place TEXT NOT NULL DEFAULT 'channel'
    CHECK (table_place IN ('channel', 'thread'));
