package railsim

import (
	"fmt"
	"math/rand/v2"
	"time"

	"github.com/voyage/voyage/pkg/supplier/rail"
)

// Seat layouts by train type. Capacities are those of the usual stock:
// an 8-car CR400/CRH380 (business 9, first 56, second 510 in rows of five,
// A B C | D F), doubled-up 16-car sets on the busiest G services, CRH sleeper
// EMUs with 40 berths a coach, and conventional trains of 2 soft-sleeper
// coaches (36 berths), 10 hard-sleeper coaches (66 berths, a third each
// upper, middle, lower) and 5 hard-seat coaches (118 seats) plus standing.
type layoutKind int

const (
	kindRow      layoutKind = iota // seats in rows with letters
	kindBerth                      // sleeper berths of one level
	kindNumbered                   // hard and soft seats, numbered
	kindStanding                   // no seat
)

type classLayout struct {
	class      string
	kind       layoutKind
	letters    string
	level      string // berth level (lower, middle, upper)
	firstCoach int
	coaches    int
	perCoach   int
}

func (l classLayout) capacity() int { return l.coaches * l.perCoach }

// label is the coach and seat of the i-th place of the class.
func (l classLayout) label(i int) (coach, seat string) {
	c := l.firstCoach + i/l.perCoach
	w := i % l.perCoach
	coach = fmt.Sprintf("%02d", c)
	switch l.kind {
	case kindRow:
		n := len(l.letters)
		seat = fmt.Sprintf("%02d%c", w/n+1, l.letters[w%n])
	case kindBerth:
		lv := l.level
		if lv == "" { // soft and EMU sleepers: lower and upper berths alternate
			lv = "lower"
			if w%2 == 1 {
				lv = "upper"
			}
		}
		seat = fmt.Sprintf("%02d %s", w+1, lv)
	case kindNumbered:
		seat = fmt.Sprintf("%03d", w+1)
	case kindStanding:
		seat = ""
	}
	return coach, seat
}

// letter is the seat letter of the i-th place (0 when the class has none).
func (l classLayout) letter(i int) byte {
	if l.kind != kindRow {
		return 0
	}
	return l.letters[(i%l.perCoach)%len(l.letters)]
}

// layouts lists a train's classes, most expensive first, with coach
// numbers assigned in that order.
func layouts(t *train) []classLayout {
	long := t.svc.pattern == "express" && t.svc.dynamic && seeded(0).Str(t.number).Intn(1, 3) == 0
	cars := 1
	if long {
		cars = 2
	}
	var ls []classLayout
	coach := 1
	add := func(l classLayout) {
		l.firstCoach = coach
		coach += l.coaches
		ls = append(ls, l)
	}
	switch {
	case t.typ == rail.TypeG:
		add(classLayout{class: rail.ClassBusiness, kind: kindRow, letters: "ACF", coaches: cars, perCoach: 9})
		add(classLayout{class: rail.ClassFirst, kind: kindRow, letters: "ACDF", coaches: cars, perCoach: 56})
		add(classLayout{class: rail.ClassSecond, kind: kindRow, letters: "ABCDF", coaches: 6 * cars, perCoach: 85})
	case t.typ == rail.TypeC:
		add(classLayout{class: rail.ClassPremium, kind: kindRow, letters: "ACF", coaches: 1, perCoach: 24})
		add(classLayout{class: rail.ClassFirst, kind: kindRow, letters: "ACDF", coaches: 1, perCoach: 56})
		add(classLayout{class: rail.ClassSecond, kind: kindRow, letters: "ABCDF", coaches: 6, perCoach: 90})
	case t.typ == rail.TypeD && t.svc.sleeper:
		add(classLayout{class: rail.ClassEMUSleeper, kind: kindBerth, coaches: 7, perCoach: 20})
		add(classLayout{class: rail.ClassSecond, kind: kindRow, letters: "ABCDF", coaches: 1, perCoach: 85})
	case t.typ == rail.TypeD:
		add(classLayout{class: rail.ClassFirst, kind: kindRow, letters: "ACDF", coaches: 1, perCoach: 56})
		add(classLayout{class: rail.ClassSecond, kind: kindRow, letters: "ABCDF", coaches: 7, perCoach: 90})
		add(classLayout{class: rail.ClassStanding, kind: kindStanding, firstCoach: 0, coaches: 1, perCoach: 80})
		ls[len(ls)-1].firstCoach = ls[len(ls)-2].firstCoach // standing rides in the second-class coaches
	default:
		if t.typ == rail.TypeZ {
			add(classLayout{class: rail.ClassDeluxeSoftSleeper, kind: kindBerth, coaches: 1, perCoach: 16})
		}
		if t.typ != rail.TypeOrdinary {
			add(classLayout{class: rail.ClassSoftSleeper, kind: kindBerth, coaches: 2, perCoach: 36})
		}
		hs := coach
		for _, lv := range []struct{ class, level string }{
			{rail.ClassHardSleeperLower, "lower"}, {rail.ClassHardSleeperMiddle, "middle"}, {rail.ClassHardSleeperUpper, "upper"},
		} {
			ls = append(ls, classLayout{class: lv.class, kind: kindBerth, level: lv.level, firstCoach: hs, coaches: 10, perCoach: 22})
		}
		coach += 10
		add(classLayout{class: rail.ClassHardSeat, kind: kindNumbered, coaches: 5, perCoach: 118})
		ls = append(ls, classLayout{class: rail.ClassStanding, kind: kindStanding, firstCoach: ls[len(ls)-1].firstCoach, coaches: 1, perCoach: 120})
	}
	return ls
}

// inventory is one class of one train on one day: which places are taken.
type inventory struct {
	layout classLayout
	taken  []bool
	free   int
}

type invKey struct {
	day   string // the train's departure day from its first station
	train string
	class string
}

// newInventory draws the places already sold to other buyers: a load
// factor per (seed, day, train, class) between 0.25 and 1.1 (above 1: sold
// out), scaled by how far ahead the day is (a train 14 days out has sold
// about a third of that), each place then taken with that probability.
// Inventory is per train and class over the whole run, not per section: a
// simplification a real seat map does not make.
func newInventory(seed uint64, k invKey, l classLayout, daysAhead int) *inventory {
	h := seeded(seed).Str(k.day).Str(k.train).Str(k.class)
	load := (0.25 + 0.85*h.Unit(0)) * (1 - 0.045*float64(max(0, daysAhead)))
	r := rand.New(rand.NewPCG(h.Draw(1), h.Draw(2)))
	inv := &inventory{layout: l, taken: make([]bool, l.capacity())}
	for i := range inv.taken {
		if r.Float64() < load {
			inv.taken[i] = true
		} else {
			inv.free++
		}
	}
	return inv
}

// take allocates n places, honouring seat letters where it can: each
// passenger's letter is looked for first from start, then any free place.
func (inv *inventory) take(letters []string, start int) ([]int, bool) {
	if inv.free < len(letters) {
		return nil, false
	}
	c := len(inv.taken)
	out := make([]int, 0, len(letters))
	for _, want := range letters {
		pick := -1
		if want != "" {
			for j := 0; j < c; j++ {
				i := (start + j) % c
				if !inv.taken[i] && inv.layout.letter(i) == want[0] {
					pick = i
					break
				}
			}
		}
		if pick < 0 {
			for j := 0; j < c; j++ {
				i := (start + j) % c
				if !inv.taken[i] {
					pick = i
					break
				}
			}
		}
		inv.taken[pick] = true
		inv.free--
		out = append(out, pick)
		start = pick + 1
	}
	return out, true
}

func (inv *inventory) release(i int) {
	if inv.taken[i] {
		inv.taken[i] = false
		inv.free++
	}
}

// daysAhead counts calendar days from now to a day, both in China time.
func daysAhead(now, day time.Time) int {
	n := time.Date(now.Year(), now.Month(), now.Day(), 0, 0, 0, 0, china)
	return int(day.Sub(n).Hours() / 24)
}
