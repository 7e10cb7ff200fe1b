-- Migration 18: the messages a league or a tournament keeps current, so that a restart still edits them:
-- each round's message (its fixtures and «Jugar»: round >= 1) and the one standings (league) or bracket
-- (tournament) message (round 0). kind: 'league' or 'tournament'; competition_id: the league's or the
-- tournament's id; mentions: the round message's content (its pings), kept as it was by every edit.
CREATE TABLE competition_messages (
    kind TEXT NOT NULL,
    competition_id INTEGER NOT NULL,
    round INTEGER NOT NULL,
    guild_id INTEGER NOT NULL,
    channel_id INTEGER NOT NULL,
    message_id INTEGER NOT NULL,
    mentions TEXT,
    PRIMARY KEY (kind, competition_id, round)
);
