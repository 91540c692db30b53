-- +goose Up
-- A train booking (pkg/train): one row per booking with the train it is
-- on, its passengers and their tickets in tables of their own, and its
-- timeline. Money is minor units of the order's currency. quote holds the
-- after-sales offer (refund or change) waiting for the agency, as JSON.
CREATE TABLE train_orders (
    id              BIGSERIAL PRIMARY KEY,
    booking_number  TEXT NOT NULL UNIQUE,
    agency_id       BIGINT NOT NULL REFERENCES agencies (id),
    user_id         BIGINT,
    status          TEXT NOT NULL,
    resume_status   TEXT NOT NULL DEFAULT '',
    supplier        TEXT NOT NULL,
    supplier_ref    TEXT NOT NULL,
    manual          BOOLEAN NOT NULL DEFAULT FALSE,
    train_number    TEXT NOT NULL,
    train           TEXT NOT NULL DEFAULT '{}',
    origin          TEXT NOT NULL,
    destination     TEXT NOT NULL,
    depart_at       TIMESTAMPTZ NOT NULL,
    seat_class      TEXT NOT NULL,
    currency        TEXT NOT NULL,
    total           BIGINT NOT NULL DEFAULT 0,
    paid            BIGINT NOT NULL DEFAULT 0,
    refunded        BIGINT NOT NULL DEFAULT 0,
    contact         TEXT NOT NULL DEFAULT '{}',
    quote           TEXT NOT NULL DEFAULT '',
    hold_expires_at TIMESTAMPTZ,
    payment_channel TEXT NOT NULL DEFAULT '',
    payment_key     TEXT NOT NULL DEFAULT '',
    seq             INTEGER NOT NULL DEFAULT 0,
    idempotency_key TEXT NOT NULL DEFAULT '',
    request_hash    TEXT NOT NULL DEFAULT '',
    created_at      TIMESTAMPTZ NOT NULL,
    updated_at      TIMESTAMPTZ NOT NULL
);
CREATE UNIQUE INDEX train_orders_idempotency ON train_orders (agency_id, idempotency_key) WHERE idempotency_key <> '';
CREATE INDEX train_orders_agency ON train_orders (agency_id, created_at);
CREATE INDEX train_orders_status ON train_orders (status, hold_expires_at);

CREATE TABLE train_passengers (
    order_id        BIGINT NOT NULL REFERENCES train_orders (id),
    passenger_id    INTEGER NOT NULL,
    type            TEXT NOT NULL,
    surname         TEXT NOT NULL,
    given_name      TEXT NOT NULL,
    gender          TEXT NOT NULL DEFAULT '',
    birthday        TEXT NOT NULL DEFAULT '',
    nationality     TEXT NOT NULL DEFAULT '',
    document_type   TEXT NOT NULL,
    document_number TEXT NOT NULL,
    seat_letter     TEXT NOT NULL DEFAULT '',
    PRIMARY KEY (order_id, passenger_id)
);

-- Every ticket a booking had: the valid ones and those refunded or
-- exchanged (a change adds the new ticket beside the old).
CREATE TABLE train_tickets (
    order_id      BIGINT NOT NULL REFERENCES train_orders (id),
    seq           INTEGER NOT NULL,
    passenger_id  INTEGER NOT NULL,
    ticket_number TEXT NOT NULL,
    train_number  TEXT NOT NULL,
    origin        TEXT NOT NULL,
    destination   TEXT NOT NULL,
    depart_at     TIMESTAMPTZ NOT NULL,
    seat_class    TEXT NOT NULL,
    coach         TEXT NOT NULL,
    seat          TEXT NOT NULL,
    fare          BIGINT NOT NULL,
    status        TEXT NOT NULL,
    exchanges     INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (order_id, seq)
);
CREATE INDEX train_tickets_number ON train_tickets (ticket_number);

CREATE TABLE train_order_events (
    id          BIGSERIAL PRIMARY KEY,
    order_id    BIGINT NOT NULL REFERENCES train_orders (id),
    action      TEXT NOT NULL,
    from_status TEXT NOT NULL,
    to_status   TEXT NOT NULL,
    actor       TEXT NOT NULL DEFAULT '',
    remark      TEXT NOT NULL DEFAULT '',
    created_at  TIMESTAMPTZ NOT NULL
);
CREATE INDEX train_order_events_order ON train_order_events (order_id, id);

-- +goose Down
DROP TABLE train_order_events;
DROP TABLE train_tickets;
DROP TABLE train_passengers;
DROP TABLE train_orders;
