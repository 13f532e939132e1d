-- Several bot processes (issue 23): a process claims an outbox notice before it sends it,
-- so two never send the same one. A claim lasts until `claimed_until` (UTC, ISO text like
-- every time here): a process that crashed leaves claims that expire, and another process
-- (or itself, restarted) takes the notice then. Neutral SQL: the same on both backends.

ALTER TABLE outbox ADD COLUMN claimed_by TEXT;
ALTER TABLE outbox ADD COLUMN claimed_until TEXT;
