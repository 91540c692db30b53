package webhook_test

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jmoiron/sqlx"
	"github.com/riverqueue/river"
	"github.com/riverqueue/river/rivertype"

	"github.com/voyage/voyage/pkg/agency"
	"github.com/voyage/voyage/pkg/fault"
	"github.com/voyage/voyage/pkg/jobs"
	"github.com/voyage/voyage/pkg/store"
	"github.com/voyage/voyage/pkg/store/storetest"
	"github.com/voyage/voyage/pkg/webhook"
)

var ctx = context.Background()

// newAgency adds an agency with the given notification URLs.
func newAgency(t *testing.T, db *store.DB, name, bookingURL, changeURL string) int64 {
	t.Helper()
	var a agency.Agency
	err := db.InTx(ctx, func(tx *sqlx.Tx) error {
		var err error
		a, err = agency.NewStore(db).Create(ctx, tx, agency.New{Name: name})
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	setURLs(t, db, a.ID, bookingURL, changeURL)
	return a.ID
}

// setURLs sets an agency's booking and change notification URLs.
func setURLs(t *testing.T, db *store.DB, agencyID int64, bookingURL, changeURL string) {
	t.Helper()
	f := agency.DefaultFlightSettings()
	f.BookingNotifyURL, f.ChangeNotifyURL = bookingURL, changeURL
	raw, _ := json.Marshal(f)
	if _, err := db.ExecContext(ctx, db.Rebind(`UPDATE agencies SET flight_settings = ? WHERE id = ?`), string(raw), agencyID); err != nil {
		t.Fatal(err)
	}
}

func notify(t *testing.T, db *store.DB, svc *webhook.Service, agencyID int64, event string, data any) {
	t.Helper()
	if err := db.InTx(ctx, func(tx *sqlx.Tx) error { return svc.NotifyTx(ctx, tx, agencyID, event, data) }); err != nil {
		t.Fatal(err)
	}
}

func count(t *testing.T, db *store.DB, q string, args ...any) int {
	t.Helper()
	var n int
	if err := db.GetContext(ctx, &n, db.Rebind(q), args...); err != nil {
		t.Fatal(err)
	}
	return n
}

func only(t *testing.T, svc *webhook.Service, agencyID int64) webhook.Delivery {
	t.Helper()
	items, total, err := svc.Deliveries(ctx, agencyID, 1, 20)
	if err != nil {
		t.Fatal(err)
	}
	if total != 1 || len(items) != 1 {
		t.Fatalf("%d deliveries (total %d), want 1", len(items), total)
	}
	return items[0]
}

var quiet = slog.New(slog.NewTextHandler(io.Discard, nil))

// insertOnly is a River client that queues jobs without working them.
func insertOnly(t *testing.T, db *store.DB, svc *webhook.Service) *river.Client[*sql.Tx] {
	t.Helper()
	workers := jobs.NewWorkers()
	svc.AddWorkers(workers)
	c, err := river.NewClient(db.RiverDriver(), &river.Config{Workers: workers.River(), Logger: quiet})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// running is a started River client working the webhook jobs, set as the
// service's queue.
func running(t *testing.T, db *store.DB, svc *webhook.Service) *river.Client[*sql.Tx] {
	t.Helper()
	workers := jobs.NewWorkers()
	periodic := svc.AddWorkers(workers)
	c, err := river.NewClient(db.RiverDriver(), &river.Config{
		Queues:            map[string]river.QueueConfig{river.QueueDefault: {MaxWorkers: 2}},
		Workers:           workers.River(),
		PeriodicJobs:      periodic,
		FetchCooldown:     20 * time.Millisecond,
		FetchPollInterval: 50 * time.Millisecond,
		Logger:            quiet,
		TestOnly:          true,
	})
	if err != nil {
		t.Fatal(err)
	}
	svc.SetQueue(c)
	if err := c.Start(ctx); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		stopCtx, cancel := context.WithTimeout(ctx, 10*time.Second)
		defer cancel()
		if err := c.Stop(stopCtx); err != nil {
			t.Errorf("stop river: %v", err)
		}
	})
	return c
}

// receiver is an agency's endpoint: it checks every request's signature and
// answers the scripted status codes in turn (200 once they run out).
type receiver struct {
	t      *testing.T
	secret func() string
	mu     sync.Mutex
	codes  []int
	got    []received
}

type received struct {
	event, delivery string
	path            string
	body            []byte
	verifyErr       error
}

func (rc *receiver) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	err := webhook.Verify(rc.secret(), r.Header.Get(webhook.HeaderSignature), body, time.Now(), 5*time.Minute)
	rc.mu.Lock()
	defer rc.mu.Unlock()
	rc.got = append(rc.got, received{event: r.Header.Get(webhook.HeaderEvent), delivery: r.Header.Get(webhook.HeaderDelivery), path: r.URL.Path, body: body, verifyErr: err})
	code := http.StatusOK
	if len(rc.codes) > 0 {
		code, rc.codes = rc.codes[0], rc.codes[1:]
	}
	if r.Method != http.MethodPost || r.Header.Get("Content-Type") != "application/json" {
		code = http.StatusBadRequest
	}
	w.WriteHeader(code)
}

func (rc *receiver) requests() []received {
	rc.mu.Lock()
	defer rc.mu.Unlock()
	return append([]received(nil), rc.got...)
}

func newReceiver(t *testing.T, codes ...int) (*receiver, *httptest.Server) {
	rc := &receiver{t: t, codes: codes}
	srv := httptest.NewServer(rc)
	t.Cleanup(srv.Close)
	return rc, srv
}

func job(id int64, attempt int) *river.Job[webhook.DeliverArgs] {
	return &river.Job[webhook.DeliverArgs]{JobRow: &rivertype.JobRow{ID: 1, Attempt: attempt, MaxAttempts: webhook.MaxAttempts}, Args: webhook.DeliverArgs{DeliveryID: id}}
}

func TestNotifyRoutesByEvent(t *testing.T) {
	t.Parallel()
	storetest.Run(t, func(t *testing.T, db *store.DB) {
		svc := webhook.New(db)
		none := newAgency(t, db, "No URL Travel", "", "")
		bookingOnly := newAgency(t, db, "Booking Only Travel", "https://booking.example/hook", "")
		both := newAgency(t, db, "Both Travel", "https://booking.example/hook", "https://change.example/hook")

		for _, c := range []struct {
			agency int64
			event  string
			want   bool
		}{{none, "booking.confirmed", false}, {bookingOnly, "booking.confirmed", true}, {bookingOnly, "change.requested", false},
			{both, "change.requested", true}, {both, "disruption.schedule_change", true}} {
			if got, err := svc.Subscribed(ctx, c.agency, c.event); err != nil || got != c.want {
				t.Errorf("agency %d subscribed to %s: %v (%v), want %v", c.agency, c.event, got, err, c.want)
			}
		}
		notify(t, db, svc, none, "booking.confirmed", map[string]string{"orderId": "1"})
		notify(t, db, svc, bookingOnly, "change.requested", nil)
		notify(t, db, svc, bookingOnly, "disruption.schedule_change", nil)
		if n := count(t, db, `SELECT COUNT(*) FROM webhook_deliveries`); n != 0 {
			t.Fatalf("%d deliveries stored for agencies without the URL", n)
		}

		notify(t, db, svc, both, "booking.confirmed", nil)
		notify(t, db, svc, both, "change.requested", nil)
		notify(t, db, svc, both, "disruption.schedule_change", nil)
		items, total, err := svc.Deliveries(ctx, both, 1, 20)
		if err != nil || total != 3 {
			t.Fatalf("total %d: %v", total, err)
		}
		want := map[string]string{"booking.confirmed": "https://booking.example/hook", "change.requested": "https://change.example/hook",
			"disruption.schedule_change": "https://change.example/hook"}
		for _, d := range items {
			if d.URL != want[d.Event] || d.Status != webhook.StatusPending || d.JobID != nil {
				t.Errorf("%s: url %s status %s job %v", d.Event, d.URL, d.Status, d.JobID)
			}
		}

		for _, bad := range []string{"", "Booking", "booking confirmed", "booking..x"} {
			err := db.InTx(ctx, func(tx *sqlx.Tx) error { return svc.NotifyTx(ctx, tx, both, bad, nil) })
			if err == nil {
				t.Errorf("event %q accepted", bad)
			}
		}
	})
}

func TestNotifyTxStoresRowAndJobTogether(t *testing.T) {
	t.Parallel()
	storetest.Run(t, func(t *testing.T, db *store.DB) {
		svc := webhook.New(db)
		svc.SetQueue(insertOnly(t, db, svc))
		id := newAgency(t, db, "Kowloon Tours", "https://kowloon.example/hook", "")
		jobs := func() int { return count(t, db, `SELECT COUNT(*) FROM river_job WHERE kind = 'webhook_deliver'`) }

		rollback := errors.New("order change failed")
		err := db.InTx(ctx, func(tx *sqlx.Tx) error {
			if err := svc.NotifyTx(ctx, tx, id, "booking.confirmed", map[string]string{"orderId": "VY1"}); err != nil {
				return err
			}
			return rollback
		})
		if !errors.Is(err, rollback) {
			t.Fatalf("err = %v", err)
		}
		if n := count(t, db, `SELECT COUNT(*) FROM webhook_deliveries`); n != 0 || jobs() != 0 {
			t.Fatalf("after rollback: %d deliveries, %d jobs", n, jobs())
		}

		notify(t, db, svc, id, "booking.confirmed", map[string]any{"orderId": "VY2", "total": 1234})
		d := only(t, svc, id)
		if jobs() != 1 || d.JobID == nil || *d.JobID == 0 {
			t.Fatalf("%d jobs, delivery job %v", jobs(), d.JobID)
		}
		// River keeps a job's args as JSONB on SQLite too: json() reads them
		// back as text there.
		argsCol := "args"
		if db.Dialect == store.SQLite {
			argsCol = "json(args)"
		}
		var raw string
		if err := db.GetContext(ctx, &raw, db.Rebind(`SELECT `+argsCol+` FROM river_job WHERE id = ?`), *d.JobID); err != nil {
			t.Fatal(err)
		}
		var args webhook.DeliverArgs
		if err := json.Unmarshal([]byte(raw), &args); err != nil || args.DeliveryID != d.ID {
			t.Errorf("job args %s: %v", raw, err)
		}
		var body struct {
			ID        int64          `json:"id"`
			Event     string         `json:"event"`
			CreatedAt string         `json:"createdAt"`
			AgencyID  int64          `json:"agencyId"`
			Data      map[string]any `json:"data"`
		}
		if err := json.Unmarshal([]byte(d.Payload), &body); err != nil {
			t.Fatalf("payload %q: %v", d.Payload, err)
		}
		if body.ID != d.ID || body.Event != "booking.confirmed" || body.AgencyID != id || body.Data["orderId"] != "VY2" || body.Data["total"] != 1234.0 {
			t.Errorf("payload %s", d.Payload)
		}
		if at, err := time.Parse(time.RFC3339, body.CreatedAt); err != nil || at.Sub(d.CreatedAt).Abs() > time.Second {
			t.Errorf("createdAt %q vs %v: %v", body.CreatedAt, d.CreatedAt, err)
		}
		if !strings.HasPrefix(d.Payload, `{"id":`) {
			t.Errorf("payload fields out of order: %s", d.Payload)
		}
	})
}

func TestSweepQueuesRowsStoredWithoutQueue(t *testing.T) {
	t.Parallel()
	storetest.Run(t, func(t *testing.T, db *store.DB) {
		svc := webhook.New(db)
		id := newAgency(t, db, "Kowloon Tours", "https://kowloon.example/hook", "")
		notify(t, db, svc, id, "booking.confirmed", nil)
		notify(t, db, svc, id, "booking.ticketed", nil)
		if n, err := svc.QueueUnqueued(ctx, 10); n != 0 || err != nil {
			t.Fatalf("sweep without a queue queued %d: %v", n, err)
		}
		svc.SetQueue(insertOnly(t, db, svc))
		if n, err := svc.QueueUnqueued(ctx, 10); n != 2 || err != nil {
			t.Fatalf("sweep queued %d: %v", n, err)
		}
		if n, _ := svc.QueueUnqueued(ctx, 10); n != 0 {
			t.Fatalf("second sweep queued %d again", n)
		}
		if n := count(t, db, `SELECT COUNT(*) FROM river_job WHERE kind = 'webhook_deliver'`); n != 2 {
			t.Fatalf("%d jobs", n)
		}
	})
}

func TestDeliveryRetriesUntilDelivered(t *testing.T) {
	t.Parallel()
	storetest.Run(t, func(t *testing.T, db *store.DB) {
		rc, srv := newReceiver(t, http.StatusInternalServerError)
		svc := webhook.New(db, webhook.WithHTTPClient(srv.Client()), webhook.WithBackoff(func(int) time.Duration { return 20 * time.Millisecond }))
		id := newAgency(t, db, "Kowloon Tours", srv.URL+"/hook", "")
		rc.secret = func() string {
			s, err := svc.Secret(ctx, id)
			if err != nil {
				t.Error(err)
			}
			return s
		}
		c := running(t, db, svc)
		// The attempts run on River's workers: the test waits for the
		// delivery's job to end (its first attempt fails and is retried),
		// then reads the delivery.
		ended, unsubscribe := c.Subscribe(river.EventKindJobCompleted, river.EventKindJobFailed)
		defer unsubscribe()
		notify(t, db, svc, id, "booking.confirmed", map[string]string{"orderId": "VY3"})

		timeout := time.After(20 * time.Second)
		for delivered := false; !delivered; {
			select {
			case ev := <-ended:
				delivered = ev.Job.Kind == (webhook.DeliverArgs{}).Kind() && ev.Kind == river.EventKindJobCompleted
			case <-timeout:
				t.Fatalf("still pending after 20 s: %+v", only(t, svc, id))
			}
		}
		d := only(t, svc, id)
		if d.Status != webhook.StatusDelivered || d.Attempts != 2 || d.LastStatusCode != 200 || d.DeliveredAt == nil || d.NextAttemptAt != nil {
			t.Fatalf("delivery %+v", d)
		}
		got := rc.requests()
		if len(got) != 2 {
			t.Fatalf("receiver got %d requests", len(got))
		}
		for i, r := range got {
			if r.verifyErr != nil {
				t.Errorf("request %d: signature: %v", i, r.verifyErr)
			}
			if string(r.body) != d.Payload || r.event != "booking.confirmed" || r.delivery != strconv.FormatInt(d.ID, 10) {
				t.Errorf("request %d: event %q delivery %q body %s", i, r.event, r.delivery, r.body)
			}
		}
	})
}

// TestDeliveryJobRunTwice: a delivery job run again (rescued after its
// process died once the delivery was recorded) sends nothing more.
func TestDeliveryJobRunTwice(t *testing.T) {
	t.Parallel()
	storetest.Run(t, func(t *testing.T, db *store.DB) {
		rc, srv := newReceiver(t)
		svc := webhook.New(db, webhook.WithHTTPClient(srv.Client()))
		rc.secret = func() string { return "" }
		id := newAgency(t, db, "Kowloon Tours", srv.URL, "")
		notify(t, db, svc, id, "booking.confirmed", nil)
		d := only(t, svc, id)
		for run := 1; run <= 2; run++ {
			if err := svc.Worker().Work(ctx, job(d.ID, run)); err != nil {
				t.Fatalf("run %d: %v", run, err)
			}
		}
		if d = only(t, svc, id); d.Status != webhook.StatusDelivered || d.Attempts != 1 || len(rc.requests()) != 1 {
			t.Fatalf("after two runs: %+v, %d requests; want delivered once", d, len(rc.requests()))
		}
	})
}

func TestDeliveryFailsAfterLastAttempt(t *testing.T) {
	t.Parallel()
	storetest.Run(t, func(t *testing.T, db *store.DB) {
		rc, srv := newReceiver(t, http.StatusServiceUnavailable, http.StatusServiceUnavailable)
		svc := webhook.New(db, webhook.WithHTTPClient(srv.Client()))
		rc.secret = func() string { return "" }
		id := newAgency(t, db, "Kowloon Tours", srv.URL, "")
		other := newAgency(t, db, "Blue Sky", srv.URL, "")
		notify(t, db, svc, id, "booking.confirmed", nil)
		d := only(t, svc, id)
		w := svc.Worker()

		before := time.Now()
		if err := w.Work(ctx, job(d.ID, 1)); err == nil {
			t.Fatal("a 503 was not an error: River would not retry")
		}
		d = only(t, svc, id)
		if d.Status != webhook.StatusPending || d.Attempts != 1 || d.LastStatusCode != 503 || !strings.Contains(d.LastError, "503") || d.NextAttemptAt == nil {
			t.Fatalf("after a first failure: %+v", d)
		}
		// The log's next attempt is River's: 30 s ± 10 % after the first.
		next := w.NextRetry(job(d.ID, 1))
		if wait := d.NextAttemptAt.Sub(before); wait < 27*time.Second || wait > 34*time.Second || next.Sub(*d.NextAttemptAt).Abs() > 2*time.Second {
			t.Errorf("next attempt %v after the first, River's %v", wait, next)
		}

		if err := w.Work(ctx, job(d.ID, webhook.MaxAttempts)); err == nil {
			t.Fatal("the last failure was not an error")
		}
		d = only(t, svc, id)
		if d.Status != webhook.StatusFailed || d.Attempts != 2 || d.NextAttemptAt != nil || d.DeliveredAt != nil {
			t.Fatalf("after the last attempt: %+v", d)
		}
		// A stray job for a failed delivery sends nothing.
		if err := w.Work(ctx, job(d.ID, 1)); err != nil || len(rc.requests()) != 2 {
			t.Fatalf("failed delivery sent again: %v, %d requests", err, len(rc.requests()))
		}

		if _, err := svc.Redeliver(ctx, other, d.ID); fault.From(err).Code != fault.CodeNotFound {
			t.Fatalf("another agency's redeliver: %v", err)
		}
		// The agency fixed its URL: the redelivery goes there.
		setURLs(t, db, id, srv.URL+"/fixed", "")
		again, err := svc.Redeliver(ctx, id, d.ID)
		if err != nil || again.Status != webhook.StatusPending || again.JobID != nil || again.URL != srv.URL+"/fixed" || again.Payload != d.Payload {
			t.Fatalf("redeliver: %+v, %v", again, err)
		}
		if _, err := svc.Redeliver(ctx, id, d.ID); fault.From(err).Code != fault.CodeConflict {
			t.Fatalf("redeliver of a pending delivery: %v", err)
		}
		if err := w.Work(ctx, job(d.ID, 1)); err != nil {
			t.Fatal(err)
		}
		if d = only(t, svc, id); d.Status != webhook.StatusDelivered || d.Attempts != 3 {
			t.Fatalf("after redelivery: %+v", d)
		}
		if got := rc.requests(); len(got) != 3 || got[2].path != "/fixed" {
			t.Fatalf("redelivery went to %+v", got[len(got)-1])
		}
	})
}

func TestDeliveryRefusesBadURLs(t *testing.T) {
	t.Parallel()
	storetest.Run(t, func(t *testing.T, db *store.DB) {
		rc, srv := newReceiver(t)
		// The default client: the receiver listens on loopback.
		svc := webhook.New(db)
		ftp := newAgency(t, db, "FTP Travel", "ftp://files.example/hook", "")
		local := newAgency(t, db, "Local Travel", srv.URL, "")
		notify(t, db, svc, ftp, "booking.confirmed", nil)
		notify(t, db, svc, local, "booking.confirmed", nil)

		d := only(t, svc, ftp)
		err := svc.Worker().Work(ctx, job(d.ID, 1))
		var cancel *river.JobCancelError
		if !errors.As(err, &cancel) {
			t.Fatalf("ftp URL: err %v, want a cancelled job", err)
		}
		if d = only(t, svc, ftp); d.Status != webhook.StatusFailed || d.Attempts != 1 || !strings.Contains(d.LastError, "http") {
			t.Fatalf("ftp delivery %+v", d)
		}

		d = only(t, svc, local)
		if err := svc.Worker().Work(ctx, job(d.ID, 1)); err == nil {
			t.Fatal("a loopback receiver was reached")
		}
		if d = only(t, svc, local); d.Status != webhook.StatusPending || d.LastStatusCode != 0 || !strings.Contains(d.LastError, "not public") {
			t.Fatalf("loopback delivery %+v", d)
		}
		if len(rc.requests()) != 0 {
			t.Fatal("the loopback receiver got a request")
		}
	})
}

func TestDeliveriesPageNewestFirst(t *testing.T) {
	t.Parallel()
	storetest.Run(t, func(t *testing.T, db *store.DB) {
		svc := webhook.New(db)
		id := newAgency(t, db, "Kowloon Tours", "https://kowloon.example/hook", "")
		for _, e := range []string{"booking.one", "booking.two", "booking.three"} {
			notify(t, db, svc, id, e, nil)
		}
		first, total, err := svc.Deliveries(ctx, id, 1, 2)
		if err != nil || total != 3 || len(first) != 2 || first[0].Event != "booking.three" || first[1].Event != "booking.two" {
			t.Fatalf("page 1: %d of %d: %v", len(first), total, err)
		}
		second, _, _ := svc.Deliveries(ctx, id, 2, 2)
		if len(second) != 1 || second[0].Event != "booking.one" {
			t.Fatalf("page 2: %+v", second)
		}
		if key, err := svc.DeleteGuard(ctx, id); key != "webhook.error.hasDeliveries" || err != nil {
			t.Fatalf("delete guard: %q %v", key, err)
		}
		if _, err := svc.Get(ctx, id+1, first[0].ID); fault.From(err).Code != fault.CodeNotFound {
			t.Fatalf("another agency's delivery: %v", err)
		}
	})
}

func TestSecrets(t *testing.T) {
	t.Parallel()
	storetest.Run(t, func(t *testing.T, db *store.DB) {
		svc := webhook.New(db)
		id := newAgency(t, db, "Kowloon Tours", "", "")
		if m, err := svc.MaskedSecret(ctx, id); m != "" || err != nil {
			t.Fatalf("masked before any secret: %q %v", m, err)
		}
		s1, err := svc.Secret(ctx, id)
		if err != nil || !strings.HasPrefix(s1, "whsec_") || len(s1) != len("whsec_")+64 {
			t.Fatalf("secret %q: %v", s1, err)
		}
		if again, _ := svc.Secret(ctx, id); again != s1 {
			t.Fatal("Secret changed the secret")
		}
		if m, _ := svc.MaskedSecret(ctx, id); !strings.HasSuffix(m, s1[len(s1)-4:]) || strings.Contains(m, s1[6:20]) {
			t.Fatalf("masked %q", m)
		}
		s2, err := svc.RotateSecret(ctx, id)
		if err != nil || s2 == s1 || !strings.HasPrefix(s2, "whsec_") {
			t.Fatalf("rotated %q: %v", s2, err)
		}
		if cur, _ := svc.Secret(ctx, id); cur != s2 {
			t.Fatal("rotation not stored")
		}
		if _, err := svc.RotateSecret(ctx, id+100); fault.From(err).Code != fault.CodeNotFound {
			t.Fatalf("rotate unknown agency: %v", err)
		}
		if _, err := svc.Secret(ctx, id+100); fault.From(err).Code != fault.CodeNotFound {
			t.Fatalf("secret of unknown agency: %v", err)
		}
	})
}

func TestSignAndVerify(t *testing.T) {
	t.Parallel()
	const secret = "whsec_0123456789abcdef"
	body := []byte(`{"id":1,"event":"booking.confirmed"}`)
	now := time.Unix(1_800_000_000, 0)
	good := webhook.Sign(secret, now.Unix(), body)
	if !strings.HasPrefix(good, "t=1800000000,v1=") || len(good) != len("t=1800000000,v1=")+64 {
		t.Fatalf("signature %q", good)
	}
	tests := []struct {
		name      string
		secret    string
		header    string
		body      []byte
		at        time.Time
		tolerance time.Duration
		want      error
	}{
		{"good", secret, good, body, now, 5 * time.Minute, nil},
		{"good with spaces", secret, "t=1800000000, v1=" + strings.TrimPrefix(good, "t=1800000000,v1="), body, now, 5 * time.Minute, nil},
		{"one of two signatures", secret, good + ",v1=" + strings.Repeat("0", 64), body, now, 5 * time.Minute, nil},
		{"changed body", secret, good, []byte(`{"id":2,"event":"booking.confirmed"}`), now, 5 * time.Minute, webhook.ErrBadSignature},
		{"other secret", "whsec_other", good, body, now, 5 * time.Minute, webhook.ErrBadSignature},
		{"changed time", secret, strings.Replace(good, "t=1800000000", "t=1800000001", 1), body, now, 5 * time.Minute, webhook.ErrBadSignature},
		{"too old", secret, good, body, now.Add(6 * time.Minute), 5 * time.Minute, webhook.ErrTooOld},
		{"from the future", secret, good, body, now.Add(-6 * time.Minute), 5 * time.Minute, webhook.ErrTooOld},
		{"no tolerance", secret, good, body, now.Add(24 * time.Hour), 0, nil},
		{"empty header", secret, "", body, now, 5 * time.Minute, webhook.ErrNoSignature},
		{"no v1", secret, "t=1800000000", body, now, 5 * time.Minute, webhook.ErrNoSignature},
		{"bad time", secret, "t=soon,v1=00", body, now, 5 * time.Minute, webhook.ErrNoSignature},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if err := webhook.Verify(tt.secret, tt.header, tt.body, tt.at, tt.tolerance); !errors.Is(err, tt.want) {
				t.Fatalf("Verify = %v, want %v", err, tt.want)
			}
		})
	}
}

func TestBackoff(t *testing.T) {
	t.Parallel()
	want := []time.Duration{30 * time.Second, 2 * time.Minute, 10 * time.Minute, time.Hour, 3 * time.Hour, 6 * time.Hour, 12 * time.Hour, 12 * time.Hour}
	svc := webhook.New(nil)
	for i, base := range want {
		attempt := i + 1
		if got := webhook.DefaultBackoff(attempt); got != base {
			t.Errorf("attempt %d: %v, want %v", attempt, got, base)
		}
		d := svc.RetryDelay(attempt, 42)
		if d < base*9/10 || d > base*11/10 {
			t.Errorf("attempt %d: jittered %v outside ±10 %% of %v", attempt, d, base)
		}
		if again := svc.RetryDelay(attempt, 42); again != d {
			t.Errorf("attempt %d: jitter not stable (%v, %v)", attempt, d, again)
		}
	}
	if svc.RetryDelay(3, 1) == svc.RetryDelay(3, 2) && svc.RetryDelay(3, 2) == svc.RetryDelay(3, 3) {
		t.Error("deliveries share the same jitter")
	}
}

func TestMask(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{"": "", "whsec_abcdef0123": "whsec_••••••••0123", "whsec_ab": "whsec_••••"} {
		if got := webhook.Mask(in); got != want {
			t.Errorf("Mask(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestDeliverySentByOneJobAtATime: a second job for a delivery that another
// job is sending (a redelivery queued while a retry was pending, a job
// rescued while its first run still waits on the receiver) does not send it
// again; once the first has recorded the delivery, the second finds it done.
func TestDeliverySentByOneJobAtATime(t *testing.T) {
	t.Parallel()
	storetest.Run(t, func(t *testing.T, db *store.DB) {
		var mu sync.Mutex
		requests := 0
		arrived, release := make(chan struct{}), make(chan struct{})
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			mu.Lock()
			requests++
			first := requests == 1
			mu.Unlock()
			if first {
				close(arrived)
				<-release
			}
			w.WriteHeader(http.StatusOK)
		}))
		t.Cleanup(srv.Close)
		svc := webhook.New(db, webhook.WithHTTPClient(srv.Client()))
		id := newAgency(t, db, "Kowloon Tours", srv.URL, "")
		notify(t, db, svc, id, "booking.confirmed", nil)
		d := only(t, svc, id)

		firstDone := make(chan error, 1)
		go func() { firstDone <- svc.Worker().Work(ctx, job(d.ID, 1)) }()
		select {
		case <-arrived:
		case <-time.After(20 * time.Second):
			t.Fatal("the first job never reached the receiver")
		}
		if err := svc.Worker().Work(ctx, job(d.ID, 1)); err == nil {
			t.Error("the second job finished while the first was still sending; want it to wait (snooze)")
		}
		close(release)
		if err := <-firstDone; err != nil {
			t.Fatalf("first job: %v", err)
		}
		if err := svc.Worker().Work(ctx, job(d.ID, 2)); err != nil {
			t.Fatalf("second job after the delivery: %v", err)
		}
		mu.Lock()
		n := requests
		mu.Unlock()
		if d = only(t, svc, id); d.Status != webhook.StatusDelivered || d.Attempts != 1 || n != 1 {
			t.Fatalf("delivery %+v after %d requests; want delivered once", d, n)
		}
	})
}
