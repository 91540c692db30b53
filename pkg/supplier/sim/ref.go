package sim

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/voyage/voyage/pkg/supplier"
)

// An offer's Ref holds everything needed to build the offer again, so Price
// and Book work on any instance without shared state:
//
//	gds~C0~t9x2kw~0~0~CA937.PEK.LHR.20260320.D~CA938.LHR.PEK.20260327.D~5f0c2a1e
//	│   ││ │      │ │ └ journeys: segments (_-separated) as carrier.number.
//	│   ││ │      │ │   origin.destination.local date.booking class
//	│   ││ │      │ └ flags: 1 package changed, 2 documents narrowed
//	│   ││ │      └ price adjustment in per mille of the base fare
//	│   ││ └ pricing time, Unix seconds in base 36 (expiry and advance purchase)
//	│   │└ NDC brand 0–2
//	│   └ cabin: Y economy, W premium economy, C business, F first
//	└ profile
//
// and a checksum. Only URL-safe characters are used. The fare itself is
// recomputed from these and the supplier's seed, so instances must share
// their Config (as they do, read from one configuration).

const (
	flagPackage uint8 = 1 << iota
	flagDocs
)

// spec is a decoded offer.
type spec struct {
	cabin    string
	brand    int
	created  int64
	adj      int
	flags    uint8
	journeys []jspec
}

// jspec is one journey of an offer: its flights and fare class.
type jspec struct {
	legs  []flight
	class int // index into classes[cabin]
}

func (s *Supplier) encode(sp *spec) string {
	var b strings.Builder
	b.WriteString(string(s.profile))
	b.WriteByte('~')
	b.WriteByte(cabinLetters[sp.cabin])
	b.WriteString(strconv.Itoa(sp.brand))
	b.WriteByte('~')
	b.WriteString(strconv.FormatInt(sp.created, 36))
	b.WriteByte('~')
	b.WriteString(strconv.Itoa(sp.adj))
	b.WriteByte('~')
	b.WriteString(strconv.Itoa(int(sp.flags)))
	cls := classes[sp.cabin]
	for _, j := range sp.journeys {
		b.WriteByte('~')
		for i, f := range j.legs {
			if i > 0 {
				b.WriteByte('_')
			}
			b.WriteString(f.carrier)
			b.WriteByte('.')
			b.WriteString(strconv.Itoa(f.number))
			b.WriteByte('.')
			b.WriteString(f.origin)
			b.WriteByte('.')
			b.WriteString(f.dest)
			b.WriteByte('.')
			b.WriteString(f.depart.Format("20060102"))
			b.WriteByte('.')
			b.WriteByte(cls[j.class].code)
		}
	}
	body := b.String()
	return body + "~" + checksum(body)
}

func checksum(body string) string {
	return fmt.Sprintf("%08x", uint32(seeded(0).Str(body).Sum()))
}

// decode parses a Ref. A Ref that is not this supplier's, or garbled, is
// ErrRejected; one whose flight no longer operates is ErrOfferGone.
func (s *Supplier) decode(ref string) (*spec, error) {
	bad := func(why string) error {
		return fmt.Errorf("ref %q: %s: %w", ref, why, supplier.ErrRejected)
	}
	i := strings.LastIndexByte(ref, '~')
	if i < 0 || checksum(ref[:i]) != ref[i+1:] {
		return nil, bad("checksum")
	}
	parts := strings.Split(ref[:i], "~")
	if len(parts) < 6 {
		return nil, bad("too short")
	}
	if parts[0] != string(s.profile) {
		return nil, bad("not a " + string(s.profile) + " offer")
	}
	sp := &spec{}
	if len(parts[1]) != 2 {
		return nil, bad("cabin")
	}
	for c, l := range cabinLetters {
		if l == parts[1][0] {
			sp.cabin = c
		}
	}
	brand := int(parts[1][1] - '0')
	created, err1 := strconv.ParseInt(parts[2], 36, 64)
	adj, err2 := strconv.Atoi(parts[3])
	flags, err3 := strconv.Atoi(parts[4])
	if sp.cabin == "" || brand < 0 || brand > 2 || err1 != nil || err2 != nil || err3 != nil || flags < 0 || flags > 3 || adj <= -1000 {
		return nil, bad("header")
	}
	sp.brand, sp.created, sp.adj, sp.flags = brand, created, adj, uint8(flags)
	cls := classes[sp.cabin]
	for _, jp := range parts[5:] {
		var j jspec
		for k, sg := range strings.Split(jp, "_") {
			f := strings.Split(sg, ".")
			if len(f) != 6 || len(f[5]) != 1 {
				return nil, bad("segment")
			}
			number, err := strconv.Atoi(f[1])
			day, err2 := time.Parse("20060102", f[4])
			if err != nil || err2 != nil {
				return nil, bad("segment")
			}
			idx := -1
			for c := range cls {
				if cls[c].code == f[5][0] {
					idx = c
				}
			}
			if idx < 0 || k > 0 && idx != j.class {
				return nil, bad("class")
			}
			j.class = idx
			fl, ok := patternFor(f[0], f[2], f[3]).find(number, day)
			if !ok {
				return nil, fmt.Errorf("flight %s%s on %s: %w", f[0], f[1], f[4], supplier.ErrOfferGone)
			}
			j.legs = append(j.legs, fl)
		}
		sp.journeys = append(sp.journeys, j)
	}
	return sp, nil
}
