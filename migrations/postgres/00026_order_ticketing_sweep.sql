-- +goose Up
-- A paid order is ticketed by a sweep rather than by one River job each
-- (order.Service.runTicketing): ticket_due_at is when it is next to be tried
-- (set when the order enters proceeding; pushed forward by a claim, as a
-- lease, and by a failed attempt, as the wait before the next), and
-- ticket_attempts how often it was claimed. Orders already proceeding keep
-- the River jobs queued for them and no due time, so nothing tickets them
-- twice.
ALTER TABLE flight_orders ADD COLUMN ticket_due_at TIMESTAMPTZ;
ALTER TABLE flight_orders ADD COLUMN ticket_attempts INTEGER NOT NULL DEFAULT 0;
-- The sweep's query repeats this predicate as a literal.
CREATE INDEX flight_orders_ticket_due ON flight_orders (ticket_due_at, id)
    WHERE status = 'proceeding' AND ticket_due_at IS NOT NULL;

-- +goose Down
DROP INDEX flight_orders_ticket_due;
ALTER TABLE flight_orders DROP COLUMN ticket_attempts;
ALTER TABLE flight_orders DROP COLUMN ticket_due_at;
