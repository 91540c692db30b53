package store

import "github.com/jmoiron/sqlx"

// IsPrepared reports whether s is prepared on db, for tests.
func (db *DB) IsPrepared(s *Statement) bool {
	v, ok := db.stmts.Load(s)
	return ok && v.(*sqlx.Stmt) != nil
}

// PostgresSQL is s as PostgreSQL takes it.
func (s *Statement) PostgresSQL() string { return s.dollar }

// Unprepare forgets db's prepared statements, so that a test sees them
// prepared again.
func (db *DB) Unprepare() { db.unprepare() }

// SetStatementCacheSize sets how many statements a connection opened from
// now on keeps, until the test ends.
func SetStatementCacheSize(t interface{ Cleanup(func()) }, n int) {
	old := statementCacheSize
	statementCacheSize = n
	t.Cleanup(func() { statementCacheSize = old })
}

// StatementCacheSetting exposes the URL parameter's reading.
var StatementCacheSetting = statementCacheSetting
