package web

import (
	"fmt"
	"os"
	"sort"
	"sync"
	"testing"

	"github.com/voyage/voyage/pkg/i18n"
)

// TestMain fails the package's tests when any page they rendered asked the
// catalog for a key it lacks (its reader would see the raw key or a bare
// code): the pages are rendered with refusalCatalog, whose misses are
// recorded here, whichever test met them.
func TestMain(m *testing.M) {
	var mu sync.Mutex
	var misses []string
	refusalCatalog.OnMiss(func(miss i18n.Miss) {
		mu.Lock()
		defer mu.Unlock()
		misses = append(misses, miss.Lang+" "+miss.Key)
	})
	code := m.Run()
	if len(misses) > 0 {
		sort.Strings(misses)
		fmt.Fprintf(os.Stderr, "pages asked for %d catalog keys the catalogs lack:\n", len(misses))
		for _, m := range misses {
			fmt.Fprintln(os.Stderr, "  "+m)
		}
		if code == 0 {
			code = 1
		}
	}
	os.Exit(code)
}
