-- +goose Up
-- A payment made through a real channel (Alipay, WeChat Pay, Yeepay,
-- Airwallex, Stripe): created at the channel, finished by the payer there,
-- settled by the channel's verified notification or by the status check.
-- trade_no is the merchant order number the channel knows it by
-- (payment.TradeNo of payment_key); line, booking_id and stage say what it
-- pays (a group's installment in stage), so a notification finds the
-- booking. state is pending, paid or closed; money in minor units of
-- currency. qr_code, redirect_url and client_secret are what the payer is
-- shown to finish it, until expires_at.
CREATE TABLE channel_payments (
    id            INTEGER PRIMARY KEY AUTOINCREMENT,
    trade_no      TEXT NOT NULL UNIQUE,
    payment_key   TEXT NOT NULL UNIQUE,
    channel       TEXT NOT NULL,
    line          TEXT NOT NULL,
    booking_id    INTEGER NOT NULL,
    stage         TEXT NOT NULL DEFAULT '',
    agency_id     INTEGER NOT NULL,
    amount        INTEGER NOT NULL,
    currency      TEXT NOT NULL,
    state         TEXT NOT NULL,
    reference     TEXT NOT NULL DEFAULT '',
    fee           INTEGER NOT NULL DEFAULT 0,
    qr_code       TEXT NOT NULL DEFAULT '',
    redirect_url  TEXT NOT NULL DEFAULT '',
    client_secret TEXT NOT NULL DEFAULT '',
    expires_at    DATETIME NOT NULL,
    paid_at       DATETIME,
    created_at    DATETIME NOT NULL,
    updated_at    DATETIME NOT NULL
);
CREATE INDEX channel_payments_booking ON channel_payments (line, booking_id, stage);
CREATE INDEX channel_payments_pending ON channel_payments (state, expires_at);

-- Every notification a channel sent, verified or not: what it said and
-- what Voyage made of it (applied, replayed, refused and why), for finance
-- and for the provider's staff.
CREATE TABLE channel_notices (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    channel     TEXT NOT NULL,
    trade_no    TEXT NOT NULL DEFAULT '',
    state       TEXT NOT NULL DEFAULT '',
    amount      INTEGER NOT NULL DEFAULT 0,
    currency    TEXT NOT NULL DEFAULT '',
    outcome     TEXT NOT NULL,
    detail      TEXT NOT NULL DEFAULT '',
    received_at DATETIME NOT NULL
);
CREATE INDEX channel_notices_trade ON channel_notices (trade_no);

-- +goose Down
DROP TABLE channel_notices;
DROP TABLE channel_payments;
