package flight

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/jmoiron/sqlx"

	"github.com/voyage/voyage/pkg/booking"
	"github.com/voyage/voyage/pkg/fault"
	"github.com/voyage/voyage/pkg/ledger"
	"github.com/voyage/voyage/pkg/shopping"
	"github.com/voyage/voyage/pkg/store"
)

// row is a flight_orders row as stored; the JSON columns are decoded into
// Order by decode.
type row struct {
	booking.Row
	Type           string        `db:"type"`
	OriginalID     sql.NullInt64 `db:"original_id"`
	RootID         sql.NullInt64 `db:"root_id"`
	Status         string        `db:"status"`
	PaymentStatus  string        `db:"payment_status"`
	PaymentChannel string        `db:"payment_channel"`
	PaymentKey     string        `db:"payment_key"`
	ReferenceID    string        `db:"reference_id"`
	PNR            string        `db:"pnr"`
	Airline        string        `db:"airline"`
	FlightNumber   string        `db:"flight_number"`
	TicketNumbers  string        `db:"ticket_numbers"`
	Origin         string        `db:"origin"`
	Destination    string        `db:"destination"`
	DepartAt       sql.NullTime  `db:"depart_at"`
	Currency       string        `db:"currency"`
	Total          int64         `db:"total"`
	Prices         string        `db:"prices"`
	Segments       string        `db:"segments"`
	Passengers     string        `db:"passengers"`
	Contact        string        `db:"contact"`
	Restrictions   string        `db:"restrictions"`
	InvoiceType    string        `db:"invoice_type"`
	Quote          string        `db:"quote"`
	Bookings       string        `db:"bookings"`
	Request        string        `db:"request"`
	ChangeSearch   string        `db:"change_search"`
	Reason         string        `db:"reason"`
	ReviewRemark   string        `db:"review_remark"`
	Disrupted      bool          `db:"disrupted"`
	Awaiting       bool          `db:"awaiting_airline"`
	IdempotencyKey string        `db:"idempotency_key"`
	RequestHash    string        `db:"request_hash"`
	PayBy          sql.NullTime  `db:"pay_by"`
	ConfirmBy      sql.NullTime  `db:"confirm_by"`
	CreatedAt      time.Time     `db:"created_at"`
	UpdatedAt      time.Time     `db:"updated_at"`
	TicketAttempts int           `db:"ticket_attempts"`
}

const columns = `id, booking_number, agency_id, user_id, type, original_id, root_id, status, payment_status, payment_channel,
	payment_key, reference_id, pnr, airline, flight_number, ticket_numbers, origin, destination, depart_at, currency, total,
	prices, segments, passengers, contact, restrictions, invoice_type, quote, bookings, request, change_search, reason,
	review_remark, disrupted, awaiting_airline, idempotency_key, request_hash, pay_by, confirm_by, created_at, updated_at, ticket_attempts`

// segmentsBlob is the segments column: the flights and how they group into
// journeys.
type segmentsBlob struct {
	Segments []shopping.SegmentView `json:"segments"`
	Journeys []shopping.JourneyView `json:"journeys"`
}

// solutionBlob is what the quote column holds: the solution as sold and the
// supplier side.
type solutionBlob struct {
	Solution shopping.Solution `json:"solution"`
	Booked   Booked            `json:"booked"`
}

func (r row) decode() (Order, error) {
	o := Order{Head: r.Head(), Type: r.Type,
		OriginalID: r.OriginalID.Int64, RootID: r.RootID.Int64, Status: Status(r.Status), PaymentStatus: r.PaymentStatus,
		PaymentChannel: r.PaymentChannel, PaymentKey: r.PaymentKey, ReferenceID: r.ReferenceID, PNR: r.PNR, Airline: r.Airline,
		FlightNumber: r.FlightNumber, TicketNumbers: r.TicketNumbers, Origin: r.Origin, Destination: r.Destination,
		DepartAt: r.DepartAt.Time, Currency: r.Currency, Total: r.Total, InvoiceType: r.InvoiceType, Reason: r.Reason,
		ReviewRemark: r.ReviewRemark, Disrupted: r.Disrupted, AwaitingAirline: r.Awaiting, IdempotencyKey: r.IdempotencyKey, RequestHash: r.RequestHash,
		PayBy: r.PayBy.Time, ConfirmBy: r.ConfirmBy.Time, CreatedAt: r.CreatedAt, UpdatedAt: r.UpdatedAt,
		ticketAttempts: r.TicketAttempts}
	var seg segmentsBlob
	var blob solutionBlob
	for _, f := range []struct {
		s string
		v any
	}{{r.Prices, &o.Prices}, {r.Segments, &seg}, {r.Passengers, &o.Passengers}, {r.Contact, &o.Contact},
		{r.Restrictions, &o.Restrictions}, {r.Quote, &blob}, {r.Request, &o.Request}, {r.ChangeSearch, &o.ChangeSearch}} {
		if f.s == "" {
			continue
		}
		if err := json.Unmarshal([]byte(f.s), f.v); err != nil {
			return Order{}, fmt.Errorf("order %d: decode: %w", r.ID, err)
		}
	}
	o.Segments, o.Journeys = seg.Segments, seg.Journeys
	o.Solution, o.Booked = blob.Solution, blob.Booked
	o.DepartAt = localDeparture(o.DepartAt, o.Segments)
	return o, nil
}

// localDeparture is the order's first departure at its airport's local
// time, as the segments and the create answer give it: the column keeps the
// instant (in UTC on either engine), the first segment the airport's offset.
// Without segments the instant is all there is.
func localDeparture(at time.Time, segs []shopping.SegmentView) time.Time {
	if at.IsZero() || len(segs) == 0 || segs[0].DepartAt.IsZero() {
		return at
	}
	return at.In(segs[0].DepartAt.Location())
}

// The statements of the booking and payment path, prepared on PostgreSQL:
// parsing and planning them on every call cost the server more than running
// them.
var (
	// insertOrderPostgres is a new order in one statement (see orderWithID).
	insertOrderPostgres = store.NewStatement(orderWithID + ` ` + insertOrderFromN + ` RETURNING id, booking_number, root_id`)
	// insertCreatedPostgres is insertOrderPostgres with the order's first
	// timeline entry ("create") in the same statement.
	insertCreatedPostgres = store.NewStatement(orderWithID + `, ` + createdItems + ` SELECT id, booking_number, root_id FROM o`)
	// saveOrder is save's statement for each contentChange.
	saveOrder = [...]*store.Statement{
		noContent:      store.NewStatement(`UPDATE flight_orders SET ` + setColumns(noContent) + ` WHERE id = ? AND status = ?`),
		passengersOnly: store.NewStatement(`UPDATE flight_orders SET ` + setColumns(passengersOnly) + ` WHERE id = ? AND status = ?`),
		allContent:     store.NewStatement(`UPDATE flight_orders SET ` + setColumns(allContent) + ` WHERE id = ? AND status = ?`),
	}
	insertEvent = store.NewStatement(`INSERT INTO flight_order_events (order_id, action, from_status, to_status, actor, remark, created_at)
		VALUES (?, ?, ?, ?, ?, ?, ?)`)
	// saveOrderEvent is a move's save and its timeline entry in one
	// statement (PostgreSQL), for each contentChange: the entry is written
	// only when the conditional update was, so the rows it inserts say
	// whether the order was saved. One round trip fewer on every payment
	// and ticketing.
	saveOrderEvent = [...]*store.Statement{
		noContent:      store.NewStatement(`WITH ` + movedOrder(noContent, "") + ` ` + eventOfMoved),
		passengersOnly: store.NewStatement(`WITH ` + movedOrder(passengersOnly, "") + ` ` + eventOfMoved),
		allContent:     store.NewStatement(`WITH ` + movedOrder(allContent, "") + ` ` + eventOfMoved),
	}
)

// movedOrder is a move's conditional save as a WITH item, u, answering the
// order's id when it was saved; more are further conditions on the row.
func movedOrder(c contentChange, more string) string {
	return `u AS (UPDATE flight_orders SET ` + setColumns(c) + ` WHERE id = ? AND status = ?` + more + ` RETURNING id)`
}

// eventOfMoved is the timeline entry of the order u saved.
const eventOfMoved = `INSERT INTO flight_order_events (order_id, action, from_status, to_status, actor, remark, created_at)
		SELECT u.id, ?, ?, ?, ?, ?, ? FROM u`

// movedArgs are the parameters of movedOrder then eventOfMoved for o, last
// read in status from, moved by action.
func movedArgs(o *Order, from Status, action Action, actor, remark string) []any {
	return append(saveArgs(o), o.ID, string(from), string(action), string(from), string(o.Status), actor, remark, o.UpdatedAt.UTC())
}

// movedGate is the move of o as the gate of a ledger transfer (ledger.Gate):
// the order is saved, with its timeline entry, only when the money moves,
// and the money moves only when the order was still in status from.
func movedGate(o *Order, from Status, action Action, actor, remark string) ledger.Gate {
	return ledger.Gate{CTEs: gateItems[o.content], Name: "u", Args: movedArgs(o, from, action, actor, remark)}
}

// freshGate is movedGate for a payment from the copy of the order kept
// since its insert (fresh.go): the order must also be unwritten since, its
// update time still its creation time, for the copy to be what is stored.
func freshGate(o *Order, from Status, action Action, actor, remark string) ledger.Gate {
	return ledger.Gate{CTEs: freshGateItems, Name: "u", Args: movedArgs(o, from, action, actor, remark)}
}

var freshGateItems = gateOf(movedOrder(noContent, ` AND updated_at = created_at`))

// gateItems are movedGate's WITH items for each contentChange, built once.
var gateItems = [...]string{
	noContent:      gateOf(movedOrder(noContent, "")),
	passengersOnly: gateOf(movedOrder(passengersOnly, "")),
	allContent:     gateOf(movedOrder(allContent, "")),
}

// gateOf is a gate's WITH items: the move u, then its timeline entry.
func gateOf(moved string) string { return moved + `, e AS (` + eventOfMoved + `)` }

// orderInsertValues are the parameters of orderInsertColumns, one each.
var orderInsertValues = store.Marks(strings.Count(orderInsertColumns, ",") + 1)

// orderWithID takes a new order's id from the sequence (as n) and
// insertOrderFromN writes the order with it: its booking number (the prefix,
// then the id) and its root (the root given, else itself). The booking
// number and root go in with the row: one statement on the booking path
// instead of an insert and an update.
const orderWithID = `WITH n AS (SELECT nextval(pg_get_serial_sequence('flight_orders', 'id')) AS id)`

var insertOrderFromN = `INSERT INTO flight_orders (id, booking_number, root_id, ` + orderInsertColumns + `)
	SELECT n.id, ? || CASE WHEN n.id < 100000000 THEN lpad(n.id::text, 8, '0') ELSE n.id::text END, COALESCE(?, n.id), ` + orderInsertValues + `
	FROM n`

// createdItems insert the order (o) and its first timeline entry ("create")
// after orderWithID.
var createdItems = `o AS (` + insertOrderFromN + ` RETURNING id, booking_number, root_id, status, created_at),
		e AS (INSERT INTO flight_order_events (order_id, action, from_status, to_status, actor, remark, created_at)
			SELECT o.id, 'create', '', o.status, ?, ?, o.created_at FROM o)`

// createdWith holds insertCreatedWith's statement text by its items, the
// same text every booking.
var createdWith sync.Map

// insertCreatedWith is insertCreated with more WITH items (? marks for
// args after the order's) in the same statement, on PostgreSQL and on the
// pool: the statement commits as it runs, the order and what it wrote
// with it (its booking count) together or neither.
func insertCreatedWith(ctx context.Context, db *store.DB, o *Order, actor, remark, items string, args ...any) error {
	q, ok := createdWith.Load(items)
	if !ok {
		q, _ = createdWith.LoadOrStore(items, db.Rebind(orderWithID+`, `+createdItems+`, `+items+` SELECT id, booking_number, root_id FROM o`))
	}
	return insertPostgres(o, func(orderArgs ...any) *sqlx.Row {
		return db.QueryRowxContext(ctx, q.(string), append(append(orderArgs, actor, remark), args...)...)
	})
}

// insertCreated stores a new order with its "create" timeline entry: on
// PostgreSQL in one statement, a round trip fewer on every booking.
func insertCreated(ctx context.Context, db *store.DB, tx *sqlx.Tx, o *Order, actor, remark string) error {
	if db.Dialect != store.Postgres {
		if err := insertSQLite(ctx, tx, o); err != nil {
			return err
		}
		return addEvent(ctx, db, tx, o.ID, "create", "", o.Status, actor, remark, o.CreatedAt)
	}
	return insertPostgres(o, func(args ...any) *sqlx.Row {
		return db.QueryRowStmt(ctx, tx, insertCreatedPostgres, append(args, actor, remark)...)
	})
}

// insert stores a new order (in tx, on db) and returns its id.
func insert(ctx context.Context, db *store.DB, tx *sqlx.Tx, o *Order) error {
	if db.Dialect != store.Postgres {
		return insertSQLite(ctx, tx, o)
	}
	return insertPostgres(o, func(args ...any) *sqlx.Row { return db.QueryRowStmt(ctx, tx, insertOrderPostgres, args...) })
}

// insertPostgres stores o by a statement that run makes with the parameters
// of orderWithID and insertOrderFromN (then its own), answering the order's
// id, booking number and root.
func insertPostgres(o *Order, run func(args ...any) *sqlx.Row) error {
	args := append([]any{bookingPrefix(o), store.NullID(o.RootID)}, insertArgs(o)...)
	if err := run(args...).Scan(&o.ID, &o.BookingNumber, &o.RootID); err != nil {
		return fmt.Errorf("order: insert: %w", err)
	}
	return nil
}

// bookingPrefix starts o's booking number, which ends with the order's id:
// unique without a retry (random numbers collide within days at a few
// thousand orders).
func bookingPrefix(o *Order) string { return "F" + o.CreatedAt.UTC().Format("060102") }

// insertArgs are the parameters of orderInsertColumns for o.
func insertArgs(o *Order) []any {
	if o.Passengers == nil {
		o.Passengers = []Passenger{}
	}
	return []any{o.AgencyID, store.NullID(o.UserID), o.Type, store.NullID(o.OriginalID), string(o.Status), o.PaymentStatus,
		o.PaymentChannel, o.PaymentKey, o.ReferenceID, o.PNR, o.Airline, o.FlightNumber, o.TicketNumbers, o.Origin, o.Destination,
		store.NullTime(o.DepartAt), o.Currency, o.Total, store.JSON(o.Prices), store.JSON(segmentsBlob{o.Segments, o.Journeys}), store.JSON(o.Passengers), store.JSON(o.Contact), store.JSON(o.Restrictions),
		o.InvoiceType, store.JSON(solutionBlob{o.Solution, o.Booked}), store.JSON(o.Booked.Bookings), store.JSON(o.Request), store.JSON(o.ChangeSearch), o.Reason,
		o.ReviewRemark, o.Disrupted, o.AwaitingAirline, o.IdempotencyKey, o.RequestHash, store.NullTime(o.PayBy), store.NullTime(o.ConfirmBy), o.CreatedAt.UTC(), o.UpdatedAt.UTC()}
}

// insertSQLite stores o in tx on SQLite: the insert, then its booking
// number and root, which need the id.
func insertSQLite(ctx context.Context, tx *sqlx.Tx, o *Order) error {
	err := tx.GetContext(ctx, &o.ID, tx.Rebind(`INSERT INTO flight_orders (booking_number, root_id, `+orderInsertColumns+`)
		VALUES (?, ?, `+orderInsertValues+`) RETURNING id`), append([]any{o.BookingNumber, store.NullID(o.RootID)}, insertArgs(o)...)...)
	if err != nil {
		return fmt.Errorf("order: insert: %w", err)
	}
	o.BookingNumber = fmt.Sprintf("%s%08d", bookingPrefix(o), o.ID)
	if o.RootID == 0 {
		o.RootID = o.ID
	}
	if _, err := tx.ExecContext(ctx, tx.Rebind(`UPDATE flight_orders SET booking_number = ?, root_id = ? WHERE id = ?`), o.BookingNumber, o.RootID, o.ID); err != nil {
		return fmt.Errorf("order: set booking number: %w", err)
	}
	return nil
}

// orderInsertColumns are the columns insert writes after id, booking_number
// and root_id.
const orderInsertColumns = `agency_id, user_id, type, original_id,
	status, payment_status, payment_channel, payment_key, reference_id, pnr, airline, flight_number, ticket_numbers, origin,
	destination, depart_at, currency, total, prices, segments, passengers, contact, restrictions, invoice_type, quote, bookings,
	request, change_search, reason, review_remark, disrupted, awaiting_airline, idempotency_key, request_hash, pay_by, confirm_by, created_at, updated_at`

// saveColumns are the mutable fields save always writes; saveContentColumns
// the large JSON ones it writes only when they changed.
const (
	saveColumns = `status = ?, payment_status = ?, payment_channel = ?, payment_key = ?, reference_id = ?, pnr = ?, ticket_numbers = ?,
		total = ?, prices = ?, review_remark = ?, disrupted = ?, awaiting_airline = ?, pay_by = ?, confirm_by = ?, updated_at = ?,
		ticket_due_at = COALESCE(?, ticket_due_at), ticket_attempts = COALESCE(?, ticket_attempts)`
	saveContentColumns = `segments = ?, passengers = ?, quote = ?, bookings = ?, request = ?, change_search = ?`
)

// contentChange is which of the large JSON columns a save rewrites.
type contentChange int

const (
	// noContent: a status or payment change, a small row update.
	noContent contentChange = iota
	// passengersOnly: the travellers' ticket numbers (ticketing), not the
	// trip, the quote or the request, which stay as booked.
	passengersOnly
	// allContent: saveContentColumns.
	allContent
)

// setColumns is what a save with c writes.
func setColumns(c contentChange) string {
	switch c {
	case passengersOnly:
		return saveColumns + `, passengers = ?`
	case allContent:
		return saveColumns + `, ` + saveContentColumns
	}
	return saveColumns
}

// saveArgs are the parameters of setColumns(o.content).
func saveArgs(o *Order) []any {
	// A due time comes with its attempts (none, or the payer's own claim);
	// otherwise both stay as stored.
	var attempts any
	if !o.ticketDue.IsZero() {
		attempts = o.ticketAttempts
	}
	args := []any{string(o.Status), o.PaymentStatus, o.PaymentChannel, o.PaymentKey, o.ReferenceID, o.PNR, o.TicketNumbers, o.Total,
		store.JSON(o.Prices), o.ReviewRemark, o.Disrupted, o.AwaitingAirline, store.NullTime(o.PayBy), store.NullTime(o.ConfirmBy), o.UpdatedAt.UTC(),
		store.NullTime(o.ticketDue), attempts}
	switch o.content {
	case passengersOnly:
		args = append(args, store.JSON(o.Passengers))
	case allContent:
		args = append(args, store.JSON(segmentsBlob{o.Segments, o.Journeys}), store.JSON(o.Passengers), store.JSON(solutionBlob{o.Solution, o.Booked}), store.JSON(o.Booked.Bookings),
			store.JSON(o.Request), store.JSON(o.ChangeSearch))
	}
	return args
}

// saved clears what a save wrote once.
func (o *Order) saved() {
	o.content = noContent
	if !o.ticketDue.IsZero() {
		o.ticketDue, o.ticketAttempts = time.Time{}, 0
	}
}

// save writes back the mutable fields of an order whose status is still
// from: false when another writer moved it first. The large JSON columns are
// rewritten only when o.content says they changed (and then only those): a
// status change is a small row update, which matters on the payment path.
func save(ctx context.Context, db *store.DB, tx *sqlx.Tx, o *Order, from Status) (bool, error) {
	return saveWith(ctx, db, tx, o, saveOrder[o.content], append(saveArgs(o), o.ID, string(from))...)
}

// saveWith runs query, a conditional save of o by save or saveMoved: false
// when it found the order no longer in the status it was read in.
func saveWith(ctx context.Context, db *store.DB, tx *sqlx.Tx, o *Order, query *store.Statement, args ...any) (bool, error) {
	res, err := db.ExecStmt(ctx, tx, query, args...)
	if err != nil {
		if store.IsUniqueViolation(err) {
			return false, fault.Conflict("order.error.requestOpen")
		}
		return false, fmt.Errorf("order %d: save: %w", o.ID, err)
	}
	n, _ := res.RowsAffected()
	if n == 1 {
		o.saved()
	}
	return n == 1, nil
}

// saveMoved saves o, last read in status from, and logs the move on its
// timeline, unless someone moved the order first (false): one statement on
// PostgreSQL, a save and an insert on SQLite.
func saveMoved(ctx context.Context, db *store.DB, tx *sqlx.Tx, o *Order, from Status, action Action, actor, remark string) (bool, error) {
	if db.Dialect != store.Postgres {
		saved, err := save(ctx, db, tx, o, from)
		if err != nil || !saved {
			return saved, err
		}
		return true, addEvent(ctx, db, tx, o.ID, action, from, o.Status, actor, remark, o.UpdatedAt)
	}
	return saveWith(ctx, db, tx, o, saveOrderEvent[o.content], movedArgs(o, from, action, actor, remark)...)
}

func addEvent(ctx context.Context, db *store.DB, tx *sqlx.Tx, orderID int64, action Action, from, to Status, actor, remark string, at time.Time) error {
	_, err := db.ExecStmt(ctx, tx, insertEvent, orderID, string(action), string(from), string(to), actor, remark, at.UTC())
	if err != nil {
		return fmt.Errorf("order %d: event: %w", orderID, err)
	}
	return nil
}

// stored reads one order, by id or idempotency key: the booking and
// payment path reads them, so they are prepared on PostgreSQL.
var stored = booking.NewReader("flight_orders", columns, "order", errNotFound, row.decode)

func errNotFound() error { return fault.NotFound("order.error.notFound") }

// keep adds the flight list's own filters to q: the order type and the
// keyword (booking number, PNR, ticket or flight number, passenger).
func keep(q *booking.Query, f Filter) {
	if f.Type != "" && f.Type != "all" {
		q.And("type = ?", f.Type)
	}
	if like := f.Like(); like != "" {
		q.And("(UPPER(booking_number) LIKE ? OR UPPER(pnr) LIKE ? OR ticket_numbers LIKE ? OR UPPER(flight_number) LIKE ? OR UPPER(passengers) LIKE ?)",
			like, like, like, like, like)
	}
}

func proofs(ctx context.Context, db *store.DB, orderID int64) ([]Proof, error) {
	var out []Proof
	err := db.SelectContext(ctx, &out, db.Rebind(`SELECT id, name, content_type, LENGTH(data) AS size, created_at
		FROM flight_order_proofs WHERE order_id = ? ORDER BY id`), orderID)
	if err != nil {
		return nil, fmt.Errorf("order %d: proofs: %w", orderID, err)
	}
	return out, nil
}

const relatedQuery = `SELECT ` + columns + ` FROM flight_orders
	WHERE (root_id = ? AND original_id IS NOT NULL OR id = ?) AND id <> ? ORDER BY id`

// related are the other orders of o's trip: its root (the origin order)
// and the root's post-sale requests, by id. The requests are read through
// the partial index flight_orders_requests, whose condition the query
// repeats.
func related(ctx context.Context, db *store.DB, o Order) ([]Order, error) {
	var rows []row
	err := db.SelectContext(ctx, &rows, db.Rebind(relatedQuery), o.RootID, o.RootID, o.ID)
	if err != nil {
		return nil, fmt.Errorf("order %d: related: %w", o.ID, err)
	}
	out := make([]Order, 0, len(rows))
	for _, r := range rows {
		x, err := r.decode()
		if err != nil {
			return nil, err
		}
		out = append(out, x)
	}
	return out, nil
}
