-- Migration 13: the pings of proposed queue matches whose message may still show «Aceptar» / «Rechazar».
-- A proposal lives in memory only, so a restart drops it (its people are pinged anew); the rows left here
-- are the pings it dropped, which the bot then edits to say so, without buttons. A row goes once its ping
-- shows how the match ended.
CREATE TABLE queue_pings (
    message_id INTEGER PRIMARY KEY,
    channel_id INTEGER NOT NULL,
    guild_id INTEGER NOT NULL
);
