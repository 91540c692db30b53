package group

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"time"

	"github.com/jmoiron/sqlx"

	"github.com/voyage/voyage/pkg/booking"
	"github.com/voyage/voyage/pkg/fault"
	"github.com/voyage/voyage/pkg/money"
	"github.com/voyage/voyage/pkg/store"
)

type orderRow struct {
	booking.Row
	Status             string       `db:"status"`
	Journeys           string       `db:"journeys"`
	IsChangeDate       bool         `db:"is_change_date"`
	AcceptChangeFlight bool         `db:"accept_change_flight"`
	Adults             int          `db:"adults"`
	Children           int          `db:"children"`
	Infants            int          `db:"infants"`
	Cabin              string       `db:"cabin"`
	Contact            string       `db:"contact"`
	Remark             string       `db:"remark"`
	Currency           string       `db:"currency"`
	Total              int64        `db:"total"`
	Passengers         string       `db:"passengers"`
	Tickets            string       `db:"tickets"`
	ConfirmedAt        sql.NullTime `db:"confirmed_at"`
	IdempotencyKey     string       `db:"idempotency_key"`
	RequestHash        string       `db:"request_hash"`
	CreatedAt          time.Time    `db:"created_at"`
	UpdatedAt          time.Time    `db:"updated_at"`
}

const orderColumns = `id, booking_number, agency_id, user_id, status, journeys, is_change_date, accept_change_flight, adults, children,
	infants, cabin, contact, remark, currency, total, passengers, tickets, confirmed_at, idempotency_key, request_hash, created_at, updated_at`

func (r orderRow) decode() (Order, error) {
	o := Order{Head: r.Head(), Status: Status(r.Status),
		IsChangeDate: r.IsChangeDate, AcceptChangeFlight: r.AcceptChangeFlight, Counts: Counts{Adult: r.Adults, Child: r.Children, Infant: r.Infants},
		Cabin: r.Cabin, Remark: r.Remark, Currency: r.Currency, Total: r.Total, ConfirmedAt: r.ConfirmedAt.Time,
		IdempotencyKey: r.IdempotencyKey, RequestHash: r.RequestHash, CreatedAt: r.CreatedAt, UpdatedAt: r.UpdatedAt}
	for _, f := range []struct {
		s string
		v any
	}{{r.Journeys, &o.Journeys}, {r.Contact, &o.Contact}, {r.Passengers, &o.Passengers}, {r.Tickets, &o.Tickets}} {
		if f.s == "" {
			continue
		}
		if err := json.Unmarshal([]byte(f.s), f.v); err != nil {
			return Order{}, fmt.Errorf("group order %d: decode: %w", r.ID, err)
		}
	}
	return o, nil
}

func errNotFound() error { return fault.NotFound("group.error.notFound") }

// insertOrder stores a new order and gives it its booking number (G, the
// date, the id: unique without a retry).
func insertOrder(ctx context.Context, tx *sqlx.Tx, o *Order) error {
	if o.Passengers == nil {
		o.Passengers = []Passenger{}
	}
	if o.Tickets == nil {
		o.Tickets = []Ticket{}
	}
	pending := fmt.Sprintf("pending-%s-%d-%d", o.IdempotencyKey, o.AgencyID, o.CreatedAt.UnixNano())
	err := tx.GetContext(ctx, &o.ID, tx.Rebind(`INSERT INTO group_orders (booking_number, agency_id, user_id, status, journeys,
		is_change_date, accept_change_flight, adults, children, infants, cabin, contact, remark, currency, total, passengers, tickets,
		idempotency_key, request_hash, created_at, updated_at)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id`),
		pending, o.AgencyID, store.NullID(o.UserID), string(o.Status), store.JSON(o.Journeys), o.IsChangeDate, o.AcceptChangeFlight,
		o.Counts.Adult, o.Counts.Child, o.Counts.Infant, o.Cabin, store.JSON(o.Contact), o.Remark, o.Currency, o.Total, store.JSON(o.Passengers),
		store.JSON(o.Tickets), o.IdempotencyKey, o.RequestHash, o.CreatedAt.UTC(), o.UpdatedAt.UTC())
	if err != nil {
		return fmt.Errorf("group: insert order: %w", err)
	}
	o.BookingNumber = fmt.Sprintf("G%s%08d", o.CreatedAt.UTC().Format("060102"), o.ID)
	if _, err := tx.ExecContext(ctx, tx.Rebind(`UPDATE group_orders SET booking_number = ? WHERE id = ?`), o.BookingNumber, o.ID); err != nil {
		return fmt.Errorf("group: set booking number: %w", err)
	}
	return nil
}

// saveOrder writes back an order's mutable fields if its status is still
// from: false when another writer moved it first.
func saveOrder(ctx context.Context, tx *sqlx.Tx, o *Order, from Status) (bool, error) {
	saved, err := booking.Guarded(ctx, tx, `UPDATE group_orders SET status = ?, currency = ?, total = ?, passengers = ?, tickets = ?,
		confirmed_at = ?, updated_at = ? WHERE id = ? AND status = ?`,
		string(o.Status), o.Currency, o.Total, store.JSON(o.Passengers), store.JSON(o.Tickets), store.NullTime(o.ConfirmedAt), o.UpdatedAt.UTC(), o.ID, string(from))
	if err != nil {
		return false, fmt.Errorf("group order %d: %w", o.ID, err)
	}
	return saved, nil
}

// stored reads one order, by id or idempotency key (prepared on
// PostgreSQL).
var stored = booking.NewReader("group_orders", orderColumns, "group order", errNotFound, orderRow.decode)

func listOrders(ctx context.Context, db *store.DB, sc booking.Scope, statuses []string, p booking.Paging) ([]Order, int, error) {
	q := sc.Query("agency_id", "user_id").In("status", statuses)
	total, err := q.Count(ctx, db, "group_orders")
	if err != nil {
		return nil, 0, err
	}
	var rows []orderRow
	if err := q.Page(ctx, db, &rows, orderColumns, "group_orders", p); err != nil {
		return nil, 0, err
	}
	out := make([]Order, 0, len(rows))
	for _, r := range rows {
		o, err := r.decode()
		if err != nil {
			return nil, 0, err
		}
		out = append(out, o)
	}
	return out, total, nil
}

// quoteRow is a group_quotes row.
type quoteRow struct {
	ID                    int64     `db:"id"`
	OrderID               int64     `db:"order_id"`
	Status                string    `db:"status"`
	Segments              string    `db:"segments"`
	Fares                 string    `db:"fares"`
	Installments          string    `db:"installments"`
	Currency              string    `db:"currency"`
	Total                 int64     `db:"total"`
	ConfirmBefore         time.Time `db:"confirm_before"`
	PassengerListDeadline time.Time `db:"passenger_list_deadline"`
	FreeDropSeats         int       `db:"free_drop_seats"`
	TimeZone              string    `db:"time_zone"`
	CreatedBy             string    `db:"created_by"`
	CreatedAt             time.Time `db:"created_at"`
}

const quoteColumns = `id, order_id, status, segments, fares, installments, currency, total, confirm_before, passenger_list_deadline,
	free_drop_seats, time_zone, created_by, created_at`

func (r quoteRow) decode() (Quote, error) {
	q := Quote{ID: r.ID, Total: money.Of(r.Total, r.Currency), ConfirmBefore: r.ConfirmBefore.UTC(), PassengerListDeadline: r.PassengerListDeadline.UTC(),
		FreeDropSeats: r.FreeDropSeats, TimeZone: r.TimeZone, Status: r.Status, CreatedBy: r.CreatedBy, CreatedAt: r.CreatedAt}
	for _, f := range []struct {
		s string
		v any
	}{{r.Segments, &q.Segments}, {r.Fares, &q.Fares}, {r.Installments, &q.Installments}} {
		if err := json.Unmarshal([]byte(f.s), f.v); err != nil {
			return Quote{}, fmt.Errorf("group quote %d: decode: %w", r.ID, err)
		}
	}
	return q, nil
}

func insertQuote(ctx context.Context, tx *sqlx.Tx, orderID int64, q *Quote, currency string, total int64) error {
	// The earlier quotes stay as history.
	if _, err := tx.ExecContext(ctx, tx.Rebind(`UPDATE group_quotes SET status = ? WHERE order_id = ? AND status IN (?, ?)`),
		QuoteSuperseded, orderID, QuoteCurrent, QuoteAccepted); err != nil {
		return fmt.Errorf("group order %d: supersede quotes: %w", orderID, err)
	}
	err := tx.GetContext(ctx, &q.ID, tx.Rebind(`INSERT INTO group_quotes (order_id, status, segments, fares, installments, currency, total,
		confirm_before, passenger_list_deadline, free_drop_seats, time_zone, created_by, created_at)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id`),
		orderID, q.Status, store.JSON(q.Segments), store.JSON(q.Fares), store.JSON(q.Installments), currency, total, q.ConfirmBefore.UTC(),
		q.PassengerListDeadline.UTC(), q.FreeDropSeats, q.TimeZone, q.CreatedBy, q.CreatedAt.UTC())
	if err != nil {
		return fmt.Errorf("group order %d: insert quote: %w", orderID, err)
	}
	return nil
}

func setQuoteStatus(ctx context.Context, tx *sqlx.Tx, quoteID int64, status string) error {
	if _, err := tx.ExecContext(ctx, tx.Rebind(`UPDATE group_quotes SET status = ? WHERE id = ?`), status, quoteID); err != nil {
		return fmt.Errorf("group quote %d: set status: %w", quoteID, err)
	}
	return nil
}

// quotes lists an order's quotes, newest first.
func quotes(ctx context.Context, q sqlx.ExtContext, orderID int64) ([]Quote, error) {
	var rows []quoteRow
	if err := sqlx.SelectContext(ctx, q, &rows, q.Rebind(`SELECT `+quoteColumns+` FROM group_quotes WHERE order_id = ? ORDER BY id DESC`), orderID); err != nil {
		return nil, fmt.Errorf("group order %d: quotes: %w", orderID, err)
	}
	out := make([]Quote, 0, len(rows))
	for _, r := range rows {
		qt, err := r.decode()
		if err != nil {
			return nil, err
		}
		out = append(out, qt)
	}
	return out, nil
}

// Deadline kinds besides the installment stages.
const (
	KindConfirm       = "confirm"
	KindPassengerList = "passenger_list"
)

// Deadline statuses besides the installments'.
const (
	DeadlineOpen = "open"
	DeadlineMet  = "met"
)

// deadline is a group_deadlines row.
type deadline struct {
	ID         int64        `db:"id"`
	OrderID    int64        `db:"order_id"`
	Kind       string       `db:"kind"`
	Amount     int64        `db:"amount"`
	Currency   string       `db:"currency"`
	Deadline   time.Time    `db:"deadline"`
	TimeZone   string       `db:"time_zone"`
	Status     string       `db:"status"`
	PaidAt     sql.NullTime `db:"paid_at"`
	Channel    string       `db:"channel"`
	PaymentKey string       `db:"payment_key"`
	RemindedAt sql.NullTime `db:"reminded_at"`
}

const deadlineColumns = `id, order_id, kind, amount, currency, deadline, time_zone, status, paid_at, channel, payment_key, reminded_at`

// replaceDeadlines sets an order's deadlines to ds (a new quote's).
func replaceDeadlines(ctx context.Context, tx *sqlx.Tx, orderID int64, ds []deadline) error {
	if _, err := tx.ExecContext(ctx, tx.Rebind(`DELETE FROM group_deadlines WHERE order_id = ?`), orderID); err != nil {
		return fmt.Errorf("group order %d: clear deadlines: %w", orderID, err)
	}
	for _, d := range ds {
		_, err := tx.ExecContext(ctx, tx.Rebind(`INSERT INTO group_deadlines (order_id, kind, amount, currency, deadline, time_zone, status)
			VALUES (?, ?, ?, ?, ?, ?, ?)`), orderID, d.Kind, d.Amount, d.Currency, d.Deadline.UTC(), d.TimeZone, d.Status)
		if err != nil {
			return fmt.Errorf("group order %d: insert deadline: %w", orderID, err)
		}
	}
	return nil
}

func deadlines(ctx context.Context, q sqlx.ExtContext, orderID int64) ([]deadline, error) {
	var out []deadline
	if err := sqlx.SelectContext(ctx, q, &out, q.Rebind(`SELECT `+deadlineColumns+` FROM group_deadlines WHERE order_id = ? ORDER BY id`), orderID); err != nil {
		return nil, fmt.Errorf("group order %d: deadlines: %w", orderID, err)
	}
	return out, nil
}

// setDeadline writes a deadline's status and payment fields when its status
// is still from.
func setDeadline(ctx context.Context, tx *sqlx.Tx, d deadline, from string) (bool, error) {
	res, err := tx.ExecContext(ctx, tx.Rebind(`UPDATE group_deadlines SET status = ?, paid_at = ?, channel = ?, payment_key = ?
		WHERE id = ? AND status = ?`), d.Status, store.NullTime(d.PaidAt.Time), d.Channel, d.PaymentKey, d.ID, from)
	if err != nil {
		return false, fmt.Errorf("group deadline %d: save: %w", d.ID, err)
	}
	n, _ := res.RowsAffected()
	return n == 1, nil
}

// closeDeadlines ends an ended order's deadlines in two statements: the
// installments paid are forfeited, every running or future one void.
func closeDeadlines(ctx context.Context, tx *sqlx.Tx, orderID int64) error {
	if _, err := tx.ExecContext(ctx, tx.Rebind(`UPDATE group_deadlines SET status = ? WHERE order_id = ? AND status = ?`),
		InstForfeited, orderID, InstPaid); err != nil {
		return fmt.Errorf("group order %d: forfeit deadlines: %w", orderID, err)
	}
	// A payment under way finds its installment void and goes to the
	// agency's wallet (payment.PutBack).
	if _, err := tx.ExecContext(ctx, tx.Rebind(`UPDATE group_deadlines SET status = ? WHERE order_id = ? AND status IN (?, ?, ?, ?)`),
		InstVoid, orderID, DeadlineOpen, InstDue, InstNotDue, InstHolding); err != nil {
		return fmt.Errorf("group order %d: void deadlines: %w", orderID, err)
	}
	return nil
}

// missedDeadlines are the running deadlines that passed before now, oldest
// first, at most limit.
func missedDeadlines(ctx context.Context, db *store.DB, now time.Time, limit int) ([]deadline, error) {
	var out []deadline
	err := db.SelectContext(ctx, &out, db.Rebind(`SELECT `+deadlineColumns+` FROM group_deadlines
		WHERE status IN ('open', 'due') AND deadline < ? ORDER BY deadline, id LIMIT ?`), now.UTC(), limit)
	if err != nil {
		return nil, fmt.Errorf("group: missed deadlines: %w", err)
	}
	return out, nil
}

// dueReminders are the running deadlines within before of now not yet
// reminded, at most limit.
func dueReminders(ctx context.Context, db *store.DB, until time.Time, limit int) ([]deadline, error) {
	var out []deadline
	err := db.SelectContext(ctx, &out, db.Rebind(`SELECT `+deadlineColumns+` FROM group_deadlines
		WHERE status IN ('open', 'due') AND reminded_at IS NULL AND deadline < ? ORDER BY deadline, id LIMIT ?`), until.UTC(), limit)
	if err != nil {
		return nil, fmt.Errorf("group: due reminders: %w", err)
	}
	return out, nil
}

func markReminded(ctx context.Context, tx *sqlx.Tx, id int64, at time.Time) (bool, error) {
	res, err := tx.ExecContext(ctx, tx.Rebind(`UPDATE group_deadlines SET reminded_at = ? WHERE id = ? AND reminded_at IS NULL`), at.UTC(), id)
	if err != nil {
		return false, fmt.Errorf("group deadline %d: reminded: %w", id, err)
	}
	n, _ := res.RowsAffected()
	return n == 1, nil
}
