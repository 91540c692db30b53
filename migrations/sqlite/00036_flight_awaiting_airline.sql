-- +goose Up
-- An origin order the airline accepted and has not confirmed yet (Duffel's
-- 202 Accepted): it waits in reviewing with this flag, which refuses every
-- action on it until the airline's answer moves it on. Its status stays in
-- the spec's vocabulary; the flag is what the API and the order page show.
ALTER TABLE flight_orders ADD COLUMN awaiting_airline INTEGER NOT NULL DEFAULT 0;

-- +goose Down
ALTER TABLE flight_orders DROP COLUMN awaiting_airline;
