package cli

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/voyage/voyage/pkg/app/apptest"
	"github.com/voyage/voyage/pkg/auth"
	"github.com/voyage/voyage/pkg/store"
	"github.com/voyage/voyage/pkg/store/storetest"
)

// seededDB is a database of engine d of the test's own holding what `voyage
// demo seed` makes (the demo agencies and the living one with its orders),
// copied from a template the command seeded once per test binary.
func seededDB(t *testing.T, d string) string {
	t.Helper()
	return storetest.Template(t, store.Dialect(d), "cli_demo", func(ctx context.Context, dsn string) error {
		if res := runArgs(ctx, nil, "demo", "seed", "--db", dsn); res.code != 0 {
			return fmt.Errorf("demo seed: exit %d: %s", res.code, res.err)
		}
		return nil
	})
}

// serve runs a Voyage server on dsn for the test and answers the flags that
// reach it as the provider: --server and a provider API key made with
// `apikey create --provider`.
func serve(t *testing.T, dsn string) []string {
	t.Helper()
	srv := httptest.NewServer(apptest.Open(t, dsn).Handler)
	t.Cleanup(srv.Close)
	res := execute(t, nil, "apikey", "create", "--provider", "--name", "cli-remote", "--role", auth.RoleSuperUser,
		"--role", auth.RoleFinance, "--role", auth.RoleOperator, "-o", "json", "--db", dsn)
	if res.code != 0 {
		t.Fatalf("provider key: %+v", res)
	}
	key := decode[auth.NewAPIKey](t, res)
	return []string{"--server", srv.URL, "--api-key", key.Key}
}

// forEachMode runs fn on a fresh demo database of each engine, once with
// the commands in-process (--db) and once remote (--server, --api-key):
// reach is the flags of the mode.
func forEachMode(t *testing.T, fn func(t *testing.T, dsn string, reach []string)) {
	for _, d := range storetest.Engines {
		t.Run(string(d), func(t *testing.T) {
			t.Parallel()
			t.Run("in-process", func(t *testing.T) {
				t.Parallel()
				dsn := seededDB(t, string(d))
				fn(t, dsn, []string{"--db", dsn})
			})
			t.Run("remote", func(t *testing.T) {
				t.Parallel()
				dsn := seededDB(t, string(d))
				fn(t, dsn, serve(t, dsn))
			})
		})
	}
}

// TestRemoteMatchesInProcess runs the same commands against one database
// both ways and expects the same output, byte for byte, errors included.
func TestRemoteMatchesInProcess(t *testing.T) {
	t.Parallel()
	for _, d := range storetest.Engines {
		t.Run(string(d), func(t *testing.T) {
			dsn := seededDB(t, string(d))
			remote := serve(t, dsn)
			local := []string{"--db", dsn}
			// Some history to show: a top-up and a credit line.
			if res := execute(t, nil, append([]string{"funds", "add", "--agency", "222", "--amount", "250", "--currency", "CNY",
				"--reference", "BANK-9", "--idempotency-key", "same-1", "--yes"}, local...)...); res.code != 0 {
				t.Fatalf("top-up: %+v", res)
			}
			order := itoa(refundRequest(t, dsn))
			commands := [][]string{
				{"orders", "list", "--group", "reviewing"},
				{"orders", "list", "--agency", "2", "-o", "json"},
				{"orders", "show", order, "-o", "json"},
				{"orders", "show", order},
				{"orders", "review", order, "--action", "approve", "--dry-run"},
				{"orders", "review", order, "--action", "issue", "--dry-run"},
				{"agency", "list"},
				{"agency", "list", "-o", "json"},
				{"agency", "list", "--keyword", "blue", "-o", "csv"},
				{"agency", "list", "--page-size", "1", "-o", "yaml"},
				{"agency", "show", "222"},
				{"agency", "show", "222", "-o", "json"},
				{"agency", "show", "424242"},
				{"agency", "show", "1"},
				{"credit", "set", "--agency", "222", "--limit", "500", "--dry-run"},
				{"credit", "set", "--agency", "222", "--limit", "500", "--unit", "week", "--dry-run", "-o", "json"},
				{"credit", "set", "--agency", "222", "--limit", "-1", "--dry-run"},
				{"credit", "set", "--agency", "222", "--limit", "1.005", "--dry-run"},
				{"funds", "add", "--agency", "222", "--amount", "90", "--amount-received", "100", "--fee-percent", "10", "--currency", "CNY",
					"--reference", "R", "--idempotency-key", "same-2", "--dry-run", "-o", "json"},
				{"funds", "add", "--agency", "222", "--amount", "250", "--currency", "CNY", "--reference", "BANK-9", "--idempotency-key", "same-1", "--dry-run"},
				{"funds", "add", "--agency", "222", "--amount", "80", "--amount-received", "100", "--fee-percent", "10", "--currency", "CNY",
					"--reference", "R", "--idempotency-key", "same-3", "--dry-run"},
				{"apikey", "list", "--agency", "222", "-o", "json"},
				{"apikey", "list", "--agency", "424242"},
				{"user", "list", "--agency", "222"},
				{"user", "list", "--agency", "222", "--role", "SuperUser", "-o", "json"},
				{"rates", "list"},
				{"rates", "list", "--currency", "usd", "-o", "json"},
				{"rates", "list", "--currency", "XXX"},
				{"rates", "set", "XXX", "1"},
				{"orders", "list", "-o", "json"},
				{"orders", "list", "--group", "nonsense"},
				{"orders", "show", "424242"},
			}
			for _, args := range commands {
				name := strings.Join(args, " ")
				want := execute(t, nil, append(args, local...)...)
				got := execute(t, nil, append(args, remote...)...)
				if got.code != want.code || got.out != want.out || got.err != want.err {
					t.Errorf("%s:\nin-process exit %d\n%s%s\nremote exit %d\n%s%s", name, want.code, want.out, want.err, got.code, got.out, got.err)
				}
			}
		})
	}
}

func TestRemoteFlags(t *testing.T) {
	t.Parallel()
	tests := []struct {
		args []string
		code int
		err  string
	}{
		{[]string{"agency", "list", "--server", "ftp://x"}, ExitUsage, "http(s) URL"},
		{[]string{"agency", "list", "--server", "http://127.0.0.1:1"}, ExitUsage, "--api-key is required"},
		{[]string{"agency", "list", "--api-key", "vk_x"}, ExitUsage, "--api-key needs --server"},
		{[]string{"apikey", "create", "--provider", "--server", "http://127.0.0.1:1", "--api-key", "vk_x"}, ExitUsage, "only in-process"},
		{[]string{"agency", "list", "--server", "http://127.0.0.1:1", "--api-key", "vk_x"}, ExitError, "reach 127.0.0.1:1"},
	}
	for _, tt := range tests {
		res := execute(t, nil, tt.args...)
		if res.code != tt.code || !strings.Contains(res.err, tt.err) {
			t.Errorf("%v: exit %d %q, want %d %q", tt.args, res.code, res.err, tt.code, tt.err)
		}
	}
}

// syncBuffer is an output the test reads while the command writes it.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
	// want, once the output contains it, closes seen (see shows).
	want string
	seen chan struct{}
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	n, err := s.b.Write(p)
	s.check()
	return n, err
}

// shows returns a channel closed once the output contains want: the
// command writes on its own goroutine, and the test waits for the text
// rather than polling for it.
func (s *syncBuffer) shows(want string) <-chan struct{} {
	s.mu.Lock()
	defer s.mu.Unlock()
	seen := make(chan struct{})
	s.want, s.seen = want, seen
	s.check()
	return seen
}

func (s *syncBuffer) check() {
	if s.seen != nil && strings.Contains(s.b.String(), s.want) {
		close(s.seen)
		s.seen = nil
	}
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// TestTUICommand starts the console in both modes, waits until it shows the
// agencies it reached, and quits it with q.
func TestTUICommand(t *testing.T) {
	t.Parallel()
	forEachMode(t, func(t *testing.T, dsn string, reach []string) {
		r := New()
		var out syncBuffer
		var errb syncBuffer
		in, keys := io.Pipe()
		r.Cmd.SetOut(&out)
		r.Cmd.SetErr(&errb)
		r.Err = &errb
		r.Cmd.SetIn(in)
		r.Cmd.SetArgs(append([]string{"tui", "--refresh", "0", "--log-level", "error"}, reach...))
		shown := out.shows("Blue Sky Travel")
		go func() {
			select {
			case <-shown:
			case <-time.After(20 * time.Second):
			}
			_, _ = keys.Write([]byte("q"))
		}()
		code := r.Execute(context.Background())
		if code != 0 || !strings.Contains(out.String(), "Blue Sky Travel") || !strings.Contains(out.String(), "Demo Travel") {
			t.Errorf("tui: exit %d\n%s\n%s", code, out.String(), errb.String())
		}
	})
	if res := execute(t, nil, "tui", "--refresh", "-1s"); res.code != ExitUsage {
		t.Errorf("negative refresh: %+v", res)
	}
}
