-- Migration 21: rank roles. rank_roles: the Discord roles the bot created for a server's rank tiers (tier 0 is
-- the lowest), so that it only ever gives, takes or deletes these; no row: rank roles are off. rank_members:
-- each player's current tier, the memory that lets a player keep a tier within the margin below it. A tier's
-- threshold (shown rating) is the admin's choice (/cuarenta settings rank_tiers:), the defaults otherwise.
CREATE TABLE rank_roles (
    guild_id INTEGER NOT NULL,
    tier INTEGER NOT NULL,
    role_id INTEGER NOT NULL,
    threshold INTEGER NOT NULL,
    PRIMARY KEY (guild_id, tier)
);
CREATE TABLE rank_members (
    guild_id INTEGER NOT NULL,
    user_id INTEGER NOT NULL,
    tier INTEGER NOT NULL,
    PRIMARY KEY (guild_id, user_id)
);
