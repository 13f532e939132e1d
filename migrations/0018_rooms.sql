-- Match rooms (対戦部屋): a voice channel per played table, made by the bot.

-- Whether the tournament has rooms, and what everyone but the table's players and the
-- staff may do in them: listen and watch ('listen') or not see them at all ('hidden').
ALTER TABLE tournaments ADD COLUMN rooms INTEGER NOT NULL DEFAULT 0 CHECK (rooms IN (0, 1));
ALTER TABLE tournaments ADD COLUMN room_spectators TEXT NOT NULL DEFAULT 'listen'
    CHECK (room_spectators IN ('listen', 'hidden'));

-- The channels the bot made for a tournament's rooms: its categories ('category', number:
-- the category's place, 1, 2, …) and its rooms ('room', number: the table). Written before
-- the channel is asked for (channel_id NULL): found so at a start, it means the bot
-- stopped between the two, and the channel is looked for by its name before another is
-- made. Only channels listed here are ever deleted.
CREATE TABLE room_channels (
    tournament_id   INTEGER NOT NULL REFERENCES tournaments (id),
    kind            TEXT    NOT NULL CHECK (kind IN ('category', 'room')),
    number          INTEGER NOT NULL,
    name            TEXT    NOT NULL,
    channel_id      INTEGER,
    category_id     INTEGER,
    round           INTEGER NOT NULL DEFAULT 0,  -- the round its permissions are for
    PRIMARY KEY (tournament_id, kind, number)
);
CREATE INDEX room_channels_by_channel ON room_channels (channel_id);
