package sim

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/jmoiron/sqlx"

	"github.com/voyage/voyage/pkg/recent"
	"github.com/voyage/voyage/pkg/store"
	"github.com/voyage/voyage/pkg/supplier"
)

// Records is where a simulator keeps its bookings: the simulated source's
// own records, not Voyage's orders. In memory (the default) they live as
// long as the process; NewSQLRecords keeps them in the database, so a
// restarted server, another instance or an admin command on the same
// database ticket, refund and change the bookings made before.
//
// A booking is stored as a document with a version: every change reads it,
// applies the operation and writes it back only if nobody wrote it in
// between (else the operation runs again on the newer copy).
type Records interface {
	// Get is ref's booking document and its version; supplier.ErrNotFound
	// when there is none.
	Get(ctx context.Context, source, ref string) (data []byte, version int64, err error)
	// RefByKey is the ref a BookRequest key booked; supplier.ErrNotFound
	// when the key booked nothing.
	RefByKey(ctx context.Context, source, key string) (string, error)
	// Create stores a new booking at version 1: ErrPNRTaken when its PNR
	// (or ref) is another booking's, ErrKeyTaken when key booked already.
	Create(ctx context.Context, source, ref, pnr, key string, data []byte) error
	// Update writes version+1 if the stored booking is still at version:
	// ErrStale otherwise.
	Update(ctx context.Context, source, ref string, version int64, data []byte) error
	// ReleaseKey unties key from ref's booking, so the key can book again;
	// nothing when it names another booking by now.
	ReleaseKey(ctx context.Context, source, ref, key string) error
}

// Lister is what a Records may also do: read many documents in one go
// (both stores here do). Refs not stored are absent from the answer.
type Lister interface {
	GetMany(ctx context.Context, source string, refs []string) (map[string][]byte, error)
}

// What Create and Update answer when the write lost to another: the other
// simulators keeping their records here (pkg/supplier/rail/railsim) tell
// them apart too.
var (
	ErrPNRTaken = errors.New("sim: record locator taken")
	ErrKeyTaken = errors.New("sim: booking key used")
	ErrStale    = errors.New("sim: booking changed meanwhile")
)

// memRecords keeps bookings in the process.
type memRecords struct {
	mu    sync.Mutex
	byRef map[string]memRecord // source/ref
	byKey map[string]string    // source/key → ref
	pnrs  map[string]bool      // source/pnr
}

type memRecord struct {
	data    []byte
	version int64
}

// NewMemoryRecords keeps bookings in memory: a restart forgets them.
func NewMemoryRecords() Records {
	return &memRecords{byRef: map[string]memRecord{}, byKey: map[string]string{}, pnrs: map[string]bool{}}
}

func (m *memRecords) Get(_ context.Context, source, ref string) ([]byte, int64, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	r, ok := m.byRef[source+"/"+ref]
	if !ok {
		return nil, 0, fmt.Errorf("booking %s: %w", ref, supplier.ErrNotFound)
	}
	return r.data, r.version, nil
}

// GetMany implements Lister.
func (m *memRecords) GetMany(_ context.Context, source string, refs []string) (map[string][]byte, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	out := map[string][]byte{}
	for _, ref := range refs {
		if r, ok := m.byRef[source+"/"+ref]; ok {
			out[ref] = r.data
		}
	}
	return out, nil
}

func (m *memRecords) RefByKey(_ context.Context, source, key string) (string, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	ref, ok := m.byKey[source+"/"+key]
	if !ok {
		return "", fmt.Errorf("booking key %s: %w", key, supplier.ErrNotFound)
	}
	return ref, nil
}

func (m *memRecords) Create(_ context.Context, source, ref, pnr, key string, data []byte) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if key != "" {
		if _, ok := m.byKey[source+"/"+key]; ok {
			return ErrKeyTaken
		}
	}
	if _, ok := m.byRef[source+"/"+ref]; ok || m.pnrs[source+"/"+pnr] {
		return ErrPNRTaken
	}
	m.byRef[source+"/"+ref] = memRecord{data: data, version: 1}
	m.pnrs[source+"/"+pnr] = true
	if key != "" {
		m.byKey[source+"/"+key] = ref
	}
	return nil
}

func (m *memRecords) Update(_ context.Context, source, ref string, version int64, data []byte) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	r, ok := m.byRef[source+"/"+ref]
	switch {
	case !ok:
		return fmt.Errorf("booking %s: %w", ref, supplier.ErrNotFound)
	case r.version != version:
		return ErrStale
	}
	m.byRef[source+"/"+ref] = memRecord{data: data, version: version + 1}
	return nil
}

func (m *memRecords) ReleaseKey(_ context.Context, source, ref, key string) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.byKey[source+"/"+key] == ref {
		delete(m.byKey, source+"/"+key)
	}
	return nil
}

// Recenter is what a Records may also do: answer the document and version
// it last wrote for a booking, while it still holds them, without reading
// the store. A change starts from that copy (the ticketing that follows a
// booking, on the instance that made it); when someone wrote the booking
// since, the versioned write fails and the change reads the store again.
type Recenter interface {
	Recent(source, ref string) (data []byte, version int64, ok bool)
}

// SQLRecords keeps bookings in the sim_bookings table, and the documents it
// wrote last in memory (see Recenter).
type SQLRecords struct {
	db     *store.DB
	now    func() time.Time
	recent *recent.Map[string, memRecord] // source/ref
}

// maxRecent bounds the documents an SQLRecords keeps: a booking's is a few
// kilobytes, and it is read back within seconds or not at all.
const maxRecent = 2048

// NewSQLRecords keeps bookings in db.
func NewSQLRecords(db *store.DB) *SQLRecords {
	return &SQLRecords{db: db, now: time.Now, recent: recent.New[string, memRecord](maxRecent)}
}

// Recent implements Recenter.
func (s *SQLRecords) Recent(source, ref string) ([]byte, int64, bool) {
	r, ok := s.recent.Get(source + "/" + ref)
	return r.data, r.version, ok
}

// Get implements Records.
func (s *SQLRecords) Get(ctx context.Context, source, ref string) ([]byte, int64, error) {
	var row struct {
		Data    string `db:"data"`
		Version int64  `db:"version"`
	}
	err := s.db.GetContext(ctx, &row, s.db.Rebind(`SELECT data, version FROM sim_bookings WHERE supplier = ? AND ref = ?`), source, ref)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, 0, fmt.Errorf("booking %s: %w", ref, supplier.ErrNotFound)
	}
	if err != nil {
		return nil, 0, fmt.Errorf("sim: read booking %s: %w", ref, err)
	}
	return []byte(row.Data), row.Version, nil
}

// GetMany implements Lister: one query per 500 refs.
func (s *SQLRecords) GetMany(ctx context.Context, source string, refs []string) (map[string][]byte, error) {
	out := map[string][]byte{}
	for len(refs) > 0 {
		n := min(len(refs), 500)
		q, args, err := sqlx.In(`SELECT ref, data FROM sim_bookings WHERE supplier = ? AND ref IN (?)`, source, refs[:n])
		if err != nil {
			return nil, fmt.Errorf("sim: read bookings: %w", err)
		}
		var rows []struct {
			Ref  string `db:"ref"`
			Data string `db:"data"`
		}
		if err := s.db.SelectContext(ctx, &rows, s.db.Rebind(q), args...); err != nil {
			return nil, fmt.Errorf("sim: read bookings: %w", err)
		}
		for _, r := range rows {
			out[r.Ref] = []byte(r.Data)
		}
		refs = refs[n:]
	}
	return out, nil
}

// RefByKey implements Records.
func (s *SQLRecords) RefByKey(ctx context.Context, source, key string) (string, error) {
	var ref string
	err := s.db.GetContext(ctx, &ref, s.db.Rebind(`SELECT ref FROM sim_bookings WHERE supplier = ? AND book_key = ?`), source, key)
	if errors.Is(err, sql.ErrNoRows) {
		return "", fmt.Errorf("booking key %s: %w", key, supplier.ErrNotFound)
	}
	if err != nil {
		return "", fmt.Errorf("sim: read booking key %s: %w", key, err)
	}
	return ref, nil
}

// Create implements Records.
func (s *SQLRecords) Create(ctx context.Context, source, ref, pnr, key string, data []byte) error {
	var k any
	if key != "" {
		k = key
	}
	_, err := s.db.ExecContext(ctx, s.db.Rebind(`
		INSERT INTO sim_bookings (supplier, ref, pnr, book_key, version, data, created_at, updated_at)
		VALUES (?, ?, ?, ?, 1, ?, ?, ?)`), source, ref, pnr, k, string(data), s.now().UTC(), s.now().UTC())
	if store.IsUniqueViolation(err) {
		// Which one: a retried key is answered with its booking, a taken
		// locator is drawn again.
		if key != "" {
			if _, kerr := s.RefByKey(ctx, source, key); kerr == nil {
				return ErrKeyTaken
			}
		}
		return ErrPNRTaken
	}
	if err != nil {
		return fmt.Errorf("sim: store booking %s: %w", ref, err)
	}
	s.recent.Put(source+"/"+ref, memRecord{data: data, version: 1})
	return nil
}

// Update implements Records.
func (s *SQLRecords) Update(ctx context.Context, source, ref string, version int64, data []byte) error {
	res, err := s.db.ExecContext(ctx, s.db.Rebind(`
		UPDATE sim_bookings SET data = ?, version = version + 1, updated_at = ?
		WHERE supplier = ? AND ref = ? AND version = ?`), string(data), s.now().UTC(), source, ref, version)
	if err != nil {
		return fmt.Errorf("sim: update booking %s: %w", ref, err)
	}
	if n, err := res.RowsAffected(); err != nil {
		return fmt.Errorf("sim: update booking %s: %w", ref, err)
	} else if n == 0 {
		s.recent.Delete(source + "/" + ref)
		return ErrStale
	}
	s.recent.Put(source+"/"+ref, memRecord{data: data, version: version + 1})
	return nil
}

// ReleaseKey implements Records.
func (s *SQLRecords) ReleaseKey(ctx context.Context, source, ref, key string) error {
	if _, err := s.db.ExecContext(ctx, s.db.Rebind(`UPDATE sim_bookings SET book_key = NULL WHERE supplier = ? AND ref = ? AND book_key = ?`),
		source, ref, key); err != nil {
		return fmt.Errorf("sim: release booking key %s: %w", key, err)
	}
	return nil
}
