-- +goose Up
-- The throttle of secret checks (pkg/auth): one count per kind of check and
-- subject (an account, an address, a user changing a password), shared by
-- every instance on the database. failures leak away with quiet; an attempt
-- before blocked_until is refused with Retry-After.
CREATE TABLE auth_throttle (
    scope         TEXT NOT NULL,
    subject       TEXT NOT NULL,
    failures      INTEGER NOT NULL,
    last_at       DATETIME NOT NULL,
    blocked_until DATETIME NOT NULL,
    PRIMARY KEY (scope, subject)
);
CREATE INDEX auth_throttle_last ON auth_throttle (last_at);

-- The addresses each username logged in from: a login from one of them is
-- not held up by failures of others elsewhere on the same account.
CREATE TABLE auth_login_addresses (
    username      TEXT NOT NULL,
    ip            TEXT NOT NULL,
    last_login_at DATETIME NOT NULL,
    PRIMARY KEY (username, ip)
);
CREATE INDEX auth_login_addresses_last ON auth_login_addresses (last_login_at);

-- Replaced by auth_throttle: it counted per username and address only.
DROP TABLE login_failures;

-- +goose Down
CREATE TABLE login_failures (
    id         INTEGER PRIMARY KEY AUTOINCREMENT,
    username   TEXT NOT NULL,
    ip         TEXT NOT NULL,
    created_at DATETIME NOT NULL
);
CREATE INDEX login_failures_username ON login_failures (username, created_at);
DROP TABLE auth_login_addresses;
DROP TABLE auth_throttle;
