-- +goose Up
-- A statement records a period the agency asked for; its entries are read
-- back from the immutable transfers, so it always reconciles to the ledger.
CREATE TABLE statements (
    id           INTEGER PRIMARY KEY AUTOINCREMENT,
    agency_id    BIGINT NOT NULL REFERENCES agencies (id),
    currency     TEXT NOT NULL,
    period_from  DATETIME NOT NULL,
    period_to    DATETIME NOT NULL,
    opening      BIGINT NOT NULL,
    closing      BIGINT NOT NULL,
    entry_count  INTEGER NOT NULL,
    created_by   TEXT NOT NULL DEFAULT '',
    created_at   DATETIME NOT NULL
);
CREATE INDEX statements_agency ON statements (agency_id, id);

-- +goose Down
DROP TABLE statements;
