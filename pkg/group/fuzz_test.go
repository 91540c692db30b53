package group

import (
	"bytes"
	"errors"
	"testing"

	"github.com/voyage/voyage/pkg/group/grouptest"
)

// FuzzParseList feeds the passenger-list reader what an uploader could
// send: workbooks mutated from a good one, zips that are not workbooks,
// anything. It never panics; a list it takes holds no more passengers
// than the order and each has a name; a list it refuses says why in at
// most MaxListErrors rows and one line saying how many more.
func FuzzParseList(f *testing.F) {
	f.Add(grouptest.Workbook(f, listRows(10, 2, 1)))
	f.Add(grouptest.Workbook(f, listRows(1, 0, 0)))
	f.Add(grouptest.Workbook(f, [][]string{listColumns}))
	f.Add([]byte("PK\x03\x04"))
	f.Add([]byte{})
	s := New(Options{})
	f.Fuzz(func(t *testing.T, data []byte) {
		ps, err := s.ParseList(bytes.NewReader(data), int64(len(data)), testOrder, testOrder.Counts.Total(), listDay)
		var le *ListError
		switch {
		case err == nil:
			if len(ps) > testOrder.Counts.Total() {
				t.Fatalf("%d passengers taken for an order of %d", len(ps), testOrder.Counts.Total())
			}
			for i, p := range ps {
				if p.Surname == "" || p.GivenName == "" {
					t.Fatalf("passenger %d taken without a name: %+v", i, p)
				}
			}
		case errors.As(err, &le):
			if len(le.Errors) > MaxListErrors+1 {
				t.Fatalf("%d row errors, want at most %d and a summary", len(le.Errors), MaxListErrors)
			}
		}
	})
}
