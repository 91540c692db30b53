package app_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/voyage/voyage/pkg/app"
	"github.com/voyage/voyage/pkg/config"
	"github.com/voyage/voyage/pkg/store"
	"github.com/voyage/voyage/pkg/store/storetest"
)

// readyz is what /readyz answered.
type readyz struct {
	status     int
	Ready      bool   `json:"ready"`
	Reason     string `json:"reason"`
	Migrations *struct {
		Database int64 `json:"database"`
		Binary   int64 `json:"binary"`
	} `json:"migrations"`
}

// probe asks base's path on a connection of its own, as a load balancer's
// health check does (a draining server closes kept-alive connections).
func probe(base, path string) (readyz, error) {
	c := &http.Client{Timeout: 10 * time.Second, Transport: &http.Transport{DisableKeepAlives: true}}
	res, err := c.Get(base + path)
	if err != nil {
		return readyz{}, err
	}
	defer res.Body.Close()
	body, _ := io.ReadAll(res.Body)
	r := readyz{status: res.StatusCode}
	if path == "/readyz" {
		if ct := res.Header.Get("Content-Type"); ct != "application/json" {
			return r, fmt.Errorf("%s Content-Type %q, want application/json", path, ct)
		}
		if err := json.Unmarshal(body, &r); err != nil {
			return r, fmt.Errorf("%s answered %q: %w", path, body, err)
		}
	}
	return r, nil
}

func mustProbe(t *testing.T, base, path string) readyz {
	t.Helper()
	r, err := probe(base, path)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// TestReadiness: /readyz takes the instance out while its database is a
// migration behind the binary and while the database does not answer, and
// says why; /healthz (liveness) answers throughout.
func TestReadiness(t *testing.T) {
	t.Parallel()
	for _, d := range storetest.Engines {
		t.Run(string(d), func(t *testing.T) {
			t.Parallel()
			ctx := context.Background()
			a, srv := newApp(t, d)
			r := mustProbe(t, srv.URL, "/readyz")
			if r.status != 200 || !r.Ready || r.Reason != "" || r.Migrations == nil || r.Migrations.Database != r.Migrations.Binary || r.Migrations.Binary < 30 {
				t.Fatalf("a migrated instance: /readyz %d %+v %+v, want 200, ready, migrations equal", r.status, r, r.Migrations)
			}
			binary := r.Migrations.Binary

			// A database migrated to an older version, as when the new
			// release's binary starts before `voyage migrate up` ran.
			if err := a.DB.MigrateDown(ctx); err != nil {
				t.Fatal(err)
			}
			r = mustProbe(t, srv.URL, "/readyz")
			if r.status != 503 || r.Ready || r.Reason != "migrations_behind" || r.Migrations == nil || r.Migrations.Database != binary-1 || r.Migrations.Binary != binary {
				t.Errorf("a migration behind: /readyz %d %+v %+v, want 503 migrations_behind at %d of %d", r.status, r, r.Migrations, binary-1, binary)
			}
			if h := mustProbe(t, srv.URL, "/healthz"); h.status != 200 {
				t.Errorf("a migration behind: /healthz %d, want 200 (the process is alive)", h.status)
			}
			if err := a.DB.Migrate(ctx); err != nil {
				t.Fatal(err)
			}
			if r = mustProbe(t, srv.URL, "/readyz"); r.status != 200 || !r.Ready {
				t.Errorf("migrated again: /readyz %d %+v, want 200", r.status, r)
			}

			// The database gone: the probe answers within its bound, 503.
			_ = a.DB.Close()
			r = mustProbe(t, srv.URL, "/readyz")
			if r.status != 503 || r.Ready || r.Reason != "database_unreachable" || r.Migrations != nil {
				t.Errorf("database closed: /readyz %d %+v, want 503 database_unreachable", r.status, r)
			}
			if h := mustProbe(t, srv.URL, "/healthz"); h.status != 200 {
				t.Errorf("database closed: /healthz %d, want 200", h.status)
			}
		})
	}
}

// TestGracefulShutdown: told to stop, the instance answers /readyz 503
// (draining) at once while it goes on accepting for the drain delay, then
// refuses new connections, and the request that was in flight completes;
// Serve returns nil (the process exits 0).
func TestGracefulShutdown(t *testing.T) {
	t.Parallel()
	for _, d := range storetest.Engines {
		t.Run(string(d), func(t *testing.T) {
			t.Parallel()
			a, addr, slow, done, stop := serveWithSlow(t, d, func(c *config.Config) {
				// Held open by the test (HoldDrain), never waited out.
				c.HTTP.DrainDelay = time.Minute
			})
			endDrain := app.HoldDrain(a)
			base := "http://" + addr
			if r := mustProbe(t, base, "/readyz"); r.status != 200 {
				t.Fatalf("before the signal: /readyz %d, want 200", r.status)
			}
			body := slow.start(base)
			stop()

			until(t, 10*time.Second, func() error {
				r, err := probe(base, "/readyz")
				if err != nil {
					return fmt.Errorf("during the drain delay the server refused: %w", err)
				}
				if r.status != 503 || r.Reason != "draining" {
					return fmt.Errorf("/readyz %d %+v, want 503 draining", r.status, r)
				}
				return nil
			})
			if !a.Draining() {
				t.Error("Draining() = false after the signal")
			}
			// Still accepting and answering during the drain delay: a
			// balancer that has not yet seen the 503 is not refused.
			// Its answers close their connections, so a keep-alive client
			// opens its next one elsewhere.
			res, err := http.Get(base + "/healthz")
			if err != nil {
				t.Fatalf("during the drain delay: %v", err)
			}
			res.Body.Close()
			if res.StatusCode != 200 || !res.Close {
				t.Errorf("during the drain delay: /healthz %d, closing its connection %v; want 200, closing", res.StatusCode, res.Close)
			}

			endDrain()
			until(t, 10*time.Second, func() error {
				conn, err := net.DialTimeout("tcp", addr, time.Second)
				if err == nil {
					conn.Close()
					return errors.New("the server still accepts connections after the drain delay")
				}
				return nil
			})
			select {
			case got := <-body:
				t.Fatalf("the in-flight request ended before it was released: %q", got)
			default:
			}
			close(slow.release)
			if got := <-body; got != "finished" {
				t.Errorf("in-flight request got %q, want it to finish", got)
			}
			if err := <-done; err != nil {
				t.Errorf("Serve returned %v, want nil (exit 0)", err)
			}
		})
	}
}

// TestShutdownGraceRunsOut: a request still running when the grace is over
// is cut off and Serve says so (the process exits non-zero).
func TestShutdownGraceRunsOut(t *testing.T) {
	t.Parallel()
	_, addr, slow, done, stop := serveWithSlow(t, store.SQLite, func(c *config.Config) {
		c.HTTP.DrainDelay = 0
		c.HTTP.ShutdownGrace = time.Millisecond
	})
	defer close(slow.release)
	body := slow.start("http://" + addr)
	stop()
	err := <-done
	if err == nil || !strings.Contains(err.Error(), "cut off") {
		t.Errorf("Serve returned %v, want the requests cut off", err)
	}
	if got := <-body; !strings.HasPrefix(got, "error:") {
		t.Errorf("the request past the grace got %q, want its connection cut", got)
	}
}

// slowHandler is a request the test holds in flight: it answers "finished"
// once release is closed.
type slowHandler struct {
	started, release chan struct{}
}

// start sends the slow request and waits until the server is in it; the
// channel gets its body or "error: …".
func (s slowHandler) start(base string) <-chan string {
	body := make(chan string, 1)
	go func() {
		res, err := http.Get(base + "/slow")
		if err != nil {
			body <- "error: " + err.Error()
			return
		}
		b, err := io.ReadAll(res.Body)
		res.Body.Close()
		if err != nil {
			body <- "error: " + err.Error()
			return
		}
		body <- string(b)
	}()
	<-s.started
	return body
}

// serveWithSlow runs a.Serve on a free port with /slow answered by a
// slowHandler; stop is the signal, done gets what Serve returned.
func serveWithSlow(t *testing.T, d store.Dialect, mods ...func(*config.Config)) (a *app.App, addr string, slow slowHandler, done <-chan error, stop func()) {
	t.Helper()
	cfg, err := config.Load("", nil)
	if err != nil {
		t.Fatal(err)
	}
	cfg.DB = storetest.DSN(t, d)
	cfg.Addr = "127.0.0.1:0"
	cfg.Mail.OutboxDir = t.TempDir()
	for _, m := range mods {
		m(&cfg)
	}
	a, err = app.New(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { a.Close() })
	slow = slowHandler{started: make(chan struct{}), release: make(chan struct{})}
	inner := a.Handler
	a.Handler = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/slow" {
			close(slow.started)
			<-slow.release
			_, _ = w.Write([]byte("finished"))
			return
		}
		inner.ServeHTTP(w, r)
	})
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	addrc := make(chan string, 1)
	errc := make(chan error, 1)
	go func() { errc <- a.Serve(ctx, func(addr string) { addrc <- addr }) }()
	select {
	case addr = <-addrc:
	case err := <-errc:
		t.Fatalf("Serve: %v", err)
	}
	return a, addr, slow, errc, cancel
}
