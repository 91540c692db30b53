package store_test

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/jmoiron/sqlx"

	"github.com/voyage/voyage/pkg/store"
	"github.com/voyage/voyage/pkg/store/storetest"
)

// preparedTexts lists the statements on this file's cache_ tables (or marked
// cache_) prepared on q's connection (a one-connection pool or a
// transaction): the migration prepares the package's declared Statements
// too. The query has no parameters, so the cache never keeps it.
func preparedTexts(t *testing.T, ctx context.Context, q sqlx.QueryerContext) []string {
	t.Helper()
	var out []string
	if err := sqlx.SelectContext(ctx, q, &out, `SELECT statement FROM pg_prepared_statements WHERE statement LIKE '%cache\_%' ORDER BY statement`); err != nil {
		t.Fatal(err)
	}
	return out
}

func onePostgresConn(t *testing.T, dsn string) *store.DB {
	t.Helper()
	db, err := store.Open(context.Background(), dsn)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	if err := db.Migrate(context.Background()); err != nil {
		t.Fatal(err)
	}
	db.SetMaxOpenConns(1)
	return db
}

// TestStatementCacheKeepsWhatRunsAgain: a query with arguments is prepared
// on the connection the second time it runs there, in a transaction too,
// and keeps answering correctly; what runs once is not prepared.
func TestStatementCacheKeepsWhatRunsAgain(t *testing.T) {
	t.Parallel()
	ctx := timeout(t)
	db := onePostgresConn(t, storetest.DSN(t, store.Postgres))
	if _, err := db.ExecContext(ctx, `CREATE TABLE cache_rates (base TEXT, currency TEXT, rate TEXT, created_at TIMESTAMPTZ)`); err != nil {
		t.Fatal(err)
	}
	const count = `SELECT COUNT(*) FROM cache_rates WHERE base = $1`
	const insert = `INSERT INTO cache_rates (base, currency, rate, created_at) VALUES ($1, $2, $3, $4)`
	kept := func(q sqlx.QueryerContext, query string) bool {
		return slices.Contains(preparedTexts(t, ctx, q), query)
	}

	if _, err := db.ExecContext(ctx, insert, "K1", "USD", "0.14", time.Now().UTC()); err != nil {
		t.Fatal(err)
	}
	var n int
	if err := db.GetContext(ctx, &n, count, "K1"); err != nil || n != 1 {
		t.Fatalf("count = %d, %v; want 1", n, err)
	}
	if kept(db, count) || kept(db, insert) {
		t.Fatal("a query run once was prepared")
	}
	for want := 1; want <= 3; want++ {
		if err := db.GetContext(ctx, &n, count, "K1"); err != nil || n != 1 {
			t.Fatalf("run %d: count = %d, %v; want 1", want+1, n, err)
		}
	}
	if !kept(db, count) {
		t.Fatal("a query run again was not prepared")
	}
	if got := preparedTexts(t, ctx, db); len(got) != 1 {
		t.Errorf("prepared %q, want the count alone", got)
	}

	// In a transaction that rolls back: prepared there, it outlives the
	// rollback (a prepared statement is not transactional) and still
	// counts what is committed.
	err := db.InTx(ctx, func(tx *sqlx.Tx) error {
		for _, base := range []string{"K2", "K3"} {
			if _, err := tx.ExecContext(ctx, insert, base, "USD", "0.14", time.Now().UTC()); err != nil {
				return err
			}
		}
		if err := tx.GetContext(ctx, &n, count, "K3"); err != nil || n != 1 {
			t.Errorf("count in the transaction = %d, %v; want 1", n, err)
		}
		if !kept(tx, insert) {
			t.Error("the insert run twice in the transaction was not prepared")
		}
		return context.Canceled
	})
	if err != context.Canceled {
		t.Fatalf("transaction: %v", err)
	}
	if err := db.GetContext(ctx, &n, count, "K3"); err != nil || n != 0 {
		t.Errorf("after the rollback count = %d, %v; want 0", n, err)
	}
	if _, err := db.ExecContext(ctx, insert, "K4", "USD", "0.14", time.Now().UTC()); err != nil {
		t.Fatalf("the kept insert after the rollback: %v", err)
	}
	if err := db.GetContext(ctx, &n, `SELECT COUNT(*) FROM cache_rates WHERE base LIKE $1`, "K%"); err != nil || n != 2 {
		t.Errorf("rows = %d, %v; want K1 and K4", n, err)
	}
}

// TestStatementCacheErrorsAreTheServers: a prepared statement's failure is
// the same error the text gives, so IsUniqueViolation still tells a
// conflict, in a transaction as outside one.
func TestStatementCacheErrorsAreTheServers(t *testing.T) {
	t.Parallel()
	ctx := timeout(t)
	db := onePostgresConn(t, storetest.DSN(t, store.Postgres))
	if _, err := db.ExecContext(ctx, `CREATE TABLE cache_keys (k TEXT PRIMARY KEY)`); err != nil {
		t.Fatal(err)
	}
	const add = `INSERT INTO cache_keys (k) VALUES ($1)`
	for i := range 4 {
		_, err := db.ExecContext(ctx, add, "same")
		if i == 0 && err != nil {
			t.Fatal(err)
		}
		if i > 0 && !store.IsUniqueViolation(err) {
			t.Fatalf("run %d: %v, want a unique violation", i+1, err)
		}
	}
	err := db.InTx(ctx, func(tx *sqlx.Tx) error {
		_, err := tx.ExecContext(ctx, add, "same")
		return err
	})
	if !store.IsUniqueViolation(err) {
		t.Fatalf("in a transaction: %v, want a unique violation", err)
	}
	var n int
	if err := db.GetContext(ctx, &n, `SELECT COUNT(*) FROM cache_keys WHERE k = $1`, "same"); err != nil || n != 1 {
		t.Errorf("rows = %d, %v; want 1", n, err)
	}
}

// TestStatementCacheEvictsTheLeastRecentlyUsed: a connection keeps at most
// the cache's size, the statements used last.
func TestStatementCacheEvictsTheLeastRecentlyUsed(t *testing.T) {
	// Not parallel: it sets the cache size every connection opened reads.
	ctx := timeout(t)
	store.SetStatementCacheSize(t, 3)
	db := onePostgresConn(t, storetest.DSN(t, store.Postgres))
	queries := []string{
		`SELECT $1::int + 1 AS cache_1`, `SELECT $1::int + 2 AS cache_2`, `SELECT $1::int + 3 AS cache_3`,
		`SELECT $1::int + 4 AS cache_4`, `SELECT $1::int + 5 AS cache_5`,
	}
	for i, q := range queries {
		for range 2 {
			var got int
			if err := db.GetContext(ctx, &got, q, 10); err != nil || got != 11+i {
				t.Fatalf("%s = %d, %v; want %d", q, got, err, 11+i)
			}
		}
	}
	got := preparedTexts(t, ctx, db)
	want := queries[2:]
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Errorf("prepared %q, want the last three %q", got, want)
	}
}

// TestStatementCacheAfterSchemaChange: a kept statement whose table changed
// shape keeps working. A migration drops every connection's statements
// before their next use; a change made some other way fails the kept
// statement once, and the call is made again at once outside a transaction.
func TestStatementCacheAfterSchemaChange(t *testing.T) {
	t.Parallel()
	ctx := timeout(t)
	db := onePostgresConn(t, storetest.DSN(t, store.Postgres))
	if _, err := db.ExecContext(ctx, `CREATE TABLE cache_shape (id INT PRIMARY KEY, a TEXT)`); err != nil {
		t.Fatal(err)
	}
	if _, err := db.ExecContext(ctx, `INSERT INTO cache_shape VALUES (1, 'one')`); err != nil {
		t.Fatal(err)
	}
	const read = `SELECT * FROM cache_shape WHERE id = $1`
	columns := func() ([]string, error) {
		rows, err := db.QueryContext(ctx, read, 1)
		if err != nil {
			return nil, err
		}
		defer rows.Close()
		return rows.Columns()
	}
	for range 2 {
		if _, err := columns(); err != nil {
			t.Fatal(err)
		}
	}
	if !slices.Contains(preparedTexts(t, ctx, db), read) {
		t.Fatal("the read was not kept")
	}

	// As a migration does: the statements go before the next query, so
	// even one in a transaction (which a stale statement would abort) reads
	// the new shape.
	if _, err := db.ExecContext(ctx, `ALTER TABLE cache_shape ADD COLUMN b TEXT`); err != nil {
		t.Fatal(err)
	}
	db.Unprepare()
	err := db.InTx(ctx, func(tx *sqlx.Tx) error {
		rows, err := tx.QueryContext(ctx, read, 1)
		if err != nil {
			return err
		}
		defer rows.Close()
		if got, err := rows.Columns(); err != nil || len(got) != 3 {
			t.Errorf("after a migration: columns %q, %v; want 3", got, err)
		}
		return nil
	})
	if err != nil {
		t.Fatalf("after a migration, in a transaction: %v", err)
	}

	// Changed behind the store's back: answered all the same.
	for range 2 {
		if _, err := columns(); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := db.ExecContext(ctx, `ALTER TABLE cache_shape ADD COLUMN c TEXT`); err != nil {
		t.Fatal(err)
	}
	if got, err := columns(); err != nil || len(got) != 4 {
		t.Fatalf("after an outside change: columns %q, %v; want 4", got, err)
	}
}

// TestStatementCacheOff: statement_cache=off in the URL prepares nothing,
// and the parameter does not reach the server (which would refuse it).
func TestStatementCacheOff(t *testing.T) {
	t.Parallel()
	ctx := timeout(t)
	dsn := storetest.DSN(t, store.Postgres)
	sep := "?"
	if strings.Contains(dsn, "?") {
		sep = "&"
	}
	db := onePostgresConn(t, dsn+sep+"statement_cache=off")
	for range 4 {
		var n int
		if err := db.GetContext(ctx, &n, `SELECT $1::int AS cache_n`, 4); err != nil {
			t.Fatal(err)
		}
	}
	if got := preparedTexts(t, ctx, db); len(got) != 0 {
		t.Errorf("prepared %q with the cache off", got)
	}
}

func TestStatementCacheSetting(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		in, out string
		on      bool
	}{
		{"postgres://u@h/db?sslmode=disable", "postgres://u@h/db?sslmode=disable", true},
		{"postgres://u@h/db?statement_cache=off&sslmode=disable", "postgres://u@h/db?sslmode=disable", false},
		{"postgres://u@h/db?statement_cache=OFF", "postgres://u@h/db", false},
		{"postgres://u@h/db?statement_cache=0", "postgres://u@h/db", false},
		{"postgres://u@h/db?statement_cache=on", "postgres://u@h/db", true},
		{"host=h dbname=db", "host=h dbname=db", true},
	} {
		out, on := store.StatementCacheSetting(tc.in)
		if out != tc.out || on != tc.on {
			t.Errorf("%s: %s %v, want %s %v", tc.in, out, on, tc.out, tc.on)
		}
	}
}
