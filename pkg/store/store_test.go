package store_test

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/jmoiron/sqlx"

	"github.com/voyage/voyage/pkg/store"
	"github.com/voyage/voyage/pkg/store/storetest"
)

func TestParseDSN(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in      string
		dialect store.Dialect
		conn    string
		wantErr bool
	}{
		{in: "./var/voyage.db", dialect: store.SQLite, conn: "./var/voyage.db"},
		{in: "sqlite:/tmp/x.db", dialect: store.SQLite, conn: "/tmp/x.db"},
		{in: "sqlite:///tmp/x.db", dialect: store.SQLite, conn: "/tmp/x.db"},
		{in: "postgres://u@h/db", dialect: store.Postgres, conn: "postgres://u@h/db"},
		{in: "postgresql://u@h/db", dialect: store.Postgres, conn: "postgresql://u@h/db"},
		{in: "mysql://u@h/db", wantErr: true},
		{in: "", wantErr: true},
	}
	for _, tt := range tests {
		d, c, err := store.ParseDSN(tt.in)
		if (err != nil) != tt.wantErr {
			t.Errorf("ParseDSN(%q) err = %v, want error %v", tt.in, err, tt.wantErr)
			continue
		}
		if d != tt.dialect || c != tt.conn {
			t.Errorf("ParseDSN(%q) = %q, %q; want %q, %q", tt.in, d, c, tt.dialect, tt.conn)
		}
	}
}

func TestMigrateAndTx(t *testing.T) {
	t.Parallel()
	storetest.Run(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		ok, err := db.MigrationsCurrent(ctx)
		if err != nil || !ok {
			t.Fatalf("MigrationsCurrent = %v, %v; want true", ok, err)
		}
		var buf bytes.Buffer
		if err := db.MigrationStatus(ctx, &buf); err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(buf.String(), "00001_foundation.sql") || !strings.Contains(buf.String(), "applied") {
			t.Errorf("status does not list the applied foundation migration:\n%s", buf.String())
		}

		// PostgreSQL keeps microseconds, so compare at that precision.
		now := time.Now().UTC().Truncate(time.Microsecond)
		insert := func(tx *sqlx.Tx, cur string) error {
			_, err := tx.ExecContext(ctx, tx.Rebind(`INSERT INTO exchange_rates (base, currency, rate, created_at) VALUES (?, ?, ?, ?)`), "CNY", cur, "0.14", now)
			return err
		}
		boom := errors.New("boom")
		err = db.InTx(ctx, func(tx *sqlx.Tx) error {
			if err := insert(tx, "USD"); err != nil {
				return err
			}
			return boom
		})
		if !errors.Is(err, boom) {
			t.Fatalf("InTx error = %v, want boom", err)
		}
		var n int
		if err := db.GetContext(ctx, &n, `SELECT COUNT(*) FROM exchange_rates`); err != nil {
			t.Fatal(err)
		}
		if n != 0 {
			t.Fatalf("rolled-back transaction left %d rows", n)
		}
		if err := db.InTx(ctx, func(tx *sqlx.Tx) error { return insert(tx, "EUR") }); err != nil {
			t.Fatal(err)
		}
		var got struct {
			Currency  string    `db:"currency"`
			CreatedAt time.Time `db:"created_at"`
		}
		if err := db.GetContext(ctx, &got, `SELECT currency, created_at FROM exchange_rates`); err != nil {
			t.Fatal(err)
		}
		if got.Currency != "EUR" || !got.CreatedAt.Equal(now) {
			t.Errorf("read back %+v, want EUR at %v", got, now)
		}

		if err := db.MigrateDown(ctx); err != nil {
			t.Fatal(err)
		}
		if ok, _ := db.MigrationsCurrent(ctx); ok {
			t.Error("after migrate down, migrations still reported current")
		}
		if have, want, err := db.MigrationVersions(ctx); err != nil || have != want-1 || want < 2 {
			t.Errorf("after migrate down, versions = %d of %d (%v); want one behind", have, want, err)
		}
		if err := db.Migrate(ctx); err != nil {
			t.Fatal(err)
		}
		if ok, _ := db.MigrationsCurrent(ctx); !ok {
			t.Error("after migrate up again, migrations not current")
		}
		if have, want, err := db.MigrationVersions(ctx); err != nil || have != want {
			t.Errorf("after migrate up again, versions = %d of %d (%v)", have, want, err)
		}
	})
}

func TestUniqueViolation(t *testing.T) {
	t.Parallel()
	storetest.Run(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		now := time.Now().UTC()
		q := db.Rebind(`INSERT INTO sessions (token_hash, user_id, created_at, last_seen_at, idle_expires_at, expires_at) VALUES (?, 1, ?, ?, ?, ?)`)
		if _, err := db.ExecContext(ctx, q, "h1", now, now, now, now); err != nil {
			t.Fatal(err)
		}
		_, err := db.ExecContext(ctx, q, "h1", now, now, now, now)
		if !store.IsUniqueViolation(err) {
			t.Fatalf("duplicate insert error = %v, want a unique violation", err)
		}
		if store.IsUniqueViolation(errors.New("other")) {
			t.Error("an unrelated error counted as a unique violation")
		}
	})
}

func TestMarks(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		n    int
		want string
	}{{0, ""}, {1, "?"}, {3, "?, ?, ?"}} {
		if got := store.Marks(tt.n); got != tt.want {
			t.Errorf("Marks(%d) = %q, want %q", tt.n, got, tt.want)
		}
	}
}

// TestMigrateFromEmpty: every other test copies a migrated template, so the
// path a new installation takes (every migration from nothing, Voyage's then
// River's) is tested here on each engine.
func TestMigrateFromEmpty(t *testing.T) {
	t.Parallel()
	for _, d := range storetest.Engines {
		t.Run(string(d), func(t *testing.T) {
			ctx := context.Background()
			db, err := store.Open(ctx, storetest.EmptyDSN(t, d))
			if err != nil {
				t.Fatal(err)
			}
			defer db.Close()
			if ok, err := db.MigrationsCurrent(ctx); err != nil || ok {
				t.Fatalf("an empty database reported current (%v, %v)", ok, err)
			}
			if err := db.Migrate(ctx); err != nil {
				t.Fatal(err)
			}
			if ok, err := db.MigrationsCurrent(ctx); err != nil || !ok {
				t.Fatalf("after migrating from nothing, current = %v, %v", ok, err)
			}
			var jobs int
			if err := db.GetContext(ctx, &jobs, `SELECT COUNT(*) FROM river_job`); err != nil {
				t.Fatalf("River's tables are missing: %v", err)
			}
		})
	}
}
