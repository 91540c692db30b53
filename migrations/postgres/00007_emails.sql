-- +goose Up
-- Outgoing email, written in the same transaction as the change it reports
-- (a top-up) and delivered by a background job: an email is never lost to a
-- crash between the two, nor sent for a change that rolled back.
CREATE TABLE emails (
    id          BIGSERIAL PRIMARY KEY,
    to_addr     TEXT NOT NULL,
    subject     TEXT NOT NULL,
    body        TEXT NOT NULL,
    status      TEXT NOT NULL DEFAULT 'pending',
    attempts    INTEGER NOT NULL DEFAULT 0,
    last_error  TEXT NOT NULL DEFAULT '',
    created_at  TIMESTAMPTZ NOT NULL,
    sent_at     TIMESTAMPTZ
);
CREATE INDEX emails_pending ON emails (status, id);

-- +goose Down
DROP TABLE emails;
