package shopping

import (
	"context"
	"testing"
	"time"

	"github.com/voyage/voyage/pkg/agency"
	"github.com/voyage/voyage/pkg/supplier"
	"github.com/voyage/voyage/pkg/supplier/sim"
)

// simParts answers every call a PEK→LHR return plans with the three
// simulated suppliers, as the engine would store them.
func simParts(tb testing.TB) (*Request, []Part, *Policy) {
	tb.Helper()
	return simPartsIn(tb, 30)
}

// simPartsIn is simParts for a trip leaving in days days.
func simPartsIn(tb testing.TB, days int) (*Request, []Part, *Policy) {
	tb.Helper()
	now := time.Now()
	return simPartsFor(tb, Return, []supplier.JourneyQuery{
		{Origin: "PEK", Destination: "LHR", Date: now.AddDate(0, 0, days).Format(time.DateOnly)},
		{Origin: "LHR", Destination: "PEK", Date: now.AddDate(0, 0, days+7).Format(time.DateOnly)}})
}

// simPartsFor answers every call a search for journeys plans with the
// three simulated suppliers.
func simPartsFor(tb testing.TB, kind string, journeys []supplier.JourneyQuery) (*Request, []Part, *Policy) {
	tb.Helper()
	sources := map[string]Source{}
	for _, p := range sim.Profiles {
		s, err := sim.New(sim.Steady(string(p), 1))
		if err != nil {
			tb.Fatal(err)
		}
		sources[string(p)] = Source{Supplier: s, OneWayOnly: p == sim.ProfileLCC}
	}
	e := New(sources, Options{})
	now := time.Now()
	req := &Request{BookingType: kind, Passengers: supplier.Passengers{Adult: 1}, Journeys: journeys}
	if errs := req.Normalize(now); len(errs) > 0 {
		tb.Fatal(errs)
	}
	p := PolicyFor(agency.Config{Settings: agency.Settings{SettlementCurrency: "CNY"}}, map[string]string{"CNY": "1"})
	var parts []Part
	for _, c := range e.plan(req, &p) {
		offers, err := sources[c.source].Supplier.Search(context.Background(), c.req)
		if err != nil {
			tb.Fatal(err)
		}
		parts = append(parts, Part{Name: c.part, Supplier: c.source, Status: PartDone, Offers: offers})
	}
	return req, parts, &p
}

// BenchmarkBuild is the whole pipeline from stored answers to priced
// solutions for one PEK→LHR return (what a poll does once the answers are in).
func BenchmarkBuild(b *testing.B) {
	req, parts, p := simParts(b)
	n := 0
	for _, pt := range parts {
		n += len(pt.Offers)
	}
	b.ReportAllocs()
	var views int
	for b.Loop() {
		views = len(build(req, parts, p, time.Now()))
	}
	b.ReportMetric(float64(views), "solutions")
	b.ReportMetric(float64(n), "offers")
	b.ReportMetric(float64(len(parts)), "parts")
}

// BenchmarkQueryGrouped is a results query over one PEK→LHR return's
// solutions sorted by price, without and with grouping by outbound (what a
// portal poll adds), against the build it follows.
func BenchmarkQueryGrouped(b *testing.B) {
	req, parts, p := simParts(b)
	views := build(req, parts, p, time.Now())
	bd, _ := boundsOf(Filters{}, "CNY")
	for _, grouped := range []bool{false, true} {
		name := "sorted"
		if grouped {
			name = "grouped"
		}
		b.Run(name, func(b *testing.B) {
			b.ReportAllocs()
			groups := 0
			for b.Loop() {
				items, order, _ := query(views, Filters{}, bd, SortPrice, "en")
				order.sortFirst(items, len(items))
				if grouped {
					_, starts := gatherOutbound(items)
					groups = len(starts)
				}
			}
			b.ReportMetric(float64(len(views)), "solutions")
			b.ReportMetric(float64(groups), "groups")
		})
	}
}
