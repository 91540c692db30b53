package store

import (
	"context"
	"fmt"

	"github.com/jmoiron/sqlx"
)

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

// KeptStatements lists the statements db's connection keeps (db has one
// connection: SQLite's), most recently used first.
func (db *DB) KeptStatements(ctx context.Context) ([]string, error) {
	conn, err := db.DB.Conn(ctx)
	if err != nil {
		return nil, err
	}
	defer conn.Close()
	var out []string
	err = conn.Raw(func(dc any) error {
		cc, ok := dc.(*cachingConn)
		if !ok {
			return fmt.Errorf("the connection is a %T, not the cache's", dc)
		}
		for e := cc.lru.Front(); e != nil; e = e.Next() {
			out = append(out, e.Value.(*cachedStmt).query)
		}
		return nil
	})
	return out, err
}
