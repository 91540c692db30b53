// Package storetest gives tests a fresh, migrated database on each engine:
// SQLite in a temporary folder and PostgreSQL in a schema of its own that is
// dropped afterwards. PostgreSQL comes from VOYAGE_TEST_POSTGRES_URL; when it
// is unreachable the PostgreSQL half is skipped, except under CI=true where it
// fails, so CI can never pass without having run it.
package storetest

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/voyage/voyage/pkg/store"
)

// DefaultPostgresURL is used when VOYAGE_TEST_POSTGRES_URL is unset.
const DefaultPostgresURL = "postgres://postgres@127.0.0.1:5432/test?sslmode=disable"

// PostgresURL is the server the PostgreSQL tests use.
func PostgresURL() string {
	if u := os.Getenv("VOYAGE_TEST_POSTGRES_URL"); u != "" {
		return u
	}
	return DefaultPostgresURL
}

// Engines lists the dialects every store test runs on.
var Engines = []store.Dialect{store.SQLite, store.Postgres}

// Run calls fn once per engine as a subtest named after it, each with a fresh
// migrated database.
func Run(t *testing.T, fn func(t *testing.T, db *store.DB)) {
	t.Helper()
	for _, d := range Engines {
		t.Run(string(d), func(t *testing.T) {
			fn(t, Open(t, d))
		})
	}
}

// Open returns a fresh migrated database of the given dialect, closed and
// removed when the test ends.
func Open(t testing.TB, d store.Dialect) *store.DB {
	t.Helper()
	dsn := DSN(t, d)
	db, err := store.Open(context.Background(), dsn)
	if err != nil {
		t.Fatalf("storetest: open %s: %v", d, err)
	}
	t.Cleanup(func() { db.Close() })
	if err := db.Migrate(context.Background()); err != nil {
		t.Fatalf("storetest: migrate %s: %v", d, err)
	}
	return db
}

// DSN returns an empty database location of the given dialect for this test:
// a SQLite file path, or a PostgreSQL URL whose search_path is a new schema.
func DSN(t testing.TB, d store.Dialect) string {
	t.Helper()
	if d == store.SQLite {
		return filepath.Join(t.TempDir(), "voyage.db")
	}
	base := PostgresURL()
	admin, err := sql.Open("postgres", base)
	if err == nil {
		err = admin.PingContext(context.Background())
	}
	if err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("storetest: PostgreSQL at %s is required under CI=true: %v", base, err)
		}
		t.Skipf("storetest: PostgreSQL not reachable at %s: %v", base, err)
	}
	schema := "t_" + randomHex(8)
	if _, err := admin.Exec(`CREATE SCHEMA ` + schema); err != nil {
		admin.Close()
		t.Fatalf("storetest: create schema: %v", err)
	}
	t.Cleanup(func() {
		// A connection the test closed may still be ending on the server
		// side, holding locks the drop waits on: PostgreSQL can then pick
		// the drop as a deadlock victim, so it is tried again.
		var err error
		for attempt := 0; attempt < 5; attempt++ {
			if _, err = admin.Exec(`DROP SCHEMA ` + schema + ` CASCADE`); err == nil || !strings.Contains(err.Error(), "40P01") {
				break
			}
			time.Sleep(200 * time.Millisecond)
		}
		if err != nil {
			t.Errorf("storetest: drop schema %s: %v", schema, err)
		}
		admin.Close()
	})
	u, err := url.Parse(base)
	if err != nil {
		t.Fatalf("storetest: parse %s: %v", base, err)
	}
	q := u.Query()
	q.Set("search_path", schema)
	u.RawQuery = q.Encode()
	return u.String()
}

func randomHex(n int) string {
	b := make([]byte, n)
	if _, err := rand.Read(b); err != nil {
		panic(fmt.Sprintf("storetest: random: %v", err))
	}
	return hex.EncodeToString(b)
}
