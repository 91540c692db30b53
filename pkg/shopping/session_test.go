package shopping_test

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"os"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/voyage/voyage/pkg/shopping"
	"github.com/voyage/voyage/pkg/store"
	"github.com/voyage/voyage/pkg/store/storetest"
	"github.com/voyage/voyage/pkg/supplier"
)

// redisURL is the Redis the session-store tests use; under CI=true it must
// answer.
func redisURL() string {
	if u := os.Getenv("VOYAGE_TEST_REDIS_URL"); u != "" {
		return u
	}
	return "redis://127.0.0.1:6379/0"
}

// exerciseSessions checks what every session store must do: keep the
// session, append answers in order, serve only the new ones, ignore a part
// stored twice, and know nothing of unknown ids.
func exerciseSessions(t *testing.T, s shopping.SessionStore, agencyID int64) {
	ctx := context.Background()
	b := make([]byte, 8)
	_, _ = rand.Read(b)
	id := "t" + hex.EncodeToString(b)
	now := time.Now().UTC().Truncate(time.Second)
	sess := shopping.Session{ID: id, AgencyID: agencyID, Parts: 3, Suppliers: []string{"gds", "lcc"}, CreatedAt: now, ExpiresAt: now.Add(shopping.StaleAfter),
		Request: shopping.Request{BookingType: shopping.OneWay, Journeys: []supplier.JourneyQuery{{Origin: "PEK", Destination: "LHR", Date: "2026-12-20"}}}}
	if err := s.Create(ctx, sess); err != nil {
		t.Fatal(err)
	}
	got, err := s.Get(ctx, id)
	if err != nil || got.AgencyID != agencyID || got.Parts != 3 || len(got.Suppliers) != 2 || got.Request.Journeys[0].Destination != "LHR" || !got.ExpiresAt.Equal(sess.ExpiresAt) {
		t.Fatalf("get = %+v, %v", got, err)
	}
	offer := flight("gds", "CA937", "PEK", "LHR", "2026-12-20", 14, 0, 660, 5000)
	if err := s.AddBatch(ctx, id, batch(t, "b1", []shopping.Part{{Name: "main/gds", Supplier: "gds", Status: shopping.PartDone, Offers: []supplier.Offer{offer}}})); err != nil {
		t.Fatal(err)
	}
	if err := s.AddBatch(ctx, id, batch(t, "b1", []shopping.Part{{Name: "main/gds", Supplier: "gds", Status: shopping.PartTimeout}})); err != nil {
		t.Fatal(err) // a repeated batch: ignored
	}
	if err := s.AddBatch(ctx, id, batch(t, "b2", []shopping.Part{{Name: "main/lcc", Supplier: "lcc", Status: shopping.PartFailed}, {Name: "main/ndc", Supplier: "ndc", Status: shopping.PartTimeout}})); err != nil {
		t.Fatal(err)
	}
	all, err := s.Parts(ctx, id, 0, nil)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	var first shopping.Part
	seen := map[string]bool{}
	for _, p := range all {
		names = append(names, p.Name+"="+p.Status)
		if p.Name == "main/gds" {
			first = p
		}
	}
	want := []string{"batch:b1=done", "main/gds=done", "batch:b2=done", "main/lcc=failed", "main/ndc=timeout"}
	if !slices.Equal(names, want) {
		t.Fatalf("parts = %v, want %v", names, want)
	}
	o := first.Offers[0]
	if o.Segments[0].FlightNumber != "CA937" || !o.Segments[0].DepartAt.Equal(offer.Segments[0].DepartAt) || o.Total() != offer.Total() {
		t.Fatalf("offer round trip = %+v", o)
	}
	seen["batch:b1"], seen["main/gds"] = true, true
	newer, err := s.Parts(ctx, id, first.Seq, seen)
	if err != nil || len(newer) != 3 || newer[1].Name != "main/lcc" {
		t.Fatalf("parts after the first batch = %+v, %v", newer, err)
	}
	if _, err := s.Get(ctx, id+"x"); err != shopping.ErrNoSession {
		t.Fatalf("unknown id: %v", err)
	}
}

func TestSQLSessions(t *testing.T) {
	t.Parallel()
	storetest.Run(t, func(t *testing.T, db *store.DB) {
		w := newWorld(t, db, nil, nil)
		exerciseSessions(t, shopping.NewSQLSessions(db), w.agency.ID)
	})
}

func TestRedisSessions(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	rdb, err := shopping.OpenRedis(ctx, redisURL())
	if err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("CI=true and Redis is unreachable: %v", err)
		}
		t.Skipf("Redis unreachable: %v", err)
	}
	defer rdb.Close()
	b := make([]byte, 4)
	_, _ = rand.Read(b)
	prefix := "voyage-test:" + hex.EncodeToString(b) + ":"
	t.Cleanup(func() {
		keys, _ := rdb.Keys(ctx, prefix+"*").Result()
		if len(keys) > 0 {
			rdb.Del(ctx, keys...)
		}
	})
	exerciseSessions(t, shopping.NewRedisSessions(rdb, prefix), 7)
}

// batch encodes parts as the engine does before storing them.
func batch(t *testing.T, name string, parts []shopping.Part) shopping.Batch {
	t.Helper()
	b, err := shopping.EncodeBatch(name, parts)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// newSessions are n sessions of the world's agency, created in s unless s
// is nil.
func newSessions(t *testing.T, s shopping.SessionStore, agencyID int64, n int) []shopping.Session {
	t.Helper()
	now := time.Now().UTC()
	out := make([]shopping.Session, n)
	for i := range out {
		b := make([]byte, 8)
		_, _ = rand.Read(b)
		out[i] = shopping.Session{ID: "t" + hex.EncodeToString(b), AgencyID: agencyID, Parts: 2 + i, CreatedAt: now, ExpiresAt: now.Add(shopping.StaleAfter),
			Request: shopping.Request{BookingType: shopping.OneWay, Journeys: []supplier.JourneyQuery{{Origin: "PEK", Destination: "LHR", Date: "2026-12-20"}}}}
		if s != nil {
			if err := s.Create(context.Background(), out[i]); err != nil {
				t.Fatal(err)
			}
		}
	}
	return out
}

// flights are n offers of distinct flight numbers, so that each search's
// answers differ in length and content.
func flights(n int) []supplier.Offer {
	out := make([]supplier.Offer, n)
	for i := range out {
		out[i] = flight("gds", fmt.Sprintf("CA%d", 100+i), "PEK", "LHR", "2026-12-20", 8+i%12, 0, 660, int64(4000+i))
	}
	return out
}

// partsOf are a search's stored parts as name=status and its flight
// numbers, as a poller of another instance reads them.
func partsOf(t *testing.T, s shopping.SessionStore, id string) (names, numbers []string) {
	t.Helper()
	parts, err := s.Parts(context.Background(), id, 0, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range parts {
		names = append(names, p.Name+"="+p.Status)
		numbers = append(numbers, flightNumbers(p.Offers)...)
	}
	return names, numbers
}

// flightNumbers are the offers' first flights' numbers.
func flightNumbers(offers []supplier.Offer) []string {
	var out []string
	for _, o := range offers {
		out = append(out, o.Segments[0].FlightNumber)
	}
	return out
}

// One statement for the batches of several searches (PostgreSQL): each
// search reads back exactly its own answers, whatever the sizes of the
// others' beside them, and a batch stored before keeps its first content.
func TestSQLSessionsAddManyKeepsEachSearchsAnswers(t *testing.T) {
	t.Parallel()
	db := storetest.Open(t, store.Postgres)
	w := newWorld(t, db, nil, nil)
	s := shopping.NewSQLSessions(db)
	var ids []string
	for _, ss := range newSessions(t, s, w.agency.ID, 3) {
		ids = append(ids, ss.ID)
	}
	ctx := context.Background()
	if err := s.AddBatch(ctx, ids[1], batch(t, "b1", []shopping.Part{{Name: "main/lcc", Supplier: "lcc", Status: shopping.PartFailed}})); err != nil {
		t.Fatal(err)
	}
	sizes := []int{40, 1, 7}
	var bs []shopping.Batch
	for i, n := range sizes {
		bs = append(bs, batch(t, "b1", []shopping.Part{{Name: "main/gds", Supplier: "gds", Status: shopping.PartDone, Offers: flights(n)}}))
		if i == 0 {
			bs = append(bs, batch(t, "b2", []shopping.Part{{Name: "main/ndc", Supplier: "ndc", Status: shopping.PartTimeout}}))
		}
	}
	// Sessions too are created several in one statement.
	more := newSessions(t, nil, w.agency.ID, 3)
	if err := s.CreateMany(ctx, more...); err != nil {
		t.Fatal(err)
	}
	for i, ss := range more {
		if got, err := s.Get(ctx, ss.ID); err != nil || got.Parts != ss.Parts {
			t.Fatalf("session %d created with others: %+v, %v", i, got, err)
		}
	}
	if err := s.AddMany(ctx, []string{ids[0], ids[0], ids[1], ids[2]}, bs); err != nil {
		t.Fatal(err)
	}
	for i, c := range []struct {
		names   []string
		numbers []string
	}{
		{[]string{"batch:b1=done", "main/gds=done", "batch:b2=done", "main/ndc=timeout"}, flightNumbers(flights(40))},
		{[]string{"batch:b1=done", "main/lcc=failed"}, nil}, // stored before: kept
		{[]string{"batch:b1=done", "main/gds=done"}, flightNumbers(flights(7))},
	} {
		names, numbers := partsOf(t, s, ids[i])
		if !slices.Equal(names, c.names) || !slices.Equal(numbers, c.numbers) {
			t.Errorf("search %d: parts %v with flights %v, want %v with %v", i, names, numbers, c.names, c.numbers)
		}
	}
	// A batch whose search does not exist fails the statement: the group
	// insert then writes each batch alone (see store.Grouper).
	if err := s.AddMany(ctx, []string{ids[2], "nosuchsearch"}, bs[:2]); err == nil {
		t.Error("a batch of an unknown search was stored")
	}
}

// Searches started at once and storing their answers at once, through the
// group inserts: every search is created, every answer lands with its own
// search, and a search created twice, or a batch of a search that does not
// exist, fails without failing the others.
func TestSQLSessionsGroupInserts(t *testing.T) {
	t.Parallel()
	db := storetest.Open(t, store.Postgres)
	w := newWorld(t, db, nil, nil)
	s := shopping.NewSQLSessions(db)
	stop := s.Group(8)
	defer stop()
	ctx := context.Background()
	sessions := newSessions(t, nil, w.agency.ID, 24)
	ids := make([]string, len(sessions))
	created := make([]atomic.Int32, len(ids))
	var wg sync.WaitGroup
	for i, sess := range sessions {
		ids[i] = sess.ID
		// Every sixth search is created twice at once: one of the two
		// fails.
		times := 1
		if i%6 == 5 {
			times = 2
		}
		for range times {
			wg.Go(func() {
				if err := s.Create(ctx, sess); err == nil {
					created[i].Add(1)
				}
			})
		}
	}
	wg.Wait()
	for i, id := range ids {
		if n := created[i].Load(); n != 1 {
			t.Errorf("search %d created %d times, want once", i, n)
		}
		if got, err := s.Get(ctx, id); err != nil || got.Parts != 2+i || got.AgencyID != w.agency.ID {
			t.Fatalf("search %d as stored: %+v, %v", i, got, err)
		}
	}
	for i, id := range ids {
		wg.Go(func() {
			for _, b := range []shopping.Batch{
				batch(t, "b1", []shopping.Part{{Name: "main/gds", Supplier: "gds", Status: shopping.PartDone, Offers: flights(1 + i)}}),
				batch(t, "b2", []shopping.Part{{Name: "main/lcc", Supplier: "lcc", Status: shopping.PartFailed}}),
				batch(t, "b1", []shopping.Part{{Name: "main/gds", Supplier: "gds", Status: shopping.PartTimeout}}),
			} {
				if err := s.AddBatch(ctx, id, b); err != nil {
					t.Errorf("search %d, batch %s: %v", i, b.Name, err)
				}
			}
		})
		if i%6 == 0 {
			wg.Go(func() {
				if err := s.AddBatch(ctx, "nosuchsearch", batch(t, "b1", nil)); err == nil {
					t.Error("a batch of an unknown search was stored")
				}
			})
		}
	}
	wg.Wait()
	for i, id := range ids {
		names, numbers := partsOf(t, s, id)
		want := []string{"batch:b1=done", "main/gds=done", "batch:b2=done", "main/lcc=failed"}
		if !slices.Equal(names, want) || !slices.Equal(numbers, flightNumbers(flights(1+i))) {
			t.Errorf("search %d: parts %v with flights %v, want %v with %d flights", i, names, numbers, want, 1+i)
		}
	}
}
