package shopping_test

import (
	"context"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/voyage/voyage/pkg/fault"
	"github.com/voyage/voyage/pkg/geo"
	"github.com/voyage/voyage/pkg/shopping"
	"github.com/voyage/voyage/pkg/store"
	"github.com/voyage/voyage/pkg/store/storetest"
	"github.com/voyage/voyage/pkg/supplier"
)

// connecting is a PEK→via→LHR offer leaving at hh:00 Beijing time, two
// 5-hour flights with a 2-hour layover.
func connecting(sup, first, second, via, date string, hh int, cny int64) supplier.Offer {
	o := flight(sup, first, "PEK", via, date, hh, 0, 300, cny)
	dep := o.Segments[0].ArriveAt.Add(2 * time.Hour).In(geo.Location(via))
	o.Segments = append(o.Segments, supplier.Segment{Carrier: second[:2], FlightNumber: second, Origin: via, Destination: "LHR", DepartAt: dep,
		ArriveAt: dep.Add(5 * time.Hour).In(geo.Location("LHR")), DurationMinutes: 300, Cabin: supplier.CabinEconomy, BookingClass: "Y", FareBasis: "YOW"})
	o.Journeys = [][]int{{0, 1}}
	o.Ref = sup + ":" + first + second + ":" + date
	return o
}

// The range filters of the results: price, longest journey, departure and
// arrival windows (local time), and the layover airport facet; the ranges
// bound them over every solution; a bad bound is a translated error.
func TestSolutionsRangeAndLayoverFilters(t *testing.T) {
	t.Parallel()
	storetest.Run(t, func(t *testing.T, db *store.DB) {
		src := &fake{name: "gds", answer: func(req supplier.SearchRequest) []supplier.Offer {
			d := req.Journeys[0].Date
			return []supplier.Offer{
				flight("gds", "CA937", "PEK", "LHR", d, 2, 20, 660, 4000), // 02:20, 11h, 4000
				flight("gds", "CA855", "PEK", "LHR", d, 13, 0, 660, 4500), // 13:00, 11h, 4500
				connecting("gds", "LH721", "LH900", "FRA", d, 9, 3000),    // 09:00, 12h via FRA, 3000
				connecting("gds", "SU205", "SU2580", "SVO", d, 20, 2500),  // 20:00, 12h via SVO, 2500
			}
		}}
		w := newWorld(t, db, nil, map[string]shopping.Source{"gds": {Supplier: src}})
		st := w.start(t, oneWay("PEK", "LHR"))
		all := poll(t, w, st.SearchID, shopping.Query{Sort: shopping.SortPrice}, func(p shopping.Page) bool { return p.Complete })
		if all.Total != 4 {
			t.Fatalf("%d solutions, want 4", all.Total)
		}
		r := all.Ranges
		if r.PriceMin != "2500.00" || r.PriceMax != "4500.00" || r.DurationMin != 660 || r.DurationMax != 720 {
			t.Fatalf("ranges %+v", r)
		}
		if len(all.Facets.Layovers) != 2 || all.Facets.Layovers[0].Count != 1 {
			t.Fatalf("layover facet %+v", all.Facets.Layovers)
		}
		numbers := func(f shopping.Filters) []string {
			t.Helper()
			p, err := w.eng.Solutions(context.Background(), w.who(), shopping.Query{SearchID: st.SearchID, Sort: shopping.SortPrice, Filters: f}, "en")
			if err != nil {
				t.Fatalf("filters %+v: %v", f, err)
			}
			var out []string
			for _, s := range p.Items {
				out = append(out, s.Segments[0].FlightNumber)
			}
			return out
		}
		for _, c := range []struct {
			name string
			f    shopping.Filters
			want []string
		}{
			{"price range", shopping.Filters{PriceMin: "2800", PriceMax: "4000"}, []string{"LH721", "CA937"}},
			{"up to 11 hours", shopping.Filters{MaxDuration: 660}, []string{"CA937", "CA855"}},
			{"leaving 00:00-10:00 Beijing time", shopping.Filters{DepartFrom: "00:00", DepartTo: "10:00"}, []string{"LH721", "CA937"}},
			{"leaving 19:00-03:00 (over midnight)", shopping.Filters{DepartFrom: "19:00", DepartTo: "03:00"}, []string{"SU205", "CA937"}},
			// To the minute: CA937 leaves at 02:20.
			{"leaving at 02:20", shopping.Filters{DepartFrom: "02:20", DepartTo: "02:20"}, []string{"CA937"}},
			{"leaving 02:21-10:00", shopping.Filters{DepartFrom: "02:21", DepartTo: "10:00"}, []string{"LH721"}},
			{"via Frankfurt", shopping.Filters{Layovers: []string{"FRA"}}, []string{"LH721"}},
		} {
			if got := numbers(c.f); !equal(got, c.want) {
				t.Errorf("%s: %v, want %v", c.name, got, c.want)
			}
		}
		// Arrival window: the local time at London.
		arrive := all.Items[len(all.Items)-1].Segments[0].ArriveAt.Format("15:04") // CA855's arrival, London time
		if got := numbers(shopping.Filters{ArriveFrom: arrive, ArriveTo: arrive}); !equal(got, []string{"CA855"}) {
			t.Errorf("arriving at %s: %v, want CA855", arrive, got)
		}
		for _, bad := range []shopping.Filters{{PriceMin: "abc"}, {PriceMin: "5000", PriceMax: "100"}, {DepartFrom: "25:00"}, {MaxDuration: -5}} {
			_, err := w.eng.Solutions(context.Background(), w.who(), shopping.Query{SearchID: st.SearchID, Filters: bad}, "en")
			if !isCode(err, fault.CodeValidation) {
				t.Errorf("filters %+v: %v, want a validation error", bad, err)
			}
		}
	})
}

func equal(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// With groupBy outbound the solutions flying the same outbound flights come
// together after the best of them, and a page holds pageSize whole groups:
// a flight's other fares never start another page or another card.
func TestSolutionsGroupedByOutbound(t *testing.T) {
	t.Parallel()
	storetest.Run(t, func(t *testing.T, db *store.DB) {
		business := func(o supplier.Offer) supplier.Offer {
			o.Segments[0].Cabin, o.Segments[0].BookingClass, o.Ref = supplier.CabinBusiness, "J", o.Ref+":J"
			return o
		}
		src := &fake{name: "gds", answer: func(req supplier.SearchRequest) []supplier.Offer {
			d := req.Journeys[0].Date
			return []supplier.Offer{
				flight("gds", "CA937", "PEK", "LHR", d, 2, 20, 660, 3000),
				flight("gds", "MU501", "PEK", "LHR", d, 9, 0, 660, 3500),
				business(flight("gds", "CA937", "PEK", "LHR", d, 2, 20, 660, 9000)),
				flight("gds", "CZ301", "PEK", "LHR", d, 13, 0, 660, 4000),
				business(flight("gds", "MU501", "PEK", "LHR", d, 9, 0, 660, 8000)),
			}
		}}
		w := newWorld(t, db, nil, map[string]shopping.Source{"gds": {Supplier: src}})
		st := w.start(t, oneWay("PEK", "LHR"))
		poll(t, w, st.SearchID, shopping.Query{Sort: shopping.SortPrice}, func(p shopping.Page) bool { return p.Complete })
		page := func(q shopping.Query) (shopping.Page, []string) {
			t.Helper()
			q.SearchID, q.Sort = st.SearchID, shopping.SortPrice
			p, err := w.eng.Solutions(context.Background(), w.who(), q, "en")
			if err != nil {
				t.Fatalf("%+v: %v", q, err)
			}
			var out []string
			for _, s := range p.Items {
				out = append(out, s.Segments[0].FlightNumber+"/"+s.Segments[0].Cabin[:1])
			}
			return p, out
		}
		for _, c := range []struct {
			name       string
			q          shopping.Query
			want       []string
			total, grp int
		}{
			{"by price, two a page", shopping.Query{PageSize: 2}, []string{"CA937/e", "MU501/e"}, 5, 0},
			{"grouped, page 1 of two groups", shopping.Query{GroupBy: shopping.GroupOutbound, PageSize: 2}, []string{"CA937/e", "CA937/b", "MU501/e", "MU501/b"}, 5, 3},
			{"grouped, page 2", shopping.Query{GroupBy: shopping.GroupOutbound, PageSize: 2, Page: 2}, []string{"CZ301/e"}, 5, 3},
			{"grouped, past the end", shopping.Query{GroupBy: shopping.GroupOutbound, PageSize: 2, Page: 3}, nil, 5, 3},
			{"grouped and filtered", shopping.Query{GroupBy: shopping.GroupOutbound, Filters: shopping.Filters{PriceMax: "8500"}}, []string{"CA937/e", "MU501/e", "MU501/b", "CZ301/e"}, 4, 3},
		} {
			p, got := page(c.q)
			if !equal(got, c.want) || p.Total != c.total || p.Groups != c.grp {
				t.Errorf("%s: %v (total %d, groups %d), want %v (total %d, groups %d)", c.name, got, p.Total, p.Groups, c.want, c.total, c.grp)
			}
		}
		_, err := w.eng.Solutions(context.Background(), w.who(), shopping.Query{SearchID: st.SearchID, GroupBy: "carrier"}, "en")
		if !isCode(err, fault.CodeValidation) {
			t.Errorf("groupBy carrier: %v, want a validation error", err)
		}
	})
}

// A page is put in order only when it is read: pages of any size, read in
// any order, are one order of every solution, the one the sort names.
func TestPagesReadInAnyOrderAreOneOrder(t *testing.T) {
	t.Parallel()
	db := storetest.Open(t, store.SQLite)
	w := newWorld(t, db, nil, simSources(t))
	st := w.start(t, returnTrip("PEK", "LHR", 30, 37))
	total := poll(t, w, st.SearchID, shopping.Query{}, func(p shopping.Page) bool { return p.Complete }).Total
	if total < 300 {
		t.Fatalf("%d solutions: too few to page through", total)
	}
	for _, sort := range []string{shopping.SortDefault, shopping.SortPrice, shopping.SortTime} {
		read := func(size int, pages []int) []shopping.Solution {
			t.Helper()
			byPage := map[int][]shopping.Solution{}
			for _, n := range pages {
				p, err := w.eng.Solutions(context.Background(), w.who(), shopping.Query{SearchID: st.SearchID, Sort: sort, Page: n, PageSize: size}, "en")
				if err != nil {
					t.Fatal(err)
				}
				byPage[n] = p.Items
			}
			var all []shopping.Solution
			for n := 1; n <= len(pages); n++ {
				all = append(all, byPage[n]...)
			}
			return all
		}
		pages := func(size int) []int {
			out := make([]int, (total+size-1)/size)
			for i := range out {
				out[i] = i + 1
			}
			return out
		}
		// Pages of 20 from the third on, then the first two; pages of 100
		// from the last back to the first.
		twenties := pages(20)
		twenties = append(twenties[2:], 1, 2)
		hundreds := pages(100)
		slices.Reverse(hundreds)
		small, large := read(20, twenties), read(100, hundreds)
		if len(small) != total || len(large) != total {
			t.Fatalf("%s: %d and %d solutions read, want %d", sort, len(small), len(large), total)
		}
		seen := map[string]bool{}
		for i := range small {
			if small[i].ID != large[i].ID {
				t.Fatalf("%s: solution %d is %s in pages of 20, %s in pages of 100", sort, i, small[i].ID, large[i].ID)
			}
			if seen[small[i].ID] {
				t.Fatalf("%s: solution %s read twice", sort, small[i].ID)
			}
			seen[small[i].ID] = true
			if i == 0 {
				continue
			}
			prev, cur := small[i-1], small[i]
			switch sort {
			case shopping.SortPrice:
				if amount(t, cur.Total) < amount(t, prev.Total) {
					t.Fatalf("price order: %s after %s", cur.Total.Amount, prev.Total.Amount)
				}
			case shopping.SortTime:
				if cur.Segments[0].DepartAt.Before(prev.Segments[0].DepartAt) {
					t.Fatalf("time order: %s after %s", cur.Segments[0].DepartAt, prev.Segments[0].DepartAt)
				}
			}
		}
	}
}

func amount(t *testing.T, m shopping.Money) float64 {
	t.Helper()
	f, err := strconv.ParseFloat(m.Amount, 64)
	if err != nil {
		t.Fatal(err)
	}
	return f
}
