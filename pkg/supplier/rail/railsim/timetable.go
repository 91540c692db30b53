package railsim

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/voyage/voyage/pkg/supplier/rail"
)

// china is China Standard Time; a fixed zone so the simulator needs no
// tzdata (China has had no daylight saving since 1991).
var china = time.FixedZone("CST", 8*3600)

// typeSpeed is each train type's top speed (RAIL.md) and the share of the
// lower of it and the line's design speed a train averages between stops.
// The shares are fitted so the Beijing–Shanghai run times come out near
// the published ones: G1 about 4 h 30, Z about 11 h 30, T about 14 h 30,
// K about 18 h, the ordinary 1461 about 22 h.
var typeSpeed = map[string]struct {
	kmh   int
	share float64
}{
	rail.TypeG:        {350, 0.86},
	rail.TypeC:        {350, 0.80},
	rail.TypeD:        {250, 0.86},
	rail.TypeZ:        {160, 0.80},
	rail.TypeT:        {140, 0.72},
	rail.TypeK:        {120, 0.68},
	rail.TypeOrdinary: {100, 0.62},
}

// sleeperShare slows night EMU sleepers so they arrive in the morning, as
// the real 动卧 do.
const sleeperShare = 0.52

// dwell is the stop time and stopLoss the braking and accelerating time
// each intermediate call costs, by high-speed (G, C, D) or not.
func dwell(typ string) (stop, loss time.Duration) {
	if highSpeed(typ) {
		return 2 * time.Minute, 4 * time.Minute
	}
	return 6 * time.Minute, 6 * time.Minute
}

func highSpeed(typ string) bool { return typ == rail.TypeG || typ == rail.TypeD || typ == rail.TypeC }

// train is one scheduled train: its number, type and calls, with times as
// offsets from the departure day's midnight at the first station.
type train struct {
	number   string
	typ      string
	corridor *corridor
	svc      *service
	calls    []call
	// layouts are the train's classes (seats.go), computed once.
	layouts []classLayout
}

type call struct {
	code   string
	km     int           // from the train's first station
	arrive time.Duration // from midnight of the departure day; -1 at the first
	depart time.Duration // -1 at the last
}

// timetable is every train of the network, built once (it does not depend
// on the seed: one simulated world).
type timetable struct {
	trains   []*train
	byNumber map[string]*train
	// byStation lists the trains calling at a station.
	byStation map[string][]*train
}

func buildTimetable(n *network) (*timetable, error) {
	tt := &timetable{byNumber: map[string]*train{}, byStation: map[string][]*train{}}
	for ci := range corridors {
		c := &corridors[ci]
		for _, st := range c.stops {
			if _, ok := n.find(st.code); !ok {
				return nil, fmt.Errorf("corridor %s: unknown station %s", c.id, st.code)
			}
		}
		for si := range c.services {
			svc := &c.services[si]
			first, err1 := clock(svc.first)
			last, err2 := clock(svc.last)
			if err1 != nil || err2 != nil || last < first || svc.perDir < 1 || svc.num%2 != 1 {
				return nil, fmt.Errorf("corridor %s: bad service %+v", c.id, *svc)
			}
			for dir := 0; dir < 2; dir++ {
				for i := 0; i < svc.perDir; i++ {
					num := svc.num + 2*i + dir
					t := &train{number: svc.typ + strconv.Itoa(num), typ: svc.typ, corridor: c, svc: svc}
					dep := first
					if svc.perDir > 1 {
						dep += (last - first) * time.Duration(i) / time.Duration(svc.perDir-1)
					}
					// Spread departures off the even grid by up to ±7
					// minutes, the same every day (hash of the number).
					dep += time.Duration(int(seeded(0).Str(t.number).Intn(0, 15))-7) * time.Minute
					dep = dep.Truncate(time.Minute)
					t.calls = schedule(c, svc, dir == 1, i, dep)
					t.layouts = layouts(t)
					if _, dup := tt.byNumber[t.number]; dup {
						return nil, fmt.Errorf("train number %s twice", t.number)
					}
					tt.byNumber[t.number] = t
					tt.trains = append(tt.trains, t)
					for _, cl := range t.calls {
						tt.byStation[cl.code] = append(tt.byStation[cl.code], t)
					}
				}
			}
		}
	}
	return tt, nil
}

// schedule lays out a train's calls: the stations its pattern stops at,
// run times from distance and speed, dwell and braking losses.
func schedule(c *corridor, svc *service, up bool, idx int, dep time.Duration) []call {
	stops := c.stops
	total := stops[len(stops)-1].km
	ordered := make([]cstop, len(stops))
	for i := range stops {
		if up {
			s := stops[len(stops)-1-i]
			ordered[i] = cstop{s.code, total - s.km, s.level}
		} else {
			ordered[i] = stops[i]
		}
	}
	sp := typeSpeed[svc.typ]
	kmh := float64(min(sp.kmh, c.maxKmh)) * sp.share
	if svc.sleeper {
		kmh = float64(min(sp.kmh, c.maxKmh)) * sleeperShare
	}
	stop, loss := dwell(svc.typ)
	var calls []call
	t := dep
	prevKm := 0
	for i, s := range ordered {
		first, last := i == 0, i == len(ordered)-1
		if !first && !last && !stopsAt(svc.pattern, s.level, idx, i) {
			continue
		}
		if !first {
			t += time.Duration(float64(s.km-prevKm) / kmh * float64(time.Hour))
			t = t.Round(time.Minute)
		}
		cl := call{code: s.code, km: s.km, arrive: -1, depart: -1}
		switch {
		case first:
			cl.depart = t
		case last:
			cl.arrive = t
		default:
			cl.arrive = t + loss
			t = cl.arrive + stop
			cl.depart = t
		}
		prevKm = s.km
		calls = append(calls, cl)
	}
	return calls
}

// stopsAt decides whether the idx-th train of a service calls at the i-th
// station of its corridor.
func stopsAt(pattern string, level, idx, i int) bool {
	switch pattern {
	case "express":
		return level >= 2
	case "regular":
		return level >= 1 || (idx+i)%2 == 0
	}
	return true
}

func clock(s string) (time.Duration, error) {
	h, m, ok := strings.Cut(s, ":")
	if !ok {
		return 0, fmt.Errorf("bad time %q", s)
	}
	hh, err1 := strconv.Atoi(h)
	mm, err2 := strconv.Atoi(m)
	if err1 != nil || err2 != nil || hh > 23 || mm > 59 {
		return 0, fmt.Errorf("bad time %q", s)
	}
	return time.Duration(hh)*time.Hour + time.Duration(mm)*time.Minute, nil
}

// leg is a train's ride from one of its calls to a later one, on a date.
type leg struct {
	t        *train
	from, to int // indexes in t.calls
	day      time.Time
	departAt time.Time
	arriveAt time.Time
}

func (l leg) km() int { return l.t.calls[l.to].km - l.t.calls[l.from].km }

// legs finds the trains departing any of the origin stations on the local
// date and calling later at one of the destination stations. A train that
// left its first station the day before (a night train) counts on the day
// it reaches the origin.
func (tt *timetable) legs(origins, dests []string, date time.Time) []leg {
	isDest := map[string]bool{}
	for _, d := range dests {
		isDest[d] = true
	}
	var out []leg
	seen := map[*train]bool{}
	for _, o := range origins {
		for _, t := range tt.byStation[o] {
			if seen[t] {
				continue
			}
			for fi, fc := range t.calls {
				if fc.code != o || fc.depart < 0 {
					continue
				}
				for ti := fi + 1; ti < len(t.calls); ti++ {
					if !isDest[t.calls[ti].code] {
						continue
					}
					for back := 0; back <= 1; back++ {
						day := date.AddDate(0, 0, -back)
						dep := day.Add(fc.depart)
						if !sameDay(dep, date) {
							continue
						}
						seen[t] = true
						out = append(out, leg{t: t, from: fi, to: ti, day: day,
							departAt: dep, arriveAt: day.Add(t.calls[ti].arrive)})
					}
					break
				}
			}
		}
	}
	return out
}

func sameDay(a, b time.Time) bool {
	ay, am, ad := a.Date()
	by, bm, bd := b.Date()
	return ay == by && am == bm && ad == bd
}

// stops are the leg's calls as the seam shows them.
func (l leg) stops() []rail.Stop {
	out := make([]rail.Stop, 0, l.to-l.from+1)
	base := l.t.calls[l.from].km
	for i := l.from; i <= l.to; i++ {
		c := l.t.calls[i]
		s := rail.Stop{Station: c.code, DistanceKm: c.km - base}
		if c.arrive >= 0 && i != l.from {
			s.Arrive = l.day.Add(c.arrive)
		}
		if c.depart >= 0 && i != l.to {
			s.Depart = l.day.Add(c.depart)
		}
		out = append(out, s)
	}
	return out
}

// durationMinutes of the leg, rounded.
func (l leg) durationMinutes() int {
	return int(math.Round(l.arriveAt.Sub(l.departAt).Minutes()))
}
