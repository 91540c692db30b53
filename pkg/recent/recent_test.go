package recent

import (
	"sync"
	"testing"
)

func TestMap(t *testing.T) {
	m := New[int, string](8)
	for i := range 8 {
		m.Put(i, "v")
	}
	if m.Len() != 8 {
		t.Fatalf("%d kept, want 8", m.Len())
	}
	m.Put(3, "again") // a key kept already takes no room
	if v, ok := m.Get(3); m.Len() != 8 || !ok || v != "again" {
		t.Fatalf("replacing a kept key: %d kept, %q %v", m.Len(), v, ok)
	}
	m.Put(100, "new") // full: a quarter goes, then the new one comes in
	if v, ok := m.Get(100); m.Len() != 7 || !ok || v != "new" {
		t.Fatalf("past the bound: %d kept, %q %v; want 7 with the new one", m.Len(), v, ok)
	}
	if v, ok := m.Take(100); !ok || v != "new" {
		t.Fatalf("take: %q %v", v, ok)
	}
	if _, ok := m.Get(100); ok {
		t.Fatal("a value taken is still kept")
	}
	m.Delete(3)
	if _, ok := m.Take(3); ok {
		t.Fatal("a value deleted is still kept")
	}

	m.Put(1, "one")
	m.Put(2, "two")
	m.DeleteFunc(func(k int, _ string) bool { return k == 1 })
	if _, ok := m.Get(1); ok {
		t.Fatal("DeleteFunc kept what it was to let go")
	}
	if v, ok := m.Get(2); !ok || v != "two" {
		t.Fatalf("DeleteFunc let go of %q %v too", v, ok)
	}

	// Concurrent use stays within the bound.
	c := New[int, int](64)
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Go(func() {
			for i := range 1000 {
				c.Put(g*1000+i, i)
				c.Take(g*1000 + i/2)
			}
		})
	}
	wg.Wait()
	if c.Len() > 64 {
		t.Fatalf("%d kept, bound 64", c.Len())
	}
}
