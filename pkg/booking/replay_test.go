package booking

import (
	"errors"
	"net/http"
	"testing"

	"github.com/voyage/voyage/pkg/fault"
)

func TestReplay(t *testing.T) {
	type order struct {
		id   int64
		hash string
	}
	sent := RequestHash(map[string]any{"offerId": "A1", "passengers": 2})
	broken := errors.New("database down")
	cases := []struct {
		name      string
		prior     order
		found     bool
		loadErr   error
		wantFound bool
		wantID    int64
		wantCode  int
	}{
		{"a new key: no replay", order{}, false, nil, false, 0, 0},
		{"the same request again: the first booking", order{7, sent}, true, nil, true, 7, 0},
		{"another request under the key: a conflict", order{7, RequestHash(map[string]any{"offerId": "B2"})}, true, nil, true, 0, http.StatusConflict},
		{"the key cannot be looked up: the error", order{}, false, broken, false, 0, http.StatusInternalServerError},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, found, err := Replay(func() (order, bool, error) { return c.prior, c.found, c.loadErr }, sent,
				func(o order) string { return o.hash }, func(o order) (int64, error) { return o.id, nil })
			if found != c.wantFound || got != c.wantID {
				t.Fatalf("Replay = %d, %v, %v; want %d, %v", got, found, err, c.wantID, c.wantFound)
			}
			if c.wantCode == 0 && err != nil || c.wantCode != 0 && fault.From(err).Status != c.wantCode {
				t.Fatalf("err %v, want status %d", err, c.wantCode)
			}
		})
	}
}
