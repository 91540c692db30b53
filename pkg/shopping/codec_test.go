package shopping

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/binary"
	"encoding/gob"
	"fmt"
	"math"
	"math/rand/v2"
	"reflect"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/voyage/voyage/pkg/supplier"
	"github.com/voyage/voyage/pkg/supplier/sim"
)

// encodePartsGob is the encoder the codec replaced: it writes the payloads
// an older instance still stores during a rolling deploy.
func encodePartsGob(tb testing.TB, parts []Part) []byte {
	tb.Helper()
	w := make([]wirePart, len(parts))
	for i, p := range parts {
		w[i] = wirePart{Name: p.Name, Supplier: p.Supplier, Status: p.Status, Offers: p.Offers}
	}
	var buf bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&buf, gzip.BestSpeed)
	if err := gob.NewEncoder(zw).Encode(w); err != nil {
		tb.Fatal(err)
	}
	if err := zw.Close(); err != nil {
		tb.Fatal(err)
	}
	return buf.Bytes()
}

// simAnswers are real answers of the three simulated suppliers: long-haul
// returns from gds and ndc, and lcc's one-way offers per journey on a route
// low-cost carriers fly.
var simAnswers = []struct {
	profile  string
	from, to string
	pax      supplier.Passengers
}{
	{"gds", "PEK", "LHR", supplier.Passengers{Adult: 1}},
	{"ndc", "PEK", "LHR", supplier.Passengers{Adult: 2, Child: 1, Infant: 1}},
	{"lcc", "BKK", "SIN", supplier.Passengers{Adult: 1, Child: 1}},
}

func simOffers(tb testing.TB, profile, from, to string, pax supplier.Passengers) []supplier.Offer {
	tb.Helper()
	s, err := sim.New(sim.Steady(profile, 1))
	if err != nil {
		tb.Fatal(err)
	}
	day := func(n int) string { return time.Now().AddDate(0, 0, n).Format(time.DateOnly) }
	offers, err := s.Search(context.Background(), supplier.SearchRequest{Passengers: pax, Journeys: []supplier.JourneyQuery{
		{Origin: from, Destination: to, Date: day(30)}, {Origin: to, Destination: from, Date: day(37)}}})
	if err != nil {
		tb.Fatal(err)
	}
	if len(offers) == 0 {
		tb.Fatalf("%s %s-%s: no offers", profile, from, to)
	}
	return offers
}

// simBatch is a batch as the engine stores it: every supplier's answer and
// a failed and a timed-out call.
func simBatch(tb testing.TB) []Part {
	tb.Helper()
	var parts []Part
	for _, a := range simAnswers {
		parts = append(parts, Part{Name: a.profile + "/main", Supplier: a.profile, Status: PartDone,
			Offers: simOffers(tb, a.profile, a.from, a.to, a.pax)})
	}
	return append(parts, Part{Name: "duffel/main", Supplier: "duffel", Status: PartFailed},
		Part{Name: "ndc/leg/0/PEK-DXB", Supplier: "ndc", Status: PartTimeout})
}

// encodeParts is a batch's payload as the engine stores it.
func encodeParts(parts []Part) ([]byte, error) {
	b, err := EncodeBatch("", parts)
	return b.Payload, err
}

func mustEncode(tb testing.TB, parts []Part) []byte {
	tb.Helper()
	b, err := encodeParts(parts)
	if err != nil {
		tb.Fatal(err)
	}
	return b
}

func mustDecode(tb testing.TB, b []byte, seq int64) []Part {
	tb.Helper()
	parts, err := decodeParts(b, seq)
	if err != nil {
		tb.Fatal(err)
	}
	return parts
}

// sameTime says whether got is want as stored: the same instant at the same
// UTC offset (the zone's name and rules are not kept).
func sameTime(got, want time.Time) bool {
	if want.IsZero() {
		return got.IsZero()
	}
	_, gotOff := got.Zone()
	_, wantOff := want.Zone()
	return got.Equal(want) && gotOff == wantOff
}

// normalized is o with its times checked by sameTime and cleared, and empty
// slices nil, as every stored form reads them back.
func normalized(t *testing.T, where string, got, want supplier.Offer) (supplier.Offer, supplier.Offer) {
	t.Helper()
	check := func(field string, g, w *time.Time) {
		if !sameTime(*g, *w) {
			t.Errorf("%s %s = %v, want %v", where, field, *g, *w)
		}
		*g, *w = time.Time{}, time.Time{}
	}
	got.Segments, want.Segments = slices.Clone(got.Segments), slices.Clone(want.Segments)
	if len(got.Segments) == len(want.Segments) {
		for i := range got.Segments {
			check("DepartAt", &got.Segments[i].DepartAt, &want.Segments[i].DepartAt)
			check("ArriveAt", &got.Segments[i].ArriveAt, &want.Segments[i].ArriveAt)
		}
	}
	check("ExpiresAt", &got.ExpiresAt, &want.ExpiresAt)
	for _, o := range []*supplier.Offer{&got, &want} {
		o.Segments, o.Fares = nilIfEmpty(o.Segments), nilIfEmpty(o.Fares)
		o.Journeys = nilIfEmpty(o.Journeys)
		if o.Journeys != nil {
			o.Journeys = slices.Clone(o.Journeys)
			for i := range o.Journeys {
				o.Journeys[i] = nilIfEmpty(o.Journeys[i])
			}
		}
		r := &o.Restrictions
		r.Documents, r.EligibleCountries, r.IneligibleCountries = nilIfEmpty(r.Documents), nilIfEmpty(r.EligibleCountries), nilIfEmpty(r.IneligibleCountries)
	}
	return got, want
}

func nilIfEmpty[T any](s []T) []T {
	if len(s) == 0 {
		return nil
	}
	return s
}

// checkRoundTrip decodes what encodeParts wrote for parts and compares it
// field by field with parts.
func checkRoundTrip(t *testing.T, parts []Part) []Part {
	t.Helper()
	got := mustDecode(t, mustEncode(t, parts), 42)
	if len(got) != len(parts) {
		t.Fatalf("%d parts, want %d", len(got), len(parts))
	}
	for i, p := range parts {
		g := got[i]
		if g.Seq != 42 || g.Name != p.Name || g.Supplier != p.Supplier || g.Status != p.Status {
			t.Errorf("part %d = %d %q %q %q, want 42 %q %q %q", i, g.Seq, g.Name, g.Supplier, g.Status, p.Name, p.Supplier, p.Status)
		}
		if len(g.Offers) != len(p.Offers) {
			t.Fatalf("part %s: %d offers, want %d", p.Name, len(g.Offers), len(p.Offers))
		}
		for j := range p.Offers {
			where := fmt.Sprintf("%s offer %d", p.Name, j)
			gn, wn := normalized(t, where, g.Offers[j], p.Offers[j])
			if !reflect.DeepEqual(gn, wn) {
				t.Errorf("%s:\n got %+v\nwant %+v", where, gn, wn)
			}
		}
	}
	return got
}

// checkLikeGob checks that parts decode exactly, locations included, as
// they did through gob: readers must not notice the change.
func checkLikeGob(t *testing.T, parts []Part, got []Part) {
	t.Helper()
	viaGob := mustDecode(t, encodePartsGob(t, parts), 42)
	if !reflect.DeepEqual(got, viaGob) {
		t.Errorf("decoded batch differs from the gob round trip:\n got %+v\nwant %+v", got, viaGob)
	}
}

func TestCodecRoundTripSim(t *testing.T) {
	t.Parallel()
	for _, a := range simAnswers {
		t.Run(a.profile, func(t *testing.T) {
			parts := []Part{{Name: a.profile + "/main", Supplier: a.profile, Status: PartDone, Offers: simOffers(t, a.profile, a.from, a.to, a.pax)}}
			checkLikeGob(t, parts, checkRoundTrip(t, parts))
		})
	}
	t.Run("batch", func(t *testing.T) {
		parts := simBatch(t)
		checkLikeGob(t, parts, checkRoundTrip(t, parts))
	})
}

func TestCodecRoundTripEdges(t *testing.T) {
	t.Parallel()
	zone := func(name string) *time.Location {
		l, err := time.LoadLocation(name)
		if err != nil {
			t.Fatal(err)
		}
		return l
	}
	london, kolkata, kathmandu := zone("Europe/London"), zone("Asia/Kolkata"), zone("Asia/Kathmandu")
	seg := func(carrier, number string, dep, arr time.Time) supplier.Segment {
		return supplier.Segment{Carrier: carrier, FlightNumber: number, Origin: "PEK", Destination: "LHR", DepartAt: dep, ArriveAt: arr,
			DurationMinutes: int(arr.Sub(dep).Minutes()), Cabin: supplier.CabinEconomy, BookingClass: "Y", FareBasis: "YOW", Aircraft: "77W", SeatsLeft: 9}
	}
	winter := time.Date(2026, 12, 20, 14, 0, 0, 0, london)
	summer := time.Date(2026, 7, 20, 14, 0, 0, 0, london)
	odd := seg("MU", "CA0937", summer, winter) // a codeshare's number, with a leading zero
	odd.OperatingCarrier, odd.DurationMinutes, odd.SeatsLeft = "FM", -3, 0
	full := supplier.Offer{
		Supplier: "gds", Ref: "gds~Y0~t9~0~0~CA.937.PEK.LHR.20261220.Y_CA.938~5f0c2a1e",
		Segments: []supplier.Segment{
			seg("CA", "CA937", time.Date(2026, 12, 20, 13, 0, 0, 0, zone("Asia/Shanghai")), winter),
			seg("BA", "BA12A", summer, time.Date(2026, 7, 21, 2, 30, 0, 0, kolkata)),
			seg("", "9", time.Date(2026, 7, 21, 5, 0, 0, 123456789, kathmandu), time.Date(2026, 7, 21, 9, 0, 17, 1, time.UTC)),
			seg("KL", "KL18446744073709551615", time.Date(1890, 1, 1, 0, 0, 0, 0, zone("Europe/Amsterdam")), time.Date(2026, 1, 1, 0, 0, 0, 0, time.FixedZone("NST", -(3*3600+30*60)))),
			seg("QF", "QF1", time.Date(2026, 1, 1, 0, 0, 0, 0, time.FixedZone("", 14*3600)), time.Date(2026, 1, 1, 0, 0, 0, 0, time.FixedZone("", 14*3600))),
			odd,
			{},
		},
		Journeys: [][]int{{0, 1}, {2, 3, 4, 5, 6}},
		Currency: "CNY",
		Fares: []supplier.PaxFare{
			{Type: supplier.Adult, Count: 2, Base: math.MaxInt64, Taxes: math.MinInt64, AirportTax: -1, FuelSurcharge: 1 << 62},
			{Type: supplier.Child, Count: 1, Base: 454000, Taxes: -183600, AirportTax: 10, FuelSurcharge: 9_000_000_000_000_000_000},
			{Type: supplier.Infant, Count: 1},
		},
		ValidatingCarrier: "CA",
		Brand:             "Flex ✈ 经济舱",
		Baggage:           supplier.Baggage{CheckedPieces: 2, CheckedKg: 23, CabinPieces: 1, CabinKg: 7},
		Conditions:        supplier.Conditions{Refundable: true, RefundFee: 30000, Changeable: true, ChangeFee: -5},
		Restrictions: supplier.Restrictions{MinAge: 12, MaxAge: math.MaxInt32, Documents: []string{"idcard", "passport", ""},
			EligibleCountries: []string{"CN"}, IneligibleCountries: []string{"US", "CN"}},
		TicketingMinutes: 120,
		ExpiresAt:        time.Now().Add(20 * time.Minute),
	}
	bare := supplier.Offer{Supplier: "lcc", Journeys: [][]int{{}}, Restrictions: supplier.Restrictions{Documents: []string{}}}
	moved := full
	moved.Ref = "~_+" + full.Ref + "+_~.deadBEEF.cafe.."
	moved.Journeys = [][]int{{5, 1}, {}, {0, 0, 9}}
	moved.Segments = []supplier.Segment{full.Segments[0], full.Segments[0], seg("CA", "CA937", winter.UTC(), summer.In(time.Local))}
	moved.Fares = []supplier.PaxFare{full.Fares[1], full.Fares[0], full.Fares[1]}
	moved.Conditions.Refundable = false
	moved.Restrictions.Documents = []string{"passport"}
	moved.ExpiresAt = full.ExpiresAt.UTC() // the same instant, another zone
	brand := full
	brand.Brand, brand.Baggage = "Light", supplier.Baggage{}
	brand.Segments = slices.Clone(full.Segments)
	brand.Segments[0].FareBasis = "YOWLT"
	duffel := supplier.Offer{Supplier: "duffel", Ref: "off_0000AXQ8dWBqkGa4NF6hYs+off_0000AXQ8dWBqkGa4NF6hYt", Currency: "GBP"}
	// Field strings are found again by their address and length first:
	// strings cut from one string share an address.
	cut := strings.Repeat("PEKX", 2)
	shared := full
	shared.Segments = slices.Clone(full.Segments)
	shared.Segments[0].Origin, shared.Segments[0].Destination, shared.Segments[0].Aircraft = cut[:3], cut[:2], cut[:4]
	shared.Segments[1].Origin, shared.Segments[1].Destination, shared.Segments[1].Aircraft = cut[:2], cut[:3], cut[4:8]

	cases := []struct {
		name  string
		parts []Part
	}{
		{"no parts", []Part{}},
		{"parts without offers", []Part{{Name: "gds/main", Supplier: "gds", Status: PartFailed}, {Name: "lcc/j0", Status: PartTimeout, Offers: []supplier.Offer{}}}},
		{"empty strings and zero values", []Part{{Offers: []supplier.Offer{{}, {}}}}},
		{"every field", []Part{{Name: "gds/main", Supplier: "gds", Status: PartDone, Offers: []supplier.Offer{full}}}},
		{"empty slices", []Part{{Name: "lcc/j0", Supplier: "lcc", Status: PartDone, Offers: []supplier.Offer{bare, bare}}}},
		{"neighbours alike and not", []Part{
			{Name: "a", Supplier: "gds", Status: PartDone, Offers: []supplier.Offer{full, full, brand, moved, full, bare, full}},
			{Name: "b", Supplier: "duffel", Status: PartDone, Offers: []supplier.Offer{duffel, moved, duffel, bare, brand}}}},
		{"strings sharing an address", []Part{{Name: "gds/main", Supplier: "gds", Status: PartDone, Offers: []supplier.Offer{shared, full, shared}}}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) { checkLikeGob(t, c.parts, checkRoundTrip(t, c.parts)) })
	}

	// gob keeps a negative offset that is not whole minutes wrong (the
	// seconds are read back unsigned); the codec keeps it.
	t.Run("local mean time west of Greenwich", func(t *testing.T) {
		lmt := time.Date(1850, 1, 1, 0, 0, 0, 0, time.FixedZone("LMT", -17762))
		checkRoundTrip(t, []Part{{Offers: []supplier.Offer{{ExpiresAt: lmt, Segments: []supplier.Segment{seg("AA", "AA1", lmt, lmt)}}}}})
	})
}

// TestCodecOffersOwnTheirSlices: offers share nothing a caller could change
// through one of them, as with gob.
func TestCodecOffersOwnTheirSlices(t *testing.T) {
	t.Parallel()
	o := simOffers(t, "ndc", "PEK", "LHR", supplier.Passengers{Adult: 1})[0]
	o.Restrictions.Documents = []string{"passport", "idcard"}
	got := mustDecode(t, mustEncode(t, []Part{{Offers: []supplier.Offer{o, o}}}), 1)[0].Offers
	a, b := got[0], got[1]
	a.Restrictions.Documents[0] = "changed"
	a.Journeys[0][0] = 99
	a.Segments[0].Carrier = "XX"
	a.Fares[0].Base = -1
	a.Segments = append(a.Segments, supplier.Segment{})
	if b.Restrictions.Documents[0] != "passport" || b.Journeys[0][0] != 0 || b.Segments[0].Carrier == "XX" || b.Fares[0].Base == -1 {
		t.Fatalf("changing one offer changed the other: %+v", b)
	}
}

func TestCodecZoneOffsetOutOfRange(t *testing.T) {
	t.Parallel()
	o := supplier.Offer{ExpiresAt: time.Date(2026, 1, 1, 0, 0, 0, 0, time.FixedZone("", maxZoneOffset+60))}
	_, err := encodeParts([]Part{{Offers: []supplier.Offer{o}}})
	if err == nil || !strings.HasPrefix(err.Error(), "shopping: encode answers: ") {
		t.Fatalf("err = %v, want an encode error", err)
	}
}

// TestDecodePartsGob reads a batch in the format an older release wrote.
func TestDecodePartsGob(t *testing.T) {
	t.Parallel()
	parts := simBatch(t)
	old := encodePartsGob(t, parts)
	if !isGzip(old) {
		t.Fatalf("gob payload starts %x", old[:2])
	}
	got := mustDecode(t, old, 9)
	want := mustDecode(t, mustEncode(t, parts), 9)
	if !reflect.DeepEqual(got, want) {
		t.Fatal("gob payload decodes differently from the current format")
	}
	if _, err := decodeParts(old[:len(old)/2], 9); err == nil || !strings.HasPrefix(err.Error(), "shopping: decode answers: ") {
		t.Fatalf("truncated gob payload: err = %v", err)
	}
}

func TestCodecPayloadSize(t *testing.T) {
	t.Parallel()
	for _, a := range simAnswers {
		parts := []Part{{Name: a.profile + "/main", Supplier: a.profile, Status: PartDone, Offers: simOffers(t, a.profile, a.from, a.to, a.pax)}}
		n, old := len(mustEncode(t, parts)), len(encodePartsGob(t, parts))
		t.Logf("%s: %d offers, %d bytes (gob+gzip %d)", a.profile, len(parts[0].Offers), n, old)
		if n >= old {
			t.Errorf("%s: payload %d bytes, not smaller than gob+gzip's %d", a.profile, n, old)
		}
	}
}

func TestDecodePartsCorrupt(t *testing.T) {
	t.Parallel()
	valid := mustEncode(t, []Part{{Name: "gds/main", Supplier: "gds", Status: PartDone, Offers: simOffers(t, "gds", "PEK", "LHR", supplier.Passengers{Adult: 1})[:3]}})
	header := func(c counts) []byte {
		b := []byte{partsVersion}
		for _, v := range c {
			b = binary.AppendUvarint(b, v)
		}
		return b
	}
	uv := func(b []byte, vs ...uint64) []byte {
		b = bytes.Clone(b)
		for _, v := range vs {
			b = binary.AppendUvarint(b, v)
		}
		return b
	}
	oneOffer := header(counts{cParts: 1, cOffers: 1, cFares: 1, cOfferFares: 1})
	oneOffer = uv(oneOffer, 1, 1, 1, 1) // a part with no name, supplier or status, and an offer
	cases := []struct {
		name string
		b    []byte
		want string
	}{
		{"empty", nil, "empty payload"},
		{"version only", []byte{partsVersion}, "unexpected EOF"},
		{"unknown version", append([]byte{2}, valid[1:]...), "unknown payload version 2"},
		{"gzip magic, no gzip", []byte{0x1f, 0x8b, 0, 0}, "unexpected EOF"},
		{"trailing byte", append(bytes.Clone(valid), 0), "1 bytes after the last part"},
		{"varint overflow", append([]byte{partsVersion}, bytes.Repeat([]byte{0xff}, 11)...), "varint overflows"},
		{"claims a billion offers", header(counts{cParts: 1, cOffers: 1 << 30}), "exceeds the payload"},
		{"claims a gigabyte of strings", header(counts{cMadeBytes: 1 << 30}), "decoded size exceeds"},
		{"claims a billion journey indexes", header(counts{cJourneyIndexes: 1 << 30}), "decoded size exceeds"},
		{"counts larger than the content", append(header(counts{cParts: 1, cListItems: 1}), 1, 1, 1, 0), "counts do not match"},
		{"undefined string", append(header(counts{cParts: 1}), 2, 1, 1, 0), "string 1 not yet defined"},
		{"undeclared string", append(header(counts{cParts: 1}), 5, 'a', 1, 1, 0), "more strings than declared"},
		{"undefined segment", uv(header(counts{cParts: 1, cOffers: 1, cOfferSegments: 1}), 1, 1, 1, 1, 0, 0, 0, 1, 2), "segment 1 not yet defined"},
		{"offer mask", uv(oneOffer, oAll+1), "offer mask"},
		{"offset of no previous time", uv(oneOffer, oExpiresAt, 0, 0, 0, 0, zoneSame, 0), "no previous offset"},
		{"zone offset", uv(oneOffer, oExpiresAt, 0, 0, 0, 0, zoneNew|zigzag(40000)<<offsetShift, 0), "zone offset 40000 minutes"},
		{"amount overflows", uv(oneOffer, 0, 0, 0, 0, 1, fBase<<1|1, zigzag(1<<60-1)<<2|3), "amount"},
	}
	for i := 1; i < len(valid); i++ {
		cases = append(cases, struct {
			name string
			b    []byte
			want string
		}{"truncated", valid[:i], ""})
	}
	for _, c := range cases {
		parts, err := decodeParts(c.b, 1)
		if err == nil {
			t.Errorf("%s (%d bytes): decoded %d parts, want an error", c.name, len(c.b), len(parts))
			continue
		}
		if !strings.HasPrefix(err.Error(), "shopping: decode answers: ") || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: err = %v, want it wrapped and saying %q", c.name, err, c.want)
		}
	}

	// A damaged byte anywhere must not panic; it may still decode.
	for i := range valid {
		for _, x := range []byte{0x01, 0x80, 0xff} {
			b := bytes.Clone(valid)
			b[i] ^= x
			_, _ = decodeParts(b, 1)
		}
	}
}

// Not parallel: TotalAlloc counts every goroutine's allocations, and the
// package's parallel tests made it fail a correct decoder now and then.
func TestDecodePartsBoundsAllocation(t *testing.T) {
	// 16 bytes claiming 256 MiB of strings.
	b := append(make([]byte, nCounts), 0xff, 0xff, 0xff, 0x7f)
	b[0] = partsVersion
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	_, err := decodeParts(b, 1)
	runtime.ReadMemStats(&after)
	if err == nil {
		t.Fatal("decoded a payload claiming 256 MiB")
	}
	if grown := after.TotalAlloc - before.TotalAlloc; grown > 1<<20 {
		t.Errorf("refusing a 16-byte payload allocated %d bytes", grown)
	}
}

// FuzzDecodeParts feeds the decoder damaged payloads. Payloads in the old
// format are left out: their decoder is gob's, bounded by its size limit.
func FuzzDecodeParts(f *testing.F) {
	parts := simBatch(f)
	for i := range parts {
		parts[i].Offers = parts[i].Offers[:min(len(parts[i].Offers), 4)]
	}
	f.Add(mustEncode(f, parts))
	f.Add(mustEncode(f, parts[len(parts)-2:]))
	f.Add(mustEncode(f, []Part{{Offers: []supplier.Offer{{ExpiresAt: time.Date(2026, 1, 1, 0, 0, 0, 1, time.FixedZone("", 19800))}}}}))
	f.Fuzz(func(t *testing.T, b []byte) {
		if isGzip(b) {
			return
		}
		got, err := decodeParts(b, 3)
		if err != nil {
			if !strings.HasPrefix(err.Error(), "shopping: decode answers: ") {
				t.Fatalf("err = %v, want it wrapped", err)
			}
			return
		}
		// Whatever decodes encodes again to the same answers.
		again, err := decodeParts(mustEncode(t, got), 3)
		if err != nil {
			t.Fatalf("re-encoded payload: %v", err)
		}
		if !reflect.DeepEqual(again, got) {
			t.Fatalf("re-encoded payload decodes differently:\n got %+v\nwant %+v", again, got)
		}
	})
}

func BenchmarkEncodeParts(b *testing.B) {
	parts := simBatch(b)
	for _, c := range []struct {
		name   string
		encode func(testing.TB, []Part) []byte
	}{
		{"gob", encodePartsGob},
		{"binary", mustEncode},
	} {
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			var n int
			for b.Loop() {
				n = len(c.encode(b, parts))
			}
			b.ReportMetric(float64(n), "bytes/payload")
		})
	}
}

func BenchmarkDecodeParts(b *testing.B) {
	parts := simBatch(b)
	for _, c := range []struct {
		name    string
		payload []byte
	}{{"gob", encodePartsGob(b, parts)}, {"binary", mustEncode(b, parts)}} {
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				mustDecode(b, c.payload, 1)
			}
			b.ReportMetric(float64(len(c.payload)), "bytes/payload")
		})
	}
}

// A ref's kept pieces are found by comparing it with the previous ref, not
// by cutting both: the payload must be what cutting both writes, the layout
// the decoder reads.
func TestRefKeepsThePiecesItShares(t *testing.T) {
	t.Parallel()
	// cutRef writes r the plain way: every piece, and those the previous
	// ref's pieces begin with kept; its last as a tail when no separator
	// ends it.
	cutRef := func(e *encoder, prev *[]string, r string) {
		var pieces []string
		start := 0
		for i := 0; i < len(r); i++ {
			if c := r[i]; c == '~' || c == '_' || c == '+' || i == len(r)-1 {
				pieces = append(pieces, r[start:i+1])
				start = i + 1
			}
		}
		kept := 0
		for kept < len(pieces) && kept < len(*prev) && pieces[kept] == (*prev)[kept] {
			kept++
		}
		e.uvarint(uint64(kept))
		e.uvarint(uint64(len(pieces) - kept))
		for k, p := range pieces[kept:] {
			if last := p[len(p)-1]; kept+k == len(pieces)-1 && last != '~' && last != '_' && last != '+' {
				e.tail(p)
			} else {
				e.piece(p)
			}
		}
		*prev = pieces
	}
	refs := []string{
		"gds~Y0~lq3k2a~0~3~CA.937.PEK.LHR.20261220.Y~BA.38.LHR.PEK.20261227.Y",
		"gds~Y0~lq3k2a~0~3~CA.937.PEK.LHR.20261220.Y~BA.38.LHR.PEK.20261227.Y", // the same
		"gds~Y0~lq3k2a~0~3~CA.937.PEK.LHR.20261220.Y~BA.39.LHR.PEK.20261227.Y", // the last piece differs
		"gds~Y0~lq3k2a~0~3~CA.937.PEK.LHR.20261220.Y~BA.39.LHR.PEK.20261227.Y_AF.1.CDG.PEK.20261228.Y",
		"gds~Y0~lq3k2a~0~3~CA.937.PEK.LHR.20261220.Y~BA.39.LHR.PEK.20261227.Y",  // a prefix of the one before
		"gds~Y0~lq3k2a~0~3~CA.937.PEK.LHR.20261220.Y~BA.39.LHR.PEK.20261227.YX", // the last piece longer
		"gds~Y0~lq3k2a~0~3~CA.937.PEK.LHR.20261220.Y~",                          // ends with a separator
		"gds~Y0~lq3k2a~0~3~CA.937.PEK.LHR.20261220.Y~",
		"gds~Y0~lq3k2a~0~3~CA.937.PEK.LHR.20261220.Y", // shorter, no separator at the end
		"",
		"off_0000AbCdEf+1",
		"off_0000AbCdEf+2",
		"off_0000AbCdEf",
		"~~",
		"~",
		"x",
	}
	// Then refs of separators and a few letters at every position, each
	// often sharing a beginning with the one before: the ends of pieces
	// are found eight bytes at a time, and the rest one by one.
	r := rand.New(rand.NewPCG(7, 7))
	const alphabet = "ab.~_+^*" // ^ and * differ from _ and + in the lowest bit
	for range 3000 {
		b := []byte(refs[len(refs)-1])
		b = b[:r.IntN(len(b)+1)]
		for range r.IntN(40) {
			b = append(b, alphabet[r.IntN(len(alphabet))])
		}
		refs = append(refs, string(b))
	}
	got, want := encoders.Get().(*encoder), encoders.Get().(*encoder)
	defer got.release()
	defer want.release()
	var prev []string
	for i, r := range refs {
		got.ref(r)
		cutRef(want, &prev, r)
		if !bytes.Equal(got.buf, want.buf) {
			t.Fatalf("after ref %d %q: wrote %x, want %x", i, r, got.buf, want.buf)
		}
	}
}
