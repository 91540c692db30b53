package shopping_test

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"os"
	"slices"
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
	storetest.Run(t, func(t *testing.T, db *store.DB) {
		w := newWorld(t, db, nil, nil)
		exerciseSessions(t, shopping.NewSQLSessions(db), w.agency.ID)
	})
}

func TestRedisSessions(t *testing.T) {
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
