-- Migration 7 (issue 11): who may organize competitions besides Manage Server.
-- organizer_role: members with this role may create leagues and tournaments and use the organizer tools.
CREATE TABLE competition_settings (
    guild_id INTEGER PRIMARY KEY,
    organizer_role INTEGER
);
