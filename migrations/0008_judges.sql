-- Penalties, judge calls and the no-show settings (issue 11). CHECKs mirror the domain's
-- PenaltyType, Infraction and NoShowTiebreak.

ALTER TABLE tournaments ADD COLUMN noshow_minutes INTEGER NOT NULL DEFAULT 10
    CHECK (noshow_minutes BETWEEN 0 AND 60);
ALTER TABLE tournaments ADD COLUMN noshow_tiebreak TEXT NOT NULL DEFAULT 'real_points'
    CHECK (noshow_tiebreak IN ('real_points', 'bye_value'));

CREATE TABLE penalties (
    tournament_id   INTEGER NOT NULL REFERENCES tournaments (id),
    id              INTEGER NOT NULL,            -- 1, 2, … within the tournament
    player_id       INTEGER NOT NULL,
    type            TEXT    NOT NULL CHECK (type IN ('caution', 'warning', 'game_loss', 'disqualification')),
    infraction      TEXT    NOT NULL CHECK (infraction IN ('outside_assistance', 'looking_at_cards',
                        'collusion', 'rules_error', 'extra_cards', 'deck_manipulation',
                        'misstated_information', 'lying_to_judge', 'stalling', 'marked_sleeves',
                        'illegal_deck', 'other')),
    reason          TEXT    NOT NULL,
    round           INTEGER NOT NULL,
    given_by        INTEGER NOT NULL,
    at              TEXT    NOT NULL,
    effect_round    INTEGER,                     -- the match the penalty turned into a loss
    effect_table    INTEGER,
    before_result   TEXT CHECK (before_result IS NULL OR json_valid(before_result)),
    revoked         INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (tournament_id, id)
);

CREATE TABLE judge_calls (
    tournament_id   INTEGER NOT NULL REFERENCES tournaments (id),
    id              INTEGER NOT NULL,
    player_id       INTEGER NOT NULL,
    round           INTEGER NOT NULL,
    table_no        INTEGER,
    reason          TEXT    NOT NULL,
    called_at       TEXT    NOT NULL,
    claimed_by      INTEGER,
    claimed_at      TEXT,
    resolved_by     INTEGER,
    resolved_at     TEXT,
    extension_minutes INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (tournament_id, id)
);

-- Confirmations waiting for a press (a penalty after its escalation preview, an undo):
-- the whole operation waits here, so the buttons work after a restart.
CREATE TABLE pending_operations (
    id              INTEGER PRIMARY KEY AUTOINCREMENT,
    guild_id        INTEGER NOT NULL,
    tournament_id   INTEGER NOT NULL REFERENCES tournaments (id),
    actor_id        INTEGER NOT NULL,           -- only this person may confirm it
    kind            TEXT    NOT NULL,
    payload         TEXT    NOT NULL CHECK (json_valid(payload)),
    created_at      TEXT    NOT NULL
);

-- Private notices for a player whose DMs are closed (a penalty), shown the next time they
-- use the bot.
CREATE TABLE player_notices (
    id              INTEGER PRIMARY KEY AUTOINCREMENT,
    guild_id        INTEGER NOT NULL,
    user_id         INTEGER NOT NULL,
    text            TEXT    NOT NULL,
    created_at      TEXT    NOT NULL
);
CREATE INDEX player_notices_by_user ON player_notices (guild_id, user_id);

-- The registration post of each tournament (issue 14): the bot shows its チェックイン button
-- only while the check-in window is open, so it remembers where the post is.
CREATE TABLE entry_posts (
    tournament_id   INTEGER PRIMARY KEY REFERENCES tournaments (id),
    channel_id      INTEGER NOT NULL,
    message_id      INTEGER NOT NULL,
    checkin_shown   INTEGER NOT NULL DEFAULT 0
);
