package sim

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/voyage/voyage/pkg/store"
	"github.com/voyage/voyage/pkg/store/storetest"
	"github.com/voyage/voyage/pkg/supplier"
)

// TestSharedRecords: bookings kept in the database outlive the simulator
// that made them. A second simulator on the same database (a restarted
// server, another instance, an admin command) finds them, retries with the
// same key answer the same booking, and concurrent calls on one booking
// from both never lose each other's changes.
func TestSharedRecords(t *testing.T) {
	t.Parallel()
	storetest.Run(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		shared := func(c *Config) { c.Records = NewSQLRecords(db) }
		first, c := newSim(t, "gds", shared)
		offer := refundable(t, search(t, first, oneWay("PEK", "LHR", "2026-03-20", 1)))
		br := supplier.BookRequest{Offer: offer, Travellers: []supplier.Traveller{traveller(supplier.Adult, "SMITH", "1980-05-01")}, Key: "order-7-0"}
		bk, err := first.Book(ctx, br)
		if err != nil {
			t.Fatal(err)
		}

		second, _ := newSim(t, "gds", shared, func(cfg *Config) { cfg.Clock = c.now })
		if again, err := second.Book(ctx, br); err != nil || again != bk {
			t.Errorf("the same key on another instance booked %+v, %v; want %+v", again, err, bk)
		}
		// Both instances ticket at once: one set of tickets.
		var wg sync.WaitGroup
		got := make([][]supplier.Ticket, 2)
		errs := make([]error, 2)
		for i, s := range []*Supplier{first, second} {
			wg.Go(func() { got[i], errs[i] = s.Ticket(ctx, bk.Ref) })
		}
		wg.Wait()
		if errs[0] != nil || errs[1] != nil || len(got[0]) != 1 || !slices.Equal(got[0], got[1]) {
			t.Fatalf("concurrent tickets %v %v, errors %v %v", got[0], got[1], errs[0], errs[1])
		}

		// Quotes made on one instance are confirmed on the other, and
		// concurrent quotes on both are all kept.
		c.t = testNow.Add(time.Hour)
		quotes := make([]supplier.Quote, 6)
		for i := range quotes {
			s := []*Supplier{first, second}[i%2]
			wg.Go(func() {
				var err error
				if quotes[i], err = s.RefundQuote(ctx, bk.Ref); err != nil {
					t.Error(err)
				}
			})
		}
		wg.Wait()
		refs := map[string]bool{}
		for _, q := range quotes {
			refs[q.Ref] = true
		}
		if len(refs) != len(quotes) {
			t.Errorf("concurrent quotes share refs: %v", refs)
		}
		if err := second.Refund(ctx, bk.Ref, quotes[0].Ref); err != nil {
			t.Fatalf("refunding a quote made elsewhere: %v", err)
		}
		if _, err := first.RefundQuote(ctx, bk.Ref); !errors.Is(err, supplier.ErrRejected) {
			t.Errorf("the refund made elsewhere is not seen: %v", err)
		}
		if _, err := second.Ticket(ctx, "ZZZZZZ"); !errors.Is(err, supplier.ErrNotFound) {
			t.Errorf("unknown booking: %v", err)
		}

		// A booking its caller cancelled gives its key up: the same request
		// books seats again instead of answering the dead booking, and a
		// retry after that answers the new one.
		c.t = testNow
		br.Key = "order-8-0"
		dead, err := first.Book(ctx, br)
		if err != nil {
			t.Fatal(err)
		}
		if err := first.Cancel(ctx, dead.Ref); err != nil {
			t.Fatal(err)
		}
		fresh, err := second.Book(ctx, br)
		if err != nil || fresh.Ref == dead.Ref || fresh.PNR == dead.PNR {
			t.Fatalf("booking again after a cancel: %+v, %v (cancelled %s)", fresh, err, dead.Ref)
		}
		if again, err := first.Book(ctx, br); err != nil || again != fresh {
			t.Errorf("retry after the new booking: %+v, %v; want %+v", again, err, fresh)
		}
		if _, err := first.Ticket(ctx, fresh.Ref); err != nil {
			t.Errorf("ticketing the new booking: %v", err)
		}
		if _, err := second.Ticket(ctx, dead.Ref); !errors.Is(err, supplier.ErrRejected) {
			t.Errorf("the cancelled booking tickets: %v", err)
		}
	})
}

// TestRecordsLocatorCollision: a locator another booking holds is drawn
// again, never shared; a used key answers its booking; an update over a
// version someone else wrote is refused. In memory and on both engines.
func TestRecordsLocatorCollision(t *testing.T) {
	t.Parallel()
	t.Run("memory", func(t *testing.T) { recordsContract(t, NewMemoryRecords()) })
	storetest.Run(t, func(t *testing.T, db *store.DB) { recordsContract(t, NewSQLRecords(db)) })
}

func recordsContract(t *testing.T, r Records) {
	ctx := context.Background()
	if err := r.Create(ctx, "gds", "AAAAAA", "AAAAAA", "k1", []byte(`{}`)); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		ref, pnr, key string
		want          error
	}{
		{"AAAAAA", "AAAAAA", "k2", ErrPNRTaken},
		{"CA-AAAAAA", "AAAAAA", "k3", ErrPNRTaken},
		{"BBBBBB", "BBBBBB", "k1", ErrKeyTaken},
		{"CCCCCC", "CCCCCC", "", nil},
	} {
		if err := r.Create(ctx, "gds", c.ref, c.pnr, c.key, []byte(`{}`)); !errors.Is(err, c.want) {
			t.Errorf("create %s/%s/%s: %v, want %v", c.ref, c.pnr, c.key, err, c.want)
		}
	}
	if err := r.Update(ctx, "gds", "AAAAAA", 2, []byte(`{}`)); !errors.Is(err, ErrStale) {
		t.Errorf("update at an old version: %v", err)
	}
	if err := r.Update(ctx, "gds", "AAAAAA", 1, []byte(`{"x":1}`)); err != nil {
		t.Fatal(err)
	}
	if data, v, err := r.Get(ctx, "gds", "AAAAAA"); err != nil || v != 2 || string(data) != `{"x":1}` {
		t.Errorf("read back %s v%d, %v", data, v, err)
	}
	if ref, err := r.RefByKey(ctx, "gds", "k1"); err != nil || ref != "AAAAAA" {
		t.Errorf("key k1 booked %q, %v", ref, err)
	}
	if _, err := r.RefByKey(ctx, "gds", "k9"); !errors.Is(err, supplier.ErrNotFound) {
		t.Errorf("unused key: %v", err)
	}
	if _, _, err := r.Get(ctx, "gds", "ZZZZZZ"); !errors.Is(err, supplier.ErrNotFound) {
		t.Errorf("unknown ref: %v", err)
	}
	// Releasing a key another booking holds by now changes nothing.
	if err := r.ReleaseKey(ctx, "gds", "CCCCCC", "k1"); err != nil {
		t.Fatal(err)
	}
	if ref, err := r.RefByKey(ctx, "gds", "k1"); err != nil || ref != "AAAAAA" {
		t.Errorf("k1 after another ref's release: %q, %v", ref, err)
	}
	if err := r.ReleaseKey(ctx, "gds", "AAAAAA", "k1"); err != nil {
		t.Fatal(err)
	}
	if _, err := r.RefByKey(ctx, "gds", "k1"); !errors.Is(err, supplier.ErrNotFound) {
		t.Errorf("released key still books: %v", err)
	}
	if err := r.Create(ctx, "gds", "DDDDDD", "DDDDDD", "k1", []byte(`{}`)); err != nil {
		t.Errorf("booking again with a released key: %v", err)
	}
	// The same locator with another profile is another source's.
	if err := r.Create(ctx, "ndc", "AAAAAA", "AAAAAA", "k1", []byte(`{}`)); err != nil {
		t.Error(fmt.Errorf("other source: %w", err))
	}
	// Many read at once: the source's stored ones, none of another's.
	many, err := r.(Lister).GetMany(ctx, "gds", []string{"AAAAAA", "DDDDDD", "ZZZZZZ"})
	if err != nil || len(many) != 2 || many["AAAAAA"] == nil || many["DDDDDD"] == nil {
		t.Errorf("GetMany: %v %v", many, err)
	}
}

// TestRecentCopies: a simulator on the database starts a change from the
// copy of the booking it wrote last, and that copy never decides alone.
// Another instance's change since is seen whether the stale copy would
// have written (a ticketing of a booking cancelled elsewhere), refused (a
// refund by a quote made elsewhere) or changed nothing (ticketing again a
// booking refunded elsewhere).
func TestRecentCopies(t *testing.T) {
	t.Parallel()
	storetest.Run(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		first, c := newSim(t, "gds", func(c *Config) { c.Records = NewSQLRecords(db) })
		second, _ := newSim(t, "gds", func(cfg *Config) { cfg.Records = NewSQLRecords(db); cfg.Clock = c.now })
		offer := refundable(t, search(t, first, oneWay("PEK", "LHR", "2026-03-20", 1)))
		book := func(key string) supplier.Booking {
			t.Helper()
			bk, err := first.Book(ctx, supplier.BookRequest{Offer: offer, Key: key,
				Travellers: []supplier.Traveller{traveller(supplier.Adult, "SMITH", "1980-05-01")}})
			if err != nil {
				t.Fatal(err)
			}
			return bk
		}

		// Written: the stale copy is held, the store's cancelled.
		cancelled := book("recent-1")
		if err := second.Cancel(ctx, cancelled.Ref); err != nil {
			t.Fatal(err)
		}
		if tickets, err := first.Ticket(ctx, cancelled.Ref); !errors.Is(err, supplier.ErrRejected) {
			t.Errorf("ticketing a booking cancelled on another instance: %v, %v; want refused", tickets, err)
		}
		if _, err := second.Ticket(ctx, cancelled.Ref); !errors.Is(err, supplier.ErrRejected) {
			t.Errorf("the cancelled booking was ticketed: %v", err)
		}

		// Refused: the stale copy lacks the quote made on the other instance.
		bk := book("recent-2")
		if _, err := first.Ticket(ctx, bk.Ref); err != nil {
			t.Fatal(err)
		}
		c.t = testNow.Add(time.Hour)
		q, err := second.RefundQuote(ctx, bk.Ref)
		if err != nil {
			t.Fatal(err)
		}
		if err := first.Refund(ctx, bk.Ref, q.Ref); err != nil {
			t.Fatalf("refunding by a quote made on another instance: %v", err)
		}

		// Unchanged: the stale copy is ticketed, the store's refunded.
		c.t = testNow
		refunded := book("recent-3")
		if _, err := first.Ticket(ctx, refunded.Ref); err != nil {
			t.Fatal(err)
		}
		c.t = testNow.Add(time.Hour)
		if q, err = second.RefundQuote(ctx, refunded.Ref); err != nil {
			t.Fatal(err)
		}
		if err := second.Refund(ctx, refunded.Ref, q.Ref); err != nil {
			t.Fatal(err)
		}
		if tickets, err := first.Ticket(ctx, refunded.Ref); !errors.Is(err, supplier.ErrRejected) {
			t.Errorf("ticketing again a booking refunded on another instance: %v, %v; want refused", tickets, err)
		}
	})
}
