-- One tournament model (operations applied by the aggregate, logged whole):
-- * players.status gains 'active' (playing, after the start); the CHECK mirrors the
--   domain's PlayerStatus. Registered players of started events become 'active'.
-- * players.seq: the arrival order, which the waitlist is served by.
-- * tournaments: current_round goes (the rounds table says it); planned_rounds (fixed at
--   the start; `rounds` stays the organizer's override), version (bumped by every applied
--   operation), and a CHECK on state.
-- * tournaments.ex_deck, ex_copies_shared: the organizer's EX-deck setting (off by default).
-- * action_log.actor_role: the role an operation was made with, so the log can be replayed.
-- SQLite cannot change a CHECK in place, so the three tables are rebuilt; the new ones are
-- renamed last, which also points the foreign keys at the new tables.

CREATE TABLE tournaments_new (
    id                    INTEGER PRIMARY KEY AUTOINCREMENT,
    guild_id              INTEGER NOT NULL,
    name                  TEXT    NOT NULL,
    format                TEXT    NOT NULL CHECK (format IN ('swiss', 'elimination', 'swiss_top_cut')),
    regulation            TEXT    NOT NULL CHECK (regulation IN ('mix', 'single', 'mix-two', 'event')),
    rounds                INTEGER CHECK (rounds IS NULL OR rounds BETWEEN 1 AND 30),
    top_cut               INTEGER CHECK (top_cut IS NULL OR top_cut IN (4, 8, 16)),
    time_limit_minutes    INTEGER NOT NULL DEFAULT 40 CHECK (time_limit_minutes BETWEEN 5 AND 180),
    titles                TEXT    NOT NULL DEFAULT '[]' CHECK (json_valid(titles)),
    max_players           INTEGER CHECK (max_players IS NULL OR max_players >= 2),
    event_date            TEXT    NOT NULL,
    state                 TEXT    NOT NULL DEFAULT 'registration'
                          CHECK (state IN ('registration', 'running', 'top_cut', 'finished')),
    planned_rounds        INTEGER NOT NULL DEFAULT 0,
    seed                  INTEGER,
    late_registration_rounds INTEGER NOT NULL DEFAULT 0,
    decklist_required     INTEGER NOT NULL DEFAULT 1,
    missing_deck_policy   TEXT    NOT NULL DEFAULT 'drop' CHECK (missing_deck_policy IN ('drop', 'start_anyway')),
    starts_at             TEXT,
    checkin_minutes       INTEGER NOT NULL DEFAULT 0,
    mix_two_minimum       INTEGER NOT NULL DEFAULT 15,
    restricted_list       TEXT,
    titles_file           TEXT,
    card_database         TEXT,
    ex_deck               INTEGER NOT NULL DEFAULT 0,   -- R-DECK-6: an EX deck of up to 15
    ex_copies_shared      INTEGER NOT NULL DEFAULT 1,   -- the 4-copy rule spans both decks
    decks_published       INTEGER NOT NULL DEFAULT 0,
    created_by            INTEGER NOT NULL,
    created_at            TEXT    NOT NULL,
    started_at            TEXT,
    version               INTEGER NOT NULL DEFAULT 0,
    UNIQUE (guild_id, name)
);
INSERT INTO tournaments_new (id, guild_id, name, format, regulation, rounds, top_cut,
    time_limit_minutes, titles, max_players, event_date, state, planned_rounds,
    seed, late_registration_rounds, decklist_required, missing_deck_policy, starts_at,
    checkin_minutes, mix_two_minimum, restricted_list, titles_file, card_database,
    decks_published, created_by, created_at, started_at)
SELECT id, guild_id, name, format, regulation, rounds, top_cut, time_limit_minutes, titles,
    max_players, event_date, state,
    CASE WHEN state = 'registration' THEN 0 ELSE COALESCE(rounds, 0) END,
    seed, late_registration_rounds, decklist_required, missing_deck_policy,
    starts_at, checkin_minutes, mix_two_minimum, restricted_list, titles_file, card_database,
    decks_published, created_by, created_at, started_at
FROM tournaments;

CREATE TABLE players_new (
    tournament_id   INTEGER NOT NULL REFERENCES tournaments_new (id),
    user_id         INTEGER NOT NULL,
    display_name    TEXT    NOT NULL,
    status          TEXT    NOT NULL
                    CHECK (status IN ('registered', 'waitlisted', 'active', 'dropped', 'disqualified')),
    seq             INTEGER NOT NULL,           -- arrival order within the tournament
    registered_at   TEXT    NOT NULL,
    checked_in_at   TEXT,
    joined_round    INTEGER NOT NULL DEFAULT 0,   -- 0 = from the start; k = late entry in round k
    dropped_round   INTEGER,                      -- 0 = dropped at the start
    PRIMARY KEY (tournament_id, user_id),
    UNIQUE (tournament_id, seq)
);
INSERT INTO players_new (tournament_id, user_id, display_name, status, seq, registered_at,
    checked_in_at, joined_round, dropped_round)
SELECT p.tournament_id, p.user_id, p.display_name,
    CASE WHEN p.status = 'registered' AND t.state != 'registration' THEN 'active' ELSE p.status END,
    (SELECT COUNT(*) FROM players q WHERE q.tournament_id = p.tournament_id
        AND (q.registered_at < p.registered_at
             OR (q.registered_at = p.registered_at AND q.user_id <= p.user_id))),
    p.registered_at, p.checked_in_at, p.joined_round, p.dropped_round
FROM players p JOIN tournaments t ON t.id = p.tournament_id;

CREATE TABLE decks_new (
    tournament_id   INTEGER NOT NULL,
    user_id         INTEGER NOT NULL,
    canonical       TEXT    NOT NULL,            -- the normalised list, canonical CSV
    fingerprint     TEXT    NOT NULL,
    total           INTEGER NOT NULL,
    submitted_at    TEXT    NOT NULL,
    locked_at       TEXT,
    PRIMARY KEY (tournament_id, user_id),
    FOREIGN KEY (tournament_id, user_id) REFERENCES players_new (tournament_id, user_id)
);
INSERT INTO decks_new SELECT tournament_id, user_id, canonical, fingerprint, total,
    submitted_at, locked_at FROM decks;

DROP TABLE decks;
DROP TABLE players;
DROP TABLE tournaments;
ALTER TABLE tournaments_new RENAME TO tournaments;
ALTER TABLE players_new RENAME TO players;
ALTER TABLE decks_new RENAME TO decks;
CREATE INDEX tournaments_by_guild ON tournaments (guild_id, state);
CREATE INDEX players_by_status ON players (tournament_id, status, seq);

ALTER TABLE action_log ADD COLUMN actor_role TEXT
    CHECK (actor_role IS NULL OR actor_role IN ('player', 'judge', 'organizer'));
