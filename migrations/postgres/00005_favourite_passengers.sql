-- +goose Up
-- The profile's favoured often-used passengers (PUT /base/v2/me/config/passengers).
ALTER TABLE users ADD COLUMN fav_passengers TEXT NOT NULL DEFAULT '[]';

-- +goose Down
ALTER TABLE users DROP COLUMN fav_passengers;
