package store_test

import (
	"context"
	"path/filepath"
	"slices"
	"testing"

	"github.com/jmoiron/sqlx"

	"github.com/voyage/voyage/pkg/store"
)

// sqliteOf is a fresh SQLite file of the test's own, unmigrated: the tests
// here make their own tables.
func sqliteOf(t *testing.T) *store.DB {
	t.Helper()
	db, err := store.Open(context.Background(), filepath.Join(t.TempDir(), "cache.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

func kept(t *testing.T, ctx context.Context, db *store.DB) []string {
	t.Helper()
	got, err := db.KeptStatements(ctx)
	if err != nil {
		t.Fatal(err)
	}
	return got
}

// TestSQLiteStatementCache: SQLite's connection keeps a query with
// arguments from its first run and answers the same through it, in and out
// of a transaction; a query without arguments is not kept.
func TestSQLiteStatementCache(t *testing.T) {
	t.Parallel()
	ctx := timeout(t)
	db := sqliteOf(t)
	if _, err := db.ExecContext(ctx, `CREATE TABLE fares (id INTEGER PRIMARY KEY, route TEXT, cny INTEGER)`); err != nil {
		t.Fatal(err)
	}
	const insert = `INSERT INTO fares (route, cny) VALUES (?, ?)`
	const sum = `SELECT COALESCE(SUM(cny), 0) FROM fares WHERE route = ?`
	for i, cny := range []int{800, 1200, 950} {
		if _, err := db.ExecContext(ctx, insert, "PEK-SHA", cny); err != nil {
			t.Fatalf("insert %d: %v", i, err)
		}
	}
	if got := kept(t, ctx, db); !slices.Equal(got, []string{insert}) {
		t.Fatalf("kept after three inserts: %q, want only the insert", got)
	}
	var total int
	if err := db.GetContext(ctx, &total, sum, "PEK-SHA"); err != nil || total != 2950 {
		t.Fatalf("sum: %d, %v; want 2950", total, err)
	}
	err := db.InTx(ctx, func(tx *sqlx.Tx) error {
		if _, err := tx.ExecContext(ctx, insert, "PEK-SHA", 50); err != nil {
			return err
		}
		return tx.GetContext(ctx, &total, sum, "PEK-SHA")
	})
	if err != nil || total != 3000 {
		t.Fatalf("in a transaction: sum %d, %v; want 3000", total, err)
	}
	if got := kept(t, ctx, db); !slices.Equal(got, []string{sum, insert}) {
		t.Fatalf("kept: %q, want the sum, then the insert", got)
	}
	if err := db.GetContext(ctx, &total, `SELECT COUNT(*) FROM fares`); err != nil || total != 4 {
		t.Fatalf("count: %d, %v", total, err)
	}
	if got := kept(t, ctx, db); len(got) != 2 {
		t.Fatalf("a query without arguments was kept: %q", got)
	}
	// An error is the statement's own, and the statement stays usable.
	if _, err := db.ExecContext(ctx, `INSERT INTO fares (id, route, cny) VALUES (?, ?, ?)`, 1, "PEK-CAN", 10); err == nil {
		t.Fatal("a duplicate id was inserted")
	}
	if _, err := db.ExecContext(ctx, `INSERT INTO fares (id, route, cny) VALUES (?, ?, ?)`, 9, "PEK-CAN", 10); err != nil {
		t.Fatalf("the same statement after its error: %v", err)
	}
}

// TestSQLiteStatementCacheOpenRows: a kept statement is one cursor. The same
// query run while its rows are open (in a transaction, the one place
// database/sql lets it happen on one connection) answers its own rows, and
// the rows read first are not disturbed; a statement evicted while its
// rows are open is finalized when they close.
func TestSQLiteStatementCacheOpenRows(t *testing.T) {
	ctx := timeout(t)
	store.SetStatementCacheSize(t, 2)
	db := sqliteOf(t)
	if _, err := db.ExecContext(ctx, `CREATE TABLE legs (id INTEGER PRIMARY KEY, trip INTEGER, code TEXT)`); err != nil {
		t.Fatal(err)
	}
	for i, l := range []struct {
		trip int
		code string
	}{{1, "PEK"}, {1, "SHA"}, {1, "CAN"}, {2, "HKG"}, {2, "TPE"}} {
		if _, err := db.ExecContext(ctx, `INSERT INTO legs (trip, code) VALUES (?, ?)`, l.trip, l.code); err != nil {
			t.Fatalf("insert %d: %v", i, err)
		}
	}
	const legs = `SELECT code FROM legs WHERE trip = ? ORDER BY id`
	err := db.InTx(ctx, func(tx *sqlx.Tx) error {
		outer, err := tx.QueryContext(ctx, legs, 1)
		if err != nil {
			return err
		}
		var got []string
		for outer.Next() {
			var code string
			if err := outer.Scan(&code); err != nil {
				return err
			}
			// The same query, inside the first one's rows.
			var inner []string
			if err := tx.SelectContext(ctx, &inner, legs, 2); err != nil {
				return err
			}
			if !slices.Equal(inner, []string{"HKG", "TPE"}) {
				t.Errorf("inner rows: %q", inner)
			}
			// Two other statements: the cache (two) evicts the open one.
			var n int
			if err := tx.GetContext(ctx, &n, `SELECT COUNT(*) FROM legs WHERE trip = ?`, 2); err != nil {
				return err
			}
			if err := tx.GetContext(ctx, &n, `SELECT COUNT(*) FROM legs WHERE code <> ?`, code); err != nil {
				return err
			}
			got = append(got, code)
		}
		if err := outer.Err(); err != nil {
			return err
		}
		if err := outer.Close(); err != nil {
			return err
		}
		if !slices.Equal(got, []string{"PEK", "SHA", "CAN"}) {
			t.Errorf("outer rows: %q", got)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	var again []string
	if err := db.SelectContext(ctx, &again, legs, 1); err != nil || len(again) != 3 {
		t.Fatalf("after the transaction: %q, %v", again, err)
	}
	if got := kept(t, ctx, db); len(got) > 2 {
		t.Fatalf("kept %d statements, more than the cache's two: %q", len(got), got)
	}
}

// TestSQLiteStatementCacheAfterSchemaChange: SQLite prepares a kept
// statement again when the schema changes, so a kept SELECT * reads the new
// shape, with or without the migrations' Unprepare; a table dropped and
// made again is read afresh.
func TestSQLiteStatementCacheAfterSchemaChange(t *testing.T) {
	t.Parallel()
	ctx := timeout(t)
	db := sqliteOf(t)
	if _, err := db.ExecContext(ctx, `CREATE TABLE shape (id INTEGER PRIMARY KEY, a TEXT)`); err != nil {
		t.Fatal(err)
	}
	if _, err := db.ExecContext(ctx, `INSERT INTO shape VALUES (1, 'one')`); err != nil {
		t.Fatal(err)
	}
	const read = `SELECT * FROM shape WHERE id = ?`
	columns := func() []string {
		t.Helper()
		rows, err := db.QueryContext(ctx, read, 1)
		if err != nil {
			t.Fatal(err)
		}
		defer rows.Close()
		cols, err := rows.Columns()
		if err != nil {
			t.Fatal(err)
		}
		return cols
	}
	if got := columns(); len(got) != 2 {
		t.Fatalf("columns %q", got)
	}
	if !slices.Contains(kept(t, ctx, db), read) {
		t.Fatal("the read was not kept")
	}
	if _, err := db.ExecContext(ctx, `ALTER TABLE shape ADD COLUMN b TEXT`); err != nil {
		t.Fatal(err)
	}
	if got := columns(); len(got) != 3 {
		t.Fatalf("after an outside change: columns %q, want 3", got)
	}
	// As a migration does: the connection drops its statements at its
	// next query, which keeps its own again.
	db.Unprepare()
	if got := columns(); len(got) != 3 {
		t.Fatalf("after a migration: columns %q, want 3", got)
	}
	if got := kept(t, ctx, db); !slices.Equal(got, []string{read}) {
		t.Fatalf("kept after a migration: %q, want only the read", got)
	}
	if _, err := db.ExecContext(ctx, `DROP TABLE shape`); err != nil {
		t.Fatalf("drop a table a kept statement reads: %v", err)
	}
	if _, err := db.ExecContext(ctx, `CREATE TABLE shape (id INTEGER PRIMARY KEY, x TEXT, y TEXT, z TEXT)`); err != nil {
		t.Fatal(err)
	}
	if _, err := db.ExecContext(ctx, `INSERT INTO shape VALUES (1, 'x', 'y', 'z')`); err != nil {
		t.Fatal(err)
	}
	if got := columns(); !slices.Equal(got, []string{"id", "x", "y", "z"}) {
		t.Fatalf("after the table was made again: columns %q", got)
	}
}
