//go:build unix

package recognition

import (
	"context"
	"flag"
	"fmt"
	"math/rand/v2"
	"os/exec"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/voyage/voyage/pkg/recognition/specimen"
)

var setSize = flag.Int("recognition.set", 0, "read this many generated documents instead of the sample (315: the full set)")

// sampleSize is how many documents of the set the ordinary test run reads:
// two of every form and capture, one framed and one not. Three of each took
// the suite's longest package past four minutes under -race; the whole set
// is read with -recognition.set=315.
const sampleSize = 42

var forms = []specimen.Kind{specimen.Passport, specimen.IDCard, specimen.Permit}

// specimen i of the set: the forms in turn, each capture in turn, framed
// every other round, its content and capture drawn from a seed of its own:
// the same documents on every run, and the first 21·k of any size hold k
// of every form and capture.
func setDocument(i int) (specimen.Document, specimen.Shot, *rand.Rand) {
	rng := rand.New(rand.NewPCG(uint64(i), 300))
	form := forms[i%len(forms)]
	capture := specimen.Captures[i/len(forms)%len(specimen.Captures)]
	framed := i/(len(forms)*len(specimen.Captures))%2 == 1
	d := specimen.Random(rng, form, now)
	return d, specimen.RandomShot(rng, capture, framed), rng
}

// specimenSet renders the first n documents of the set.
func specimenSet(tb testing.TB, n int) ([]specimen.Document, []specimen.Shot, [][]byte) {
	if _, err := exec.LookPath("pdftoppm"); err != nil {
		tb.Fatalf("pdftoppm is needed (make ocr installs Debian's poppler-utils): %v", err)
	}
	docs := make([]specimen.Document, n)
	shots := make([]specimen.Shot, n)
	imgs := make([][]byte, n)
	var wg sync.WaitGroup
	sem := make(chan struct{}, 4)
	for i := range n {
		wg.Go(func() {
			sem <- struct{}{}
			defer func() { <-sem }()
			d, s, rng := setDocument(i)
			img, err := specimen.Shoot(context.Background(), d, s, rng)
			if err != nil {
				tb.Error(err)
			}
			docs[i], shots[i], imgs[i] = d, s, img
		})
	}
	wg.Wait()
	return docs, shots, imgs
}

// tally counts one cell of the report.
type tally struct{ n, exact, refused, wrong, sureWrong int }

// TestRecognitionSet reads generated documents of every form (passport,
// ID card, Exit-Entry Permit) as every capture makes them (photo, clean
// scan, rotated scan, black-and-white scan, the zone alone, a rendered PDF
// page, low contrast; framed or not) and wants at least 99% read exactly
// and no wrong reading with a confidence over capOther (a wrong reading
// must say it is unsure, or be refused). The ordinary run reads a sample
// of sampleSize; the whole set, with the figures per form and capture:
//
//	go test -run TestRecognitionSet -recognition.set=315 -v ./pkg/recognition/
func TestRecognitionSet(t *testing.T) {
	n := sampleSize
	if *setSize > 0 {
		n = *setSize
	}
	r := newRecognizer(t)
	docs, shots, imgs := specimenSet(t, n)
	type outcome struct {
		err   error
		got   *Document
		took  time.Duration
		wrong string
	}
	outs := make([]outcome, n)
	cpu0 := cpuTime()
	var wg sync.WaitGroup
	next := make(chan int)
	// As many at a time as the recognizer runs by default.
	for range 2 {
		wg.Go(func() {
			for i := range next {
				start := time.Now()
				got, err := r.Recognize(context.Background(), imgs[i])
				outs[i] = outcome{err: err, got: got, took: time.Since(start)}
				if err == nil {
					outs[i].wrong = diff(got, want(docs[i]))
				}
			}
		})
	}
	for i := range n {
		next <- i
	}
	close(next)
	wg.Wait()
	cpu := (cpuTime() - cpu0) / time.Duration(n)

	cells := map[string]*tally{}
	count := func(k string, o outcome) {
		c := cells[k]
		if c == nil {
			c = &tally{}
			cells[k] = c
		}
		c.n++
		switch {
		case o.err != nil:
			c.refused++
		case o.wrong != "":
			c.wrong++
			if o.got.Confidence > capOther {
				c.sureWrong++
			}
		default:
			c.exact++
		}
	}
	var times []time.Duration
	for i, o := range outs {
		times = append(times, o.took)
		count("all", o)
		count("form "+docs[i].Kind.String(), o)
		count("capture "+shots[i].Capture.String(), o)
		count(fmt.Sprintf("framed %v", shots[i].Framed), o)
		count(docs[i].Kind.String()+" "+shots[i].Capture.String(), o)
		switch {
		case o.err != nil:
			t.Logf("%d %s %+v %v: refused: %v", i, docs[i].Kind, shots[i], docs[i].Lines(), o.err)
		case o.wrong != "":
			t.Logf("%d %s %+v %v: wrong (confidence %.2f, uncertain %v)\n%s", i, docs[i].Kind, shots[i], docs[i].Lines(), o.got.Confidence, o.got.Uncertain.List(), o.wrong)
		}
	}
	keys := make([]string, 0, len(cells))
	for k := range cells {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	var b strings.Builder
	fmt.Fprintf(&b, "%-24s %5s %6s %8s %6s %10s\n", "", "docs", "exact", "refused", "wrong", "sure+wrong")
	for _, k := range keys {
		c := cells[k]
		fmt.Fprintf(&b, "%-24s %5d %5.1f%% %8d %6d %10d\n", k, c.n, 100*float64(c.exact)/float64(c.n), c.refused, c.wrong, c.sureWrong)
	}
	slices.Sort(times)
	// The CPU time (this process and its Tesseract children) is what a
	// recognition costs whatever else the machine is doing; the wall times
	// grow with the machine's load.
	t.Logf("%d documents, two at a time: p50 %v, p99 %v, max %v; CPU %v a document\n%s", n,
		times[n/2].Round(time.Millisecond), times[n*99/100].Round(time.Millisecond), times[n-1].Round(time.Millisecond),
		cpu.Round(time.Millisecond), b.String())
	all := cells["all"]
	if share := float64(all.exact) / float64(all.n); share < 0.99 {
		t.Errorf("%.1f%% read exactly, want at least 99%%", share*100)
	}
	if all.sureWrong > 0 {
		t.Errorf("%d read wrongly with a confidence over %.2f", all.sureWrong, capOther)
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

// BenchmarkRecognize times one recognition, over one document of every
// form and capture in turn.
func BenchmarkRecognize(b *testing.B) {
	r := newRecognizer(b)
	_, _, imgs := specimenSet(b, len(forms)*len(specimen.Captures))
	b.ResetTimer()
	cpu0, n := cpuTime(), 0
	for i := 0; b.Loop(); i++ {
		if _, err := r.Recognize(context.Background(), imgs[i%len(imgs)]); err != nil {
			b.Log(err)
		}
		n++
	}
	// The CPU time, this process's and Tesseract's, is steadier than the
	// wall time on a shared machine.
	b.ReportMetric(float64((cpuTime()-cpu0).Milliseconds())/float64(n), "cpu-ms/op")
}
