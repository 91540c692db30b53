-- +goose Up
-- A flight order: the original booking (type origin) or a post-sale request
-- (change, refund, void) pointing at the order it acts on. Prices are minor
-- units of the order's currency; the JSON columns hold what the order sold
-- (segments, passengers, the supplier offers and bookings) as it was then.
CREATE TABLE flight_orders (
    id               INTEGER PRIMARY KEY AUTOINCREMENT,
    booking_number   TEXT NOT NULL UNIQUE,
    agency_id        INTEGER NOT NULL REFERENCES agencies (id),
    user_id          INTEGER,
    type             TEXT NOT NULL,
    original_id      INTEGER REFERENCES flight_orders (id),
    root_id          INTEGER,
    status           TEXT NOT NULL,
    payment_status   TEXT NOT NULL DEFAULT 'unpaid',
    payment_channel  TEXT NOT NULL DEFAULT '',
    payment_key      TEXT NOT NULL DEFAULT '',
    reference_id     TEXT NOT NULL DEFAULT '',
    pnr              TEXT NOT NULL DEFAULT '',
    airline          TEXT NOT NULL DEFAULT '',
    flight_number    TEXT NOT NULL DEFAULT '',
    ticket_numbers   TEXT NOT NULL DEFAULT '',
    origin           TEXT NOT NULL DEFAULT '',
    destination      TEXT NOT NULL DEFAULT '',
    depart_at        DATETIME,
    currency         TEXT NOT NULL,
    total            INTEGER NOT NULL DEFAULT 0,
    prices           TEXT NOT NULL DEFAULT '{}',
    segments         TEXT NOT NULL DEFAULT '[]',
    passengers       TEXT NOT NULL DEFAULT '[]',
    contact          TEXT NOT NULL DEFAULT '{}',
    restrictions     TEXT NOT NULL DEFAULT '{}',
    invoice_type     TEXT NOT NULL DEFAULT 'None',
    quote            TEXT NOT NULL DEFAULT '{}',
    bookings         TEXT NOT NULL DEFAULT '[]',
    request          TEXT NOT NULL DEFAULT '{}',
    change_search    TEXT NOT NULL DEFAULT '{}',
    reason           TEXT NOT NULL DEFAULT '',
    review_remark    TEXT NOT NULL DEFAULT '',
    disrupted        INTEGER NOT NULL DEFAULT 0,
    idempotency_key  TEXT NOT NULL DEFAULT '',
    request_hash     TEXT NOT NULL DEFAULT '',
    pay_by           DATETIME,
    confirm_by       DATETIME,
    created_at       DATETIME NOT NULL,
    updated_at       DATETIME NOT NULL
);
CREATE UNIQUE INDEX flight_orders_idempotency ON flight_orders (agency_id, idempotency_key) WHERE idempotency_key <> '';
CREATE INDEX flight_orders_agency ON flight_orders (agency_id, created_at);
CREATE INDEX flight_orders_status ON flight_orders (agency_id, status);
CREATE INDEX flight_orders_original ON flight_orders (original_id);
-- At most one open post-sale request per order: a second refund while the
-- first is under review would pay twice.
CREATE UNIQUE INDEX flight_orders_one_open_request ON flight_orders (original_id)
    WHERE status IN ('chg_reviewing', 'chg_to_be_paid', 'chg_proceeding', 'change_holding', 'reimbursing',
                     'rfd_reviewing', 'rfd_to_be_confirm', 'rfd_proceeding', 'refund_holding',
                     'void_proceeding', 'void_holding');

-- Every status change, for the order's timeline.
CREATE TABLE flight_order_events (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    order_id    INTEGER NOT NULL REFERENCES flight_orders (id),
    action      TEXT NOT NULL,
    from_status TEXT NOT NULL,
    to_status   TEXT NOT NULL,
    actor       TEXT NOT NULL DEFAULT '',
    remark      TEXT NOT NULL DEFAULT '',
    created_at  DATETIME NOT NULL
);
CREATE INDEX flight_order_events_order ON flight_order_events (order_id, id);

-- Proof files of post-sale requests (jpg, png or PDF, checked by content).
CREATE TABLE flight_order_proofs (
    id           INTEGER PRIMARY KEY AUTOINCREMENT,
    order_id     INTEGER NOT NULL REFERENCES flight_orders (id),
    name         TEXT NOT NULL,
    content_type TEXT NOT NULL,
    data         BLOB NOT NULL,
    created_at   DATETIME NOT NULL
);
CREATE INDEX flight_order_proofs_order ON flight_order_proofs (order_id);

-- Schedule changes the provider records against orders (spec §4 flight
-- disruption types), with the email sent to the order's contact.
CREATE TABLE flight_disruptions (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    order_id    INTEGER NOT NULL REFERENCES flight_orders (id),
    agency_id   INTEGER NOT NULL REFERENCES agencies (id),
    type        TEXT NOT NULL,
    detail      TEXT NOT NULL DEFAULT '',
    email       TEXT NOT NULL DEFAULT '',
    emailed_at  DATETIME,
    created_at  DATETIME NOT NULL
);
CREATE INDEX flight_disruptions_agency ON flight_disruptions (agency_id, created_at);

-- +goose Down
DROP TABLE flight_disruptions;
DROP TABLE flight_order_proofs;
DROP TABLE flight_order_events;
DROP TABLE flight_orders;
