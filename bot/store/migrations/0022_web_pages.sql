-- Migration 22: a server's opt-in to its public web pages (`bot.web`, `/cuarenta ajustes web:sí`).
-- guild_settings.web_pages: 1 when the server's admins turned the pages on; 0 (the default): every URL of the
-- server answers 404.
ALTER TABLE guild_settings ADD COLUMN web_pages INTEGER NOT NULL DEFAULT 0 CHECK (web_pages IN (0, 1));
