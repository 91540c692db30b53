-- +goose Up
-- Time zones (issue 20): an agency's default zone, in which its statements
-- and emails are written and its users' pages read unless they chose their
-- own; a user's own zone, "" for the agency's. IANA names (Asia/Shanghai).
-- Agencies start in China Standard Time, as the product's defaults (CNY,
-- zh-cn, area code 86) do.
ALTER TABLE agencies ADD COLUMN time_zone TEXT NOT NULL DEFAULT 'Asia/Shanghai';
ALTER TABLE users ADD COLUMN time_zone TEXT NOT NULL DEFAULT '';

-- +goose Down
ALTER TABLE users DROP COLUMN time_zone;
ALTER TABLE agencies DROP COLUMN time_zone;
