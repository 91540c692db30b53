package agency

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"

	"github.com/jmoiron/sqlx"

	"github.com/voyage/voyage/pkg/store"
)

// The look-to-book counters (spec: look-to-book per agency) are striped: an
// increment adds 1 to one of lookStripes rows of agency_look_counts picked at
// random, and a reading sums them. One row per agency made every search and
// every order of the agency queue on that row's lock, the order's until its
// transaction committed; with the stripes concurrent increments rarely touch
// the same row.
const lookStripes = 32

// The counters, as stored in agency_look_counts.counter.
const (
	CounterSearches      = "searches"
	CounterVerifications = "verifications"
	CounterBookings      = "bookings"
)

var lookCounters = []string{CounterSearches, CounterVerifications, CounterBookings}

// LookCounts are an agency's look-to-book counters.
type LookCounts struct {
	Searches      int64
	Verifications int64
	Bookings      int64
}

// LookToBook is searches per booking with one decimal, empty until the
// first booking.
func (c LookCounts) LookToBook() string {
	if c.Bookings <= 0 {
		return ""
	}
	return fmt.Sprintf("%.1f", float64(c.Searches)/float64(c.Bookings))
}

func (c *LookCounts) add(counter string, n int64) {
	switch counter {
	case CounterSearches:
		c.Searches += n
	case CounterVerifications:
		c.Verifications += n
	case CounterBookings:
		c.Bookings += n
	}
}

// LookCounts returns agency id's counters (zero for an agency that never
// counted).
func (s *Store) LookCounts(ctx context.Context, id int64) (LookCounts, error) {
	var rows []lookSum
	err := s.db.SelectContext(ctx, &rows, s.db.Rebind(`SELECT agency_id, counter, CAST(SUM(n) AS BIGINT) AS n
		FROM agency_look_counts WHERE agency_id = ? GROUP BY agency_id, counter`), id)
	if err != nil {
		return LookCounts{}, fmt.Errorf("agency: look counts of %d: %w", id, err)
	}
	var c LookCounts
	for _, r := range rows {
		c.add(r.Counter, r.N)
	}
	return c, nil
}

// LookCountsOf returns the counters of every agency in ids in one query,
// for a page of a list; an agency that never counted is absent.
func (s *Store) LookCountsOf(ctx context.Context, ids []int64) (map[int64]LookCounts, error) {
	out := map[int64]LookCounts{}
	if len(ids) == 0 {
		return out, nil
	}
	q, args, err := sqlx.In(`SELECT agency_id, counter, CAST(SUM(n) AS BIGINT) AS n
		FROM agency_look_counts WHERE agency_id IN (?) GROUP BY agency_id, counter`, ids)
	if err != nil {
		return nil, fmt.Errorf("agency: look counts: %w", err)
	}
	var rows []lookSum
	if err := s.db.SelectContext(ctx, &rows, s.db.Rebind(q), args...); err != nil {
		return nil, fmt.Errorf("agency: look counts of %d agencies: %w", len(ids), err)
	}
	for _, r := range rows {
		c := out[r.AgencyID]
		c.add(r.Counter, r.N)
		out[r.AgencyID] = c
	}
	return out, nil
}

type lookSum struct {
	AgencyID int64  `db:"agency_id"`
	Counter  string `db:"counter"`
	N        int64  `db:"n"`
}

// CountLook increments a look-to-book counter (searches, verifications or
// bookings) of an agency.
func (s *Service) CountLook(ctx context.Context, agencyID int64, counter string) error {
	return s.countLook(ctx, nil, agencyID, counter)
}

// CountLookTx is CountLook inside tx, so that the count commits with what
// it counts (a booking with its order).
func (s *Service) CountLookTx(ctx context.Context, tx *sqlx.Tx, agencyID int64, counter string) error {
	return s.countLook(ctx, tx, agencyID, counter)
}

// LookItem is CountLook as a WITH item, named looked, with ? marks for
// args: a caller writing what it counts in one statement (a booking's
// order, on PostgreSQL) counts it there, and the count commits with it.
func (s *Service) LookItem(agencyID int64, counter string) (item string, args []any, err error) {
	if !slices.Contains(lookCounters, counter) {
		return "", nil, errors.New("agency: unknown counter " + counter)
	}
	return `looked AS (` + countLookText + `)`, []any{agencyID, counter, rand.IntN(lookStripes)}, nil
}

// countLookText increments one stripe of a counter.
const countLookText = `INSERT INTO agency_look_counts (agency_id, counter, stripe, n) VALUES (?, ?, ?, 1)
		ON CONFLICT (agency_id, counter, stripe) DO UPDATE SET n = agency_look_counts.n + 1`

// countLookSQL is prepared on PostgreSQL: every search, price check and
// booking runs it.
var countLookSQL = store.NewStatement(countLookText)

// countLook increments the counter in tx, or on the pool when tx is nil.
func (s *Service) countLook(ctx context.Context, tx *sqlx.Tx, agencyID int64, counter string) error {
	if !slices.Contains(lookCounters, counter) {
		return errors.New("agency: unknown counter " + counter)
	}
	// A random stripe: concurrent increments of one agency land on
	// different rows and do not wait for each other's commit.
	stripe := rand.IntN(lookStripes)
	_, err := s.db.ExecStmt(ctx, tx, countLookSQL, agencyID, counter, stripe)
	if err != nil {
		return fmt.Errorf("agency: count %s of %d: %w", counter, agencyID, err)
	}
	return nil
}
