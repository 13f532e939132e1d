-- Issue 24, beyond one event: series, player records, repeating events and the server's
-- calendar. CHECKs mirror the domain's enums (Phase, Repeat) and the /setup choices.
--
-- * tournaments.state gains 'cancelled' (中止, before the start); tournaments gain the
--   organizer's `repeats` (none, weekly, biweekly) and `reminders` settings. SQLite cannot
--   change a CHECK in place, so the table is rebuilt: its rows wait in a temporary table
--   while the new one takes the old one's name, and come back into it, which also settles
--   the foreign keys of every table that points at a tournament (checked at the commit,
--   `defer_foreign_keys`). Its indexes are made again.
-- * series, series_events: an organizer's series (a season, a league) and the tournaments
--   in it, with its points table (JSON) and who made each change.
-- * player_profiles: a player's handle (ハンドルネーム) on a server, whether their record
--   may be shown on the live page, and who changed it last. Two players of a server cannot
--   share a handle as people read it (`handle_key`, domain.handles.name_key).
-- * calendar_events: the Discord scheduled event each tournament has on the server's
--   calendar, so later notices edit it.
-- * guild_config.ratings: hidden, in /profile, or in /profile and the series standings.

PRAGMA defer_foreign_keys = ON;

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
                          CHECK (state IN ('registration', 'running', 'top_cut', 'finished', 'cancelled')),
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
    ex_deck               INTEGER NOT NULL DEFAULT 0,
    ex_copies_shared      INTEGER NOT NULL DEFAULT 1,
    decks_published       INTEGER NOT NULL DEFAULT 0,
    created_by            INTEGER NOT NULL,
    created_at            TEXT    NOT NULL,
    started_at            TEXT,
    version               INTEGER NOT NULL DEFAULT 0,
    noshow_minutes        INTEGER NOT NULL DEFAULT 10 CHECK (noshow_minutes BETWEEN 0 AND 60),
    noshow_tiebreak       TEXT    NOT NULL DEFAULT 'real_points'
                          CHECK (noshow_tiebreak IN ('real_points', 'bye_value')),
    page_slug             TEXT    CHECK (page_slug IS NULL OR length(page_slug) BETWEEN 22 AND 64),
    page_public           INTEGER NOT NULL DEFAULT 0
                          CHECK (page_public IN (0, 1) AND (page_public = 0 OR page_slug IS NOT NULL)),
    repeats               TEXT    NOT NULL DEFAULT 'none' CHECK (repeats IN ('none', 'weekly', 'biweekly')),
    reminders             INTEGER NOT NULL DEFAULT 1 CHECK (reminders IN (0, 1)),
    UNIQUE (guild_id, name)
);

CREATE TEMP TABLE tournaments_rows AS SELECT * FROM tournaments;
DROP TABLE tournaments;
ALTER TABLE tournaments_new RENAME TO tournaments;
INSERT INTO tournaments (id, guild_id, name, format, regulation, rounds, top_cut,
    time_limit_minutes, titles, max_players, event_date, state, planned_rounds, seed,
    late_registration_rounds, decklist_required, missing_deck_policy, starts_at,
    checkin_minutes, mix_two_minimum, restricted_list, titles_file, card_database, ex_deck,
    ex_copies_shared, decks_published, created_by, created_at, started_at, version,
    noshow_minutes, noshow_tiebreak, page_slug, page_public)
SELECT id, guild_id, name, format, regulation, rounds, top_cut,
    time_limit_minutes, titles, max_players, event_date, state, planned_rounds, seed,
    late_registration_rounds, decklist_required, missing_deck_policy, starts_at,
    checkin_minutes, mix_two_minimum, restricted_list, titles_file, card_database, ex_deck,
    ex_copies_shared, decks_published, created_by, created_at, started_at, version,
    noshow_minutes, noshow_tiebreak, page_slug, page_public
FROM tournaments_rows;
DROP TABLE tournaments_rows;
CREATE INDEX tournaments_by_guild ON tournaments (guild_id, state);
CREATE UNIQUE INDEX tournaments_by_page_slug ON tournaments (page_slug)
    WHERE page_slug IS NOT NULL;

CREATE TABLE series (
    id              INTEGER PRIMARY KEY AUTOINCREMENT,
    guild_id        INTEGER NOT NULL,
    name            TEXT    NOT NULL,
    points          TEXT    NOT NULL CHECK (json_valid(points)),
    created_by      INTEGER NOT NULL,
    created_at      TEXT    NOT NULL,
    UNIQUE (guild_id, name)
);

CREATE TABLE series_events (
    series_id       INTEGER NOT NULL REFERENCES series (id),
    tournament_id   INTEGER NOT NULL REFERENCES tournaments (id),
    added_by        INTEGER NOT NULL,
    added_at        TEXT    NOT NULL,
    PRIMARY KEY (series_id, tournament_id)
);
CREATE INDEX series_events_by_tournament ON series_events (tournament_id);

CREATE TABLE player_profiles (
    guild_id        INTEGER NOT NULL,
    user_id         INTEGER NOT NULL,
    handle          TEXT,
    handle_key      TEXT,
    public          INTEGER NOT NULL DEFAULT 0 CHECK (public IN (0, 1)),
    updated_by      INTEGER NOT NULL,
    updated_at      TEXT    NOT NULL,
    PRIMARY KEY (guild_id, user_id),
    CHECK ((handle IS NULL) = (handle_key IS NULL))
);
CREATE UNIQUE INDEX player_profiles_by_handle ON player_profiles (guild_id, handle_key)
    WHERE handle_key IS NOT NULL;

CREATE TABLE calendar_events (
    tournament_id   INTEGER PRIMARY KEY REFERENCES tournaments (id),
    event_id        INTEGER NOT NULL
);

ALTER TABLE guild_config ADD COLUMN ratings TEXT NOT NULL DEFAULT 'hidden'
    CHECK (ratings IN ('hidden', 'profile', 'series'));
