-- +goose Up
-- The provider's accounts are split into sub-accounts (shards): every
-- payment of every agency credits the provider, and one row for it made
-- each transfer wait for the previous one's commit. A provider account's
-- balance is the sum of its shards; an agency's accounts keep shard 0.
ALTER TABLE ledger_accounts ADD COLUMN shard INTEGER NOT NULL DEFAULT 0;
DROP INDEX ledger_accounts_provider;
CREATE UNIQUE INDEX ledger_accounts_provider ON ledger_accounts (kind, currency, shard) WHERE agency_id IS NULL;

-- +goose Down
-- Fails while a provider account has more than one shard: transfers point
-- at each of them, and merging them would rewrite the ledger.
DROP INDEX ledger_accounts_provider;
ALTER TABLE ledger_accounts DROP COLUMN shard;
CREATE UNIQUE INDEX ledger_accounts_provider ON ledger_accounts (kind, currency) WHERE agency_id IS NULL;
