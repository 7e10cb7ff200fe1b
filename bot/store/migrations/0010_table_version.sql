-- Migration 10 (issue 13): a table's version, bumped by every save of its state. A process that finds a
-- newer version than the one it holds in memory (another process saved the table) reloads it first.
ALTER TABLE tables ADD COLUMN version INTEGER NOT NULL DEFAULT 0;
