-- +goose Up
-- The built-in test gateway's own record of what it took or declined, per
-- payment key. A real gateway keeps its payments on its side, beyond any one
-- Voyage instance: a restarted instance, or another one of the cluster,
-- asks it what became of a key. The test gateway keeps them here for the
-- same reason, so its status check answers alike after a kill -9.
-- outcome is 'paid' or 'declined'; money in minor units of currency.
CREATE TABLE test_gateway_payments (
    payment_key TEXT PRIMARY KEY,
    outcome     TEXT NOT NULL,
    channel     TEXT NOT NULL,
    amount      BIGINT NOT NULL,
    currency    TEXT NOT NULL,
    fee         BIGINT NOT NULL,
    reference   TEXT NOT NULL,
    created_at  TIMESTAMPTZ NOT NULL
);

-- +goose Down
DROP TABLE test_gateway_payments;
