package store

import (
	"container/list"
	"context"
	"database/sql/driver"
	"errors"
	"net/url"
	"strings"
	"sync/atomic"

	"github.com/lib/pq"
	"modernc.org/sqlite"
)

// The statement cache (PostgreSQL). lib/pq sends every query with arguments
// as an unnamed statement, which the server parses and plans on every call.
// Declared Statements (prepared.go) cover the booking path's own SQL, but not
// what runs beside it: River's job insert, fetch and notify, the simulated
// suppliers' records, the idempotency locks. River's insert alone was planned
// afresh on every payment, about 1 ms of server time each.
//
// So each connection keeps the statements it runs again: a query with
// arguments seen a second time on a connection is prepared there, and from
// then on only bound and executed, as pgx does by default. The second
// sighting, not the first, so that one-off SQL (a list filtered one way) does
// not pay a prepare round trip for nothing. The least recently used
// statement is closed when a connection holds statementCacheSize of them.
//
// A schema change can leave a prepared statement unusable ("cached plan must
// not change result type"): the migrations bump a generation that makes
// every connection drop its statements before its next query, and a
// statement that fails that way anyway is dropped so the next call prepares
// it again. A database behind a pooler that cannot keep prepared statements
// (PgBouncer in transaction mode before 1.21) turns the cache off with
// statement_cache=off in the URL.
//
// SQLite (modernc) has the same cost in-process: a query run as text is
// parsed and compiled by SQLite on every call (7% of pkg/app's test CPU,
// and every request of the embedded default paid it). Its one connection
// keeps its statements the same way, with three differences: a statement
// is kept the first time it runs (preparing is what running as text does
// anyway, so keeping it costs nothing more); SQLite prepares a statement
// again by itself when the schema changes, so none goes stale; and a kept
// statement is one SQLite cursor, so while a query's rows are open on it,
// the same query (in the same transaction) runs as text, and a kept
// statement is finalized only once its rows are closed, and before its
// connection is.

// statementCacheSize is how many statements one connection keeps prepared
// (a variable for the tests).
var statementCacheSize = 256

// seenMax bounds the queries a connection remembers having seen once.
const seenMax = 1024

// statementCacheParam is the URL parameter that turns the cache off.
const statementCacheParam = "statement_cache"

// openCached is the connector of conn (a lib/pq URL or key=value string) with the cache
// unless its statement_cache parameter says off; the parameter is taken
// out, since lib/pq would send it to the server as a setting.
func openCached(conn string, gen *atomic.Int64) (driver.Connector, error) {
	conn, on := statementCacheSetting(conn)
	base, err := pq.NewConnector(conn)
	if err != nil {
		return nil, err
	}
	if !on {
		return base, nil
	}
	return &cachingConnector{base: base, size: statementCacheSize, gen: gen, stale: pqStale}, nil
}

// openSQLiteCached is the connector of a modernc SQLite DSN with the cache:
// statements kept from their first run, each one cursor (see above).
func openSQLiteCached(dsn string, gen *atomic.Int64) (driver.Connector, error) {
	base, err := sqlite.NewConnector(dsn)
	if err != nil {
		return nil, err
	}
	return &cachingConnector{base: base, size: statementCacheSize, gen: gen, firstRun: true, cursors: true}, nil
}

// statementCacheSetting takes statement_cache out of a URL's query and says
// whether it leaves the cache on (anything but off, false, 0 or no).
func statementCacheSetting(conn string) (string, bool) {
	u, err := url.Parse(conn)
	if err != nil || u.Scheme == "" {
		return conn, true
	}
	q := u.Query()
	v, ok := q[statementCacheParam]
	if !ok {
		return conn, true
	}
	q.Del(statementCacheParam)
	u.RawQuery = q.Encode()
	switch strings.ToLower(v[len(v)-1]) {
	case "off", "false", "0", "no":
		return u.String(), false
	}
	return u.String(), true
}

// cachingConnector opens connections that keep their statements.
type cachingConnector struct {
	base driver.Connector
	size int
	// gen is bumped when the schema changes: connections built on an older
	// generation drop their statements.
	gen *atomic.Int64
	// stale tells an error that says a kept statement no longer fits the
	// schema (nil: the driver prepares again by itself).
	stale func(error) bool
	// firstRun keeps a statement the first time it runs, not the second.
	firstRun bool
	// cursors: a kept statement holds its rows' cursor (SQLite) until they
	// are closed, so it is not run again meanwhile, and its connection
	// finalizes it before closing.
	cursors bool
}

func (c *cachingConnector) Connect(ctx context.Context) (driver.Conn, error) {
	conn, err := c.base.Connect(ctx)
	if err != nil {
		return nil, err
	}
	pc, ok := conn.(driverConn)
	if !ok {
		// Not a connection as this file knows it: no cache.
		return conn, nil
	}
	return &cachingConn{driverConn: pc, opts: c, builtAt: c.gen.Load(),
		byQuery: map[string]*list.Element{}, lru: list.New(), seen: map[string]struct{}{}}, nil
}

func (c *cachingConnector) Driver() driver.Driver { return c.base.Driver() }

// driverConn is every interface lib/pq's and modernc's connections
// implement and database/sql asks for: the wrapper must offer each of them,
// or database/sql would quietly do without (no context on BEGIN, no check
// of a broken connection). lib/pq's also checks its arguments
// (CheckNamedValue below).
type driverConn interface {
	driver.Conn
	driver.ConnPrepareContext
	driver.ConnBeginTx
	driver.QueryerContext
	driver.ExecerContext
	driver.Pinger
	driver.SessionResetter
	driver.Validator
}

type cachedStmt struct {
	query string
	st    driver.Stmt
	// open: rows read from this statement are not closed yet (cursors).
	open bool
	// evicted while open: finalized when its rows are closed.
	evicted bool
}

// cachingConn is one connection with its statements. database/sql hands a
// connection to one goroutine at a time (its rows' Close included), so it
// needs no lock.
type cachingConn struct {
	driverConn
	opts    *cachingConnector
	builtAt int64
	byQuery map[string]*list.Element // of *cachedStmt, in lru
	lru     *list.List               // most recently used first
	seen    map[string]struct{}
	// inTx: a statement failing inside a transaction has aborted it, so
	// one found stale is not run again there.
	inTx bool
}

// stmt is query's kept statement on this connection, or nil when it runs
// as text (seen for the first time, or its rows still open). Only queries
// with parameters come here, so never a COPY, which lib/pq prepares as a
// kind of its own.
func (c *cachingConn) stmt(ctx context.Context, query string) (*cachedStmt, error) {
	if g := c.opts.gen.Load(); g != c.builtAt {
		c.drop()
		c.builtAt = g
	}
	if e, ok := c.byQuery[query]; ok {
		c.lru.MoveToFront(e)
		cs := e.Value.(*cachedStmt)
		if cs.open {
			return nil, nil
		}
		return cs, nil
	}
	if !c.opts.firstRun {
		if _, ok := c.seen[query]; !ok {
			if len(c.seen) >= seenMax {
				clear(c.seen)
			}
			c.seen[query] = struct{}{}
			return nil, nil
		}
	}
	// The error of a failed prepare is the SQL's own (a missing table, a
	// syntax error): answered as is, since inside a PostgreSQL transaction
	// the failure has aborted it and running the text now would only say
	// so.
	st, err := c.driverConn.PrepareContext(ctx, query)
	if err != nil {
		return nil, err
	}
	delete(c.seen, query)
	cs := &cachedStmt{query: query, st: st}
	c.byQuery[query] = c.lru.PushFront(cs)
	for c.lru.Len() > c.opts.size {
		c.evict(c.lru.Back())
	}
	return cs, nil
}

// evict forgets e's statement and closes it, on the server for
// PostgreSQL (a close that fails leaves it there until the connection
// ends); a SQLite statement whose rows are open is finalized when they
// close.
func (c *cachingConn) evict(e *list.Element) {
	cs := e.Value.(*cachedStmt)
	c.lru.Remove(e)
	delete(c.byQuery, cs.query)
	if cs.open {
		cs.evicted = true
		return
	}
	_ = cs.st.Close()
}

// drop closes every kept statement.
func (c *cachingConn) drop() {
	for c.lru.Len() > 0 {
		c.evict(c.lru.Back())
	}
	clear(c.seen)
}

// pqStale tells whether err says a prepared statement no longer fits the
// schema ("cached plan must not change result type").
func pqStale(err error) bool {
	var pe *pq.Error
	return errors.As(err, &pe) && pe.Code == "0A000" && strings.Contains(pe.Message, "cached plan")
}

// stale tells whether err says query's kept statement no longer fits the
// schema; if so it is dropped, and the next run prepares it afresh.
// Outside a transaction that next run is the caller's own call, made again
// at once.
func (c *cachingConn) stale(query string, err error) (retry bool) {
	if c.opts.stale == nil || !c.opts.stale(err) {
		return false
	}
	if e, ok := c.byQuery[query]; ok {
		c.evict(e)
	}
	return !c.inTx
}

func (c *cachingConn) QueryContext(ctx context.Context, query string, args []driver.NamedValue) (driver.Rows, error) {
	return viaCache(ctx, c, query, args, c.driverConn.QueryContext, func(cs *cachedStmt, s driver.StmtQueryContext, ctx context.Context, args []driver.NamedValue) (driver.Rows, error) {
		rows, err := s.QueryContext(ctx, args)
		if err != nil || !c.opts.cursors {
			return rows, err
		}
		cs.open = true
		return heldRows(rows, cs), nil
	})
}

func (c *cachingConn) ExecContext(ctx context.Context, query string, args []driver.NamedValue) (driver.Result, error) {
	return viaCache(ctx, c, query, args, c.driverConn.ExecContext, func(_ *cachedStmt, s driver.StmtExecContext, ctx context.Context, args []driver.NamedValue) (driver.Result, error) {
		return s.ExecContext(ctx, args)
	})
}

// viaCache runs query on its kept statement when that statement is an S,
// and as text when it has no arguments, cannot be kept, or its cached plan
// went stale (outside a transaction, where running it again is safe).
func viaCache[S, R any](ctx context.Context, c *cachingConn, query string, args []driver.NamedValue,
	asText func(context.Context, string, []driver.NamedValue) (R, error),
	run func(*cachedStmt, S, context.Context, []driver.NamedValue) (R, error),
) (R, error) {
	if len(args) == 0 {
		return asText(ctx, query, args)
	}
	cs, err := c.stmt(ctx, query)
	if err != nil {
		var zero R
		return zero, err
	}
	if cs == nil {
		return asText(ctx, query, args)
	}
	s, ok := cs.st.(S)
	if !ok {
		return asText(ctx, query, args)
	}
	r, err := run(cs, s, ctx, args)
	if err != nil && c.stale(query, err) {
		return asText(ctx, query, args)
	}
	return r, err
}

// sqliteRows is every interface modernc's rows implement, which the
// wrapper passes on.
type sqliteRows interface {
	driver.Rows
	driver.RowsColumnTypeDatabaseTypeName
	driver.RowsColumnTypeLength
	driver.RowsColumnTypeNullable
	driver.RowsColumnTypePrecisionScale
	driver.RowsColumnTypeScanType
}

// heldRows are rows read from a kept statement's cursor: closing them
// frees the statement for its next run (or finalizes it, evicted
// meanwhile).
func heldRows(r driver.Rows, cs *cachedStmt) driver.Rows {
	if full, ok := r.(sqliteRows); ok {
		return &cursorRows{sqliteRows: full, cs: cs}
	}
	return &plainCursorRows{Rows: r, cs: cs}
}

type cursorRows struct {
	sqliteRows
	cs *cachedStmt
}

func (r *cursorRows) Close() error { return release(r.sqliteRows, r.cs) }

// plainCursorRows are rows of a driver with none of the column-type
// interfaces.
type plainCursorRows struct {
	driver.Rows
	cs *cachedStmt
}

func (r *plainCursorRows) Close() error { return release(r.Rows, r.cs) }

func release(r driver.Rows, cs *cachedStmt) error {
	err := r.Close()
	if cs.open {
		cs.open = false
		if cs.evicted {
			_ = cs.st.Close()
		}
	}
	return err
}

// The rest only passes through: without these methods on the wrapper,
// database/sql would not know the connection has them.

func (c *cachingConn) PrepareContext(ctx context.Context, query string) (driver.Stmt, error) {
	return c.driverConn.PrepareContext(ctx, query)
}

func (c *cachingConn) BeginTx(ctx context.Context, opts driver.TxOptions) (driver.Tx, error) {
	tx, err := c.driverConn.BeginTx(ctx, opts)
	if err != nil {
		return nil, err
	}
	c.inTx = true
	return txEnd{Tx: tx, c: c}, nil
}

// txEnd notes the end of the connection's transaction.
type txEnd struct {
	driver.Tx
	c *cachingConn
}

func (t txEnd) Commit() error {
	t.c.inTx = false
	return t.Tx.Commit()
}

func (t txEnd) Rollback() error {
	t.c.inTx = false
	return t.Tx.Rollback()
}

// Close finalizes a SQLite connection's statements first: SQLite keeps a
// connection with statements left open until they are. PostgreSQL drops a
// connection's statements itself.
func (c *cachingConn) Close() error {
	if c.opts.cursors {
		// database/sql closes a connection only once its rows are closed,
		// so every statement is finalized here.
		c.drop()
	}
	return c.driverConn.Close()
}

func (c *cachingConn) Ping(ctx context.Context) error { return c.driverConn.Ping(ctx) }

func (c *cachingConn) ResetSession(ctx context.Context) error {
	return c.driverConn.ResetSession(ctx)
}

func (c *cachingConn) IsValid() bool { return c.driverConn.IsValid() }

// CheckNamedValue is lib/pq's check of an argument; a driver without one
// (modernc) gets database/sql's default conversion, as it would unwrapped.
func (c *cachingConn) CheckNamedValue(nv *driver.NamedValue) error {
	if nvc, ok := c.driverConn.(driver.NamedValueChecker); ok {
		return nvc.CheckNamedValue(nv)
	}
	return driver.ErrSkip
}
