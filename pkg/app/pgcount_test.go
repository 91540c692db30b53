package app_test

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"io"
	"net"
	"net/url"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
)

// pgCounter is a TCP proxy in front of PostgreSQL that counts the
// statements clients run: each simple query ('Q') and each execution of a
// parsed or prepared statement ('E'). It reads the wire protocol, so it
// counts whatever code talks to the database (the services, River, the
// idempotency locks) without a change to any of it, the commit before a
// change as well as after.
type pgCounter struct {
	ln      net.Listener
	target  string
	n       atomic.Int64
	mu      sync.Mutex
	byQuery map[string]int64
	on      atomic.Bool
}

// countStatements points dsn at a counting proxy; the counter starts at
// zero and counts only between start and stop.
func countStatements(tb testing.TB, dsn string) (*pgCounter, string) {
	tb.Helper()
	u, err := url.Parse(dsn)
	if err != nil {
		tb.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		tb.Fatal(err)
	}
	c := &pgCounter{ln: ln, target: u.Host, byQuery: map[string]int64{}}
	tb.Cleanup(func() { ln.Close() })
	go c.serve()
	u.Host = ln.Addr().String()
	return c, u.String()
}

func (c *pgCounter) start() { c.n.Store(0); c.byQuery = map[string]int64{}; c.on.Store(true) }
func (c *pgCounter) stop() int64 {
	c.on.Store(false)
	return c.n.Load()
}

// top lists the statements run most, with their counts.
func (c *pgCounter) top(n int) []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	type kv struct {
		q string
		n int64
	}
	var all []kv
	for q, k := range c.byQuery {
		all = append(all, kv{q, k})
	}
	slices.SortFunc(all, func(a, b kv) int { return int(b.n - a.n) })
	var out []string
	for i := 0; i < len(all) && i < n; i++ {
		out = append(out, fmt.Sprintf("%8d  %s", all[i].n, all[i].q))
	}
	return out
}

func (c *pgCounter) serve() {
	for {
		conn, err := c.ln.Accept()
		if err != nil {
			return
		}
		go c.relay(conn)
	}
}

func (c *pgCounter) relay(client net.Conn) {
	defer client.Close()
	server, err := net.Dial("tcp", c.target)
	if err != nil {
		return
	}
	defer server.Close()
	go func() {
		_, _ = io.Copy(client, server)
		client.Close()
	}()
	// The startup message has no type byte.
	var head [5]byte
	if _, err := io.ReadFull(client, head[:4]); err != nil {
		return
	}
	n := int(binary.BigEndian.Uint32(head[:4]))
	body := make([]byte, n-4)
	if _, err := io.ReadFull(client, body); err != nil {
		return
	}
	if _, err := server.Write(append(head[:4:4], body...)); err != nil {
		return
	}
	named := map[string]string{} // prepared statement → its SQL
	var current string
	for {
		if _, err := io.ReadFull(client, head[:]); err != nil {
			return
		}
		n := int(binary.BigEndian.Uint32(head[1:]))
		body = make([]byte, n-4)
		if _, err := io.ReadFull(client, body); err != nil {
			return
		}
		switch head[0] {
		case 'Q':
			c.count(cstring(body))
		case 'P':
			name, rest, _ := bytes.Cut(body, []byte{0})
			q := cstring(rest)
			named[string(name)] = q
			current = q
		case 'B':
			_, rest, _ := bytes.Cut(body, []byte{0})
			current = named[cstring(rest)]
		case 'E':
			c.count(current)
		}
		if _, err := server.Write(append(head[:], body...)); err != nil {
			return
		}
	}
}

func (c *pgCounter) count(q string) {
	if !c.on.Load() {
		return
	}
	c.n.Add(1)
	q = strings.Join(strings.Fields(q), " ")
	if len(q) > 90 {
		q = q[:90]
	}
	c.mu.Lock()
	c.byQuery[q]++
	c.mu.Unlock()
}

func cstring(b []byte) string {
	s, _, _ := bytes.Cut(b, []byte{0})
	return string(s)
}
