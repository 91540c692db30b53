-- +goose Up
-- The ledger: every movement of money is one transfer between two accounts
-- of one currency, written with both balance updates in one transaction.
-- Accounts belong to an agency (wallet) or to the provider (agency_id NULL:
-- funding, revenue, fees, fx, suppliers payable). Over all accounts of a
-- currency the balances sum to zero.
CREATE TABLE ledger_accounts (
    id           BIGSERIAL PRIMARY KEY,
    agency_id    BIGINT REFERENCES agencies (id),
    kind         TEXT NOT NULL,
    currency     TEXT NOT NULL,
    balance      BIGINT NOT NULL DEFAULT 0,
    credit_limit BIGINT NOT NULL DEFAULT 0 CHECK (credit_limit >= 0),
    created_at   TIMESTAMPTZ NOT NULL,
    updated_at   TIMESTAMPTZ NOT NULL,
    -- The spending limit lives in the database: an agency's wallet never
    -- goes below minus its credit line, whatever the application does.
    CONSTRAINT ledger_wallet_limit CHECK (kind <> 'wallet' OR balance + credit_limit >= 0)
);
CREATE UNIQUE INDEX ledger_accounts_agency ON ledger_accounts (agency_id, kind, currency) WHERE agency_id IS NOT NULL;
CREATE UNIQUE INDEX ledger_accounts_provider ON ledger_accounts (kind, currency) WHERE agency_id IS NULL;

-- Transfers are never updated or deleted; a correction is a new transfer.
CREATE TABLE ledger_transfers (
    id               BIGSERIAL PRIMARY KEY,
    agency_id        BIGINT NOT NULL,
    idempotency_key  TEXT NOT NULL,
    request_hash     TEXT NOT NULL,
    from_account     BIGINT NOT NULL REFERENCES ledger_accounts (id),
    to_account       BIGINT NOT NULL REFERENCES ledger_accounts (id),
    amount           BIGINT NOT NULL CHECK (amount > 0),
    currency         TEXT NOT NULL,
    payment_type     TEXT NOT NULL,
    order_id         TEXT NOT NULL DEFAULT '',
    reference        TEXT NOT NULL DEFAULT '',
    description      TEXT NOT NULL DEFAULT '',
    remark           TEXT NOT NULL DEFAULT '',
    detail           TEXT NOT NULL DEFAULT '{}',
    from_balance     BIGINT NOT NULL,
    to_balance       BIGINT NOT NULL,
    created_by       TEXT NOT NULL DEFAULT '',
    created_at       TIMESTAMPTZ NOT NULL,
    CHECK (from_account <> to_account)
);
CREATE UNIQUE INDEX ledger_transfers_idempotency ON ledger_transfers (agency_id, idempotency_key);
CREATE INDEX ledger_transfers_from ON ledger_transfers (from_account, id);
CREATE INDEX ledger_transfers_to ON ledger_transfers (to_account, id);
CREATE INDEX ledger_transfers_agency ON ledger_transfers (agency_id, created_at);

-- +goose Down
DROP TABLE ledger_transfers;
DROP TABLE ledger_accounts;
