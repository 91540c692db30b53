package app_test

import (
	"bytes"
	"image"
	"image/png"
	"io"
	"math/rand/v2"
	"mime/multipart"
	"net/http"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/voyage/voyage/pkg/benchprof"
	"github.com/voyage/voyage/pkg/config"
	"github.com/voyage/voyage/pkg/store"
)

// BenchmarkRecognitionUploadsBeside sends fifty 9.7 MB document uploads at
// once (a PNG of noise, near the 10 MB limit) while another user reads
// /base/v2/me in a loop, and reports the reads' latency (p50, p99, max)
// and the server's peak heap above its heap before the round
// (heap-peak-MB: the uploads' client streams them, so the figure is the
// server's), with how many uploads were answered busy. Per round.
func BenchmarkRecognitionUploadsBeside(b *testing.B) {
	// The reader's loop would meet its rate limit; what is measured is
	// the server's work, as in BenchmarkOrdersCreateAndPay.
	_, srv := newSeededApp(b, store.SQLite, func(c *config.Config) { c.HTTP.RateLimit.Enabled = false })
	uploader, reader := loginAs(b, srv, "demo-operator", "demo-pass-1").Token, loginAs(b, srv, "demo-finance", "demo-pass-1").Token
	picture := noisePNG(b, 1560, 1560)
	b.ReportMetric(float64(len(picture))/(1<<20), "upload-MB")
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 64}, Timeout: 2 * time.Minute}
	// status sends req and drains the answer: its status, or false when
	// it could not be sent (reported).
	status := func(req *http.Request) (int, bool) {
		resp, err := client.Do(req)
		if err != nil {
			b.Error(err)
			return 0, false
		}
		_, _ = io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		return resp.StatusCode, true
	}

	var reads []time.Duration
	var busy, uploads atomic.Int64
	var peak uint64
	for b.Loop() {
		stopWatch := benchprof.WatchHeap(time.Millisecond)
		done := make(chan struct{})
		var bg sync.WaitGroup
		bg.Go(func() {
			for {
				select {
				case <-done:
					return
				default:
				}
				req, _ := http.NewRequest("GET", srv.URL+"/base/v2/me", nil)
				req.Header.Set("Authorization", "Bearer "+reader)
				start := time.Now()
				code, ok := status(req)
				if !ok {
					return
				}
				if code != 200 {
					b.Errorf("read: %d", code)
					return
				}
				reads = append(reads, time.Since(start))
			}
		})
		var up sync.WaitGroup
		for range 50 {
			up.Go(func() {
				pr, pw := io.Pipe()
				mw := multipart.NewWriter(pw)
				go func() {
					fw, err := mw.CreateFormFile("file", "passport.png")
					if err == nil {
						_, err = io.Copy(fw, bytes.NewReader(picture))
					}
					if err == nil {
						err = mw.Close()
					}
					pw.CloseWithError(err)
				}()
				req, _ := http.NewRequest("POST", srv.URL+"/base/v2/analysis/document", pr)
				req.Header.Set("Content-Type", mw.FormDataContentType())
				req.Header.Set("Authorization", "Bearer "+uploader)
				code, ok := status(req)
				if !ok {
					return
				}
				uploads.Add(1)
				if code == http.StatusServiceUnavailable || code == http.StatusTooManyRequests {
					busy.Add(1)
				} else if code != http.StatusBadRequest && code != http.StatusUnprocessableEntity {
					b.Errorf("upload: %d", code)
				}
			})
		}
		up.Wait()
		close(done)
		bg.Wait()
		peak = max(peak, stopWatch())
	}
	if len(reads) == 0 {
		b.Fatal("no read finished")
	}
	slices.Sort(reads)
	at := func(q float64) float64 { return float64(reads[int(q*float64(len(reads)-1))].Microseconds()) / 1000 }
	b.ReportMetric(at(0.5), "read-p50-ms")
	b.ReportMetric(at(0.99), "read-p99-ms")
	b.ReportMetric(at(1), "read-max-ms")
	b.ReportMetric(float64(len(reads))/float64(b.N), "reads/round")
	b.ReportMetric(float64(peak)/(1<<20), "heap-peak-MB")
	b.ReportMetric(float64(busy.Load())/float64(uploads.Load()), "busy-share")
}

// noisePNG is a w×h picture of noise: PNG cannot shrink it, so it is as
// large as an upload gets (1560×1560 is 9.3 MiB).
func noisePNG(b *testing.B, w, h int) []byte {
	img := image.NewNRGBA(image.Rect(0, 0, w, h))
	r := rand.New(rand.NewPCG(1, 2))
	for i := range img.Pix {
		img.Pix[i] = byte(r.Uint32())
	}
	var buf bytes.Buffer
	if err := (&png.Encoder{CompressionLevel: png.NoCompression}).Encode(&buf, img); err != nil {
		b.Fatal(err)
	}
	return buf.Bytes()
}
