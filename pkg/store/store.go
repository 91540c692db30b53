// Package store opens the database (embedded SQLite or PostgreSQL), applies the
// embedded goose migrations and River's own, and runs transactions. Domain
// packages own their SQL; this package owns only the connection and the dialect.
package store

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/XSAM/otelsql"
	"github.com/jmoiron/sqlx"
	_ "github.com/lib/pq" // registers "postgres"
	"github.com/pressly/goose/v3"
	"github.com/riverqueue/river/riverdriver"
	"github.com/riverqueue/river/riverdriver/riverdatabasesql"
	"github.com/riverqueue/river/riverdriver/riversqlite"
	"github.com/riverqueue/river/rivermigrate"
	"go.opentelemetry.io/otel/trace"

	"github.com/voyage/voyage/migrations"
)

// Dialect names the SQL engine behind a DB.
type Dialect string

// The two engines Voyage runs on.
const (
	SQLite   Dialect = "sqlite"
	Postgres Dialect = "postgres"
)

// DB is an open database with its dialect.
type DB struct {
	*sqlx.DB
	Dialect Dialect
	// stmts holds, on PostgreSQL, each Statement's *sqlx.Stmt: nil when the
	// server refused to prepare it.
	stmts sync.Map
	// schemaGen is bumped by a migration: every connection's statement
	// cache (stmtcache.go) is dropped before its next query.
	schemaGen *atomic.Int64
}

// Marks is n bind parameters, "?, ?, ?", for a VALUES or IN list (Rebind
// numbers them for PostgreSQL).
func Marks(n int) string {
	if n <= 0 {
		return ""
	}
	return strings.Repeat("?, ", n-1) + "?"
}

// ParseDSN tells which engine a --db value names and returns the driver's
// connection string. A postgres:// or postgresql:// URL is PostgreSQL; a
// sqlite: URL or a plain path is SQLite; empty is an error (config fills the
// default path).
func ParseDSN(dsn string) (Dialect, string, error) {
	switch {
	case dsn == "":
		return "", "", errors.New("store: empty database location")
	case strings.HasPrefix(dsn, "postgres://"), strings.HasPrefix(dsn, "postgresql://"):
		return Postgres, dsn, nil
	case strings.HasPrefix(dsn, "sqlite:"):
		return SQLite, strings.TrimPrefix(strings.TrimPrefix(dsn, "sqlite:"), "//"), nil
	case strings.Contains(dsn, "://"):
		return "", "", fmt.Errorf("store: unsupported database URL scheme in %q", redact(dsn))
	}
	return SQLite, dsn, nil
}

// sqliteDSN adds the pragmas every connection needs: WAL for readers beside the
// writer, foreign keys on, a busy timeout instead of immediate SQLITE_BUSY, and
// IMMEDIATE transactions so a writer takes the lock at BEGIN rather than failing
// on a read-to-write upgrade.
func sqliteDSN(path string) string {
	file, query, _ := strings.Cut(path, "?")
	q, _ := url.ParseQuery(query)
	for _, p := range []string{"journal_mode(WAL)", "foreign_keys(1)", "busy_timeout(10000)", "synchronous(NORMAL)"} {
		q.Add("_pragma", p)
	}
	q.Set("_txlock", "immediate")
	q.Set("_time_format", "sqlite")
	return "file:" + file + "?" + q.Encode()
}

// Options are what OpenWith adds to a connection.
type Options struct {
	// Tracer, when set, makes a span of every statement, transaction and
	// prepare run inside a traced request or job (traced.go).
	Tracer trace.TracerProvider
}

// Open connects to the database named by dsn and checks it answers.
func Open(ctx context.Context, dsn string) (*DB, error) {
	return OpenWith(ctx, dsn, Options{})
}

// OpenWith is Open with opts.
func OpenWith(ctx context.Context, dsn string, opts Options) (*DB, error) {
	dialect, conn, err := ParseDSN(dsn)
	if err != nil {
		return nil, err
	}
	var db *sqlx.DB
	gen := new(atomic.Int64)
	switch dialect {
	case SQLite:
		file, _, _ := strings.Cut(conn, "?")
		if file != ":memory:" && !strings.HasPrefix(file, "file:") {
			if err := os.MkdirAll(filepath.Dir(file), 0o750); err != nil {
				return nil, fmt.Errorf("store: create folder for %s: %w", file, err)
			}
		}
		connector, err := openSQLiteCached(sqliteDSN(conn), gen)
		if err != nil {
			return nil, fmt.Errorf("store: open sqlite %s: %w", file, err)
		}
		db = sqlx.NewDb(openDB(connector, opts, SQLite), "sqlite")
		// One connection: SQLite has one writer anyway, and River's SQLite
		// driver needs a single connection to avoid SQLITE_BUSY between its
		// own concurrent operations.
		db.SetMaxOpenConns(1)
		db.SetConnMaxIdleTime(0)
	case Postgres:
		connector, err := openCached(withBinaryParameters(conn), gen)
		if err != nil {
			return nil, fmt.Errorf("store: open postgres %s: %w", redact(conn), err)
		}
		db = sqlx.NewDb(openDB(connector, opts, Postgres), "postgres")
		db.SetMaxOpenConns(25)
		db.SetMaxIdleConns(25)
		db.SetConnMaxIdleTime(5 * time.Minute)
	}
	pingCtx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	if err := db.PingContext(pingCtx); err != nil {
		db.Close()
		return nil, fmt.Errorf("store: connect to %s: %w", redact(dsn), err)
	}
	return &DB{DB: db, Dialect: dialect, schemaGen: gen}, nil
}

// openDB is the pool over connector, traced when opts asks for it. One
// pool only: sql.OpenDB starts the pool's connection opener at once.
func openDB(connector driver.Connector, opts Options, d Dialect) *sql.DB {
	if opts.Tracer != nil {
		return otelsql.OpenDB(connector, traceOptions(opts.Tracer, d)...)
	}
	return sql.OpenDB(connector)
}

// withBinaryParameters turns on lib/pq's binary_parameters unless the URL
// says otherwise: a query with arguments then takes one round trip to the
// server instead of two, which halves the latency of every statement.
func withBinaryParameters(conn string) string {
	if strings.Contains(conn, "binary_parameters=") || !strings.HasPrefix(conn, "postgres") {
		return conn
	}
	if strings.Contains(conn, "?") {
		return conn + "&binary_parameters=yes"
	}
	return conn + "?binary_parameters=yes"
}

// redact hides a password in a connection URL for logs and errors.
func redact(dsn string) string {
	u, err := url.Parse(dsn)
	if err != nil || u.User == nil {
		return dsn
	}
	if _, ok := u.User.Password(); ok {
		u.User = url.UserPassword(u.User.Username(), "xxxxx")
	}
	return u.String()
}

// InTx runs fn in a transaction, committing if fn returns nil and rolling back
// otherwise (also when fn panics).
func (db *DB) InTx(ctx context.Context, fn func(tx *sqlx.Tx) error) (err error) {
	tx, err := db.BeginTxx(ctx, nil)
	if err != nil {
		return fmt.Errorf("store: begin: %w", err)
	}
	defer func() {
		if p := recover(); p != nil {
			_ = tx.Rollback()
			panic(p)
		}
		if err != nil {
			if rbErr := tx.Rollback(); rbErr != nil && !errors.Is(rbErr, sql.ErrTxDone) {
				err = errors.Join(err, fmt.Errorf("store: rollback: %w", rbErr))
			}
		}
	}()
	if err = fn(tx); err != nil {
		return err
	}
	if err = tx.Commit(); err != nil {
		return fmt.Errorf("store: commit: %w", err)
	}
	return nil
}

// RiverDriver returns River's driver for this engine, on the same pool.
func (db *DB) RiverDriver() riverdriver.Driver[*sql.Tx] {
	if db.Dialect == SQLite {
		return riversqlite.New(db.DB.DB)
	}
	return riverdatabasesql.New(db.DB.DB)
}

func (db *DB) gooseProvider() (*goose.Provider, error) {
	sub, err := fs.Sub(migrations.FS, string(db.Dialect))
	if err != nil {
		return nil, fmt.Errorf("store: migrations for %s: %w", db.Dialect, err)
	}
	gd := goose.DialectSQLite3
	if db.Dialect == Postgres {
		gd = goose.DialectPostgres
	}
	p, err := goose.NewProvider(gd, db.DB.DB, sub)
	if err != nil {
		return nil, fmt.Errorf("store: goose provider: %w", err)
	}
	return p, nil
}

// Migrate applies every pending migration, Voyage's own then River's, and
// then prepares the declared statements on PostgreSQL, now that their tables
// exist.
func (db *DB) Migrate(ctx context.Context) error {
	p, err := db.gooseProvider()
	if err != nil {
		return err
	}
	results, err := p.Up(ctx)
	if err != nil {
		return fmt.Errorf("store: migrate up: %w", err)
	}
	for _, r := range results {
		slog.InfoContext(ctx, "migration applied", "version", r.Source.Version, "file", filepath.Base(r.Source.Path), "took", r.Duration)
	}
	migrator, err := rivermigrate.New(db.RiverDriver(), nil)
	if err != nil {
		return fmt.Errorf("store: river migrator: %w", err)
	}
	res, err := migrator.Migrate(ctx, rivermigrate.DirectionUp, nil)
	if err != nil {
		return fmt.Errorf("store: river migrate up: %w", err)
	}
	if len(results) > 0 || res != nil && len(res.Versions) > 0 {
		// A statement prepared before may read a table these migrations
		// changed.
		db.unprepare()
	}
	db.PrepareStatements(ctx)
	return nil
}

// MigrateDown rolls back the newest Voyage migration (River's stay).
func (db *DB) MigrateDown(ctx context.Context) error {
	p, err := db.gooseProvider()
	if err != nil {
		return err
	}
	r, err := p.Down(ctx)
	if err != nil {
		return fmt.Errorf("store: migrate down: %w", err)
	}
	// The prepared statements may read what the rollback removed.
	db.unprepare()
	if r != nil {
		slog.InfoContext(ctx, "migration rolled back", "version", r.Source.Version)
	}
	return nil
}

// MigrationStatus writes one line per Voyage migration: version, state, file.
func (db *DB) MigrationStatus(ctx context.Context, w io.Writer) error {
	st, err := db.Migrations(ctx)
	if err != nil {
		return err
	}
	for _, s := range st {
		applied := ""
		if s.AppliedAt != nil {
			applied = s.AppliedAt.Format(time.RFC3339)
		}
		fmt.Fprintf(w, "%05d\t%s\t%s\t%s\n", s.Version, s.State, s.File, applied)
	}
	return nil
}

// Migration is one embedded migration and whether it is applied.
type Migration struct {
	Version   int64      `json:"version"`
	State     string     `json:"state"`
	File      string     `json:"file"`
	AppliedAt *time.Time `json:"appliedAt,omitempty"`
}

// Migrations lists the embedded migrations with their state, oldest first.
func (db *DB) Migrations(ctx context.Context) ([]Migration, error) {
	p, err := db.gooseProvider()
	if err != nil {
		return nil, err
	}
	st, err := p.Status(ctx)
	if err != nil {
		return nil, fmt.Errorf("store: migration status: %w", err)
	}
	out := make([]Migration, 0, len(st))
	for _, s := range st {
		m := Migration{Version: s.Source.Version, State: string(s.State), File: filepath.Base(s.Source.Path)}
		if !s.AppliedAt.IsZero() {
			t := s.AppliedAt.UTC()
			m.AppliedAt = &t
		}
		out = append(out, m)
	}
	return out, nil
}

// MigrationsCurrent reports whether every embedded migration is applied, for
// the readiness probe.
func (db *DB) MigrationsCurrent(ctx context.Context) (bool, error) {
	p, err := db.gooseProvider()
	if err != nil {
		return false, err
	}
	pending, err := p.HasPending(ctx)
	if err != nil {
		return false, fmt.Errorf("store: check pending migrations: %w", err)
	}
	return !pending, nil
}

// MigrationVersions answers the newest migration applied to the database
// and the newest this binary embeds, for the readiness probe: an instance
// whose schema is behind its code must not take traffic, while one whose
// schema is ahead (a newer release migrated it during a rolling upgrade)
// still may. It takes no migration lock, so a migration under way does not
// hold the probe.
func (db *DB) MigrationVersions(ctx context.Context) (database, binary int64, err error) {
	p, err := db.gooseProvider()
	if err != nil {
		return 0, 0, err
	}
	database, binary, err = p.GetVersions(ctx)
	if err != nil {
		return 0, 0, fmt.Errorf("store: migration versions: %w", err)
	}
	return database, binary, nil
}

// IsUniqueViolation reports whether err is a unique-constraint failure on
// either engine.
func IsUniqueViolation(err error) bool {
	if err == nil {
		return false
	}
	msg := err.Error()
	return strings.Contains(msg, "UNIQUE constraint failed") || strings.Contains(msg, "duplicate key value violates unique constraint")
}

// SyncSequence moves a PostgreSQL serial sequence past the table's highest id
// after rows were inserted with explicit ids (SQLite needs nothing: its
// AUTOINCREMENT already follows the highest id).
func SyncSequence(ctx context.Context, tx *sqlx.Tx, table string) error {
	if tx.DriverName() != "postgres" {
		return nil
	}
	_, err := tx.ExecContext(ctx, `SELECT setval(pg_get_serial_sequence($1, 'id'), (SELECT MAX(id) FROM `+pqIdent(table)+`))`, table)
	if err != nil {
		return fmt.Errorf("store: sync sequence of %s: %w", table, err)
	}
	return nil
}

func pqIdent(s string) string { return `"` + strings.ReplaceAll(s, `"`, `""`) + `"` }
