-- +goose Up
-- Webhook deliveries: one row per event sent to an agency's booking or change
-- notification URL, written in the same transaction as the change it reports
-- (with its River job), so a rolled-back change never notifies. payload is
-- the exact JSON body sent, so the log can show what the receiver got and a
-- signature can be checked against it. job_id is the River job that delivers
-- the row; a pending row without one was stored while no queue ran and is
-- queued by the sweep.
CREATE TABLE webhook_deliveries (
    id               INTEGER PRIMARY KEY AUTOINCREMENT,
    agency_id        INTEGER NOT NULL REFERENCES agencies (id),
    event            TEXT NOT NULL,
    url              TEXT NOT NULL,
    payload          TEXT NOT NULL,
    status           TEXT NOT NULL DEFAULT 'pending',
    attempts         INTEGER NOT NULL DEFAULT 0,
    last_status_code INTEGER NOT NULL DEFAULT 0,
    last_error       TEXT NOT NULL DEFAULT '',
    job_id           INTEGER,
    created_at       DATETIME NOT NULL,
    last_attempt_at  DATETIME,
    next_attempt_at  DATETIME,
    delivered_at     DATETIME
);
CREATE INDEX webhook_deliveries_agency ON webhook_deliveries (agency_id, created_at);
CREATE INDEX webhook_deliveries_unqueued ON webhook_deliveries (id) WHERE status = 'pending' AND job_id IS NULL;

-- The key deliveries are signed with (HMAC-SHA256), generated on first use.
ALTER TABLE agencies ADD COLUMN webhook_secret TEXT NOT NULL DEFAULT '';

-- +goose Down
ALTER TABLE agencies DROP COLUMN webhook_secret;
DROP TABLE webhook_deliveries;
