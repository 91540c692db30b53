package rail

import (
	"fmt"
	"time"
)

// Policy holds the rules that vary by railway and over time; RAIL.md asks
// for them as configuration. ChinaRailway returns today's China Railway
// values.
type Policy struct {
	// SalesWindowDays: tickets go on sale this many days ahead, the
	// departure day included (China Railway: 15; older rules 20–60).
	SalesWindowDays int
	// RefundBands, longest lead first.
	RefundBands []FeeBand
	// CloseBefore: online refunds and exchanges close this long before
	// departure.
	CloseBefore time.Duration
	// Exchanges allowed per ticket.
	Exchanges int
	// MinFee is the least fee, in minor units, when a band charges one
	// (China Railway: 2 yuan), never more than the fare itself.
	MinFee int64
	// ExchangeAnyTrainBefore: more than this before departure a ticket may
	// move to any train in the sales window; within it only to a train
	// the same day as the original departure.
	ExchangeAnyTrainBefore time.Duration
}

// ChinaRailway is the China Railway (12306) policy as RAIL.md states it:
// refund free 8 days or more before departure, 5% from 48 h, 10% from
// 24 h, 20% under 24 h; online refunds and changes close 30 minutes before
// departure; one change per ticket. The rounding to 0.5 yuan and the
// 2-yuan minimum fee are 12306's published refund rules.
func ChinaRailway() Policy {
	return Policy{
		SalesWindowDays: 15,
		RefundBands: []FeeBand{
			{MinBefore: 8 * 24 * time.Hour, Percent: 0},
			{MinBefore: 48 * time.Hour, Percent: 5},
			{MinBefore: 24 * time.Hour, Percent: 10},
			{MinBefore: 0, Percent: 20},
		},
		CloseBefore:            30 * time.Minute,
		MinFee:                 200,
		Exchanges:              1,
		ExchangeAnyTrainBefore: 48 * time.Hour,
	}
}

// Validate reports a policy that cannot be applied.
func (p Policy) Validate() error {
	if p.SalesWindowDays < 1 {
		return fmt.Errorf("rail: sales window of %d days", p.SalesWindowDays)
	}
	if len(p.RefundBands) == 0 {
		return fmt.Errorf("rail: no refund bands")
	}
	for i, b := range p.RefundBands {
		if b.Percent < 0 || b.Percent > 100 {
			return fmt.Errorf("rail: refund band %d: %d%%", i, b.Percent)
		}
		if i > 0 && b.MinBefore >= p.RefundBands[i-1].MinBefore {
			return fmt.Errorf("rail: refund bands not longest lead first at %d", i)
		}
	}
	if p.RefundBands[len(p.RefundBands)-1].MinBefore > 0 {
		return fmt.Errorf("rail: the last refund band must start at zero")
	}
	return nil
}

// Conditions are the after-sales conditions an offer under this policy
// carries.
func (p Policy) Conditions() Conditions {
	return Conditions{Refundable: true, RefundBands: append([]FeeBand(nil), p.RefundBands...),
		Exchanges: p.Exchanges, CloseBefore: p.CloseBefore}
}

// RefundFee is the fee kept on refunding a fare of minor units at time at
// for a train departing at depart. China Railway rounds the fee to the
// nearest 0.5 yuan (amounts here are fen: to 50 fen, half up) and charges
// at least MinFee when the band charges anything. It fails with
// ErrRefundClosed within CloseBefore of departure (and after it).
func (p Policy) RefundFee(fare int64, depart, at time.Time) (int64, error) {
	left := depart.Sub(at)
	if left < p.CloseBefore {
		return 0, fmt.Errorf("%s left before departure: %w", left.Round(time.Minute), ErrRefundClosed)
	}
	pct := p.RefundBands[len(p.RefundBands)-1].Percent
	for _, b := range p.RefundBands {
		if left >= b.MinBefore {
			pct = b.Percent
			break
		}
	}
	fee := roundHalfYuan(fare * int64(pct) / 100)
	if pct > 0 && fee < p.MinFee {
		fee = min(p.MinFee, fare)
	}
	return fee, nil
}

// SalesWindow returns the first and last on-sale dates (YYYY-MM-DD) for a
// moment in a railway's zone.
func (p Policy) SalesWindow(now time.Time) (first, last string) {
	return now.Format(time.DateOnly), now.AddDate(0, 0, p.SalesWindowDays-1).Format(time.DateOnly)
}

// OnSale reports whether a local date is in the sales window at now (whose
// zone is the railway's).
func (p Policy) OnSale(date string, now time.Time) bool {
	first, last := p.SalesWindow(now)
	return date >= first && date <= last
}

// roundHalfYuan rounds fen to the nearest 50 fen, half up.
func roundHalfYuan(fen int64) int64 { return (fen + 25) / 50 * 50 }
