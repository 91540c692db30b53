-- +goose Up
-- A statement asked for under an Idempotency-Key is made once: a retry
-- with the same key answers the first statement (a retry once made a
-- second one). Statements made without a key keep NULL, which the index
-- leaves out.
ALTER TABLE statements ADD COLUMN idempotency_key TEXT;
CREATE UNIQUE INDEX statements_idempotency ON statements (agency_id, idempotency_key) WHERE idempotency_key IS NOT NULL;

-- +goose Down
DROP INDEX statements_idempotency;
ALTER TABLE statements DROP COLUMN idempotency_key;
