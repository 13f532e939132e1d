-- The append-only action log and per-guild configuration.

CREATE TABLE action_log (
    id            INTEGER PRIMARY KEY AUTOINCREMENT,
    guild_id      INTEGER NOT NULL,
    tournament_id INTEGER,
    actor_id      INTEGER NOT NULL,          -- Discord user id; 0 for the bot itself
    kind          TEXT    NOT NULL,          -- e.g. 'tournament.create', 'player.register'
    payload       TEXT    NOT NULL DEFAULT '{}' CHECK (json_valid(payload)),
    created_at    TEXT    NOT NULL
);
CREATE INDEX action_log_by_tournament ON action_log (tournament_id, id);
CREATE INDEX action_log_by_guild ON action_log (guild_id, id);

-- The log is append-only: history is corrected by appending, never by rewriting.
CREATE TRIGGER action_log_no_update BEFORE UPDATE ON action_log
BEGIN
    SELECT RAISE(ABORT, 'action_log is append-only');
END;
CREATE TRIGGER action_log_no_delete BEFORE DELETE ON action_log
BEGIN
    SELECT RAISE(ABORT, 'action_log is append-only');
END;

CREATE TABLE guild_config (
    guild_id              INTEGER PRIMARY KEY,
    organizer_role_id     INTEGER,
    judge_role_id         INTEGER,
    announcements_channel_id INTEGER,
    pairings_channel_id   INTEGER,
    standings_channel_id  INTEGER,
    judge_calls_channel_id INTEGER,
    log_channel_id        INTEGER,
    locale                TEXT NOT NULL DEFAULT 'ja' CHECK (locale IN ('ja', 'en')),
    updated_at            TEXT NOT NULL
);
