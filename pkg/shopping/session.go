package shopping

import (
	"bytes"
	"compress/gzip"
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"io"
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
)

// SessionStore keeps search sessions where every instance can read them: the
// database by default, Redis when configured.
type SessionStore interface {
	Create(ctx context.Context, s Session) error
	Get(ctx context.Context, id string) (Session, error)
	// AddPart appends a supplier answer; adding a part name twice keeps the
	// first.
	AddPart(ctx context.Context, id string, p Part) error
	// Parts returns the parts not yet seen, in the order they arrived. after
	// is the highest Seq seen so far, seen their names: a store whose
	// sequence can commit out of order (PostgreSQL) must not rely on after
	// alone.
	Parts(ctx context.Context, id string, after int64, seen map[string]bool) ([]Part, error)
}

// encodeOffers packs offers for storage: JSON, gzipped, because a long-haul
// answer runs to hundreds of kilobytes of repetitive text.
func encodeOffers(offers []supplier.Offer) ([]byte, error) {
	var buf bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&buf, gzip.BestSpeed)
	if err := json.NewEncoder(zw).Encode(offers); err != nil {
		return nil, fmt.Errorf("shopping: encode offers: %w", err)
	}
	if err := zw.Close(); err != nil {
		return nil, fmt.Errorf("shopping: encode offers: %w", err)
	}
	return buf.Bytes(), nil
}

func decodeOffers(b []byte) ([]supplier.Offer, error) {
	zr, err := gzip.NewReader(bytes.NewReader(b))
	if err != nil {
		return nil, fmt.Errorf("shopping: decode offers: %w", err)
	}
	var offers []supplier.Offer
	if err := json.NewDecoder(io.LimitReader(zr, 256<<20)).Decode(&offers); err != nil {
		return nil, fmt.Errorf("shopping: decode offers: %w", err)
	}
	return offers, nil
}

// SQLSessions stores sessions in the search_sessions and search_results
// tables.
type SQLSessions struct{ db *store.DB }

// NewSQLSessions returns the database session store.
func NewSQLSessions(db *store.DB) *SQLSessions { return &SQLSessions{db: db} }

// Create implements SessionStore.
func (s *SQLSessions) Create(ctx context.Context, ss Session) error {
	req, err := json.Marshal(ss.Request)
	if err != nil {
		return fmt.Errorf("shopping: encode request: %w", err)
	}
	sup, _ := json.Marshal(ss.Suppliers)
	var user any
	if ss.UserID != 0 {
		user = ss.UserID
	}
	_, err = s.db.ExecContext(ctx, s.db.Rebind(`INSERT INTO search_sessions
		(id, agency_id, user_id, request, status, created_at, expires_at, suppliers, parts) VALUES (?, ?, ?, ?, 'running', ?, ?, ?, ?)`),
		ss.ID, ss.AgencyID, user, string(req), ss.CreatedAt.UTC(), ss.ExpiresAt.UTC(), string(sup), ss.Parts)
	if err != nil {
		return fmt.Errorf("shopping: create session: %w", err)
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

// AddPart implements SessionStore.
func (s *SQLSessions) AddPart(ctx context.Context, id string, p Part) error {
	payload, err := encodeOffers(p.Offers)
	if err != nil {
		return err
	}
	q := `INSERT INTO search_results (session_id, part, supplier, status, offers, payload, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)
		ON CONFLICT (session_id, part) DO NOTHING`
	if _, err := s.db.ExecContext(ctx, s.db.Rebind(q), id, p.Name, p.Supplier, p.Status, len(p.Offers), payload, time.Now().UTC()); err != nil {
		return fmt.Errorf("shopping: store %s answer: %w", p.Name, err)
	}
	return nil
}

// Parts implements SessionStore. Row ids come from a sequence, and a row
// with a lower id can commit after one with a higher id was read, so the
// unseen rows are found by name (a small list without payloads) and only
// their payloads read.
func (s *SQLSessions) Parts(ctx context.Context, id string, _ int64, seen map[string]bool) ([]Part, error) {
	var names []struct {
		ID   int64  `db:"id"`
		Part string `db:"part"`
	}
	if err := s.db.SelectContext(ctx, &names, s.db.Rebind(`SELECT id, part FROM search_results WHERE session_id = ? ORDER BY id`), id); err != nil {
		return nil, fmt.Errorf("shopping: list answers: %w", err)
	}
	var ids []int64
	for _, n := range names {
		if !seen[n.Part] {
			ids = append(ids, n.ID)
		}
	}
	if len(ids) == 0 {
		return nil, nil
	}
	q, args, err := sqlx.In(`SELECT id, part, supplier, status, payload FROM search_results WHERE id IN (?) ORDER BY id`, ids)
	if err != nil {
		return nil, fmt.Errorf("shopping: load answers: %w", err)
	}
	var rows []struct {
		ID       int64  `db:"id"`
		Part     string `db:"part"`
		Supplier string `db:"supplier"`
		Status   string `db:"status"`
		Payload  []byte `db:"payload"`
	}
	if err := s.db.SelectContext(ctx, &rows, s.db.Rebind(q), args...); err != nil {
		return nil, fmt.Errorf("shopping: load answers: %w", err)
	}
	out := make([]Part, 0, len(rows))
	for _, r := range rows {
		offers, err := decodeOffers(r.Payload)
		if err != nil {
			return nil, err
		}
		out = append(out, Part{Seq: r.ID, Name: r.Part, Supplier: r.Supplier, Status: r.Status, Offers: offers})
	}
	return out, nil
}
