package sim

import (
	"math"
	"time"

	"github.com/voyage/voyage/pkg/geo"
	"github.com/voyage/voyage/pkg/supplier"
)

// validating is the carrier whose fare is sold: the one flying the longest
// leg of the first journey.
func validating(sp *spec) string {
	var best flight
	for _, f := range sp.journeys[0].legs {
		if f.km > best.km {
			best = f
		}
	}
	return best.carrier
}

// profileMult prices the channels: NDC content a little under the GDS's,
// low-cost fares far under both.
var profileMult = map[Profile]float64{ProfileGDS: 1, ProfileNDC: 0.96, ProfileLCC: 0.6}

// journeyFare is one journey's adult base fare in CNY for its origin and
// destination: a per-km rate tapering with distance, the cabin and class,
// advance purchase at pricing time, a discount for connecting, the
// carrier's positioning and a little seeded noise.
func (s *Supplier) journeyFare(sp *spec, j jspec, created time.Time, vc string) float64 {
	first, last := j.legs[0], j.legs[len(j.legs)-1]
	km := geo.DistanceKm(first.origin, last.dest)
	rate := math.Min(math.Max(math.Pow(km/300, -0.3), 0.3), 1.3)
	f := math.Max(rate*km, 250)
	f *= cabinMult[sp.cabin] * classes[sp.cabin][j.class].mult
	f *= apMult(daysOut(created, first.depart))
	if len(j.legs) > 1 {
		f *= 0.88
	}
	if premiumCarriers[vc] {
		f *= 1.08
	}
	f *= 0.94 + 0.12*seeded(0).Str("carrier").Str(vc).Unit(0)
	f *= profileMult[s.profile]
	h := seeded(s.seed).Str(string(s.profile)).Str("fare").Num(uint64(j.class))
	for _, l := range j.legs {
		h = h.Str(l.carrier).Num(uint64(l.number)).Str(l.origin).Str(l.depart.Format(time.DateOnly))
	}
	return f * (0.96 + 0.08*h.Unit(0))
}

// tripMult: gds and ndc price a return as one fare. Full-service carriers
// charge a premium for a one-way on long-haul routes, so their return is
// well under two one-ways there; on short routes, where they compete with
// low-cost one-ways, hardly under. Other multi-journey trips a little under.
func tripMult(sp *spec) float64 {
	n := len(sp.journeys)
	if n < 2 {
		return 1
	}
	a, b := sp.journeys[0], sp.journeys[1]
	if n == 2 &&
		geo.CityOf(a.legs[0].origin) == geo.CityOf(b.legs[len(b.legs)-1].dest) &&
		geo.CityOf(a.legs[len(a.legs)-1].dest) == geo.CityOf(b.legs[0].origin) {
		km := geo.DistanceKm(a.legs[0].origin, a.legs[len(a.legs)-1].dest)
		// 0.92 up to 1,500 km, falling to 0.72 from 6,000 km.
		return 0.92 - 0.2*math.Min(math.Max((km-1500)/4500, 0), 1)
	}
	return 0.97
}

// assemble builds the offer a spec describes for a party. It is a pure
// function of the spec, the party and the supplier's Config: the same Ref
// gives the same offer on every instance.
func (s *Supplier) assemble(sp *spec, pax supplier.Passengers) supplier.Offer {
	created := time.Unix(sp.created, 0).UTC()
	vc := validating(sp)
	var br brand
	if s.profile == ProfileNDC {
		br = brandOf(vc, sp.brand)
	}

	var cny float64
	for _, j := range sp.journeys {
		cny += s.journeyFare(sp, j, created, vc)
	}
	cny *= tripMult(sp)
	if s.profile == ProfileNDC {
		cny *= br.mult
	}
	cny *= 1 + float64(sp.adj)/1000
	adultBase := math.Max(math.Round(cny/10)*10, 10)

	o := supplier.Offer{
		Supplier:          s.Name(),
		Ref:               s.encode(sp),
		Currency:          s.cur.code,
		ValidatingCarrier: vc,
		Brand:             br.name,
		TicketingMinutes:  s.ticketingMinutes(sp, vc),
		ExpiresAt:         created.Add(s.ttl),
	}

	var adult, child taxes
	domCN := allDomesticCN(sp.journeys)
	for _, j := range sp.journeys {
		idx := make([]int, 0, len(j.legs))
		for _, f := range j.legs {
			t := s.legTaxes(f, sp.cabin)
			adult.airport += t.airport
			adult.fuel += t.fuel
			adult.other += t.other
			if !domCN {
				child.airport += t.airport
				child.fuel += t.fuel
				child.other += t.other
			} else {
				child.fuel += math.Round(t.fuel / 2)
			}
			idx = append(idx, len(o.Segments))
			o.Segments = append(o.Segments, supplier.Segment{
				Carrier:         f.carrier,
				FlightNumber:    f.code(),
				Origin:          f.origin,
				Destination:     f.dest,
				DepartAt:        f.depart,
				ArriveAt:        f.arrive,
				DurationMinutes: f.block,
				Cabin:           sp.cabin,
				BookingClass:    string(classes[sp.cabin][j.class].code),
				FareBasis:       fareBasis(sp.cabin, j.class, f, br.code),
				Aircraft:        f.aircraft,
				SeatsLeft:       s.availability(f, sp.cabin, created).seatsAt(j.class),
			})
		}
		o.Journeys = append(o.Journeys, idx)
	}

	fare := func(typ string, count int, base float64, t taxes) supplier.PaxFare {
		pf := supplier.PaxFare{
			Type:          typ,
			Count:         count,
			Base:          s.cur.minor(base, true),
			AirportTax:    s.cur.minor(t.airport, false),
			FuelSurcharge: s.cur.minor(t.fuel, false),
		}
		pf.Taxes = pf.AirportTax + pf.FuelSurcharge + s.cur.minor(t.other, false)
		return pf
	}
	if pax.Adult > 0 {
		o.Fares = append(o.Fares, fare(supplier.Adult, pax.Adult, adultBase, adult))
	}
	if pax.Child > 0 {
		o.Fares = append(o.Fares, fare(supplier.Child, pax.Child, math.Round(adultBase*0.75/10)*10, child))
	}
	if pax.Infant > 0 {
		o.Fares = append(o.Fares, fare(supplier.Infant, pax.Infant, math.Round(adultBase*0.10/10)*10, taxes{}))
	}

	o.Baggage = s.baggage(sp, vc)
	refundable, refundFee, changeable, changeFee := s.conditions(sp, adultBase)
	o.Conditions = supplier.Conditions{
		Refundable: refundable,
		RefundFee:  s.cur.minor(refundFee, false),
		Changeable: changeable,
		ChangeFee:  s.cur.minor(changeFee, false),
	}
	if sp.flags&flagPackage != 0 {
		s.degrade(&o, adultBase)
	}
	o.Restrictions = s.restrictions(sp, vc)
	return o
}

// degrade is what a package change does to an offer: one bag less, or
// dearer or no changes, or no refund; something always differs.
func (s *Supplier) degrade(o *supplier.Offer, adultBase float64) {
	b, c := &o.Baggage, &o.Conditions
	switch {
	case b.CheckedPieces > 1:
		b.CheckedPieces--
	case b.CheckedPieces == 1:
		b.CheckedPieces, b.CheckedKg = 0, 0
	case b.CheckedKg > 10:
		b.CheckedKg -= 10
	case c.Changeable && c.ChangeFee == 0:
		c.ChangeFee = s.cur.minor(math.Max(adultBase*0.1, 150), false)
	case c.Refundable:
		c.Refundable, c.RefundFee = false, 0
	case c.Changeable:
		c.Changeable, c.ChangeFee = false, 0
	case b.CabinKg > 5:
		b.CabinKg -= 2
	default:
		b.CabinPieces, b.CabinKg = 0, 0
	}
}
