package store

import (
	"context"
	"database/sql"
	"errors"
	"sync"

	"github.com/jmoiron/sqlx"
	"github.com/lib/pq"
)

// Prepared statements (PostgreSQL). lib/pq runs a query with arguments as an
// unnamed statement, so the server parses and plans it on every call; for the
// short statements of the booking path that costs more server time than
// executing them. A Statement is SQL declared once, at package level, that a
// PostgreSQL DB prepares once and then only binds and executes.
//
// A statement is never prepared from inside a transaction: that would take a
// second connection from the pool while the transaction holds one, and with
// every connection held by such a transaction nobody gets one again. So a DB
// prepares every declared statement when it is migrated (after the
// migrations: a statement cannot be prepared before its table exists) or
// told to with PrepareStatements, else lazily on the first use outside a
// transaction. Inside a transaction the prepared statement is bound to the
// transaction's own connection (database/sql prepares it there the first
// time and reuses it after); one not prepared yet runs as plain text. SQLite,
// on its single connection, always runs the plain text.
//
// After a few runs PostgreSQL keeps one plan for a prepared statement, made
// without the parameters' values. A statement that needs a value to pick its
// index (a partial index) must state the index's predicate itself.

// Statement is SQL run often enough to be worth preparing on PostgreSQL.
// Declare it once, as a package-level variable, with NewStatement; run it
// with DB.GetStmt, DB.ExecStmt or DB.QueryRowStmt.
type Statement struct {
	query  string // as written, with ? for each parameter (or $n if it only runs on PostgreSQL)
	dollar string // query with $1, $2… for the parameters, as PostgreSQL takes it
}

// declared lists every Statement, for DB.PrepareStatements.
var declared struct {
	sync.Mutex
	list []*Statement
}

// NewStatement declares query, written with ? for each parameter (PostgreSQL
// gets $1, $2…) or, if it only ever runs on PostgreSQL, with $n already.
func NewStatement(query string) *Statement {
	s := &Statement{query: query, dollar: sqlx.Rebind(sqlx.DOLLAR, query)}
	declared.Lock()
	declared.list = append(declared.list, s)
	declared.Unlock()
	return s
}

// runner is what runs a Statement: a prepared *sqlx.Stmt or its plain text.
type runner interface {
	GetContext(ctx context.Context, dest any, args ...any) error
	ExecContext(ctx context.Context, args ...any) (sql.Result, error)
	QueryRowxContext(ctx context.Context, args ...any) *sqlx.Row
}

// plain runs a Statement's text on the pool or in a transaction.
type plain struct {
	q     sqlx.ExtContext
	query string
}

func (p plain) GetContext(ctx context.Context, dest any, args ...any) error {
	return sqlx.GetContext(ctx, p.q, dest, p.query, args...)
}

func (p plain) ExecContext(ctx context.Context, args ...any) (sql.Result, error) {
	return p.q.ExecContext(ctx, p.query, args...)
}

func (p plain) QueryRowxContext(ctx context.Context, args ...any) *sqlx.Row {
	return p.q.QueryRowxContext(ctx, p.query, args...)
}

// GetStmt runs s like sqlx's GetContext: in tx, or on the pool when tx is nil.
func (db *DB) GetStmt(ctx context.Context, tx *sqlx.Tx, dest any, s *Statement, args ...any) error {
	return db.runner(ctx, tx, s).GetContext(ctx, dest, args...)
}

// ExecStmt runs s like ExecContext: in tx, or on the pool when tx is nil.
func (db *DB) ExecStmt(ctx context.Context, tx *sqlx.Tx, s *Statement, args ...any) (sql.Result, error) {
	return db.runner(ctx, tx, s).ExecContext(ctx, args...)
}

// QueryRowStmt runs s like sqlx's QueryRowxContext: in tx, or on the pool
// when tx is nil.
func (db *DB) QueryRowStmt(ctx context.Context, tx *sqlx.Tx, s *Statement, args ...any) *sqlx.Row {
	return db.runner(ctx, tx, s).QueryRowxContext(ctx, args...)
}

// runner decides how s runs: prepared when db has it prepared, else as text.
func (db *DB) runner(ctx context.Context, tx *sqlx.Tx, s *Statement) runner {
	if st := db.preparedStmt(ctx, tx, s); st != nil {
		if tx != nil {
			// Bound to tx's connection: prepared there on first use, by
			// that connection, with no second one taken from the pool.
			return tx.StmtxContext(ctx, st)
		}
		return st
	}
	query := s.query // SQLite takes ? as written
	if db.Dialect == Postgres {
		query = s.dollar
	}
	if tx != nil {
		return plain{q: tx, query: query}
	}
	return plain{q: db.DB, query: query}
}

// preparedStmt is s prepared on db, or nil when it runs as text: always on
// SQLite; inside a transaction until a use outside one (or a migration) has
// prepared it; when the server refused to prepare it.
func (db *DB) preparedStmt(ctx context.Context, tx *sqlx.Tx, s *Statement) *sqlx.Stmt {
	if db.Dialect != Postgres {
		return nil
	}
	if v, ok := db.stmts.Load(s); ok {
		return v.(*sqlx.Stmt)
	}
	if tx != nil {
		return nil
	}
	return db.prepare(ctx, s)
}

// prepare prepares s on a pool connection and keeps it. A refusal by the
// server for the SQL itself (class 42: a table or column that does not exist
// yet, the database not migrated) is kept too, as a nil statement, so that
// every call does not ask again: the text runs until the next migration
// tries again. Any other failure (a connection lost, ctx ended) is not kept,
// and the next use tries again.
func (db *DB) prepare(ctx context.Context, s *Statement) *sqlx.Stmt {
	st, err := db.PreparexContext(ctx, s.dollar)
	if err != nil {
		if pe := (*pq.Error)(nil); errors.As(err, &pe) && pe.Code.Class() == "42" {
			db.stmts.LoadOrStore(s, (*sqlx.Stmt)(nil))
		}
		return nil
	}
	if v, loaded := db.stmts.LoadOrStore(s, st); loaded {
		// Another goroutine prepared it first (or the server refused it):
		// use what it kept.
		_ = st.Close()
		return v.(*sqlx.Stmt)
	}
	return st
}

// PrepareStatements prepares, on PostgreSQL, every declared statement not
// prepared yet, including those refused before the migrations made their
// tables. Migrate calls it; a process that does not migrate calls it once at
// start, or the statements only run in transactions are never prepared. A
// statement the server refuses runs as plain text: that is no error here.
func (db *DB) PrepareStatements(ctx context.Context) {
	if db.Dialect != Postgres {
		return
	}
	declared.Lock()
	list := append([]*Statement(nil), declared.list...)
	declared.Unlock()
	for _, s := range list {
		if v, ok := db.stmts.Load(s); ok {
			if v.(*sqlx.Stmt) != nil {
				continue
			}
			db.stmts.Delete(s)
		}
		db.prepare(ctx, s)
	}
}

// unprepare closes db's prepared statements, after a migration changed the
// schema they were planned against; they are prepared again on their next
// use outside a transaction or the next migration. Every connection's
// statement cache goes too.
func (db *DB) unprepare() {
	db.schemaGen.Add(1)
	db.stmts.Range(func(k, v any) bool {
		db.stmts.Delete(k)
		if st := v.(*sqlx.Stmt); st != nil {
			_ = st.Close()
		}
		return true
	})
}
