package shopping

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/jmoiron/sqlx"

	"github.com/voyage/voyage/pkg/store"
	"github.com/voyage/voyage/pkg/supplier"
)

// ErrNoSession is returned for a search id that does not exist (or no longer).
var ErrNoSession = errors.New("shopping: no such search")

// Session is a search as stored: who asked, what, and how many supplier
// answers (parts) complete it.
type Session struct {
	ID        string
	AgencyID  int64
	UserID    int64
	Request   Request
	Parts     int
	Suppliers []string
	CreatedAt time.Time
	ExpiresAt time.Time
}

// Part is one supplier call's answer: its offers, or why there are none.
type Part struct {
	Seq      int64
	Name     string // e.g. "gds/main", "lcc/j0", "ndc/leg/0/PEK-DXB/2026-12-20"
	Supplier string
	Status   string // done, failed, timeout
	Offers   []supplier.Offer
}

// Part statuses.
const (
	PartDone    = "done"
	PartFailed  = "failed"
	PartTimeout = "timeout"
	// PartLost is an answer with offers that could not be stored (see
	// Engine.lose), or, for a supplier's status, a part nobody stored by the
	// search's deadline.
	PartLost = "lost"
)

// SessionStore keeps search sessions where every instance can read them: the
// database by default, Redis when configured.
type SessionStore interface {
	Create(ctx context.Context, s Session) error
	Get(ctx context.Context, id string) (Session, error)
	// AddBatch appends a batch of supplier answers, stored once under its
	// name (a retried batch of the same name is a no-op). The payload is
	// the caller's again once it returns: a store that keeps it, copies it.
	AddBatch(ctx context.Context, id string, b Batch) error
	// Parts returns the parts not yet seen, in the order they arrived. after
	// is the highest Seq seen so far, seen their names: a store whose
	// sequence can commit out of order (PostgreSQL) must not rely on after
	// alone.
	Parts(ctx context.Context, id string, after int64, seen map[string]bool) ([]Part, error)
}

// Batch is supplier answers encoded for storage. The engine encodes (when
// the CPU has room, see slots.go) and a store only writes the bytes.
type Batch struct {
	// Name is unique in the session.
	Name    string
	Payload []byte
	// Offers counts the offers inside, for the record.
	Offers int
}

// EncodeBatch packs answers for storage (see codec.go for the format and why
// it is not gob).
func EncodeBatch(name string, parts []Part) (Batch, error) {
	b, done, err := encodeBatch(name, parts)
	if err != nil {
		return Batch{}, err
	}
	defer done()
	b.Payload = slices.Clone(b.Payload)
	return b, nil
}

// encodeBatch is EncodeBatch into a pooled buffer, whose bytes the
// payload is until done is called: the engine stores a batch and is done
// with it, and a copy of every batch was a twentieth of a search's garbage.
// The encoder, its tables, goes back to its pool at once: a batch is
// encoded with a CPU slot (see slots.go) but held through its write, and
// under load many were held at once, each a miss of the pool that grew new
// tables (a twelfth of a search's garbage).
func encodeBatch(name string, parts []Part) (b Batch, done func(), err error) {
	e := encoders.Get().(*encoder)
	buf := payloadBufs.Get().(*[]byte)
	e.buf = *buf
	payload, err := e.encode(parts)
	*buf = e.buf
	e.release()
	done = func() {
		if cap(*buf) <= maxPooledBuf {
			*buf = (*buf)[:0]
			payloadBufs.Put(buf)
		}
	}
	if err != nil {
		done()
		return Batch{}, nil, fmt.Errorf("shopping: encode answers: %w", err)
	}
	return Batch{Name: name, Payload: payload, Offers: offerCount(parts)}, done, nil
}

// payloadBufs are the buffers batches are encoded into, apart from the
// encoders (see encodeBatch), sized for a usual batch.
var payloadBufs = sync.Pool{New: func() any {
	b := make([]byte, 0, 32<<10)
	return &b
}}

// decodeParts unpacks a stored batch; every part gets the batch's seq. A
// gzip payload is a batch an older release wrote in gob.
func decodeParts(b []byte, seq int64) ([]Part, error) {
	var parts []Part
	var err error
	if isGzip(b) {
		parts, err = decodeGobParts(b)
	} else {
		parts, err = unmarshalParts(b)
	}
	if err != nil {
		return nil, fmt.Errorf("shopping: decode answers: %w", err)
	}
	for i := range parts {
		parts[i].Seq = seq
	}
	return parts, nil
}

func offerCount(parts []Part) int {
	n := 0
	for _, p := range parts {
		n += len(p.Offers)
	}
	return n
}

// SQLSessions stores sessions in the search_sessions and search_results
// tables.
type SQLSessions struct {
	db *store.DB
	// group, when on (Group), writes the batches of concurrent searches in
	// one statement; payloads is the statement's payload parameter, reused
	// (only the group's goroutine writes it).
	group    atomic.Pointer[store.Grouper[batchRow]]
	payloads []byte
	// creates, when on, inserts the sessions of searches started together
	// in one statement.
	creates atomic.Pointer[store.Grouper[[]any]]
}

// NewSQLSessions returns the database session store.
func NewSQLSessions(db *store.DB) *SQLSessions { return &SQLSessions{db: db} }

// batchRow is a batch as AddBatch writes it.
type batchRow struct {
	id string
	b  Batch
	at time.Time
}

// Group turns group inserts of batches and of new sessions on
// (PostgreSQL), up to max a statement, and returns the function that turns
// them off after writing what is queued. Every search in progress writes a
// batch every flushEvery or so, each in a statement, round trip and commit
// of its own: under load those were a tenth of the CPU of a search, most of
// it the system calls. SQLite is in the process, with no round trip to
// save.
func (s *SQLSessions) Group(max int) (stop func()) {
	if s.db.Dialect != store.Postgres || max < 2 {
		return func() {}
	}
	g := store.Group("search_results", max, storeWait, s.addOne, s.addMany)
	s.group.Store(g)
	c := store.Group("search_sessions", max, storeWait,
		func(ctx context.Context, r []any) error { return s.createMany(ctx, [][]any{r}) }, s.createMany)
	s.creates.Store(c)
	return func() {
		s.group.Store(nil)
		s.creates.Store(nil)
		g.Stop()
		c.Stop()
	}
}

// Create implements SessionStore.
func (s *SQLSessions) Create(ctx context.Context, ss Session) error {
	r, err := sessionRow(ss)
	if err != nil {
		return err
	}
	if g := s.creates.Load(); g != nil {
		return g.Write(ctx, r)
	}
	return s.createMany(ctx, [][]any{r})
}

// sessionRow is the values of ss's row, in the order of createMany's
// columns.
func sessionRow(ss Session) ([]any, error) {
	req, err := json.Marshal(ss.Request)
	if err != nil {
		return nil, fmt.Errorf("shopping: encode request: %w", err)
	}
	sup, _ := json.Marshal(ss.Suppliers)
	var user any
	if ss.UserID != 0 {
		user = ss.UserID
	}
	return []any{ss.ID, ss.AgencyID, user, string(req), ss.CreatedAt.UTC(), ss.ExpiresAt.UTC(), string(sup), ss.Parts}, nil
}

// createMany inserts sessions, each row its columns' values in the order of
// the statement's.
func (s *SQLSessions) createMany(ctx context.Context, rows [][]any) error {
	var q strings.Builder
	q.WriteString(`INSERT INTO search_sessions (id, agency_id, user_id, request, status, created_at, expires_at, suppliers, parts) VALUES `)
	args := make([]any, 0, 8*len(rows))
	for i, r := range rows {
		if i > 0 {
			q.WriteString(", ")
		}
		q.WriteString(`(?, ?, ?, ?, 'running', ?, ?, ?, ?)`)
		args = append(args, r...)
	}
	if _, err := s.db.ExecContext(ctx, s.db.Rebind(q.String()), args...); err != nil {
		return fmt.Errorf("shopping: create %d sessions: %w", len(rows), err)
	}
	return nil
}

// Get implements SessionStore.
func (s *SQLSessions) Get(ctx context.Context, id string) (Session, error) {
	var row struct {
		ID        string        `db:"id"`
		AgencyID  int64         `db:"agency_id"`
		UserID    sql.NullInt64 `db:"user_id"`
		Request   string        `db:"request"`
		Suppliers string        `db:"suppliers"`
		Parts     int           `db:"parts"`
		CreatedAt time.Time     `db:"created_at"`
		ExpiresAt time.Time     `db:"expires_at"`
	}
	err := s.db.GetContext(ctx, &row, s.db.Rebind(`SELECT id, agency_id, user_id, request, suppliers, parts, created_at, expires_at
		FROM search_sessions WHERE id = ?`), id)
	if errors.Is(err, sql.ErrNoRows) {
		return Session{}, ErrNoSession
	}
	if err != nil {
		return Session{}, fmt.Errorf("shopping: load session: %w", err)
	}
	out := Session{ID: row.ID, AgencyID: row.AgencyID, UserID: row.UserID.Int64, Parts: row.Parts, CreatedAt: row.CreatedAt, ExpiresAt: row.ExpiresAt}
	if err := json.Unmarshal([]byte(row.Request), &out.Request); err != nil {
		return Session{}, fmt.Errorf("shopping: decode request: %w", err)
	}
	_ = json.Unmarshal([]byte(row.Suppliers), &out.Suppliers)
	return out, nil
}

// AddBatch implements SessionStore: one row per batch.
func (s *SQLSessions) AddBatch(ctx context.Context, id string, b Batch) error {
	r := batchRow{id: id, b: b, at: time.Now().UTC()}
	if g := s.group.Load(); g != nil {
		return g.Write(ctx, r)
	}
	return s.addOne(ctx, r)
}

func (s *SQLSessions) addOne(ctx context.Context, r batchRow) error {
	q := `INSERT INTO search_results (session_id, part, supplier, status, offers, payload, created_at) VALUES (?, ?, '', 'batch', ?, ?, ?)
		ON CONFLICT (session_id, part) DO NOTHING`
	if _, err := s.db.ExecContext(ctx, s.db.Rebind(q), r.id, r.b.Name, r.b.Offers, r.b.Payload, r.at); err != nil {
		return fmt.Errorf("shopping: store answers %s: %w", r.b.Name, err)
	}
	return nil
}

// addMany writes rows in one statement (PostgreSQL). Their payloads go as
// one parameter, each row taking its bytes by offset: lib/pq appends
// parameters to a buffer it grows by a quarter at a time, and a payload
// parameter per row made that growth copy the rows before it again and
// again (several times the payloads in garbage).
func (s *SQLSessions) addMany(ctx context.Context, rows []batchRow) error {
	var q strings.Builder
	q.WriteString(`INSERT INTO search_results (session_id, part, supplier, status, offers, payload, created_at)
		SELECT v.id, v.part, '', 'batch', v.offers, substr($`)
	q.WriteString(strconv.Itoa(6*len(rows) + 1))
	q.WriteString(`::bytea, v.at, v.len), v.created FROM (VALUES `)
	args := make([]any, 0, 6*len(rows)+1)
	payloads := s.payloads[:0]
	for i, r := range rows {
		if i == 0 {
			q.WriteString(`($1::text, $2::text, $3::integer, $4::integer, $5::integer, $6::timestamptz)`)
		} else {
			n := 6 * i
			fmt.Fprintf(&q, `, ($%d, $%d, $%d, $%d, $%d, $%d)`, n+1, n+2, n+3, n+4, n+5, n+6)
		}
		// substr counts from 1.
		args = append(args, r.id, r.b.Name, r.b.Offers, len(payloads)+1, len(r.b.Payload), r.at)
		payloads = append(payloads, r.b.Payload...)
	}
	q.WriteString(`) AS v (id, part, offers, at, len, created) ON CONFLICT (session_id, part) DO NOTHING`)
	// The payloads last: the buffer then grows once for them.
	args = append(args, payloads)
	_, err := s.db.ExecContext(ctx, q.String(), args...)
	if cap(payloads) <= maxPooledBuf {
		s.payloads = payloads[:0]
	}
	if err != nil {
		return fmt.Errorf("shopping: store %d batches of answers: %w", len(rows), err)
	}
	return nil
}

// Parts implements SessionStore. Row ids come from a sequence, and a row
// with a lower id can commit after one with a higher id was read, so the
// unseen rows are found by name (a small list without payloads) and only
// their payloads read.
func (s *SQLSessions) Parts(ctx context.Context, id string, _ int64, seen map[string]bool) ([]Part, error) {
	var batches []struct {
		ID   int64  `db:"id"`
		Part string `db:"part"`
	}
	if err := s.db.SelectContext(ctx, &batches, s.db.Rebind(`SELECT id, part FROM search_results WHERE session_id = ? ORDER BY id`), id); err != nil {
		return nil, fmt.Errorf("shopping: list answers: %w", err)
	}
	var ids []int64
	for _, b := range batches {
		if !seen[batchSeen(b.Part)] {
			ids = append(ids, b.ID)
		}
	}
	if len(ids) == 0 {
		return nil, nil
	}
	q, args, err := sqlx.In(`SELECT id, part, payload FROM search_results WHERE id IN (?) ORDER BY id`, ids)
	if err != nil {
		return nil, fmt.Errorf("shopping: load answers: %w", err)
	}
	var rows []struct {
		ID      int64  `db:"id"`
		Part    string `db:"part"`
		Payload []byte `db:"payload"`
	}
	if err := s.db.SelectContext(ctx, &rows, s.db.Rebind(q), args...); err != nil {
		return nil, fmt.Errorf("shopping: load answers: %w", err)
	}
	var out []Part
	for _, r := range rows {
		parts, err := decodeParts(r.Payload, r.ID)
		if err != nil {
			return nil, err
		}
		// The batch itself is a part with no offers, so the next poll knows
		// it was read.
		out = append(out, Part{Seq: r.ID, Name: batchSeen(r.Part), Status: PartDone})
		out = append(out, parts...)
	}
	return out, nil
}

// batchSeen is the name under which a read batch is remembered: a marker
// part with no answers, so that the next read skips the batch.
func batchSeen(batch string) string { return batchPrefix + batch }

const batchPrefix = "batch:"

// isBatchMarker says whether a part is such a marker.
func isBatchMarker(p Part) bool { return strings.HasPrefix(p.Name, batchPrefix) }
