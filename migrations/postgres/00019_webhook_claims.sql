-- +goose Up
-- The worker sending a delivery holds it until claimed_until (Unix
-- milliseconds): a second job for the same delivery (a redelivery queued
-- while a retry was pending, a job rescued while its first run still
-- sends) waits instead of sending it again. A worker that dies lets the
-- claim lapse, and its rescued job sends.
ALTER TABLE webhook_deliveries ADD COLUMN claimed_until BIGINT NOT NULL DEFAULT 0;

-- +goose Down
ALTER TABLE webhook_deliveries DROP COLUMN claimed_until;
