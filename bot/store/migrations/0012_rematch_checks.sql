-- Migration 12: the rematch ready checks that are open (one per finished table), so that a restart resumes
-- them: their buttons keep working and they expire on time, their message edited. ``state`` is the check
-- as JSON (`bot.tables.rematch.ReadyCheck.to_dict`); the row goes when the check ends.
CREATE TABLE rematch_checks (
    table_id INTEGER PRIMARY KEY REFERENCES tables (id) ON DELETE CASCADE,
    state TEXT NOT NULL
);
