// Package storetest gives tests a migrated database of their own on each
// engine, copied from a template rather than migrated from zero: SQLite as a
// copy of a migrated file, PostgreSQL as CREATE DATABASE … TEMPLATE. The
// migrated templates are keyed by a hash of the migrations (Voyage's and
// River's version), so every test binary of a run, and the next run, copy the
// same one; a template with data on top (Template) is made once per test
// binary. PostgreSQL comes from VOYAGE_TEST_POSTGRES_URL; when it is
// unreachable the PostgreSQL half is skipped, except under CI=true where it
// fails, so CI can never pass without having run it.
package storetest

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"fmt"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"runtime/debug"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/voyage/voyage/migrations"
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

// Run calls fn once per engine as a subtest named after it, each with a
// migrated database of its own.
func Run(t *testing.T, fn func(t *testing.T, db *store.DB)) {
	t.Helper()
	RunOn(t, DSN, fn)
}

// RunOn is Run on the migrated databases dsn gives (DSN, or a Template's).
func RunOn(t *testing.T, dsn func(testing.TB, store.Dialect) string, fn func(t *testing.T, db *store.DB)) {
	t.Helper()
	for _, d := range Engines {
		t.Run(string(d), func(t *testing.T) {
			fn(t, OpenDSN(t, dsn(t, d)))
		})
	}
}

// Open returns a migrated database of the given dialect of this test's own,
// closed and removed when the test ends.
func Open(t testing.TB, d store.Dialect) *store.DB {
	t.Helper()
	return OpenDSN(t, DSN(t, d))
}

// OpenDSN opens dsn (a copy of a template, already migrated) for the test,
// closing it when the test ends, with its statements prepared as a server's
// start prepares them.
func OpenDSN(t testing.TB, dsn string) *store.DB {
	t.Helper()
	db, err := store.Open(context.Background(), dsn)
	if err != nil {
		t.Fatalf("storetest: open %s: %v", dsn, err)
	}
	t.Cleanup(func() { db.Close() })
	db.PrepareStatements(context.Background())
	return db
}

// DSN returns a migrated database of the given dialect for this test alone:
// a SQLite file path, or a PostgreSQL URL of a database of its own. It is
// removed when the test ends.
func DSN(t testing.TB, d store.Dialect) string {
	t.Helper()
	return copyOf(t, d, func() template { return migrated(d) })
}

// EmptyDSN returns an empty database of the given dialect for this test, for
// the tests of migrating from nothing.
func EmptyDSN(t testing.TB, d store.Dialect) string {
	t.Helper()
	if d == store.SQLite {
		return filepath.Join(t.TempDir(), "voyage.db")
	}
	return newDatabase(t, "template1") // what CREATE DATABASE copies by default
}

// Seed fills the migrated database at dsn (a SQLite path or a PostgreSQL
// URL): through the store, or by running the application or a command on it.
// Whatever it opens it closes before it returns.
type Seed func(ctx context.Context, dsn string) error

// Template returns a database for this test copied from a template that is
// the migrated schema with seed applied: made once per test binary and
// name, so a seed that costs seconds (password hashes under -race, bookings)
// is paid once, not per test. seed must give the same data whenever it runs.
func Template(t testing.TB, d store.Dialect, name string, seed Seed) string {
	t.Helper()
	if !templateName.MatchString(name) {
		t.Fatalf("storetest: template name %q: want 1-16 of a-z, 0-9 and _", name)
	}
	return copyOf(t, d, func() template { return seeded(d, name, seed) })
}

// templateName keeps a seeded template's database name within PostgreSQL's
// 63 bytes.
var templateName = regexp.MustCompile(`^[a-z0-9_]{1,16}$`)

// A template is where a copy comes from: a SQLite file's bytes or a
// PostgreSQL template database's name.
type template struct {
	file     []byte
	database string
	err      error
}

var (
	mu        sync.Mutex
	templates = map[string]*templateOnce{}
)

type templateOnce struct {
	once sync.Once
	tpl  template
}

// once builds the template under key the first time it is asked for.
func once(key string, build func() template) template {
	mu.Lock()
	o, ok := templates[key]
	if !ok {
		o = &templateOnce{}
		templates[key] = o
	}
	mu.Unlock()
	o.once.Do(func() { o.tpl = build() })
	return o.tpl
}

// migrationsHash identifies the schema the migrations build: every embedded
// migration file and the River version whose migrations follow them.
var migrationsHash = sync.OnceValue(func() string {
	h := sha256.New()
	_ = fs.WalkDir(migrations.FS, ".", func(path string, e fs.DirEntry, err error) error {
		if err != nil || e.IsDir() {
			return err
		}
		b, err := fs.ReadFile(migrations.FS, path)
		if err != nil {
			return err
		}
		fmt.Fprintf(h, "%s %d\n", path, len(b))
		h.Write(b)
		return nil
	})
	if bi, ok := debug.ReadBuildInfo(); ok {
		for _, m := range bi.Deps {
			// River's own modules, whose migrations follow ours; not
			// rivercontrib's (otelriver), which has none: counting it gave
			// a branch with it a hash of its own, and each binary dropped
			// the other's template as stale.
			if m.Path == "github.com/riverqueue/river" || strings.HasPrefix(m.Path, "github.com/riverqueue/river/") {
				fmt.Fprintf(h, "%s %s\n", m.Path, m.Version)
			}
		}
	}
	return hex.EncodeToString(h.Sum(nil))[:16]
})

// migrated is the engine's migrated template, built on first use.
func migrated(d store.Dialect) template {
	return once(string(d)+"/migrated", func() template {
		if d == store.SQLite {
			return migratedSQLite()
		}
		return migratedPostgres()
	})
}

// seeded is the template name, the migrated one with seed applied, built on
// first use.
func seeded(d store.Dialect, name string, seed Seed) template {
	return once(string(d)+"/seeded/"+name, func() template {
		base := migrated(d)
		if base.err != nil {
			return base
		}
		if d == store.SQLite {
			return seededSQLite(base, seed)
		}
		return seededPostgres(base, name, seed)
	})
}

// copyOf makes this test's database from the template from gives.
func copyOf(t testing.TB, d store.Dialect, from func() template) string {
	t.Helper()
	if d == store.Postgres {
		// The server is checked before a template is built on it, so an
		// unreachable one skips (or fails under CI) with its reason.
		adminDB(t)
	}
	tpl := from()
	if tpl.err != nil {
		t.Fatalf("storetest: template: %v", tpl.err)
	}
	if d == store.SQLite {
		path := filepath.Join(t.TempDir(), "voyage.db")
		if err := os.WriteFile(path, tpl.file, 0o600); err != nil {
			t.Fatalf("storetest: copy template: %v", err)
		}
		return path
	}
	return newDatabase(t, tpl.database)
}

// newDatabase creates the test's PostgreSQL database as a copy of template,
// dropped when the test ends, and answers its URL.
func newDatabase(t testing.TB, template string) string {
	t.Helper()
	name := testName()
	admin := adminDB(t)
	if _, err := admin.Exec(`CREATE DATABASE ` + name + ` TEMPLATE ` + template); err != nil {
		t.Fatalf("storetest: create database from %s: %v", template, err)
	}
	// FORCE ends the connections a closed pool may still be tearing down.
	t.Cleanup(func() {
		if _, err := admin.Exec(`DROP DATABASE IF EXISTS ` + name + ` WITH (FORCE)`); err != nil {
			t.Errorf("storetest: drop database %s: %v", name, err)
		}
	})
	return databaseURL(t, name)
}

// SQLite templates.

// migratedSQLite migrates a file once per migrations hash, kept in the
// system's temporary folder for the next test binary; a file being written
// has a name of its own and takes the shared name by an atomic rename.
func migratedSQLite() template {
	dir := filepath.Join(os.TempDir(), "voyage-storetest")
	path := filepath.Join(dir, "migrated-"+migrationsHash()+".db")
	if b, err := os.ReadFile(path); err == nil {
		return template{file: b}
	}
	if err := os.MkdirAll(dir, 0o750); err != nil {
		return template{err: err}
	}
	tmp, err := os.MkdirTemp(dir, "build-")
	if err != nil {
		return template{err: err}
	}
	defer os.RemoveAll(tmp)
	file := filepath.Join(tmp, "voyage.db")
	b, err := buildSQLite(file, nil)
	if err != nil {
		return template{err: err}
	}
	if err := os.Rename(file, path); err != nil {
		return template{err: err}
	}
	return template{file: b}
}

func seededSQLite(base template, seed Seed) template {
	tmp, err := os.MkdirTemp("", "voyage-storetest-seed-")
	if err != nil {
		return template{err: err}
	}
	defer os.RemoveAll(tmp)
	file := filepath.Join(tmp, "voyage.db")
	if err := os.WriteFile(file, base.file, 0o600); err != nil {
		return template{err: err}
	}
	b, err := buildSQLite(file, seed)
	return template{file: b, err: err}
}

// buildSQLite migrates file, seeds it (seed nil: not), and answers its
// bytes with everything written into the main file (no write-ahead log
// beside it).
func buildSQLite(file string, seed Seed) ([]byte, error) {
	ctx := context.Background()
	db, err := store.Open(ctx, file)
	if err != nil {
		return nil, err
	}
	if err := db.Migrate(ctx); err != nil {
		db.Close()
		return nil, err
	}
	if seed != nil {
		db.Close()
		if err := seed(ctx, file); err != nil {
			return nil, fmt.Errorf("seed: %w", err)
		}
		if db, err = store.Open(ctx, file); err != nil {
			return nil, err
		}
	}
	if _, err := db.ExecContext(ctx, `PRAGMA wal_checkpoint(TRUNCATE)`); err != nil {
		db.Close()
		return nil, err
	}
	if err := db.Close(); err != nil {
		return nil, err
	}
	return os.ReadFile(file)
}

// PostgreSQL templates.

var (
	adminOnce sync.Once
	admin     *sql.DB
	adminErr  error
)

// adminDB is this binary's connection to VOYAGE_TEST_POSTGRES_URL's
// database, where databases are created and dropped.
func adminDB(t testing.TB) *sql.DB {
	t.Helper()
	adminOnce.Do(func() {
		admin, adminErr = sql.Open("postgres", PostgresURL())
		if adminErr == nil {
			admin.SetMaxOpenConns(4)
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			adminErr = admin.PingContext(ctx)
			cancel()
		}
	})
	if adminErr != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("storetest: PostgreSQL at %s is required under CI=true: %v", PostgresURL(), adminErr)
		}
		t.Skipf("storetest: PostgreSQL not reachable at %s: %v", PostgresURL(), adminErr)
	}
	return admin
}

// The databases this package makes are named so that ones left behind by a
// test binary that was killed can be told and dropped: voyage_t_<unix>_… for
// a test's, voyage_s_<unix>_… for a binary's seeded template, voyage_m_<hash>
// for the shared migrated one.
const (
	testPrefix   = "voyage_t_"
	seedPrefix   = "voyage_s_"
	migratedName = "voyage_m_"
	// leftAfter is how old a test's database or a seeded template must be
	// to be taken for an ended binary's: longer than any test binary runs
	// (make test-go gives them 50 minutes).
	leftAfter = 2 * time.Hour
)

func testName() string {
	return testPrefix + strconv.FormatInt(time.Now().Unix(), 10) + "_" + randomHex(6)
}

// migratedPostgres is called after copyOf has checked the server (admin).
func migratedPostgres() template {
	ctx := context.Background()
	db := admin
	name := migratedName + migrationsHash()
	// One binary builds it while the others wait: a session lock, held on a
	// connection of its own. Under it each binary first drops what killed
	// binaries left, and the seeded templates of binaries that have ended.
	conn, err := db.Conn(ctx)
	if err != nil {
		return template{err: err}
	}
	defer conn.Close()
	const lockKey = 7_360_001
	if _, err := conn.ExecContext(ctx, `SELECT pg_advisory_lock($1)`, lockKey); err != nil {
		return template{err: fmt.Errorf("lock: %w", err)}
	}
	defer conn.ExecContext(ctx, `SELECT pg_advisory_unlock($1)`, lockKey)
	if exists(ctx, db, name) {
		dropLeftovers(ctx, conn, false)
		return template{database: name}
	}
	dropLeftovers(ctx, conn, true)
	build := name + "_build"
	if _, err := conn.ExecContext(ctx, `DROP DATABASE IF EXISTS `+build+` WITH (FORCE)`); err != nil {
		return template{err: err}
	}
	if err := buildPostgres(ctx, conn, build, "", nil); err != nil {
		return template{err: err}
	}
	if _, err := conn.ExecContext(ctx, `ALTER DATABASE `+build+` RENAME TO `+name); err != nil {
		return template{err: err}
	}
	return template{database: name}
}

func seededPostgres(base template, name string, seed Seed) template {
	ctx := context.Background()
	conn, err := admin.Conn(ctx)
	if err != nil {
		return template{err: err}
	}
	defer conn.Close()
	tpl := seedPrefix + strconv.FormatInt(time.Now().Unix(), 10) + "_" + randomHex(4) + "_" + name
	if err := buildPostgres(ctx, conn, tpl, base.database, seed); err != nil {
		return template{err: err}
	}
	return template{database: tpl}
}

// buildPostgres creates the database name (from the template from, when
// given), migrates and seeds it (seed nil: not), and marks it a template
// that takes no connections, so copies of it never wait on one.
func buildPostgres(ctx context.Context, conn *sql.Conn, name, from string, seed Seed) error {
	create := `CREATE DATABASE ` + name
	if from != "" {
		create += ` TEMPLATE ` + from
	}
	if _, err := conn.ExecContext(ctx, create); err != nil {
		return fmt.Errorf("create %s: %w", name, err)
	}
	u, err := url.Parse(PostgresURL())
	if err != nil {
		return err
	}
	u.Path = "/" + name
	db, err := store.Open(ctx, u.String())
	if err != nil {
		return err
	}
	err = db.Migrate(ctx)
	db.Close()
	if err == nil && seed != nil {
		if err = seed(ctx, u.String()); err != nil {
			err = fmt.Errorf("seed: %w", err)
		}
	}
	if err != nil {
		_, _ = conn.ExecContext(ctx, `DROP DATABASE IF EXISTS `+name+` WITH (FORCE)`)
		return fmt.Errorf("build %s: %w", name, err)
	}
	if _, err := conn.ExecContext(ctx, `ALTER DATABASE `+name+` WITH IS_TEMPLATE true ALLOW_CONNECTIONS false`); err != nil {
		return err
	}
	// A copy waits on no connection to its template: end any a closed pool
	// or the seed's job queue may still be tearing down.
	_, err = conn.ExecContext(ctx, `SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()`, name)
	return err
}

func exists(ctx context.Context, db *sql.DB, name string) bool {
	var n int
	_ = db.QueryRowContext(ctx, `SELECT COUNT(*) FROM pg_database WHERE datname = $1 AND datistemplate`, name).Scan(&n)
	return n > 0
}

// dropLeftovers drops what ended binaries left (tests' databases of killed
// ones, and seeded templates, which live as long as their binary: both
// older than leftAfter) and, with others, the migrated templates of other
// migrations (when this binary's migrations are new). Run under the build
// lock, once per binary.
func dropLeftovers(ctx context.Context, conn *sql.Conn, others bool) {
	rows, err := conn.QueryContext(ctx, `SELECT datname FROM pg_database WHERE datname LIKE 'voyage\_%'`)
	if err != nil {
		return
	}
	var names []string
	for rows.Next() {
		var n string
		if rows.Scan(&n) == nil {
			names = append(names, n)
		}
	}
	rows.Close()
	cutoff := time.Now().Add(-leftAfter).Unix()
	for _, n := range names {
		drop := false
		switch {
		case strings.HasPrefix(n, migratedName):
			drop = others && n != migratedName+migrationsHash()
		case strings.HasPrefix(n, testPrefix), strings.HasPrefix(n, seedPrefix):
			stamp, _, _ := strings.Cut(n[len(testPrefix):], "_")
			at, err := strconv.ParseInt(stamp, 10, 64)
			drop = err == nil && at < cutoff
		}
		if drop {
			_, _ = conn.ExecContext(ctx, `ALTER DATABASE `+n+` IS_TEMPLATE false`)
			_, _ = conn.ExecContext(ctx, `DROP DATABASE IF EXISTS `+n+` WITH (FORCE)`)
		}
	}
}

func databaseURL(t testing.TB, name string) string {
	u, err := url.Parse(PostgresURL())
	if err != nil {
		t.Fatalf("storetest: parse %s: %v", PostgresURL(), err)
	}
	u.Path = "/" + name
	// A test's database is dropped when it ends: its commits need not wait
	// for the disk (a run-time parameter both drivers pass to the server).
	q := u.Query()
	q.Set("synchronous_commit", "off")
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
