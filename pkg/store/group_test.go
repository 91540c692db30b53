package store

import (
	"context"
	"errors"
	"slices"
	"sync"
	"testing"
	"time"
)

// Rows written while a statement runs share the next ones, up to max; when
// a group's statement fails, each of its rows is written alone, so that only
// the bad row fails; and a queued row is the group's until written, even
// when its caller's context ends.
func TestGrouper(t *testing.T) {
	t.Parallel()
	errBad := errors.New("bad row")
	const bad, impatient, rows = 13, 7, 25
	var mu sync.Mutex
	var statements [][]int
	held, release := make(chan struct{}), make(chan struct{})
	one := func(_ context.Context, r int) error {
		if r == 0 {
			close(held)
			<-release
		}
		if r == bad {
			return errBad
		}
		mu.Lock()
		defer mu.Unlock()
		statements = append(statements, []int{r})
		return nil
	}
	many := func(_ context.Context, rs []int) error {
		if slices.Contains(rs, bad) {
			return errBad
		}
		mu.Lock()
		defer mu.Unlock()
		statements = append(statements, slices.Clone(rs))
		return nil
	}
	g := Group("t", 8, time.Second, one, many)
	defer g.Stop()
	results := make([]error, rows)
	var wg sync.WaitGroup
	wg.Go(func() { results[0] = g.Write(context.Background(), 0) })
	<-held // the first row, alone, is being written
	ctx, cancel := context.WithCancel(context.Background())
	for r := 1; r < rows; r++ {
		wg.Go(func() {
			c := context.Background()
			if r == impatient {
				c = ctx
			}
			results[r] = g.Write(c, r)
		})
	}
	// The writers queue their rows on their own goroutines, and the queue's
	// length is the only sign they have: the test waits for the scheduler
	// to run them, not for time to pass, so no clock could replace this.
	for len(g.g.reqs) < rows-1 {
		time.Sleep(time.Millisecond)
	}
	cancel()
	close(release)
	wg.Wait()

	for r, err := range results {
		switch {
		case r == bad && !errors.Is(err, errBad):
			t.Errorf("row %d: %v, want the bad row's error", r, err)
		case r != bad && err != nil:
			t.Errorf("row %d: %v, want written", r, err)
		}
	}
	written := map[int]int{}
	grouped := 0
	for _, s := range statements {
		if len(s) > 8 {
			t.Errorf("a statement of %d rows, max 8", len(s))
		}
		if len(s) > 1 {
			grouped++
		}
		for _, r := range s {
			written[r]++
		}
	}
	for r := range rows {
		want := 1
		if r == bad {
			want = 0
		}
		if written[r] != want {
			t.Errorf("row %d written %d times, want %d", r, written[r], want)
		}
	}
	if grouped < 2 {
		t.Errorf("statements %v: the queued rows were not grouped", statements)
	}
}

// After Stop, a row is written alone, at once.
func TestGrouperStopped(t *testing.T) {
	t.Parallel()
	var got []int
	g := Group("t", 8, time.Second, func(_ context.Context, r int) error {
		got = append(got, r)
		return nil
	}, func(context.Context, []int) error { return errors.New("no group after Stop") })
	g.Stop()
	if err := g.Write(context.Background(), 3); err != nil || !slices.Equal(got, []int{3}) {
		t.Fatalf("write after stop: %v, rows written %v", err, got)
	}
}
