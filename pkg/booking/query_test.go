package booking

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/voyage/voyage/pkg/store"
	"github.com/voyage/voyage/pkg/store/storetest"
)

// TestPageOrder: a list is newest first; a queue is oldest first across
// its pages, so its first page holds the oldest rows (the group quote
// queue once reversed a newest-first page and hid the oldest requests on
// the last one).
func TestPageOrder(t *testing.T) {
	t.Parallel()
	storetest.Run(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		if _, err := db.ExecContext(ctx, `CREATE TABLE paged (id INTEGER PRIMARY KEY, agency_id BIGINT NOT NULL, user_id BIGINT NOT NULL, created_at TIMESTAMP NOT NULL)`); err != nil {
			t.Fatal(err)
		}
		start := time.Date(2026, 12, 1, 8, 0, 0, 0, time.UTC)
		for i := 1; i <= 5; i++ {
			if _, err := db.ExecContext(ctx, db.Rebind(`INSERT INTO paged (id, agency_id, user_id, created_at) VALUES (?, 1, 1, ?)`), i, start.Add(time.Duration(i)*time.Minute)); err != nil {
				t.Fatal(err)
			}
		}
		for _, c := range []struct {
			name string
			p    Paging
			want []int64
		}{
			{"a list's first page", Paging{Page: 1, Size: 2}, []int64{5, 4}},
			{"a list's last page", Paging{Page: 3, Size: 2}, []int64{1}},
			{"a queue's first page", Paging{Page: 1, Size: 2, OldestFirst: true}, []int64{1, 2}},
			{"a queue's second page", Paging{Page: 2, Size: 2, OldestFirst: true}, []int64{3, 4}},
		} {
			var got []int64
			if err := (Scope{}).Query("agency_id", "user_id").Page(ctx, db, &got, "id", "paged", c.p); err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(got, c.want) {
				t.Errorf("%s: ids %v, want %v", c.name, got, c.want)
			}
		}
	})
}
