package store_test

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jmoiron/sqlx"

	"github.com/voyage/voyage/pkg/store"
	"github.com/voyage/voyage/pkg/store/storetest"
)

var (
	addRate    = store.NewStatement(`INSERT INTO exchange_rates (base, currency, rate, created_at) VALUES (?, ?, ?, ?) RETURNING id`)
	delRates   = store.NewStatement(`DELETE FROM exchange_rates WHERE base = ?`)
	countRates = store.NewStatement(`SELECT COUNT(*) FROM exchange_rates WHERE base = ?`)
	// noTable reads a table no migration creates: it cannot be prepared.
	noTable = store.NewStatement(`SELECT id FROM no_such_table WHERE id = ?`)
)

// preparedOnConn reports whether s is prepared on the connection q runs on
// (PostgreSQL): a pool limited to one connection, or a transaction.
func preparedOnConn(t *testing.T, ctx context.Context, q sqlx.QueryerContext, s *store.Statement) bool {
	t.Helper()
	var n int
	if err := sqlx.GetContext(ctx, q, &n, `SELECT COUNT(*) FROM pg_prepared_statements WHERE statement = $1`,
		s.PostgresSQL()); err != nil {
		t.Fatal(err)
	}
	return n > 0
}

// timeout bounds each test: a statement waiting for a second connection
// while a transaction holds the only one fails the test instead of hanging.
func timeout(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	t.Cleanup(cancel)
	return ctx
}

func TestStatementPreparedOnPostgres(t *testing.T) {
	t.Parallel()
	storetest.Run(t, func(t *testing.T, db *store.DB) {
		ctx := timeout(t)
		db.SetMaxOpenConns(1)
		pg := db.Dialect == store.Postgres
		if got := db.IsPrepared(countRates); got != pg {
			t.Fatalf("after migrating, prepared = %v, want %v", got, pg)
		}
		var id int64
		if err := db.QueryRowStmt(ctx, nil, addRate, "T1", "USD", "0.14", time.Now().UTC()).Scan(&id); err != nil || id == 0 {
			t.Fatalf("insert: id %d, %v", id, err)
		}
		var n int
		if err := db.GetStmt(ctx, nil, &n, countRates, "T1"); err != nil || n != 1 {
			t.Fatalf("count = %d, %v; want 1", n, err)
		}
		if pg && !preparedOnConn(t, ctx, db, countRates) {
			t.Error("the statement did not run prepared on the pool's connection")
		}
		res, err := db.ExecStmt(ctx, nil, delRates, "T1")
		if err != nil {
			t.Fatal(err)
		}
		if k, _ := res.RowsAffected(); k != 1 {
			t.Errorf("deleted %d rows, want 1", k)
		}

		// A statement the server refuses runs as text and answers the
		// server's own error; it is not kept prepared.
		err = db.GetStmt(ctx, nil, &id, noTable, 1)
		if err == nil || !strings.Contains(err.Error(), "no_such_table") {
			t.Errorf("statement on a missing table: %v, want its error", err)
		}
		if db.IsPrepared(noTable) {
			t.Error("a statement on a missing table counts as prepared")
		}
	})
}

func TestStatementLazyAndInTxOnOneConnection(t *testing.T) {
	t.Parallel()
	storetest.Run(t, func(t *testing.T, db *store.DB) {
		ctx := timeout(t)
		db.SetMaxOpenConns(1)
		pg := db.Dialect == store.Postgres

		// Not prepared yet: inside a transaction it runs as text, since
		// preparing would need a second connection.
		db.Unprepare()
		err := db.InTx(ctx, func(tx *sqlx.Tx) error {
			var n int
			if err := db.GetStmt(ctx, tx, &n, countRates, "T2"); err != nil {
				return err
			}
			if pg && preparedOnConn(t, ctx, tx, countRates) {
				t.Error("a statement was prepared inside a transaction")
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		if db.IsPrepared(countRates) {
			t.Fatal("a transaction prepared the statement on the pool")
		}

		// Outside a transaction the first use prepares it.
		var n int
		if err := db.GetStmt(ctx, nil, &n, countRates, "T2"); err != nil {
			t.Fatal(err)
		}
		if got := db.IsPrepared(countRates); got != pg {
			t.Fatalf("after a use on the pool, prepared = %v, want %v", got, pg)
		}

		// Prepared, it runs on the transaction's own connection.
		err = db.InTx(ctx, func(tx *sqlx.Tx) error {
			var id int64
			if err := db.QueryRowStmt(ctx, tx, addRate, "T2", "EUR", "0.13", time.Now().UTC()).Scan(&id); err != nil {
				return fmt.Errorf("insert: %w", err)
			}
			if err := db.GetStmt(ctx, tx, &n, countRates, "T2"); err != nil {
				return fmt.Errorf("count: %w", err)
			}
			if pg && !preparedOnConn(t, ctx, tx, countRates) {
				t.Error("the statement did not run prepared in the transaction")
			}
			_, err := db.ExecStmt(ctx, tx, delRates, "T2")
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
		if n != 1 {
			t.Errorf("count in the transaction = %d, want 1", n)
		}
		if err := db.GetStmt(ctx, nil, &n, countRates, "T2"); err != nil || n != 0 {
			t.Errorf("count after the delete = %d, %v; want 0", n, err)
		}
	})
}

func TestStatementConcurrentTransactions(t *testing.T) {
	t.Parallel()
	storetest.Run(t, func(t *testing.T, db *store.DB) {
		ctx := timeout(t)
		db.SetMaxOpenConns(3)
		// Prepared by whichever goroutine first runs a statement outside a
		// transaction, while the others hold the pool's connections.
		db.Unprepare()
		const workers = 50
		var wg sync.WaitGroup
		errs := make(chan error, workers)
		for i := range workers {
			wg.Add(1)
			go func() {
				defer wg.Done()
				base := fmt.Sprintf("C%d", i)
				err := db.InTx(ctx, func(tx *sqlx.Tx) error {
					var id int64
					if err := db.QueryRowStmt(ctx, tx, addRate, base, "USD", "0.14", time.Now().UTC()).Scan(&id); err != nil {
						return fmt.Errorf("insert: %w", err)
					}
					var n int
					if err := db.GetStmt(ctx, tx, &n, countRates, base); err != nil {
						return fmt.Errorf("count: %w", err)
					}
					if n != 1 {
						return fmt.Errorf("count %d, want 1", n)
					}
					return nil
				})
				if err == nil {
					var n int
					if err = db.GetStmt(ctx, nil, &n, countRates, base); err == nil && n != 1 {
						err = fmt.Errorf("count after commit %d, want 1", n)
					}
				}
				if err != nil {
					errs <- fmt.Errorf("worker %d: %w", i, err)
				}
			}()
		}
		wg.Wait()
		close(errs)
		for err := range errs {
			t.Error(err)
		}
		if got, want := db.IsPrepared(countRates), db.Dialect == store.Postgres; got != want {
			t.Errorf("prepared = %v, want %v", got, want)
		}
	})
}

// TestPrepareStatementsWithoutMigrate: a process that leaves migrating to
// another (--no-migrate) prepares the statements itself, statements only
// ever run in a transaction included.
func TestPrepareStatementsWithoutMigrate(t *testing.T) {
	t.Parallel()
	for _, d := range storetest.Engines {
		t.Run(string(d), func(t *testing.T) {
			ctx := timeout(t)
			dsn := storetest.DSN(t, d)
			migrated, err := store.Open(ctx, dsn)
			if err != nil {
				t.Fatal(err)
			}
			defer migrated.Close()
			if err := migrated.Migrate(ctx); err != nil {
				t.Fatal(err)
			}
			db, err := store.Open(ctx, dsn)
			if err != nil {
				t.Fatal(err)
			}
			defer db.Close()
			if db.IsPrepared(addRate) {
				t.Fatal("prepared before being asked to")
			}
			db.PrepareStatements(ctx)
			pg := d == store.Postgres
			if got := db.IsPrepared(addRate); got != pg {
				t.Errorf("prepared = %v, want %v", got, pg)
			}
			if db.IsPrepared(noTable) {
				t.Error("a statement on a missing table counts as prepared")
			}
		})
	}
}

// TestStatementsAfterMigrateDown: a rollback forgets the prepared statements
// (they may read what it removed) and migrating again prepares them.
func TestStatementsAfterMigrateDown(t *testing.T) {
	t.Parallel()
	storetest.Run(t, func(t *testing.T, db *store.DB) {
		ctx := timeout(t)
		if err := db.MigrateDown(ctx); err != nil {
			t.Fatal(err)
		}
		if db.IsPrepared(countRates) {
			t.Error("still prepared after a rollback")
		}
		if err := db.Migrate(ctx); err != nil {
			t.Fatal(err)
		}
		if got, want := db.IsPrepared(countRates), db.Dialect == store.Postgres; got != want {
			t.Errorf("after migrating again, prepared = %v, want %v", got, want)
		}
		var n int
		if err := db.GetStmt(ctx, nil, &n, countRates, "none"); err != nil || n != 0 {
			t.Errorf("count = %d, %v; want 0", n, err)
		}
	})
}
