-- What the bot has posted for each round's clock and where (issue 10): bookkeeping of the
-- bot, not tournament state, so it is not in the action log.

CREATE TABLE notices (
    tournament_id   INTEGER NOT NULL REFERENCES tournaments (id),
    round           INTEGER NOT NULL,
    key             TEXT    NOT NULL,            -- domain.tournament.clock.Notice.key
    posted          INTEGER NOT NULL,            -- 0: missed while the bot was down, not posted late
    at              TEXT    NOT NULL,
    PRIMARY KEY (tournament_id, round, key)
);

-- The channel and thread a round's pairings went to, so confirmations and the clock's
-- notices go to the same place after a restart.
CREATE TABLE round_posts (
    tournament_id   INTEGER NOT NULL REFERENCES tournaments (id),
    round           INTEGER NOT NULL,
    channel_id      INTEGER NOT NULL,
    thread_id       INTEGER,
    PRIMARY KEY (tournament_id, round)
);
