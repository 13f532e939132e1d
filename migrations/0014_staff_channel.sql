-- The staff's channel (issue 20): the organizer's panel and the prompts for the next step
-- (a round's results all in) go there. Without it, the log channel is used.

ALTER TABLE guild_config ADD COLUMN staff_channel_id INTEGER;
