-- Idempotency (issue 12): the Discord interaction that made an operation. The same
-- interaction delivered twice applies once: its second operation finds the id taken.

ALTER TABLE action_log ADD COLUMN request_id INTEGER;
CREATE UNIQUE INDEX action_log_by_request ON action_log (request_id) WHERE request_id IS NOT NULL;
