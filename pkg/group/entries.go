package group

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/voyage/voyage/pkg/ledger"
)

// The ledger keeps a group payment's description as it was posted, in
// English ("group PEK-SHA first (20 pax)"), and that text is part of the
// transfer's idempotency hash, so it stays. A reader's wallet writes the
// entry in its own language from the data instead: the stage from the
// transfer's key, which Pay and endDeadlines write as group-<order>-<stage>
// (and -forfeit), the route and the passengers from the order.

// EntryStage reads the order id and stage of a group payment's ledger
// transfer from its idempotency key; ok is false for any other key.
func EntryStage(key string) (orderID int64, stage string, forfeit bool, ok bool) {
	rest, found := strings.CutPrefix(key, "group-")
	if !found {
		return 0, "", false, false
	}
	rest, forfeit = strings.CutSuffix(rest, "-forfeit")
	id, stage, found := strings.Cut(rest, "-")
	if !found || !slices.Contains(Stages, stage) {
		return 0, "", false, false
	}
	n, err := strconv.ParseInt(id, 10, 64)
	if err != nil || n < 1 {
		return 0, "", false, false
	}
	return n, stage, forfeit, true
}

// EntryOrder is what a wallet entry of a group payment names of its order.
type EntryOrder struct {
	ID          int64
	Origin      string // the first journey's, "" when the order has none
	Destination string
	Passengers  int
}

// IsGroupEntry reports whether a ledger entry type is a group payment's.
func IsGroupEntry(typ string) bool {
	return typ == ledger.TypeGroupDeposit || typ == ledger.TypeGroupPayment || typ == ledger.TypeGroupForfeit
}

// EntryOrders reads the group orders of agencyID among bookingNumbers, by
// booking number: a wallet's entries name only their own agency's orders.
func (s *Service) EntryOrders(ctx context.Context, agencyID int64, bookingNumbers []string) (map[string]EntryOrder, error) {
	out := map[string]EntryOrder{}
	if len(bookingNumbers) == 0 {
		return out, nil
	}
	args := []any{agencyID}
	for _, b := range bookingNumbers {
		args = append(args, b)
	}
	var rows []orderRow
	q := `SELECT ` + orderColumns + ` FROM group_orders WHERE agency_id = ? AND booking_number IN (?` + strings.Repeat(", ?", len(bookingNumbers)-1) + `)`
	if err := s.db.SelectContext(ctx, &rows, s.db.Rebind(q), args...); err != nil {
		return nil, fmt.Errorf("group: entry orders: %w", err)
	}
	for _, r := range rows {
		o, err := r.decode()
		if err != nil {
			return nil, err
		}
		e := EntryOrder{ID: o.ID, Passengers: o.Counts.Total()}
		if len(o.Journeys) > 0 {
			e.Origin, e.Destination = o.Journeys[0].Origin, o.Journeys[0].Destination
		}
		out[o.BookingNumber] = e
	}
	return out, nil
}
