-- +goose Up
-- One row while a request with an Idempotency-Key runs, on any instance:
-- a replay of the key waits for the row to go (pkg/idempotency), then
-- answers what the finished request left behind. The holder renews
-- expires_at while it runs, so a lock left by a killed instance lapses
-- within seconds and a retry goes ahead.
CREATE TABLE idempotency_locks (
    scope      TEXT NOT NULL,
    idem_key   TEXT NOT NULL,
    token      TEXT NOT NULL,
    expires_at BIGINT NOT NULL,
    PRIMARY KEY (scope, idem_key)
);

-- +goose Down
DROP TABLE idempotency_locks;
