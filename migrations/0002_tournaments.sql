-- Tournaments, their players (with the waitlist) and submitted decklists.

CREATE TABLE tournaments (
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
    state                 TEXT    NOT NULL DEFAULT 'registration',
    current_round         INTEGER NOT NULL DEFAULT 0,
    seed                  INTEGER,
    -- Organizer settings (/tournament settings).
    late_registration_rounds INTEGER NOT NULL DEFAULT 0,
    decklist_required     INTEGER NOT NULL DEFAULT 1,
    missing_deck_policy   TEXT    NOT NULL DEFAULT 'drop' CHECK (missing_deck_policy IN ('drop', 'start_anyway')),
    starts_at             TEXT,
    checkin_minutes       INTEGER NOT NULL DEFAULT 0,
    mix_two_minimum       INTEGER NOT NULL DEFAULT 15,
    restricted_list       TEXT,
    titles_file           TEXT,
    card_database         TEXT,
    decks_published       INTEGER NOT NULL DEFAULT 0,
    created_by            INTEGER NOT NULL,
    created_at            TEXT    NOT NULL,
    started_at            TEXT,
    UNIQUE (guild_id, name)
);
CREATE INDEX tournaments_by_guild ON tournaments (guild_id, state);

CREATE TABLE players (
    tournament_id   INTEGER NOT NULL REFERENCES tournaments (id),
    user_id         INTEGER NOT NULL,
    display_name    TEXT    NOT NULL,
    status          TEXT    NOT NULL CHECK (status IN ('registered', 'waitlisted', 'dropped', 'disqualified')),
    registered_at   TEXT    NOT NULL,
    checked_in_at   TEXT,
    joined_round    INTEGER NOT NULL DEFAULT 0,   -- 0 = from the start; k = late entry in round k
    dropped_round   INTEGER,
    PRIMARY KEY (tournament_id, user_id)
);
CREATE INDEX players_by_status ON players (tournament_id, status, registered_at);

CREATE TABLE decks (
    tournament_id   INTEGER NOT NULL,
    user_id         INTEGER NOT NULL,
    canonical       TEXT    NOT NULL,            -- the normalised list, canonical CSV
    fingerprint     TEXT    NOT NULL,
    total           INTEGER NOT NULL,
    submitted_at    TEXT    NOT NULL,
    locked_at       TEXT,
    PRIMARY KEY (tournament_id, user_id),
    FOREIGN KEY (tournament_id, user_id) REFERENCES players (tournament_id, user_id)
);
