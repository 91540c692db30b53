-- +goose Up
-- The deadline sweep (order.Service.SweepDeadlines, every 15 seconds) asks
-- for the orders waiting on a deadline that has passed, oldest first. These
-- partial indexes hold only the orders in the waiting statuses, so the
-- sweep reads the few it ends instead of every order ever booked. id is in
-- the key because the sweep pages on (deadline, id). The status lists must
-- match pkg/order's deadlineWaits.
CREATE INDEX flight_orders_pay_due ON flight_orders (pay_by, id)
    WHERE status IN ('to_be_paid', 'reserved');
CREATE INDEX flight_orders_confirm_due ON flight_orders (confirm_by, id)
    WHERE status IN ('chg_to_be_paid', 'rfd_to_be_confirm');

-- +goose Down
DROP INDEX flight_orders_confirm_due;
DROP INDEX flight_orders_pay_due;
