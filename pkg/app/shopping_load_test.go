package app_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http/httptest"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/voyage/voyage/pkg/app"
	"github.com/voyage/voyage/pkg/config"
	"github.com/voyage/voyage/pkg/store"
)

func searchBody(from, to string) string {
	return fmt.Sprintf(`{"journeys":[{"origin":%q,"destination":%q,"date":%q}],"passengers":{"adult":1},"cabinClass":"economy","bookingType":"oneway"}`,
		from, to, time.Now().AddDate(0, 0, 30).Format(time.DateOnly))
}

// An instance that runs as many searches as it may (shopping.max_searches,
// here 2, with simulated suppliers answering in seconds) refuses the next
// one before starting it: 503, code 400004, Retry-After and the translated
// message. Once a search has ended, a search is admitted again.
func TestSearchRefusedPastCapacity(t *testing.T) {
	t.Parallel()
	// GDS answers in 4.8 s ± 1.6, NDC 3.2 ± 1.2, LCC 2 ± 0.8: a search
	// runs for at least 3.2 s.
	slow := func(c *config.Config) { c.Shopping.MaxSearches, c.Shopping.Sim.LatencyScale = 2, 4 }
	seededWith(t, slow, func(t *testing.T, a *app.App, srv *httptest.Server) {
		op := loginAs(t, srv, "demo-operator", "demo-pass-1")
		var ids []string
		for _, route := range [][2]string{{"PEK", "SHA"}, {"PEK", "LHR"}} {
			ids = append(ids, startSearch(t, srv, op.Token, "en", searchBody(route[0], route[1]), "search within capacity").SearchID)
		}
		var sessions int
		count := func() int {
			var n int
			if err := a.DB.GetContext(context.Background(), &n, `SELECT COUNT(*) FROM search_sessions`); err != nil {
				t.Fatal(err)
			}
			return n
		}
		sessions = count()

		resp, env := call(t, srv, "POST", "/shopping/v2/flight/async-shopping", "zh-cn", searchBody("CAN", "SIN"), bearer(op.Token)...)
		retry, err := strconv.Atoi(resp.Header.Get("Retry-After"))
		if resp.StatusCode != 503 || env.Code != 400004 || err != nil || retry < 1 || retry > 60 {
			t.Fatalf("third search at capacity 2: %d Retry-After=%q %+v, want 503, 400004 and Retry-After in seconds",
				resp.StatusCode, resp.Header.Get("Retry-After"), env)
		}
		if want := fmt.Sprintf("当前搜索请求过多，请 %d 秒后重试", retry); env.Message != want {
			t.Fatalf("message %q, want %q", env.Message, want)
		}
		if n := count(); n != sessions {
			t.Fatalf("the refused search stored a session (%d, was %d)", n, sessions)
		}
		// The portal's accurate search (a PNR's flights) is refused alike.
		resp, env = call(t, srv, "POST", "/shopping/v2/flight/accurate-search", "en",
			fmt.Sprintf(`{"segments":[{"flightNumber":"CA1501","date":%q,"origin":"PEK","destination":"SHA"}],"passengers":{"adult":1}}`,
				time.Now().AddDate(0, 0, 30).Format(time.DateOnly)), bearer(op.Token)...)
		if resp.StatusCode != 503 || env.Code != 400004 || resp.Header.Get("Retry-After") == "" {
			t.Fatalf("accurate search at capacity: %d Retry-After=%q %+v", resp.StatusCode, resp.Header.Get("Retry-After"), env)
		}

		// The running searches end when their suppliers have answered; then
		// a search is admitted again.
		until(t, 60*time.Second, func() error {
			resp, env := call(t, srv, "POST", "/shopping/v2/flight/async-shopping", "en", searchBody("CAN", "SIN"), bearer(op.Token)...)
			if resp.StatusCode == 200 && env.Code == 0 {
				return nil
			}
			if resp.StatusCode != 503 || env.Code != 400004 {
				t.Fatalf("after the running searches: %d %+v", resp.StatusCode, env)
			}
			return fmt.Errorf("still refused: %d %+v", resp.StatusCode, env)
		})
	})
}

// refuseAnswers makes the database refuse every stored batch with offers,
// as one that fails under load does; records without offers still go in.
func refuseAnswers(t *testing.T, db *store.DB) {
	t.Helper()
	stmts := []string{`CREATE TRIGGER refuse_answers BEFORE INSERT ON search_results WHEN NEW.offers > 0
		BEGIN SELECT RAISE(ABORT, 'disk full'); END`}
	if db.Dialect == store.Postgres {
		stmts = []string{
			`CREATE FUNCTION refuse_answers() RETURNS trigger AS $$
			BEGIN IF NEW.offers > 0 THEN RAISE EXCEPTION 'disk full'; END IF; RETURN NEW; END $$ LANGUAGE plpgsql`,
			`CREATE TRIGGER refuse_answers BEFORE INSERT ON search_results FOR EACH ROW EXECUTE FUNCTION refuse_answers()`,
		}
	}
	for _, s := range stmts {
		if _, err := db.ExecContext(context.Background(), s); err != nil {
			t.Fatal(err)
		}
	}
}

type lossPage struct {
	Complete      bool     `json:"complete"`
	Partial       bool     `json:"partial"`
	LostSuppliers []string `json:"lostSuppliers"`
	Total         int      `json:"total"`
	Suppliers     []struct {
		Name   string `json:"name"`
		Status string `json:"status"`
		Count  int    `json:"count"`
	} `json:"suppliers"`
}

// pollLoss polls a search through the API until it is complete.
func pollLoss(t *testing.T, srv *httptest.Server, token, id string) lossPage {
	t.Helper()
	var p lossPage
	until(t, 15*time.Second, func() error {
		_, env := call(t, srv, "POST", "/shopping/v2/flight/async-shopping/solutions", "en", fmt.Sprintf(`{"searchId":%q}`, id), bearer(token)...)
		if env.Code != 0 {
			t.Fatalf("poll: %+v", env)
		}
		p = lossPage{}
		if err := json.Unmarshal(env.Data, &p); err != nil {
			t.Fatal(err)
		}
		if !p.Complete {
			return fmt.Errorf("search not complete: %+v", p)
		}
		return nil
	})
	return p
}

// When the database refuses the suppliers' answers, the search does not
// say plain complete: on the instance that ran it, and on another one
// serving the poll, it is complete with partial true and the suppliers
// whose answers were lost.
func TestSearchSaysAnswersWereLost(t *testing.T) {
	t.Parallel()
	onSeededDatabase(t, func(t *testing.T, dsn string) {
		a, srv := newAppOn(t, dsn)
		_, second := newAppOn(t, dsn)
		refuseAnswers(t, a.DB)
		op := loginAs(t, srv, "demo-operator", "demo-pass-1")
		st := startSearch(t, srv, op.Token, "en", searchBody("PEK", "SHA"), "search")

		// The instance that ran it still shows the flights it received,
		// and says they could not be kept.
		here := pollLoss(t, srv, op.Token, st.SearchID)
		var answered []string
		for _, s := range here.Suppliers {
			if s.Count > 0 {
				answered = append(answered, s.Name)
			}
		}
		if len(answered) == 0 || here.Total == 0 {
			t.Fatalf("no supplier answered PEK-SHA: %+v", here)
		}
		// (A supplier may also have lost answers about the legs of a
		// connection, beside those with a whole-trip answer.)
		for _, name := range answered {
			if !slices.Contains(here.LostSuppliers, name) {
				t.Fatalf("instance that ran the search: partial=%v lost=%v, want %v among the lost", here.Partial, here.LostSuppliers, answered)
			}
		}
		if !here.Partial {
			t.Fatalf("instance that ran the search: partial=%v, want true", here.Partial)
		}
		// Another instance has nothing of them: no flight, the same
		// suppliers lost, and no "no flight found" either.
		there := pollLoss(t, second, op.Token, st.SearchID)
		if !there.Partial || !slices.Equal(there.LostSuppliers, here.LostSuppliers) || there.Total != 0 {
			t.Fatalf("other instance: %+v, want partial with %v lost and no flight", there, here.LostSuppliers)
		}
		for _, s := range there.Suppliers {
			if slices.Contains(answered, s.Name) && s.Status != "lost" {
				t.Fatalf("other instance: %s shows %q, want lost", s.Name, s.Status)
			}
		}
	})
}
