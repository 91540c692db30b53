package train

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/jmoiron/sqlx"

	"github.com/voyage/voyage/pkg/booking"
	"github.com/voyage/voyage/pkg/fault"
	"github.com/voyage/voyage/pkg/store"
)

// row is a train_orders row; Order by decode.
type row struct {
	booking.Row
	Status         string       `db:"status"`
	Resume         string       `db:"resume_status"`
	Supplier       string       `db:"supplier"`
	SupplierRef    string       `db:"supplier_ref"`
	Manual         bool         `db:"manual"`
	TrainNumber    string       `db:"train_number"`
	Train          string       `db:"train"`
	Origin         string       `db:"origin"`
	Destination    string       `db:"destination"`
	DepartAt       time.Time    `db:"depart_at"`
	SeatClass      string       `db:"seat_class"`
	Currency       string       `db:"currency"`
	Total          int64        `db:"total"`
	Paid           int64        `db:"paid"`
	Refunded       int64        `db:"refunded"`
	Contact        string       `db:"contact"`
	Quote          string       `db:"quote"`
	HoldExpiresAt  sql.NullTime `db:"hold_expires_at"`
	PaymentChannel string       `db:"payment_channel"`
	PaymentKey     string       `db:"payment_key"`
	Seq            int          `db:"seq"`
	IdempotencyKey string       `db:"idempotency_key"`
	RequestHash    string       `db:"request_hash"`
	CreatedAt      time.Time    `db:"created_at"`
	UpdatedAt      time.Time    `db:"updated_at"`
}

const columns = `id, booking_number, agency_id, user_id, status, resume_status, supplier, supplier_ref, manual, train_number,
	train, origin, destination, depart_at, seat_class, currency, total, paid, refunded, contact, quote, hold_expires_at,
	payment_channel, payment_key, seq, idempotency_key, request_hash, created_at, updated_at`

func (r row) decode() (Order, error) {
	o := Order{Head: r.Head(), Status: Status(r.Status),
		Resume: Status(r.Resume), Supplier: r.Supplier, SupplierRef: r.SupplierRef, Manual: r.Manual, SeatClass: r.SeatClass,
		Currency: r.Currency, Total: r.Total, Paid: r.Paid, Refunded: r.Refunded, HoldExpiresAt: r.HoldExpiresAt.Time.UTC(),
		PaymentChannel: r.PaymentChannel, PaymentKey: r.PaymentKey, Seq: r.Seq, IdempotencyKey: r.IdempotencyKey,
		RequestHash: r.RequestHash, CreatedAt: r.CreatedAt.UTC(), UpdatedAt: r.UpdatedAt.UTC()}
	if err := json.Unmarshal([]byte(r.Train), &o.Train); err != nil {
		return Order{}, fmt.Errorf("train order %d: decode train: %w", r.ID, err)
	}
	if err := json.Unmarshal([]byte(r.Contact), &o.Contact); err != nil {
		return Order{}, fmt.Errorf("train order %d: decode contact: %w", r.ID, err)
	}
	if r.Quote != "" {
		o.Quote = &Quote{}
		if err := json.Unmarshal([]byte(r.Quote), o.Quote); err != nil {
			return Order{}, fmt.Errorf("train order %d: decode quote: %w", r.ID, err)
		}
	}
	return o, nil
}

func encQuote(q *Quote) string {
	if q == nil {
		return ""
	}
	return store.JSON(q)
}

func errNotFound() error { return fault.NotFound("train.error.notFound") }

// insert stores a new order with its passengers in tx; the booking number
// carries the id ("T" + date + id), so it is unique without a retry.
func insert(ctx context.Context, tx *sqlx.Tx, o *Order) error {
	o.BookingNumber = "pending-" + o.IdempotencyKey + fmt.Sprint(o.CreatedAt.UnixNano())
	err := tx.GetContext(ctx, &o.ID, tx.Rebind(`INSERT INTO train_orders (booking_number, agency_id, user_id, status, resume_status,
		supplier, supplier_ref, manual, train_number, train, origin, destination, depart_at, seat_class, currency, total, paid, refunded,
		contact, quote, hold_expires_at, payment_channel, payment_key, seq, idempotency_key, request_hash, created_at, updated_at)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id`),
		o.BookingNumber, o.AgencyID, store.NullID(o.UserID), string(o.Status), string(o.Resume), o.Supplier, o.SupplierRef, o.Manual,
		o.Train.TrainNumber, store.JSON(o.Train), o.Train.Origin, o.Train.Destination, o.Train.DepartAt.UTC(), o.SeatClass, o.Currency, o.Total,
		o.Paid, o.Refunded, store.JSON(o.Contact), encQuote(o.Quote), store.NullTime(o.HoldExpiresAt), o.PaymentChannel, o.PaymentKey, o.Seq,
		o.IdempotencyKey, o.RequestHash, o.CreatedAt.UTC(), o.UpdatedAt.UTC())
	if err != nil {
		if store.IsUniqueViolation(err) {
			return errDuplicateKey
		}
		return fmt.Errorf("train: insert order: %w", err)
	}
	o.BookingNumber = fmt.Sprintf("T%s%08d", o.CreatedAt.UTC().Format("060102"), o.ID)
	if _, err := tx.ExecContext(ctx, tx.Rebind(`UPDATE train_orders SET booking_number = ? WHERE id = ?`), o.BookingNumber, o.ID); err != nil {
		return fmt.Errorf("train: set booking number: %w", err)
	}
	for _, p := range o.Passengers {
		_, err := tx.ExecContext(ctx, tx.Rebind(`INSERT INTO train_passengers (order_id, passenger_id, type, surname, given_name, gender,
			birthday, nationality, document_type, document_number, seat_letter) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`),
			o.ID, p.ID, p.Type, p.Surname, p.GivenName, p.Gender, p.Birthday, p.Nationality, p.DocumentType, p.DocumentNumber, p.SeatLetter)
		if err != nil {
			return fmt.Errorf("train order %d: insert passenger: %w", o.ID, err)
		}
	}
	return nil
}

// errDuplicateKey: another request with the same idempotency key stored
// its order first.
var errDuplicateKey = errors.New("train: idempotency key already used")

// save writes the mutable fields of o if its status is still from (false
// when another writer moved it first), and its tickets when tickets is
// set.
func save(ctx context.Context, tx *sqlx.Tx, o *Order, from Status, tickets bool) (bool, error) {
	saved, err := booking.Guarded(ctx, tx, `UPDATE train_orders SET status = ?, resume_status = ?, supplier_ref = ?, manual = ?,
		train_number = ?, train = ?, origin = ?, destination = ?, depart_at = ?, seat_class = ?, total = ?, paid = ?, refunded = ?, quote = ?,
		hold_expires_at = ?, payment_channel = ?, payment_key = ?, seq = ?, updated_at = ? WHERE id = ? AND status = ?`,
		string(o.Status), string(o.Resume), o.SupplierRef, o.Manual, o.Train.TrainNumber, store.JSON(o.Train), o.Train.Origin, o.Train.Destination,
		o.Train.DepartAt.UTC(), o.SeatClass, o.Total, o.Paid, o.Refunded, encQuote(o.Quote), store.NullTime(o.HoldExpiresAt), o.PaymentChannel,
		o.PaymentKey, o.Seq, o.UpdatedAt.UTC(), o.ID, string(from))
	if err != nil {
		return false, fmt.Errorf("train order %d: %w", o.ID, err)
	}
	if !saved || !tickets {
		return saved, nil
	}
	if _, err := tx.ExecContext(ctx, tx.Rebind(`DELETE FROM train_tickets WHERE order_id = ?`), o.ID); err != nil {
		return false, fmt.Errorf("train order %d: clear tickets: %w", o.ID, err)
	}
	for i, t := range o.Tickets {
		_, err := tx.ExecContext(ctx, tx.Rebind(`INSERT INTO train_tickets (order_id, seq, passenger_id, ticket_number, train_number,
			origin, destination, depart_at, arrive_at, seat_class, coach, seat, fare, status, exchanges) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`),
			o.ID, i+1, t.Passenger, t.Number, t.TrainNumber, t.Origin, t.Destination, t.DepartAt.UTC(), utcOrNil(t.ArriveAt), t.Class, t.Coach, t.Seat, t.Fare,
			t.Status, t.Exchanges)
		if err != nil {
			return false, fmt.Errorf("train order %d: insert ticket: %w", o.ID, err)
		}
	}
	return true, nil
}

// stored reads one order's row, by id or idempotency key, prepared on
// PostgreSQL; load and loadByKey add its passengers and tickets.
var stored = booking.NewReader("train_orders", columns, "train order", errNotFound, row.decode)

// load reads order id with its passengers and tickets, in tx or on the pool
// when tx is nil.
func load(ctx context.Context, db *store.DB, tx *sqlx.Tx, id int64) (Order, error) {
	o, err := stored.Load(ctx, db, tx, id)
	if err != nil {
		return Order{}, err
	}
	return filled(ctx, db, tx, o)
}

// loadByKey finds the order an agency created with an idempotency key.
func loadByKey(ctx context.Context, db *store.DB, agencyID int64, key string) (Order, bool, error) {
	o, ok, err := stored.ByKey(ctx, db, agencyID, key)
	if !ok || err != nil {
		return Order{}, false, err
	}
	o, err = filled(ctx, db, nil, o)
	return o, err == nil, err
}

// filled is o with its passengers and tickets, read in tx or on the pool
// when tx is nil.
func filled(ctx context.Context, db *store.DB, tx *sqlx.Tx, o Order) (Order, error) {
	var q sqlx.QueryerContext = db
	if tx != nil {
		q = tx
	}
	out := []Order{o}
	if err := fill(ctx, db, q, out); err != nil {
		return Order{}, err
	}
	return out[0], nil
}

type passengerRow struct {
	OrderID int64 `db:"order_id"`
	Passenger
}

type ticketRow struct {
	OrderID     int64        `db:"order_id"`
	Passenger   int          `db:"passenger_id"`
	Number      string       `db:"ticket_number"`
	TrainNumber string       `db:"train_number"`
	Origin      string       `db:"origin"`
	Destination string       `db:"destination"`
	DepartAt    time.Time    `db:"depart_at"`
	ArriveAt    sql.NullTime `db:"arrive_at"`
	Class       string       `db:"seat_class"`
	Coach       string       `db:"coach"`
	Seat        string       `db:"seat"`
	Fare        int64        `db:"fare"`
	Status      string       `db:"status"`
	Exchanges   int          `db:"exchanges"`
}

// fill loads the passengers and tickets of orders in two queries.
func fill(ctx context.Context, db *store.DB, q sqlx.QueryerContext, orders []Order) error {
	if len(orders) == 0 {
		return nil
	}
	ids := make([]any, len(orders))
	at := map[int64]int{}
	for i, o := range orders {
		ids[i] = o.ID
		at[o.ID] = i
	}
	in := store.Marks(len(ids))
	var ps []passengerRow
	err := sqlx.SelectContext(ctx, q, &ps, db.Rebind(`SELECT order_id, passenger_id AS id, type, surname, given_name,
		gender, birthday, nationality, document_type, document_number, seat_letter
		FROM train_passengers WHERE order_id IN (`+in+`) ORDER BY order_id, passenger_id`), ids...)
	if err != nil {
		return fmt.Errorf("train: load passengers: %w", err)
	}
	for _, p := range ps {
		o := &orders[at[p.OrderID]]
		o.Passengers = append(o.Passengers, p.Passenger)
	}
	var ts []ticketRow
	err = sqlx.SelectContext(ctx, q, &ts, db.Rebind(`SELECT order_id, passenger_id, ticket_number, train_number, origin, destination,
		depart_at, arrive_at, seat_class, coach, seat, fare, status, exchanges FROM train_tickets WHERE order_id IN (`+in+`) ORDER BY order_id, seq`), ids...)
	if err != nil {
		return fmt.Errorf("train: load tickets: %w", err)
	}
	for _, t := range ts {
		o := &orders[at[t.OrderID]]
		tk := Ticket{Passenger: t.Passenger, Number: t.Number, TrainNumber: t.TrainNumber, Origin: t.Origin,
			Destination: t.Destination, DepartAt: t.DepartAt.UTC(), Class: t.Class, Coach: t.Coach, Seat: t.Seat, Fare: t.Fare,
			Status: t.Status, Exchanges: t.Exchanges}
		if t.ArriveAt.Valid {
			a := t.ArriveAt.Time.UTC()
			tk.ArriveAt = &a
		}
		o.Tickets = append(o.Tickets, tk)
	}
	return nil
}

// list is one page of the orders q keeps, with their passengers and
// tickets; q gets the train list's keyword match (booking or train number,
// a passenger's surname or document number, a ticket number).
func list(ctx context.Context, db *store.DB, q *booking.Query, f Filter, pg booking.Paging) ([]Order, int, error) {
	if like := f.Like(); like != "" {
		q.And(`(UPPER(booking_number) LIKE ? OR UPPER(train_number) LIKE ?
			OR id IN (SELECT order_id FROM train_passengers WHERE UPPER(surname) LIKE ? OR UPPER(document_number) LIKE ?)
			OR id IN (SELECT order_id FROM train_tickets WHERE ticket_number LIKE ?))`, like, like, like, like, like)
	}
	out, total, err := booking.Rows(ctx, db, q, columns, "train_orders", pg, row.decode)
	if err != nil {
		return nil, 0, err
	}
	if err := fill(ctx, db, db, out); err != nil {
		return nil, 0, err
	}
	return out, total, nil
}

// due lists the orders in status whose deadline (the hold, or the quote's
// validity) has passed, at most limit.
func dueHolds(ctx context.Context, db *store.DB, now time.Time, limit int) ([]int64, error) {
	var ids []int64
	err := db.SelectContext(ctx, &ids, db.Rebind(`SELECT id FROM train_orders WHERE status = ? AND hold_expires_at <= ? ORDER BY id LIMIT ?`),
		string(ToBePaid), now.UTC(), limit)
	if err != nil {
		return nil, fmt.Errorf("train: due holds: %w", err)
	}
	return ids, nil
}

// openQuotes lists the orders waiting on an after-sales quote.
func openQuotes(ctx context.Context, db *store.DB, limit int) ([]int64, error) {
	var ids []int64
	err := db.SelectContext(ctx, &ids, db.Rebind(`SELECT id FROM train_orders WHERE status IN (?, ?) ORDER BY id LIMIT ?`),
		string(RfdToBeConfirm), string(ChgToBeConfirm), limit)
	if err != nil {
		return nil, fmt.Errorf("train: open quotes: %w", err)
	}
	return ids, nil
}

// utcOrNil is a time for a nullable column: NULL when absent.
func utcOrNil(t *time.Time) any {
	if t == nil {
		return nil
	}
	return t.UTC()
}
