-- Migration 14: a ping whose last edit failed (Discord answered with an error) keeps the words it should show,
-- the match's end: a restart then shows them instead of saying the match was dropped. NULL: the ping still
-- asks to accept, and a restart dropped its proposal.
ALTER TABLE queue_pings ADD COLUMN final TEXT;
