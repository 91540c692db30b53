//go:build unix

package recognition

import (
	"context"
	"flag"
	"math/rand/v2"
	"slices"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/voyage/voyage/pkg/recognition/specimen"
)

var benchSet = flag.Int("recognition.set", 0, "read this many generated documents and report the share read exactly with p50/p99 times (0: skip)")

// specimenSet renders n documents (passports, ID cards and permits in
// turn) with random bad-photo effects, the same ones on every run.
func specimenSet(tb testing.TB, n int) ([]specimen.Document, [][]byte) {
	docs := make([]specimen.Document, n)
	imgs := make([][]byte, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() {
			rng := rand.New(rand.NewPCG(uint64(i), 200))
			kind := specimen.Kind([]int{0, 0, 1, 1, 2}[i%5])
			docs[i] = specimen.Random(rng, kind, now)
			img, err := specimen.Render(docs[i], specimen.RandomEffects(rng), rng)
			if err != nil {
				tb.Error(err)
			}
			imgs[i] = img
		})
	}
	wg.Wait()
	return docs, imgs
}

// TestRecognitionSet is the accuracy benchmark: go test -run
// TestRecognitionSet -recognition.set=200 ./pkg/recognition/. It reports
// the share of documents whose every field was read exactly and the p50
// and p99 of the time one recognition takes (one at a time), and fails
// under 99% exact.
func TestRecognitionSet(t *testing.T) {
	if *benchSet == 0 {
		t.Skip("run with -recognition.set=200")
	}
	r := newRecognizer(t)
	docs, imgs := specimenSet(t, *benchSet)
	var times []time.Duration
	exact, sureWrong, unsureRight := 0, 0, 0
	cpu0 := cpuTime()
	for i, img := range imgs {
		start := time.Now()
		got, err := r.Recognize(context.Background(), img)
		times = append(times, time.Since(start))
		switch {
		case err != nil:
			t.Logf("%d %v: %v", i, docs[i].Lines(), err)
		case diff(got, want(docs[i])) != "":
			t.Logf("%d %v: wrong (confidence %.2f, uncertain %v)\n%s", i, docs[i].Lines(), got.Confidence, got.Uncertain.List(), diff(got, want(docs[i])))
			if got.Confidence > capOther {
				sureWrong++
			}
		default:
			exact++
			if got.Uncertain != "" {
				unsureRight++
			}
		}
	}
	cpu := (cpuTime() - cpu0) / time.Duration(len(imgs))
	slices.Sort(times)
	share := float64(exact) / float64(len(imgs))
	// The CPU time (this process and its Tesseract children) is what a
	// recognition costs whatever else the machine is doing; the wall times
	// grow with the machine's load.
	t.Logf("%d documents: %.1f%% read exactly; p50 %v, p99 %v, max %v; CPU %v a document", len(imgs), share*100,
		times[len(times)/2].Round(time.Millisecond), times[len(times)*99/100].Round(time.Millisecond), times[len(times)-1].Round(time.Millisecond),
		cpu.Round(time.Millisecond))
	t.Logf("wrong with confidence over %.2f: %d; exact but marked uncertain: %d", capOther, sureWrong, unsureRight)
	if share < 0.99 {
		t.Errorf("%.1f%% read exactly, want at least 99%%", share*100)
	}
}

// cpuTime is the user and system time of this process and its waited-for
// children.
func cpuTime() time.Duration {
	var total time.Duration
	for _, who := range []int{syscall.RUSAGE_SELF, syscall.RUSAGE_CHILDREN} {
		var ru syscall.Rusage
		if err := syscall.Getrusage(who, &ru); err == nil {
			total += time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
		}
	}
	return total
}

// BenchmarkRecognize times one recognition of a generated passport photo.
func BenchmarkRecognize(b *testing.B) {
	r := newRecognizer(b)
	_, imgs := specimenSet(b, 10)
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		if _, err := r.Recognize(context.Background(), imgs[i%len(imgs)]); err != nil && i%5 < 2 {
			b.Log(err)
		}
	}
}
