-- +goose Up
-- Agencies form a tree: the provider (proxy_level 0, no parent), its agencies
-- and their sub-agencies. The agency-management issue adds money settings.
CREATE TABLE agencies (
    id                    BIGSERIAL PRIMARY KEY,
    parent_id             BIGINT REFERENCES agencies (id),
    proxy_level           INTEGER NOT NULL DEFAULT 1,
    code                  TEXT NOT NULL UNIQUE,
    name                  TEXT NOT NULL,
    alias                 TEXT NOT NULL DEFAULT '',
    address               TEXT NOT NULL DEFAULT '',
    logo                  BYTEA,
    logo_type             TEXT NOT NULL DEFAULT '',
    enable_flight_service BOOLEAN NOT NULL DEFAULT TRUE,
    enable_train_service  BOOLEAN NOT NULL DEFAULT FALSE,
    settlement_currency   TEXT NOT NULL DEFAULT 'CNY',
    is_show_bill          BOOLEAN NOT NULL DEFAULT TRUE,
    can_create_sub_agency BOOLEAN NOT NULL DEFAULT FALSE,
    single_session        BOOLEAN NOT NULL DEFAULT FALSE,
    sso_secret            TEXT NOT NULL DEFAULT '',
    allowed_hosts         TEXT NOT NULL DEFAULT '[]',
    theme                 TEXT NOT NULL DEFAULT '',
    favicon               TEXT NOT NULL DEFAULT '',
    hide_cs_widget        BOOLEAN NOT NULL DEFAULT FALSE,
    hide_sso_message      BOOLEAN NOT NULL DEFAULT FALSE,
    status                TEXT NOT NULL DEFAULT 'active',
    created_at            TIMESTAMPTZ NOT NULL,
    updated_at            TIMESTAMPTZ NOT NULL
);
CREATE INDEX agencies_parent ON agencies (parent_id);

-- Usernames are stored lower-cased, so uniqueness ignores case.
CREATE TABLE users (
    id                  BIGSERIAL PRIMARY KEY,
    agency_id           BIGINT NOT NULL REFERENCES agencies (id),
    username            TEXT NOT NULL UNIQUE,
    email               TEXT NOT NULL DEFAULT '',
    nickname            TEXT NOT NULL DEFAULT '',
    area_code           TEXT NOT NULL DEFAULT '86',
    mobile              TEXT NOT NULL DEFAULT '',
    roles               TEXT NOT NULL DEFAULT '[]',
    permissions         TEXT NOT NULL DEFAULT '[]',
    status              TEXT NOT NULL DEFAULT 'active',
    is_super_admin      BOOLEAN NOT NULL DEFAULT FALSE,
    avatar              BYTEA,
    avatar_type         TEXT NOT NULL DEFAULT '',
    date_format         TEXT NOT NULL DEFAULT 'yyyy-MM-dd',
    default_region      TEXT NOT NULL DEFAULT '86',
    fav_cities          TEXT NOT NULL DEFAULT '[]',
    fav_countries       TEXT NOT NULL DEFAULT '[]',
    password_hash       TEXT NOT NULL,
    password_changed_at TIMESTAMPTZ NOT NULL,
    created_at          TIMESTAMPTZ NOT NULL,
    updated_at          TIMESTAMPTZ NOT NULL
);
CREATE INDEX users_agency ON users (agency_id);

CREATE TABLE login_failures (
    id         BIGSERIAL PRIMARY KEY,
    username   TEXT NOT NULL,
    ip         TEXT NOT NULL,
    created_at TIMESTAMPTZ NOT NULL
);
CREATE INDEX login_failures_username ON login_failures (username, created_at);

-- A single-login code works once per agency.
CREATE TABLE sso_codes (
    agency_id BIGINT NOT NULL REFERENCES agencies (id),
    code      TEXT NOT NULL,
    used_at   TIMESTAMPTZ NOT NULL,
    PRIMARY KEY (agency_id, code)
);

CREATE TABLE api_keys (
    id           BIGSERIAL PRIMARY KEY,
    agency_id    BIGINT NOT NULL REFERENCES agencies (id),
    name         TEXT NOT NULL DEFAULT '',
    prefix       TEXT NOT NULL,
    key_hash     TEXT NOT NULL UNIQUE,
    roles        TEXT NOT NULL DEFAULT '[]',
    created_by   BIGINT,
    created_at   TIMESTAMPTZ NOT NULL,
    last_used_at TIMESTAMPTZ,
    revoked_at   TIMESTAMPTZ
);
CREATE INDEX api_keys_agency ON api_keys (agency_id);

CREATE TABLE user_logs (
    id         BIGSERIAL PRIMARY KEY,
    agency_id  BIGINT NOT NULL,
    user_id    BIGINT,
    username   TEXT NOT NULL DEFAULT '',
    action     TEXT NOT NULL,
    target     TEXT NOT NULL DEFAULT '',
    detail     TEXT NOT NULL DEFAULT '',
    ip         TEXT NOT NULL DEFAULT '',
    created_at TIMESTAMPTZ NOT NULL
);
CREATE INDEX user_logs_agency ON user_logs (agency_id, created_at);

CREATE TABLE often_used_passengers (
    id                BIGSERIAL PRIMARY KEY,
    agency_id         BIGINT NOT NULL REFERENCES agencies (id),
    user_id           BIGINT NOT NULL REFERENCES users (id),
    surname           TEXT NOT NULL,
    given_name        TEXT NOT NULL,
    passenger_type    TEXT NOT NULL,
    gender            TEXT NOT NULL,
    birthday          TEXT NOT NULL,
    nationality       TEXT NOT NULL,
    phone             TEXT NOT NULL DEFAULT '',
    email             TEXT NOT NULL DEFAULT '',
    document_type     TEXT NOT NULL,
    document_number   TEXT NOT NULL,
    document_expiry   TEXT NOT NULL,
    document_issued_at TEXT NOT NULL DEFAULT '',
    created_at        TIMESTAMPTZ NOT NULL,
    updated_at        TIMESTAMPTZ NOT NULL
);
CREATE INDEX often_used_passengers_user ON often_used_passengers (user_id);

CREATE TABLE member_cards (
    id           BIGSERIAL PRIMARY KEY,
    agency_id    BIGINT NOT NULL REFERENCES agencies (id),
    user_id      BIGINT NOT NULL REFERENCES users (id),
    passenger_id BIGINT REFERENCES often_used_passengers (id) ON DELETE CASCADE,
    airline      TEXT NOT NULL,
    number       TEXT NOT NULL,
    holder_name  TEXT NOT NULL DEFAULT '',
    created_at   TIMESTAMPTZ NOT NULL,
    updated_at   TIMESTAMPTZ NOT NULL
);
CREATE INDEX member_cards_user ON member_cards (user_id);

ALTER TABLE sessions ADD COLUMN agency_id BIGINT NOT NULL DEFAULT 0;

-- +goose Down
ALTER TABLE sessions DROP COLUMN agency_id;
DROP TABLE member_cards;
DROP TABLE often_used_passengers;
DROP TABLE user_logs;
DROP TABLE api_keys;
DROP TABLE sso_codes;
DROP TABLE login_failures;
DROP TABLE users;
DROP TABLE agencies;
