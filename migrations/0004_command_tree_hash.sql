-- The command tree last synced to each target, so start-up syncs only after it changed.

CREATE TABLE command_sync (
    target     TEXT PRIMARY KEY,  -- 'global' or 'guild:<id>'
    tree_hash  TEXT NOT NULL,     -- sha256 of the JSON payloads sent, localisations included
    synced_at  TEXT NOT NULL
);
