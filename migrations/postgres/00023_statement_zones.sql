-- +goose Up
-- A statement's period is whole days on its agency's clock (issue 20): the
-- zone those days were cut in is kept with it, so the period reads the same
-- days however the agency's zone changes later. '' marks the statements made
-- before, whose days were cut at UTC midnight.
ALTER TABLE statements ADD COLUMN time_zone TEXT NOT NULL DEFAULT '';

-- +goose Down
ALTER TABLE statements DROP COLUMN time_zone;
