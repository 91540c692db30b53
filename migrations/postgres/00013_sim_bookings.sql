-- +goose Up
-- The built-in simulated suppliers' own bookings (pkg/supplier/sim): the
-- records a real source would keep at its end, kept here so a restarted
-- server, another instance or an admin command on the same database can
-- ticket, refund and change what was booked before. One JSON document per
-- booking, written only over the version it was read at.
CREATE TABLE sim_bookings (
    supplier   TEXT NOT NULL,
    ref        TEXT NOT NULL,
    pnr        TEXT NOT NULL,
    book_key   TEXT,
    version    BIGINT NOT NULL,
    data       TEXT NOT NULL,
    created_at TIMESTAMPTZ NOT NULL,
    updated_at TIMESTAMPTZ NOT NULL,
    PRIMARY KEY (supplier, ref)
);
CREATE UNIQUE INDEX sim_bookings_pnr ON sim_bookings (supplier, pnr);
CREATE UNIQUE INDEX sim_bookings_key ON sim_bookings (supplier, book_key);

-- +goose Down
DROP TABLE sim_bookings;
