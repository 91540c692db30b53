package mrz

import "testing"

// FuzzParse: no input panics, and whatever is accepted has a zone whose
// check digits all hold and real dates (verifyLines). Seeds live in
// testdata/fuzz/FuzzParse.
func FuzzParse(f *testing.F) {
	f.Add(lines(td3L1, td3L2))
	f.Add(lines(td1L1, td1L2, td1L3))
	f.Fuzz(func(t *testing.T, in string) {
		r, err := ParseAt(in, now)
		if err != nil {
			if r != nil {
				t.Fatalf("result %+v with error %v", r, err)
			}
			return
		}
		if err := verifyLines(r); err != nil {
			t.Fatalf("accepted %q: %v", in, err)
		}
		if r.Confidence <= 0 || r.Confidence > 1 {
			t.Fatalf("confidence %v", r.Confidence)
		}
	})
}
