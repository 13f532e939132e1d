-- Match rooms that fit the server, and channels adopted only when the bot made them.

-- Rooms only for tables 1 to N (0: every table): the organizer's choice where the server
-- cannot hold a room for every table (Discord: 500 channels a server).
ALTER TABLE tournaments ADD COLUMN room_limit INTEGER NOT NULL DEFAULT 0
    CHECK (room_limit >= 0 AND room_limit <= 500);

-- The lowest id the channel can have (a snowflake of the moment it was asked for, a minute
-- early for the clocks' difference), written with the request: after a stop, only a
-- channel made since, and carrying the bot's own overwrite, is taken for the one asked for.
ALTER TABLE room_channels ADD COLUMN asked_after INTEGER;
