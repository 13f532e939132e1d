-- The outbox (issue 17): everything the bot must tell people, written in the same
-- transaction as the change that makes it said, and sent by one delivery loop. A crash
-- between the commit and the post loses nothing: after a restart, whatever was not sent
-- goes out. `say` and the places mirror bot/notify/plan.py's Say and Place.

CREATE TABLE outbox (
    id              INTEGER PRIMARY KEY AUTOINCREMENT,
    guild_id        INTEGER NOT NULL,
    tournament_id   INTEGER REFERENCES tournaments (id),
    action_id       INTEGER,                     -- the operation that made it (NULL: the clock)
    say             TEXT    NOT NULL,
    places          TEXT    NOT NULL CHECK (json_valid(places)),   -- tried in order
    user_id         INTEGER,                     -- the person a 'player' place means
    payload         TEXT    NOT NULL CHECK (json_valid(payload)),
    lang            TEXT    NOT NULL CHECK (lang IN ('ja', 'en')),
    dedupe_key      TEXT    UNIQUE,              -- planned once ever (the round clock's notices)
    state           TEXT    NOT NULL DEFAULT 'pending'
                        CHECK (state IN ('pending', 'sent', 'skipped', 'failed')),
    attempts        INTEGER NOT NULL DEFAULT 0,
    last_error      TEXT,
    created_at      TEXT    NOT NULL,
    done_at         TEXT
);
CREATE INDEX outbox_pending ON outbox (id) WHERE state = 'pending';
CREATE INDEX outbox_by_tournament ON outbox (tournament_id, id);

-- The messages a notice made, part by part (a long post is several), so that sending it
-- again after a crash edits or skips what exists instead of posting twice.
CREATE TABLE outbox_messages (
    notice_id       INTEGER NOT NULL REFERENCES outbox (id),
    part            INTEGER NOT NULL,
    channel_id      INTEGER NOT NULL,
    message_id      INTEGER NOT NULL,
    PRIMARY KEY (notice_id, part)
);

-- The round clock's record of what it posted moves into the outbox (as its dedupe keys).
INSERT INTO outbox (guild_id, tournament_id, say, places, payload, lang, dedupe_key, state,
                    created_at, done_at)
SELECT t.guild_id, n.tournament_id, substr(n.key, 1, instr(n.key, ':') - 1), '[]', '{}',
       'ja', 'clock:' || n.tournament_id || ':' || n.round || ':' || n.key,
       CASE n.posted WHEN 1 THEN 'sent' ELSE 'skipped' END, n.at, n.at
FROM notices n JOIN tournaments t ON t.id = n.tournament_id;
DROP TABLE notices;
