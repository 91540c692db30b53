-- +goose Up
-- One period, one statement (issue "what users meet"): asking again for an
-- agency's statement of the same days, from the API, the portal or the CLI,
-- answers the statement already made instead of making a copy.
--
-- A statement of a period not over when it was made is provisional: its
-- figures are recomputed up to the moment it is read or exported, and fixed
-- once the period has ended (a statement made on the last day of the month
-- used to be sent later without that day's later entries). The statements
-- made before this rule whose period was not over are provisional too, so
-- their next reading has the whole period.
ALTER TABLE statements ADD COLUMN provisional BOOLEAN NOT NULL DEFAULT FALSE;
UPDATE statements SET provisional = TRUE WHERE created_at < period_to;

-- Copies already made of one period stay readable by their id, pointing to
-- the newest copy (the one that covers the most), which the list shows and
-- the unique index keeps alone.
ALTER TABLE statements ADD COLUMN superseded_by BIGINT;
UPDATE statements SET superseded_by = (
    SELECT MAX(s.id) FROM statements s
    WHERE s.agency_id = statements.agency_id AND s.currency = statements.currency
      AND s.period_from = statements.period_from AND s.period_to = statements.period_to)
WHERE id < (
    SELECT MAX(s.id) FROM statements s
    WHERE s.agency_id = statements.agency_id AND s.currency = statements.currency
      AND s.period_from = statements.period_from AND s.period_to = statements.period_to);
CREATE UNIQUE INDEX statements_period ON statements (agency_id, currency, period_from, period_to) WHERE superseded_by IS NULL;

-- +goose Down
DROP INDEX statements_period;
ALTER TABLE statements DROP COLUMN superseded_by;
ALTER TABLE statements DROP COLUMN provisional;
