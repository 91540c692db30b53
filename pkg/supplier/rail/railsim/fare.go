package railsim

import (
	"math"
	"time"

	"github.com/voyage/voyage/pkg/supplier/rail"
)

// Fares. China Railway publishes a fixed fare per train, section and class;
// the simulator rebuilds them from distance with these rates (CNY):
//
//   - High-speed and EMU trains: a second-class rate per km by train type,
//     the other classes as multiples of it. G 0.4196/km is the published
//     Beijing South–Shanghai Hongqiao second-class floor (553 yuan over
//     1318 km); D 0.31/km approximates the 250 km/h lines (Beijing–Shanghai
//     D second about 409 yuan); C 0.45/km the Beijing–Tianjin intercity
//     (54.5 yuan over 120 km). First class 1.687× and business 3.161× are
//     the Beijing–Shanghai G ratios (933 and 1748 yuan); premium 1.95×,
//     D/C first 1.6× and the EMU sleeper 1.85× are approximations.
//   - Market pricing (dynamic services): since 2020 12306 floats G and D
//     fares on the busiest lines between the floor and about +19.7% (553–662
//     yuan Beijing–Shanghai second class). The simulator lifts the floor by
//     0.197 × demand, demand from the departure hour and weekday.
//   - Conventional trains: the 1955 rate scheme still in force, a hard-seat
//     base of 0.05861 yuan/km tapered by distance (full to 200 km, then 90%,
//     80%, 70%, 60%, 50% from 200, 500, 1000, 1500 and 2500 km), times a
//     type factor that folds in the express, air-conditioning and other
//     supplements: K 2.24, T and Z 2.54, ordinary 1.9, fitted to the
//     Beijing–Shanghai hard-seat fares (K about 156.5, T about 177.5 yuan).
//     Sleepers and soft seats are multiples of the hard seat (hard sleeper
//     upper 1.75×, middle 1.82×, lower 1.9×; soft sleeper 2.8×; deluxe soft
//     sleeper 5.3×; soft seat 1.6×); standing costs the hard-seat fare.
//
// Every fare is rounded to 0.5 yuan, as 12306's are. Ticket types: child
// 50%, disabled military 50%, student 75% in second class, hard seat, hard
// sleeper and standing (full fare in other classes).
var hsrRate = map[string]float64{rail.TypeG: 0.4196, rail.TypeD: 0.31, rail.TypeC: 0.45}

var hsrClassFactor = map[string]float64{
	rail.ClassBusiness:   3.161,
	rail.ClassPremium:    1.95,
	rail.ClassFirst:      1.687,
	rail.ClassSecond:     1,
	rail.ClassEMUSleeper: 1.85,
	rail.ClassStanding:   1,
}

var convTypeFactor = map[string]float64{rail.TypeZ: 2.54, rail.TypeT: 2.54, rail.TypeK: 2.24, rail.TypeOrdinary: 1.9}

var convClassFactor = map[string]float64{
	rail.ClassDeluxeSoftSleeper: 5.3,
	rail.ClassSoftSleeper:       2.8,
	rail.ClassHardSleeperUpper:  1.75,
	rail.ClassHardSleeperMiddle: 1.82,
	rail.ClassHardSleeperLower:  1.9,
	rail.ClassSoftSeat:          1.6,
	rail.ClassHardSeat:          1,
	rail.ClassStanding:          1,
}

const (
	hardSeatBase = 0.05861
	maxLift      = 0.197
)

// taperedKm applies the conventional fare's distance taper.
func taperedKm(km int) float64 {
	bands := []struct {
		upTo  int
		share float64
	}{{200, 1}, {500, 0.9}, {1000, 0.8}, {1500, 0.7}, {2500, 0.6}, {math.MaxInt, 0.5}}
	var eq float64
	prev := 0
	for _, b := range bands {
		if km <= prev {
			break
		}
		eq += float64(min(km, b.upTo)-prev) * b.share
		prev = b.upTo
	}
	return eq
}

// adultFare is the adult fare in fen of a class on a leg.
func adultFare(l leg, class string) int64 {
	km := l.km()
	var yuan float64
	if highSpeed(l.t.typ) {
		yuan = float64(km) * hsrRate[l.t.typ] * hsrClassFactor[class]
		if l.t.svc.dynamic {
			yuan *= 1 + maxLift*demand(l.departAt)
		}
	} else {
		yuan = hardSeatBase * taperedKm(km) * convTypeFactor[l.t.typ] * convClassFactor[class]
	}
	return roundHalfYuan(yuan * 100)
}

// demand is 0 (an early or late train) to 1 (a Friday or Sunday evening peak).
func demand(dep time.Time) float64 {
	var hour float64
	switch h := dep.Hour(); {
	case h >= 7 && h < 10, h >= 16 && h < 19:
		hour = 1
	case h >= 10 && h < 16:
		hour = 0.5
	default:
		hour = 0 // early morning and late evening sell at the floor
	}
	var day float64
	switch dep.Weekday() {
	case time.Friday, time.Sunday:
		day = 1
	case time.Saturday, time.Monday:
		day = 0.7
	default:
		day = 0.45
	}
	return hour * day
}

// typeFare is a ticket type's fare from the adult fare.
func typeFare(adult int64, ticketType, class string) int64 {
	switch ticketType {
	case rail.TicketChild, rail.TicketDisabledMilitary:
		return roundHalfYuan(float64(adult) / 2)
	case rail.TicketStudent:
		switch class {
		case rail.ClassSecond, rail.ClassHardSeat, rail.ClassStanding,
			rail.ClassHardSleeperUpper, rail.ClassHardSleeperMiddle, rail.ClassHardSleeperLower:
			return roundHalfYuan(float64(adult) * 0.75)
		}
	}
	return adult
}

// roundHalfYuan rounds fen to the nearest 50 fen, half up.
func roundHalfYuan(fen float64) int64 { return int64(math.Floor(fen/50+0.5)) * 50 }
