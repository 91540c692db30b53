package app_test

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jmoiron/sqlx"

	"github.com/voyage/voyage/pkg/app"
	"github.com/voyage/voyage/pkg/benchprof"
	"github.com/voyage/voyage/pkg/config"
	"github.com/voyage/voyage/pkg/demo"
	"github.com/voyage/voyage/pkg/store"
	"github.com/voyage/voyage/pkg/store/storetest"
)

// seedOpenGroups inserts n group orders waiting for their first deposit
// (confirmed, deadlines met, four installments), the first due at dueAt,
// in one transaction of multi-row inserts.
func seedOpenGroups(tb testing.TB, a *app.App, agencyID int64, n int, dueAt time.Time, tag string) {
	tb.Helper()
	ctx := context.Background()
	now := time.Now().UTC()
	err := a.DB.InTx(ctx, func(tx *sqlx.Tx) error {
		for start := 0; start < n; start += 500 {
			end := min(start+500, n)
			var vals []string
			var args []any
			for i := start; i < end; i++ {
				vals = append(vals, "(?, ?, 'to_be_pay_first', '[]', 10, 10, 0, 'economy', '{}', 'CNY', 1800000, '[]', '[]', ?, ?, ?)")
				args = append(args, fmt.Sprintf("B%s%07d", tag, i), agencyID, now, now, now)
			}
			var ids []int64
			if err := tx.SelectContext(ctx, &ids, tx.Rebind(`INSERT INTO group_orders (booking_number, agency_id, status, journeys, adults, children,
				infants, cabin, contact, currency, total, passengers, tickets, confirmed_at, created_at, updated_at) VALUES `+strings.Join(vals, ", ")+` RETURNING id`), args...); err != nil {
				return err
			}
			vals, args = nil, nil
			for _, id := range ids {
				for k, kind := range []string{"first", "second", "third", "final"} {
					status := "not_due"
					if k == 0 {
						status = "due"
					}
					vals = append(vals, "(?, ?, ?, 'CNY', ?, 'Asia/Shanghai', ?)")
					args = append(args, id, kind, 450000, dueAt.Add(time.Duration(k)*240*time.Hour), status)
				}
				vals = append(vals, "(?, 'confirm', 0, 'CNY', ?, 'Asia/Shanghai', 'met')", "(?, 'passenger_list', 0, 'CNY', ?, 'Asia/Shanghai', 'met')")
				args = append(args, id, now, id, now)
			}
			if _, err := tx.ExecContext(ctx, tx.Rebind(`INSERT INTO group_deadlines (order_id, kind, amount, currency, deadline, time_zone, status) VALUES `+
				strings.Join(vals, ", ")), args...); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		tb.Fatal(err)
	}
}

// BenchmarkGroupSweep runs the deadline sweep (which runs every 20 s) over
// 10,000 open group orders on each engine: idle, none of them due (the cost
// of every run), and failing 100 whose first deposit was missed among them
// (per op: one sweep ending 100 orders; the seeding is not timed).
func BenchmarkGroupSweep(b *testing.B) {
	for _, d := range storetest.Engines {
		b.Run(string(d), func(b *testing.B) {
			a, _ := newApp(b, d)
			if err := demo.Seed(context.Background(), a.DB, a.Site); err != nil {
				b.Fatal(err)
			}
			var agencyID int64
			if err := a.DB.GetContext(context.Background(), &agencyID, `SELECT id FROM agencies WHERE name = 'Demo Travel'`); err != nil {
				b.Fatal(err)
			}
			seedOpenGroups(b, a, agencyID, 10_000, time.Now().Add(72*time.Hour), "open")
			if d == store.Postgres {
				_, _ = a.DB.ExecContext(context.Background(), `ANALYZE group_deadlines`)
			}
			b.Run("idle-10k", func(b *testing.B) {
				for i := 0; i < b.N; i++ {
					n, err := a.Groups.SweepDeadlines(context.Background())
					if err != nil || n != 0 {
						b.Fatalf("swept %d, %v", n, err)
					}
				}
			})
			b.Run("fail-100-of-10k", func(b *testing.B) {
				for i := 0; i < b.N; i++ {
					b.StopTimer()
					seedOpenGroups(b, a, agencyID, 100, time.Now().Add(-time.Minute), fmt.Sprintf("m%d-", time.Now().UnixNano()))
					b.StartTimer()
					n, err := a.Groups.SweepDeadlines(context.Background())
					if err != nil || n != 100 {
						b.Fatalf("swept %d, %v", n, err)
					}
				}
			})
		})
	}
}

// BenchmarkHostileListsAtOnce uploads ten passenger lists at once, each 500
// rows of one cell in column XFD (8.7 kB that cost 200 MB and 4 s of CPU
// once read, and ten at once took the server to 3 GB), and reports the
// peak heap above the heap before the round (heap-peak-MB) and how many
// answers arrived; each must be the translated refusal. Per round.
func BenchmarkHostileListsAtOnce(b *testing.B) {
	_, srv := newSeededApp(b, store.SQLite, func(c *config.Config) { c.HTTP.RateLimit.Enabled = false })
	op := loginAs(b, srv, "demo-operator", "demo-pass-1").Token
	v := requestGroup(b, srv, op, "grp-hostile")
	data := withSheet(b, xfdSheet(500))
	b.ReportMetric(float64(len(data))/1024, "file-kB")
	const want = "Cell XFD1 is past the template's last column (L): keep to the template's columns"
	var peak uint64
	answered := 0
	for b.Loop() {
		stopWatch := benchprof.WatchHeap(time.Millisecond)
		var mu sync.Mutex
		var up sync.WaitGroup
		for range 10 {
			up.Go(func() {
				resp, env := uploadList(b, srv, op, v.ID, data, "en")
				if resp.StatusCode != 400 || env.Message != want {
					b.Errorf("a hostile list: %d %+v", resp.StatusCode, env)
				}
				mu.Lock()
				answered++
				mu.Unlock()
			})
		}
		up.Wait()
		peak = max(peak, stopWatch())
	}
	b.ReportMetric(float64(peak)/(1<<20), "heap-peak-MB")
	b.ReportMetric(float64(answered)/float64(b.N), "answers/round")
}
