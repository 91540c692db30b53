-- +goose Up
-- A ticket's own arrival (issue "what users meet"): a changed ticket is for
-- another train, whose arrival the order's does not give, so its e-ticket
-- printed none. Tickets issued before this have none stored and print the
-- order's arrival when they are for the order's train, as before.
ALTER TABLE train_tickets ADD COLUMN arrive_at DATETIME;

-- +goose Down
ALTER TABLE train_tickets DROP COLUMN arrive_at;
