-- +goose Up
-- Money going back to the payer through the channel a booking was paid by
-- (a refund or void of a paid booking, part or all of it): one row per
-- refund of one channel payment. refund_no is the refund's number at the
-- channel (out_request_no, out_refund_no, the idempotency key), so a retry
-- refunds once; ledger_key is the ledger transfer that took the sum out of
-- the agency's wallet for it. state is pending (to be asked of the
-- channel), processing (the channel accepted it and is still at it), done,
-- or failed (the channel refused it: the sum went back to the wallet).
CREATE TABLE channel_refunds (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    refund_no   TEXT NOT NULL UNIQUE,
    payment_id  INTEGER NOT NULL REFERENCES channel_payments (id),
    channel     TEXT NOT NULL,
    line        TEXT NOT NULL,
    booking_id  INTEGER NOT NULL,
    agency_id   INTEGER NOT NULL,
    amount      INTEGER NOT NULL,
    currency    TEXT NOT NULL,
    state       TEXT NOT NULL,
    reason      TEXT NOT NULL DEFAULT '',
    reference   TEXT NOT NULL DEFAULT '',
    ledger_key  TEXT NOT NULL,
    detail      TEXT NOT NULL DEFAULT '',
    created_at  DATETIME NOT NULL,
    updated_at  DATETIME NOT NULL,
    done_at     DATETIME
);
CREATE INDEX channel_refunds_payment ON channel_refunds (payment_id);
CREATE INDEX channel_refunds_state ON channel_refunds (state, updated_at);

-- +goose Down
DROP TABLE channel_refunds;
