package tui

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/voyage/voyage/pkg/admin"
	"github.com/voyage/voyage/pkg/agency"
	"github.com/voyage/voyage/pkg/flight"
)

// empty is a backend with nothing in it, or one that fails every list with
// err. Only what the console calls before a key press is there: anything
// else would panic on the nil Backend.
type empty struct {
	admin.Backend
	err error
}

func (e empty) Agencies(context.Context, agency.ListFilter) (admin.AgencyPage, error) {
	return admin.AgencyPage{Items: []agency.Summary{}, Page: 1, PageSize: 20}, e.err
}

func (e empty) Orders(context.Context, flight.Filter) (flight.Page, error) {
	return flight.Page{Items: []flight.View{}, Page: 1, PageSize: 20}, e.err
}

func (empty) Actor() string { return "remote:test" }

func TestRunQuits(t *testing.T) {
	var out bytes.Buffer
	done := make(chan error, 1)
	go func() { done <- Run(context.Background(), empty{}, Options{}, strings.NewReader("q"), &out) }()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("Run: %v", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("q did not quit")
	}
	if !strings.Contains(out.String(), "Voyage admin") {
		t.Errorf("nothing was drawn: %q", out.String())
	}
	// Not a terminal: no alternate screen.
	if strings.Contains(out.String(), "\x1b[?1049h") {
		t.Errorf("the alternate screen was taken on a non-terminal")
	}
}

func TestRunEndsWithContext(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	in, w := io.Pipe() // input that never ends
	defer w.Close()
	done := make(chan error, 1)
	// The context ends once the console has drawn, so it ends a running
	// program rather than one still starting.
	out := &firstWrite{done: make(chan struct{})}
	go func() { done <- Run(ctx, empty{}, Options{Refresh: 10 * time.Millisecond}, in, out) }()
	select {
	case <-out.done:
	case <-time.After(10 * time.Second):
		t.Fatal("Run drew nothing")
	}
	cancel()
	select {
	case err := <-done:
		if !errors.Is(err, context.Canceled) {
			t.Fatalf("Run after cancel = %v, want context.Canceled", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("Run did not end with its context")
	}
}

// firstWrite discards what is written and closes done at the first write.
type firstWrite struct {
	once sync.Once
	done chan struct{}
}

func (w *firstWrite) Write(p []byte) (int, error) {
	w.once.Do(func() { close(w.done) })
	return len(p), nil
}

// remoteError stands for the remote backend's error: an API answer already
// in words.
type remoteError struct{ msg string }

func (e *remoteError) Error() string { return e.msg }

// A remote backend's errors are shown as they say themselves, on the screen
// and in the status line.
func TestRemoteErrorShown(t *testing.T) {
	err := fmt.Errorf("list agencies: %w", &remoteError{"Invalid API key [code 200006]"})
	c := start(t, empty{err: err}, Options{})
	s := c.waitText("Could not load the agencies: list agencies: Invalid API key [code 200006]")
	assertFits(t, s, 80, 24)
	lines := strings.Split(s, "\n")
	if status := lines[len(lines)-2]; !strings.Contains(status, "error: ") || !strings.Contains(status, "Invalid API key") {
		t.Errorf("the status line does not tell the error: %q", status)
	}
	c.press("2")
	c.waitText("Could not load the queue: list agencies: Invalid API key [code 200006]")
}
