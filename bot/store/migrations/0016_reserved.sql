-- Migration 16: reserved, changes nothing. Another branch adds its own migration 16; when it is merged,
-- this file goes (its number is taken) and migration 17 follows that one.
SELECT 1;
