-- +goose Up
-- A group flight order (pkg/group): the operator's request, then the
-- provider's quotes (group_quotes, history kept), and every deadline of the
-- order as its own record (group_deadlines): the confirm-before time, the
-- passenger-list deadline, each deposit and the final payment, each with the
-- time zone it is meant in. Money is minor units of the order's currency.
CREATE TABLE group_orders (
    id                   BIGSERIAL PRIMARY KEY,
    booking_number       TEXT NOT NULL UNIQUE,
    agency_id            BIGINT NOT NULL REFERENCES agencies (id),
    user_id              BIGINT,
    status               TEXT NOT NULL,
    journeys             TEXT NOT NULL DEFAULT '[]',
    is_change_date       BOOLEAN NOT NULL DEFAULT FALSE,
    accept_change_flight BOOLEAN NOT NULL DEFAULT FALSE,
    adults               INTEGER NOT NULL,
    children             INTEGER NOT NULL,
    infants              INTEGER NOT NULL,
    cabin                TEXT NOT NULL,
    contact              TEXT NOT NULL DEFAULT '{}',
    remark               TEXT NOT NULL DEFAULT '',
    currency             TEXT NOT NULL,
    total                BIGINT NOT NULL DEFAULT 0,
    passengers           TEXT NOT NULL DEFAULT '[]',
    tickets              TEXT NOT NULL DEFAULT '[]',
    confirmed_at         TIMESTAMPTZ,
    idempotency_key      TEXT NOT NULL DEFAULT '',
    request_hash         TEXT NOT NULL DEFAULT '',
    created_at           TIMESTAMPTZ NOT NULL,
    updated_at           TIMESTAMPTZ NOT NULL
);
CREATE UNIQUE INDEX group_orders_idempotency ON group_orders (agency_id, idempotency_key) WHERE idempotency_key <> '';
CREATE INDEX group_orders_agency ON group_orders (agency_id, status, created_at);
CREATE INDEX group_orders_status ON group_orders (status, created_at);

CREATE TABLE group_quotes (
    id                      BIGSERIAL PRIMARY KEY,
    order_id                BIGINT NOT NULL REFERENCES group_orders (id),
    status                  TEXT NOT NULL,
    segments                TEXT NOT NULL DEFAULT '[]',
    fares                   TEXT NOT NULL DEFAULT '[]',
    installments            TEXT NOT NULL DEFAULT '[]',
    currency                TEXT NOT NULL,
    total                   BIGINT NOT NULL,
    confirm_before          TIMESTAMPTZ NOT NULL,
    passenger_list_deadline TIMESTAMPTZ NOT NULL,
    free_drop_seats         INTEGER NOT NULL DEFAULT 0,
    time_zone               TEXT NOT NULL DEFAULT 'UTC',
    created_by              TEXT NOT NULL DEFAULT '',
    created_at              TIMESTAMPTZ NOT NULL
);
CREATE INDEX group_quotes_order ON group_quotes (order_id, id);

-- kind: confirm, passenger_list, first, second, third, final. status:
-- open (a confirm or list deadline running), met, not_due, due, paid,
-- forfeited, void. Only open and due deadlines can be missed.
CREATE TABLE group_deadlines (
    id              BIGSERIAL PRIMARY KEY,
    order_id        BIGINT NOT NULL REFERENCES group_orders (id),
    kind            TEXT NOT NULL,
    amount          BIGINT NOT NULL DEFAULT 0,
    currency        TEXT NOT NULL DEFAULT '',
    deadline        TIMESTAMPTZ NOT NULL,
    time_zone       TEXT NOT NULL DEFAULT 'UTC',
    status          TEXT NOT NULL,
    paid_at         TIMESTAMPTZ,
    channel         TEXT NOT NULL DEFAULT '',
    payment_key     TEXT NOT NULL DEFAULT '',
    reminded_at     TIMESTAMPTZ
);
CREATE UNIQUE INDEX group_deadlines_kind ON group_deadlines (order_id, kind);
-- The deadline sweep (pkg/group SweepDeadlines) reads only the running
-- deadlines, oldest first; the reminder pass the ones not yet reminded.
CREATE INDEX group_deadlines_running ON group_deadlines (deadline, id) WHERE status IN ('open', 'due');
CREATE INDEX group_deadlines_remind ON group_deadlines (deadline, id) WHERE status IN ('open', 'due') AND reminded_at IS NULL;

CREATE TABLE group_order_events (
    id          BIGSERIAL PRIMARY KEY,
    order_id    BIGINT NOT NULL REFERENCES group_orders (id),
    action      TEXT NOT NULL,
    from_status TEXT NOT NULL,
    to_status   TEXT NOT NULL,
    actor       TEXT NOT NULL,
    remark      TEXT NOT NULL DEFAULT '',
    created_at  TIMESTAMPTZ NOT NULL
);
CREATE INDEX group_order_events_order ON group_order_events (order_id, id);

-- +goose Down
DROP TABLE group_order_events;
DROP TABLE group_deadlines;
DROP TABLE group_quotes;
DROP TABLE group_orders;
