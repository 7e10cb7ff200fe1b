-- Migration 3 (issue 6): turn timers, AFK and substitutions.
-- tables.timers: JSON of bot.tables.model.Timers — turn_timer (s), the current turn's absolute deadline
--   (UTC seconds), the nonce and seat it waits for, whether the 2/3 reminder went out, consecutive
--   expiries per seat, and the lobby's own deadline. Stored so timers resume after a restart.
-- tables.casual: 1 once the mesa became casual (unrated) — a person left, was removed or kicked, or a
--   computer player took an away person's seat. The ratings hook must not rate such a mesa.
-- guild_settings.turn_timer: the server's default turn timer in seconds (30–300).
ALTER TABLE tables ADD COLUMN timers TEXT NOT NULL DEFAULT '{}';
ALTER TABLE tables ADD COLUMN casual INTEGER NOT NULL DEFAULT 0 CHECK (casual IN (0, 1));
ALTER TABLE guild_settings ADD COLUMN turn_timer INTEGER NOT NULL DEFAULT 90
    CHECK (turn_timer BETWEEN 30 AND 300);
