-- Whether an entry's name is the player's handle (ハンドルネーム) rather than their Discord
-- name: posts then show it beside the mention (which every client shows as the Discord
-- name). Entries made before are marked where the name is the player's handle on that
-- server now.

ALTER TABLE players ADD COLUMN by_handle INTEGER NOT NULL DEFAULT 0 CHECK (by_handle IN (0, 1));
UPDATE players SET by_handle = 1 WHERE EXISTS (
    SELECT 1 FROM player_profiles p JOIN tournaments t ON t.guild_id = p.guild_id
    WHERE t.id = players.tournament_id AND p.user_id = players.user_id
      AND p.handle = players.display_name
);
