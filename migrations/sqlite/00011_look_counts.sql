-- +goose Up
-- The look-to-book counters move off the agencies row into striped counter
-- rows: every search and every order of an agency incremented that one row,
-- so under load they all queued on its lock (inside the order transaction,
-- until its commit). An increment now adds 1 to one of 32 stripes picked at
-- random (pkg/agency countLook) and a reading sums the stripes, so
-- concurrent increments rarely wait on each other.
CREATE TABLE agency_look_counts (
    agency_id INTEGER NOT NULL REFERENCES agencies (id),
    counter   TEXT NOT NULL,
    stripe    INTEGER NOT NULL,
    n         BIGINT NOT NULL,
    PRIMARY KEY (agency_id, counter, stripe)
) WITHOUT ROWID;

-- The counts so far go to stripe 0; an agency that never counted has no rows.
INSERT INTO agency_look_counts (agency_id, counter, stripe, n)
SELECT id, 'searches', 0, searches FROM agencies WHERE searches <> 0
UNION ALL
SELECT id, 'verifications', 0, verifications FROM agencies WHERE verifications <> 0
UNION ALL
SELECT id, 'bookings', 0, bookings FROM agencies WHERE bookings <> 0;

ALTER TABLE agencies DROP COLUMN searches;
ALTER TABLE agencies DROP COLUMN verifications;
ALTER TABLE agencies DROP COLUMN bookings;

-- +goose Down
ALTER TABLE agencies ADD COLUMN searches BIGINT NOT NULL DEFAULT 0;
ALTER TABLE agencies ADD COLUMN verifications BIGINT NOT NULL DEFAULT 0;
ALTER TABLE agencies ADD COLUMN bookings BIGINT NOT NULL DEFAULT 0;
UPDATE agencies SET
    searches = COALESCE((SELECT SUM(c.n) FROM agency_look_counts c WHERE c.agency_id = agencies.id AND c.counter = 'searches'), 0),
    verifications = COALESCE((SELECT SUM(c.n) FROM agency_look_counts c WHERE c.agency_id = agencies.id AND c.counter = 'verifications'), 0),
    bookings = COALESCE((SELECT SUM(c.n) FROM agency_look_counts c WHERE c.agency_id = agencies.id AND c.counter = 'bookings'), 0);
DROP TABLE agency_look_counts;
