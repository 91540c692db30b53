-- +goose Up
-- A search session's supplier answers, one row per batch of answers as they arrive, so
-- any instance can serve a poll and no writer rewrites another's row.
ALTER TABLE search_sessions ADD COLUMN suppliers TEXT NOT NULL DEFAULT '[]';
ALTER TABLE search_sessions ADD COLUMN parts INTEGER NOT NULL DEFAULT 0;

CREATE TABLE search_results (
    id         INTEGER PRIMARY KEY AUTOINCREMENT,
    session_id TEXT NOT NULL REFERENCES search_sessions (id) ON DELETE CASCADE,
    part       TEXT NOT NULL,
    supplier   TEXT NOT NULL,
    status     TEXT NOT NULL,
    offers     INTEGER NOT NULL DEFAULT 0,
    payload    BLOB NOT NULL,
    created_at DATETIME NOT NULL,
    UNIQUE (session_id, part)
);

-- A verified solution, valid for 15 minutes: what an order books.
CREATE TABLE flight_quotes (
    id          TEXT PRIMARY KEY,
    agency_id   INTEGER NOT NULL REFERENCES agencies (id),
    user_id     INTEGER,
    search_id   TEXT NOT NULL,
    solution_id TEXT NOT NULL,
    status      TEXT NOT NULL,
    payload     BLOB NOT NULL,
    created_at  DATETIME NOT NULL,
    expires_at  DATETIME NOT NULL
);
CREATE INDEX flight_quotes_agency ON flight_quotes (agency_id, created_at);
CREATE INDEX flight_quotes_expires_at ON flight_quotes (expires_at);

-- +goose Down
DROP TABLE flight_quotes;
DROP TABLE search_results;
ALTER TABLE search_sessions DROP COLUMN parts;
ALTER TABLE search_sessions DROP COLUMN suppliers;
