-- +goose Up
CREATE TABLE applications (
    id              BIGSERIAL PRIMARY KEY,
    name            TEXT NOT NULL,
    email           TEXT NOT NULL DEFAULT '',
    phone           TEXT NOT NULL DEFAULT '',
    country         TEXT NOT NULL,
    company_name    TEXT NOT NULL DEFAULT '',
    company_address TEXT NOT NULL DEFAULT '',
    website         TEXT NOT NULL DEFAULT '',
    remark          TEXT NOT NULL DEFAULT '',
    lang            TEXT NOT NULL,
    ip              TEXT NOT NULL DEFAULT '',
    user_agent      TEXT NOT NULL DEFAULT '',
    status          TEXT NOT NULL DEFAULT 'new',
    created_at      TIMESTAMPTZ NOT NULL
);
CREATE INDEX applications_created_at ON applications (created_at);

-- Rates are rows, never updated: the newest row per currency is in force and
-- older rows are the history. A rate is what one unit of the currency is
-- worth in the base currency: a base amount divided by it is the amount in
-- that currency (spec §9).
CREATE TABLE exchange_rates (
    id         BIGSERIAL PRIMARY KEY,
    base       TEXT NOT NULL,
    currency   TEXT NOT NULL,
    rate       TEXT NOT NULL,
    source     TEXT NOT NULL DEFAULT '',
    created_at TIMESTAMPTZ NOT NULL
);
CREATE INDEX exchange_rates_currency ON exchange_rates (base, currency, id);

CREATE TABLE sessions (
    id              BIGSERIAL PRIMARY KEY,
    token_hash      TEXT NOT NULL UNIQUE,
    user_id         BIGINT NOT NULL,
    created_at      TIMESTAMPTZ NOT NULL,
    last_seen_at    TIMESTAMPTZ NOT NULL,
    idle_expires_at TIMESTAMPTZ NOT NULL,
    expires_at      TIMESTAMPTZ NOT NULL,
    revoked_at      TIMESTAMPTZ,
    revoke_reason   TEXT NOT NULL DEFAULT '',
    ip              TEXT NOT NULL DEFAULT '',
    user_agent      TEXT NOT NULL DEFAULT '',
    iframe          BOOLEAN NOT NULL DEFAULT FALSE
);
CREATE INDEX sessions_user ON sessions (user_id);
CREATE INDEX sessions_expires_at ON sessions (expires_at);

CREATE TABLE search_sessions (
    id         TEXT PRIMARY KEY,
    agency_id  BIGINT NOT NULL,
    user_id    BIGINT,
    request    TEXT NOT NULL,
    status     TEXT NOT NULL,
    created_at TIMESTAMPTZ NOT NULL,
    expires_at TIMESTAMPTZ NOT NULL
);
CREATE INDEX search_sessions_expires_at ON search_sessions (expires_at);

-- +goose Down
DROP TABLE search_sessions;
DROP TABLE sessions;
DROP TABLE exchange_rates;
DROP TABLE applications;
