-- +goose Up
-- ledger_transfers_agency (agency_id, created_at) was written on every
-- transfer, and no query reads it by its second column: the queries by
-- agency (a group order's transfers, an agency's count before it is
-- removed) filter on agency_id alone, a prefix that the idempotency key's
-- unique index (agency_id, idempotency_key) serves as well. One index
-- fewer on the ledger's hottest insert.
DROP INDEX ledger_transfers_agency;

-- +goose Down
CREATE INDEX ledger_transfers_agency ON ledger_transfers (agency_id, created_at);
