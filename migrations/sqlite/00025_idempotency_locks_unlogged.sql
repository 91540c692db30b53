-- +goose Up
-- PostgreSQL makes idempotency_locks unlogged in this version; SQLite has no
-- such tables (its one writer commits to the same WAL either way). The
-- version is kept so that both engines number their migrations alike.
SELECT 1;

-- +goose Down
SELECT 1;
