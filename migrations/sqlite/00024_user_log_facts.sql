-- +goose Up
-- The user log reads as sentences (issue 20): what a sentence names (the
-- booking number, the amount, the other agency's name) is kept at write time
-- as a JSON object of strings; '' on older lines, which read generically.
ALTER TABLE user_logs ADD COLUMN facts TEXT NOT NULL DEFAULT '';

-- +goose Down
ALTER TABLE user_logs DROP COLUMN facts;
