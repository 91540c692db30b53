-- +goose Up
-- The idempotency locks live for seconds and are written twice by every
-- request with an Idempotency-Key (taken, then released): as a logged table
-- each of those commits waited for its own WAL flush, two of the nine
-- flushes a booking made. Unlogged, the commit of a lock is not flushed.
-- What it gives up: after a crash of the server (or a failover to a
-- replica) the table is empty. That ends every lock at once, as the crash
-- ended every holder's connection; the services' own rules (an order's
-- unique key, the ledger's transfer key, the status machine) keep a replay
-- that then runs beside a survivor from booking or charging twice. The lock
-- only makes a replay wait instead of answering "in progress".
ALTER TABLE idempotency_locks SET UNLOGGED;

-- +goose Down
ALTER TABLE idempotency_locks SET LOGGED;
