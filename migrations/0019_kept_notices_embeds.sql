-- A notice kept for a player whose DMs are closed keeps its embeds too (a JSON list of
-- Discord embeds, as the delivery rendered them), not only its text.
ALTER TABLE player_notices ADD COLUMN embeds TEXT NOT NULL DEFAULT '[]';
