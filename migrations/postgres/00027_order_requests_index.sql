-- +goose Up
-- flight_orders_original indexed every order by original_id, which no query
-- reads (the foreign key needs no index on this side: orders are never
-- deleted), while the order detail's related orders (root_id) had no index
-- and scanned the table. Only post-sale requests (original_id set) go in
-- the new index: an origin order, nearly every row, is not written to it
-- on its insert, its payment or its ticketing.
DROP INDEX flight_orders_original;
CREATE INDEX flight_orders_requests ON flight_orders (root_id, id) WHERE original_id IS NOT NULL;

-- +goose Down
DROP INDEX flight_orders_requests;
CREATE INDEX flight_orders_original ON flight_orders (original_id);
