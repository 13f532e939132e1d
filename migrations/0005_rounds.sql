-- Rounds, their matches and the players' pending result reports (issue 10).
-- CHECKs mirror the domain's RoundKind and the engine's ResultKind.

CREATE TABLE rounds (
    tournament_id   INTEGER NOT NULL REFERENCES tournaments (id),
    number          INTEGER NOT NULL CHECK (number >= 1),
    kind            TEXT    NOT NULL CHECK (kind IN ('swiss', 'elimination')),
    seed            INTEGER NOT NULL,
    paired_at       TEXT    NOT NULL,
    started_at      TEXT,                       -- the clock (R-MATCH-1)
    ends_at         TEXT,
    PRIMARY KEY (tournament_id, number)
);

CREATE TABLE matches (
    tournament_id     INTEGER NOT NULL,
    round             INTEGER NOT NULL,
    table_no          INTEGER NOT NULL CHECK (table_no >= 1),
    player1           INTEGER,                  -- NULL: an empty bracket slot
    player2           INTEGER,                  -- NULL: a bye (or an empty slot)
    result_kind       TEXT CHECK (result_kind IS NULL OR result_kind IN
                        ('win', 'judgement', 'time_draw', 'concession', 'bye', 'double_loss', 'no_show')),
    result_player     INTEGER,                  -- the winner, the conceding or the absent player
    first_points      INTEGER CHECK (first_points IS NULL OR first_points BETWEEN 0 AND 6),
    second_points     INTEGER CHECK (second_points IS NULL OR second_points BETWEEN 0 AND 6),
    advancing         INTEGER,                  -- elimination: who goes on after a drawn match
    disputed          INTEGER NOT NULL DEFAULT 0,
    extension_minutes INTEGER NOT NULL DEFAULT 0 CHECK (extension_minutes >= 0),
    PRIMARY KEY (tournament_id, round, table_no),
    FOREIGN KEY (tournament_id, round) REFERENCES rounds (tournament_id, number)
);

CREATE TABLE reports (
    tournament_id   INTEGER NOT NULL,
    round           INTEGER NOT NULL,
    table_no        INTEGER NOT NULL,
    player_id       INTEGER NOT NULL,
    result_kind     TEXT    NOT NULL CHECK (result_kind IN
                      ('win', 'judgement', 'time_draw', 'concession', 'double_loss', 'no_show')),
    result_player   INTEGER,
    first_points    INTEGER,
    second_points   INTEGER,
    reported_at     TEXT    NOT NULL,
    PRIMARY KEY (tournament_id, round, table_no, player_id),
    FOREIGN KEY (tournament_id, round, table_no) REFERENCES matches (tournament_id, round, table_no)
);
