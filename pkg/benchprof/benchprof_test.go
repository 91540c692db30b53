package benchprof

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"
)

func TestProfilePath(t *testing.T) {
	for _, c := range []struct{ pattern, name, want string }{
		{"", "BenchmarkTransfers", ""},
		{"/tmp/cpu.prof", "BenchmarkTransfers/postgres", "/tmp/cpu.prof"},
		{"/tmp/%s.prof", "BenchmarkTransfers/postgres/writers=16/accounts=1000", "/tmp/BenchmarkTransfers_postgres_writers=16_accounts=1000.prof"},
		{"/tmp/%s.prof", "BenchmarkTransfers/postgres/writers=16/accounts=1000/group-commit",
			"/tmp/BenchmarkTransfers_postgres_writers=16_accounts=1000_group-commit.prof"},
	} {
		if got := profilePath(c.pattern, c.name); got != c.want {
			t.Errorf("profilePath(%q, %q) = %q, want %q", c.pattern, c.name, got, c.want)
		}
	}
}

func TestCPUSince(t *testing.T) {
	cpu0 := ReadCPU()
	spin0 := ProcessCPU()
	for ProcessCPU()-spin0 < 30*time.Millisecond {
	}
	used := cpu0.Since()
	if used.Process < 30*time.Millisecond || used.Process > ProcessCPU()-cpu0.Process {
		t.Errorf("Since().Process = %v after spinning 30 ms of CPU, want at least that and only what was used since", used.Process)
	}
	if used.Machine < 0 {
		t.Errorf("Since().Machine = %v, want no negative time", used.Machine)
	}
}

// Stopping writes the heap profile VOYAGE_BENCH_HEAPPROFILE names, with the
// benchmark's name in place of %s, and no CPU profile unless asked for.
func TestStartWritesHeapProfile(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("VOYAGE_BENCH_CPUPROFILE", "")
	t.Setenv("VOYAGE_BENCH_HEAPPROFILE", filepath.Join(dir, "%s.heap"))
	Start(t)()
	b, err := os.ReadFile(filepath.Join(dir, strings.ReplaceAll(t.Name(), "/", "_")+".heap"))
	if err != nil {
		t.Fatalf("no heap profile: %v", err)
	}
	// A profile is gzipped protocol buffers.
	if len(b) < 2 || b[0] != 0x1f || b[1] != 0x8b {
		t.Errorf("heap profile of %d bytes is not gzipped", len(b))
	}
	if files, _ := os.ReadDir(dir); len(files) != 1 {
		t.Errorf("%d files written, want the heap profile alone", len(files))
	}
}

// TestWatchHeap: 64 MiB held while the watch runs shows in its peak.
func TestWatchHeap(t *testing.T) {
	stop := WatchHeap(time.Millisecond)
	held := make([]byte, 64<<20)
	for i := range held {
		held[i] = byte(i)
	}
	peak := stop()
	runtime.KeepAlive(held)
	if peak < 60<<20 {
		t.Errorf("peak %d bytes while 64 MiB were held", peak)
	}
}
