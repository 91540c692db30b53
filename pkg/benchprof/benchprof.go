// Package benchprof profiles the timed part of a benchmark alone: go test's
// -cpuprofile also covers the set-up (seeding, password hashing, filling a
// supplier memo), which in the order and search benchmarks costs as much as
// what they measure and buries it. WatchHeap measures its peak heap.
package benchprof

import (
	"io"
	"os"
	"runtime"
	"runtime/metrics"
	"runtime/pprof"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"
)

// Start begins a CPU profile written to the file VOYAGE_BENCH_CPUPROFILE
// names, when it is set; the function it returns stops it. Without the
// variable both do nothing. A %s in the name is replaced by the
// benchmark's (see profilePath): a run of several benchmarks, such as the
// ledger's one-transaction and group-commit paths, otherwise leaves only
// the last one's profile.
//
// With VOYAGE_BENCH_HEAPPROFILE set (a file name, %s as above), stopping
// also writes a heap profile after a collection, while what the benchmark
// set up is still alive: its in-use figures are what the system under test
// keeps (a search engine's cache of searches), which go test's
// -memprofile, written after the benchmark's clean-up, no longer holds.
func Start(tb testing.TB) (stop func()) {
	cpu := startCPU(tb, profilePath(os.Getenv("VOYAGE_BENCH_CPUPROFILE"), tb.Name()))
	heap := profilePath(os.Getenv("VOYAGE_BENCH_HEAPPROFILE"), tb.Name())
	return func() {
		cpu()
		if heap != "" {
			writeHeap(tb, heap)
		}
	}
}

func startCPU(tb testing.TB, path string) (stop func()) {
	if path == "" {
		return func() {}
	}
	f := create(tb, path, pprof.StartCPUProfile)
	return func() {
		pprof.StopCPUProfile()
		closeProfile(tb, f)
	}
}

// writeHeap writes the heap profile of what is alive now to path.
func writeHeap(tb testing.TB, path string) {
	runtime.GC()
	closeProfile(tb, create(tb, path, pprof.WriteHeapProfile))
}

// create makes the file path names and has write start a profile in it or
// write one; on an error the file is closed and the benchmark stops.
func create(tb testing.TB, path string, write func(io.Writer) error) *os.File {
	f, err := os.Create(path)
	if err != nil {
		tb.Fatalf("benchprof: %v", err)
	}
	if err := write(f); err != nil {
		f.Close()
		tb.Fatalf("benchprof: %v", err)
	}
	return f
}

// closeProfile closes a profile's file, reporting what its last writes lost.
func closeProfile(tb testing.TB, f *os.File) {
	if err := f.Close(); err != nil {
		tb.Errorf("benchprof: %v", err)
	}
}

// profilePath is the file pattern names for the benchmark called name: a
// %s in pattern becomes the name with its slashes as underscores, so that
// each sub-benchmark has a file of its own in the pattern's directory.
func profilePath(pattern, name string) string {
	if !strings.Contains(pattern, "%s") {
		return pattern
	}
	return strings.ReplaceAll(pattern, "%s", strings.ReplaceAll(name, "/", "_"))
}

// CPU is CPU time used by the whole machine and by this process, as
// machineCPU and ProcessCPU count it: a benchmark reads it before its timed
// part and reports what Since gives after.
type CPU struct{ Machine, Process time.Duration }

// ReadCPU is the machine's and this process's CPU time so far.
func ReadCPU() CPU { return CPU{machineCPU(), ProcessCPU()} }

// Since is the CPU used since c was read.
func (c CPU) Since() CPU {
	now := ReadCPU()
	return CPU{now.Machine - c.Machine, now.Process - c.Process}
}

// machineCPU is the CPU time every process on the machine has used since
// boot (user, nice, system, irq and softirq in /proc/stat), zero where
// /proc is not there. A benchmark whose work is split between this process
// and a database server on the same machine reports both halves from it.
func machineCPU() time.Duration {
	raw, err := os.ReadFile("/proc/stat")
	if err != nil {
		return 0
	}
	line, _, _ := strings.Cut(string(raw), "\n")
	f := strings.Fields(line)
	if len(f) < 8 || f[0] != "cpu" {
		return 0
	}
	var ticks int64
	for _, i := range []int{1, 2, 3, 6, 7} { // user nice system irq softirq
		n, err := strconv.ParseInt(f[i], 10, 64)
		if err != nil {
			return 0
		}
		ticks += n
	}
	// USER_HZ is 100 on every Linux architecture Go runs on.
	return time.Duration(ticks) * 10 * time.Millisecond
}

// ProcessCPU is the CPU time this process has used (user and system).
func ProcessCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// WatchHeap samples the heap every interval from now until the stop it
// answers, which gives how far the heap grew above where it was after a
// collection (0 if it never did): the peak memory of what a benchmark runs,
// which go test's B/op (allocated, not live) does not show. Process-wide,
// so for benchmarks, which run alone.
func WatchHeap(every time.Duration) (stop func() uint64) {
	runtime.GC()
	base := heapBytes()
	var peak atomic.Uint64
	done := make(chan struct{})
	var wg sync.WaitGroup
	sample := func() {
		if v := heapBytes(); v > base && v-base > peak.Load() {
			peak.Store(v - base)
		}
	}
	wg.Go(func() {
		t := time.NewTicker(every)
		defer t.Stop()
		for {
			select {
			case <-done:
				return
			case <-t.C:
				sample()
			}
		}
	})
	return func() uint64 {
		close(done)
		wg.Wait()
		sample() // what is still held when the watch ends counts too
		return peak.Load()
	}
}

func heapBytes() uint64 {
	s := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	metrics.Read(s)
	return s[0].Value.Uint64()
}
