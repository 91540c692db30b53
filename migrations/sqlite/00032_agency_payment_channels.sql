-- +goose Up
-- The external payment channels the provider lets an agency pay by: a JSON
-- array of channel names (pkg/payment's), or NULL for "every channel the
-- server has". NULL is what existing agencies and new ones get, so nothing
-- changes for an agency until the provider restricts it. The wallet
-- (balance) is never listed: it is always allowed unless the agency's
-- disable_payment is set. A sub-agency may use at most what its parent
-- may (agency.Store.PaymentChannels).
ALTER TABLE agencies ADD COLUMN payment_channels TEXT;

-- +goose Down
ALTER TABLE agencies DROP COLUMN payment_channels;
