-- +goose Up
-- The rest of spec §3 Agency: contacts, settings and the flight and train
-- settings (JSON documents validated by pkg/agency), credit period and the
-- look-to-book counters that shopping and ordering increment.
ALTER TABLE agencies ADD COLUMN contact_name TEXT NOT NULL DEFAULT '';
ALTER TABLE agencies ADD COLUMN contact_email TEXT NOT NULL DEFAULT '';
ALTER TABLE agencies ADD COLUMN contact_phone TEXT NOT NULL DEFAULT '';
ALTER TABLE agencies ADD COLUMN customer_service TEXT NOT NULL DEFAULT '';
ALTER TABLE agencies ADD COLUMN extra_info TEXT NOT NULL DEFAULT '';
ALTER TABLE agencies ADD COLUMN email_language TEXT NOT NULL DEFAULT 'en';
ALTER TABLE agencies ADD COLUMN send_email_to_sub BOOLEAN NOT NULL DEFAULT FALSE;
ALTER TABLE agencies ADD COLUMN hide_pnr_booking BOOLEAN NOT NULL DEFAULT FALSE;
ALTER TABLE agencies ADD COLUMN hide_mainland BOOLEAN NOT NULL DEFAULT FALSE;
ALTER TABLE agencies ADD COLUMN disable_payment BOOLEAN NOT NULL DEFAULT FALSE;
ALTER TABLE agencies ADD COLUMN only_own_orders BOOLEAN NOT NULL DEFAULT FALSE;
ALTER TABLE agencies ADD COLUMN invoice_type_on_excel BOOLEAN NOT NULL DEFAULT FALSE;
ALTER TABLE agencies ADD COLUMN flight_settings TEXT NOT NULL DEFAULT '{}';
ALTER TABLE agencies ADD COLUMN train_settings TEXT NOT NULL DEFAULT '{}';
ALTER TABLE agencies ADD COLUMN credit_period INTEGER NOT NULL DEFAULT 0;
ALTER TABLE agencies ADD COLUMN credit_period_unit TEXT NOT NULL DEFAULT 'month';
ALTER TABLE agencies ADD COLUMN searches BIGINT NOT NULL DEFAULT 0;
ALTER TABLE agencies ADD COLUMN verifications BIGINT NOT NULL DEFAULT 0;
ALTER TABLE agencies ADD COLUMN bookings BIGINT NOT NULL DEFAULT 0;

-- +goose Down
ALTER TABLE agencies DROP COLUMN bookings;
ALTER TABLE agencies DROP COLUMN verifications;
ALTER TABLE agencies DROP COLUMN searches;
ALTER TABLE agencies DROP COLUMN credit_period_unit;
ALTER TABLE agencies DROP COLUMN credit_period;
ALTER TABLE agencies DROP COLUMN train_settings;
ALTER TABLE agencies DROP COLUMN flight_settings;
ALTER TABLE agencies DROP COLUMN invoice_type_on_excel;
ALTER TABLE agencies DROP COLUMN only_own_orders;
ALTER TABLE agencies DROP COLUMN disable_payment;
ALTER TABLE agencies DROP COLUMN hide_mainland;
ALTER TABLE agencies DROP COLUMN hide_pnr_booking;
ALTER TABLE agencies DROP COLUMN send_email_to_sub;
ALTER TABLE agencies DROP COLUMN email_language;
ALTER TABLE agencies DROP COLUMN extra_info;
ALTER TABLE agencies DROP COLUMN customer_service;
ALTER TABLE agencies DROP COLUMN contact_phone;
ALTER TABLE agencies DROP COLUMN contact_email;
ALTER TABLE agencies DROP COLUMN contact_name;
