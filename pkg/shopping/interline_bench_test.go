package shopping

import (
	"fmt"
	"testing"
	"time"

	"github.com/voyage/voyage/pkg/geo"
	"github.com/voyage/voyage/pkg/supplier"
)

// legFares builds n nonstop one-way fares from→to spread over a day, from
// several carriers and two suppliers, as priced options.
func legFares(from, to string, date time.Time, n int, carriers []string) []*priced {
	out := make([]*priced, 0, n)
	loc, dloc := geo.Location(from), geo.Location(to)
	minutes := int(30 + geo.DistanceKm(from, to)/800*60)
	for i := range n {
		c := carriers[i%len(carriers)]
		dep := time.Date(date.Year(), date.Month(), date.Day(), 0, 0, 0, 0, loc).Add(time.Duration(i*1440/n) * time.Minute)
		sup := []string{"gds", "lcc"}[i%2]
		o := &supplier.Offer{Supplier: sup, Ref: fmt.Sprintf("%s-%s-%s-%d", sup, from, to, i), ValidatingCarrier: c, Currency: "CNY",
			Segments: []supplier.Segment{{Carrier: c, FlightNumber: fmt.Sprintf("%s%d", c, 100+i), Origin: from, Destination: to,
				DepartAt: dep, ArriveAt: dep.Add(time.Duration(minutes) * time.Minute).In(dloc), DurationMinutes: minutes}},
			Journeys: [][]int{{0}},
		}
		total := int64(200000 + (i*7919)%150000)
		out = append(out, &priced{offer: o, total: total, fare: [3]int64{total - 30000}, taxes: [3]int64{30000}})
	}
	return out
}

// BenchmarkInterline combines 2,000 one-way fares on a hub-heavy route
// (PEK→LHR through DXB and IST, 500 first and 500 second legs per hub) and
// reports the combinations evaluated per second.
func BenchmarkInterline(b *testing.B) {
	date := time.Now().AddDate(0, 0, 30)
	pools := legPools{}
	for _, via := range []string{"DXB", "IST"} {
		first := legFares("PEK", via, date, 500, []string{"CA", "EK", "TK", "MU", "CZ"})
		second := append(legFares(via, "LHR", date, 250, []string{"BA", "EK", "TK", "VS"}), legFares(via, "LHR", date.AddDate(0, 0, 1), 250, []string{"BA", "EK", "TK"})...)
		pools[via] = [2][]*priced{first, second}
	}
	b.ReportAllocs()
	b.ResetTimer()
	var evaluated, kept int
	for b.Loop() {
		opts, st := interlineCount(pools, maxInterlinePerJourney)
		evaluated += st.evaluated
		kept = len(opts)
	}
	b.ReportMetric(float64(evaluated)/b.Elapsed().Seconds(), "combinations/s")
	b.ReportMetric(float64(evaluated)/float64(b.N), "combinations/op")
	b.ReportMetric(float64(kept), "kept/op")
}
