-- What the delivery remembers between notices and across restarts.

-- A message about to be posted: written before the request, removed with the record of
-- the message it made. Found at a start, it means the bot stopped between the two: the
-- channel's newest messages are looked at for it (by `digest`, of its text), and if it is
-- not there it is posted again with the same nonce (which Discord, for a few minutes,
-- answers with the first message) and the same notices in it.
CREATE TABLE outbox_sending (
    notice_id       INTEGER PRIMARY KEY REFERENCES outbox (id),
    part            INTEGER NOT NULL,
    channel_id      INTEGER NOT NULL,
    nonce           TEXT    NOT NULL,
    digest          TEXT    NOT NULL,
    started_at      TEXT    NOT NULL
);
CREATE INDEX outbox_sending_by_nonce ON outbox_sending (nonce);

-- A channel that refused the bot (a permission taken away, the channel deleted): its
-- notices go to the next place at once, the staff were told once, and it is tried again
-- after `retry_at` or when the server's settings change.
CREATE TABLE refusing_channels (
    channel_id      INTEGER PRIMARY KEY,
    guild_id        INTEGER NOT NULL,
    reason          TEXT    NOT NULL,  -- 'missing_permissions', 'missing_access', 'unknown_channel'
    since           TEXT    NOT NULL,
    retry_at        TEXT    NOT NULL
);

-- A player whose DMs are closed: nothing is tried by DM until they use the bot again or
-- a day has passed; what the bot had to say waits for their next command.
CREATE TABLE closed_dms (
    user_id         INTEGER PRIMARY KEY,
    since           TEXT    NOT NULL
);

-- Each player's DM channel, once opened: Discord opens DM channels slowly (a few a
-- second for the whole bot), and a user's DM channel never changes.
CREATE TABLE dm_channels (
    user_id         INTEGER PRIMARY KEY,
    channel_id      INTEGER NOT NULL
);
