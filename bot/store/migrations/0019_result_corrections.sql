-- Migration 19: the history of results an organizer entered or corrected by hand, one row per change.
-- kind 'league' (fixture_id: league_fixtures.id) or 'tournament' (fixture_id: tournament_matches.id);
-- competition_id: the league's or tournament's id; guild_id: its server. by_user: who changed it (the
-- organizer); at: UTC seconds. before_result / after_result: the fixture's result as text
-- (`bot.competitions.corrections.result_code`: status, winner, chicas). reason: the organizer's words.
CREATE TABLE result_corrections (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    guild_id INTEGER NOT NULL,
    kind TEXT NOT NULL CHECK (kind IN ('league', 'tournament')),
    competition_id INTEGER NOT NULL,
    fixture_id INTEGER NOT NULL,
    round INTEGER NOT NULL,
    by_user INTEGER NOT NULL,
    at REAL NOT NULL,
    reason TEXT NOT NULL,
    before_result TEXT NOT NULL,
    after_result TEXT NOT NULL
);
CREATE INDEX result_corrections_competition ON result_corrections (kind, competition_id);
