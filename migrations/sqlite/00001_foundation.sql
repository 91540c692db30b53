-- +goose Up
CREATE TABLE applications (
    id              INTEGER PRIMARY KEY AUTOINCREMENT,
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
    created_at      DATETIME NOT NULL
);
CREATE INDEX applications_created_at ON applications (created_at);

-- Rates are rows, never updated: the newest row per currency is in force and
-- older rows are the history. A rate is what one unit of the currency is
-- worth in the base currency: a base amount divided by it is the amount in
-- that currency (spec §9).
CREATE TABLE exchange_rates (
    id         INTEGER PRIMARY KEY AUTOINCREMENT,
    base       TEXT NOT NULL,
    currency   TEXT NOT NULL,
    rate       TEXT NOT NULL,
    source     TEXT NOT NULL DEFAULT '',
    created_at DATETIME NOT NULL
);
CREATE INDEX exchange_rates_currency ON exchange_rates (base, currency, id);

CREATE TABLE sessions (
    id              INTEGER PRIMARY KEY AUTOINCREMENT,
    token_hash      TEXT NOT NULL UNIQUE,
    user_id         INTEGER NOT NULL,
    created_at      DATETIME NOT NULL,
    last_seen_at    DATETIME NOT NULL,
    idle_expires_at DATETIME NOT NULL,
    expires_at      DATETIME NOT NULL,
    revoked_at      DATETIME,
    revoke_reason   TEXT NOT NULL DEFAULT '',
    ip              TEXT NOT NULL DEFAULT '',
    user_agent      TEXT NOT NULL DEFAULT '',
    iframe          BOOLEAN NOT NULL DEFAULT FALSE
);
CREATE INDEX sessions_user ON sessions (user_id);
CREATE INDEX sessions_expires_at ON sessions (expires_at);

CREATE TABLE search_sessions (
    id         TEXT PRIMARY KEY,
    agency_id  INTEGER NOT NULL,
    user_id    INTEGER,
    request    TEXT NOT NULL,
    status     TEXT NOT NULL,
    created_at DATETIME NOT NULL,
    expires_at DATETIME NOT NULL
);
CREATE INDEX search_sessions_expires_at ON search_sessions (expires_at);

-- +goose Down
DROP TABLE search_sessions;
DROP TABLE sessions;
DROP TABLE exchange_rates;
DROP TABLE applications;
