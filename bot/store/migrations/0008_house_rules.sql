-- Migration 8 (issue 14): a server's default house rules and whether mesas under house rules are rated.
-- house: JSON {Rules field: value}, applied on top of the server's default preset for new tables.
-- rated: 1 = a mesa under house rules is rated like a named preset; 0 (default) = it is casual.
CREATE TABLE house_settings (
    guild_id INTEGER PRIMARY KEY,
    house TEXT NOT NULL DEFAULT '{}',
    rated INTEGER NOT NULL DEFAULT 0 CHECK (rated IN (0, 1))
);
