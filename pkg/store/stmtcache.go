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
	return &cachingConnector{base: base, size: statementCacheSize, gen: gen}, nil
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

// cachingConnector opens lib/pq connections that keep their statements.
type cachingConnector struct {
	base driver.Connector
	size int
	// gen is bumped when the schema changes: connections built on an older
	// generation drop their statements.
	gen *atomic.Int64
}

func (c *cachingConnector) Connect(ctx context.Context) (driver.Conn, error) {
	conn, err := c.base.Connect(ctx)
	if err != nil {
		return nil, err
	}
	pc, ok := conn.(pqConn)
	if !ok {
		// Not lib/pq's connection as this file knows it: no cache.
		return conn, nil
	}
	return &cachingConn{pqConn: pc, size: c.size, gen: c.gen, builtAt: c.gen.Load(),
		byQuery: map[string]*list.Element{}, lru: list.New(), seen: map[string]struct{}{}}, nil
}

func (c *cachingConnector) Driver() driver.Driver { return c.base.Driver() }

// pqConn is every interface lib/pq's connection implements and database/sql
// asks for: the wrapper must offer each of them, or database/sql would
// quietly do without (no context on BEGIN, no check of a broken connection).
type pqConn interface {
	driver.Conn
	driver.ConnPrepareContext
	driver.ConnBeginTx
	driver.QueryerContext
	driver.ExecerContext
	driver.Pinger
	driver.SessionResetter
	driver.Validator
	driver.NamedValueChecker
}

type cachedStmt struct {
	query string
	st    driver.Stmt
}

// cachingConn is one connection with its statements. database/sql hands a
// connection to one goroutine at a time, so it needs no lock.
type cachingConn struct {
	pqConn
	size    int
	gen     *atomic.Int64
	builtAt int64
	byQuery map[string]*list.Element // of *cachedStmt, in lru
	lru     *list.List               // most recently used first
	seen    map[string]struct{}
	// inTx: a statement failing inside a transaction has aborted it, so
	// one found stale is not run again there.
	inTx bool
}

// stmt is query's prepared statement on this connection, or nil when it
// runs as an unnamed statement (seen for the first time). Only queries with
// parameters come here, so never a COPY, which lib/pq prepares as a kind of
// its own.
func (c *cachingConn) stmt(ctx context.Context, query string) (driver.Stmt, error) {
	if g := c.gen.Load(); g != c.builtAt {
		c.drop()
		c.builtAt = g
	}
	if e, ok := c.byQuery[query]; ok {
		c.lru.MoveToFront(e)
		return e.Value.(*cachedStmt).st, nil
	}
	if _, ok := c.seen[query]; !ok {
		if len(c.seen) >= seenMax {
			clear(c.seen)
		}
		c.seen[query] = struct{}{}
		return nil, nil
	}
	// The error of a failed prepare is the SQL's own (a missing table, a
	// syntax error): answered as is, since inside a transaction the failure
	// has aborted it and running the text now would only say so.
	st, err := c.pqConn.PrepareContext(ctx, query)
	if err != nil {
		return nil, err
	}
	delete(c.seen, query)
	c.byQuery[query] = c.lru.PushFront(&cachedStmt{query: query, st: st})
	for c.lru.Len() > c.size {
		c.evict(c.lru.Back())
	}
	return st, nil
}

// evict closes e's statement on the server and forgets it. A close that
// fails leaves the statement on the server until the connection ends.
func (c *cachingConn) evict(e *list.Element) {
	cs := e.Value.(*cachedStmt)
	c.lru.Remove(e)
	delete(c.byQuery, cs.query)
	_ = cs.st.Close()
}

// drop closes every kept statement.
func (c *cachingConn) drop() {
	for c.lru.Len() > 0 {
		c.evict(c.lru.Back())
	}
	clear(c.seen)
}

// stale tells whether err says query's prepared statement no longer fits
// the schema ("cached plan must not change result type"); if so it is
// dropped, and the next run prepares it afresh. Outside a transaction that
// next run is the caller's own call, made again at once.
func (c *cachingConn) stale(query string, err error) (retry bool) {
	var pe *pq.Error
	if !errors.As(err, &pe) || pe.Code != "0A000" || !strings.Contains(pe.Message, "cached plan") {
		return false
	}
	if e, ok := c.byQuery[query]; ok {
		c.evict(e)
	}
	return !c.inTx
}

func (c *cachingConn) QueryContext(ctx context.Context, query string, args []driver.NamedValue) (driver.Rows, error) {
	return viaCache(ctx, c, query, args, c.pqConn.QueryContext, driver.StmtQueryContext.QueryContext)
}

func (c *cachingConn) ExecContext(ctx context.Context, query string, args []driver.NamedValue) (driver.Result, error) {
	return viaCache(ctx, c, query, args, c.pqConn.ExecContext, driver.StmtExecContext.ExecContext)
}

// viaCache runs query on its cached statement when that statement is an S,
// and as text when it has no arguments, cannot be cached, or its cached plan
// went stale (outside a transaction, where running it again is safe).
func viaCache[S, R any](ctx context.Context, c *cachingConn, query string, args []driver.NamedValue,
	asText func(context.Context, string, []driver.NamedValue) (R, error),
	run func(S, context.Context, []driver.NamedValue) (R, error),
) (R, error) {
	if len(args) == 0 {
		return asText(ctx, query, args)
	}
	st, err := c.stmt(ctx, query)
	if err != nil {
		var zero R
		return zero, err
	}
	if st == nil {
		return asText(ctx, query, args)
	}
	s, ok := st.(S)
	if !ok {
		return asText(ctx, query, args)
	}
	r, err := run(s, ctx, args)
	if err != nil && c.stale(query, err) {
		return asText(ctx, query, args)
	}
	return r, err
}

// The rest only passes through: without these methods on the wrapper,
// database/sql would not know the connection has them.

func (c *cachingConn) PrepareContext(ctx context.Context, query string) (driver.Stmt, error) {
	return c.pqConn.PrepareContext(ctx, query)
}

func (c *cachingConn) BeginTx(ctx context.Context, opts driver.TxOptions) (driver.Tx, error) {
	tx, err := c.pqConn.BeginTx(ctx, opts)
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

func (c *cachingConn) Ping(ctx context.Context) error { return c.pqConn.Ping(ctx) }

func (c *cachingConn) ResetSession(ctx context.Context) error { return c.pqConn.ResetSession(ctx) }

func (c *cachingConn) IsValid() bool { return c.pqConn.IsValid() }

func (c *cachingConn) CheckNamedValue(nv *driver.NamedValue) error {
	return c.pqConn.CheckNamedValue(nv)
}
