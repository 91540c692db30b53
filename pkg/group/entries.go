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

// entryOrdersChunk bounds the booking numbers of one query, far below the
// engines' limits on bound parameters (a year's statement may name many).
const entryOrdersChunk = 500

// EntryOrders reads the group orders of agencyID among bookingNumbers, by
// booking number: a wallet's entries name only their own agency's orders.
func (s *Service) EntryOrders(ctx context.Context, agencyID int64, bookingNumbers []string) (map[string]EntryOrder, error) {
	out := map[string]EntryOrder{}
	for chunk := range slices.Chunk(bookingNumbers, entryOrdersChunk) {
		args := []any{agencyID}
		for _, b := range chunk {
			args = append(args, b)
		}
		var rows []orderRow
		q := `SELECT ` + orderColumns + ` FROM group_orders WHERE agency_id = ? AND booking_number IN (?` + strings.Repeat(", ?", len(chunk)-1) + `)`
		if err := s.DB.SelectContext(ctx, &rows, s.DB.Rebind(q), args...); err != nil {
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
	}
	return out, nil
}

// EntryLabels writes agencyID's group payments among entries with t, the
// reader's catalog, by entry id: "Group order PEK-SHA: First deposit, 20
// passengers", from the payment's stage and its order. An entry it cannot
// write so (its order not found, a key of another form) is left out, to be
// shown as posted.
func (s *Service) EntryLabels(ctx context.Context, agencyID int64, entries []ledger.Entry, t func(key string, args ...any) string) (map[int64]string, error) {
	out := map[int64]string{}
	var numbers []string
	seen := map[string]bool{}
	for _, e := range entries {
		if IsGroupEntry(e.Type) && e.OrderID != "" && !seen[e.OrderID] {
			seen[e.OrderID] = true
			numbers = append(numbers, e.OrderID)
		}
	}
	if len(numbers) == 0 {
		return out, nil
	}
	orders, err := s.EntryOrders(ctx, agencyID, numbers)
	if err != nil {
		return out, err
	}
	for _, e := range entries {
		o, found := orders[e.OrderID]
		id, stage, forfeit, ok := EntryStage(e.Key)
		if !found || !ok || !IsGroupEntry(e.Type) || id != o.ID {
			continue
		}
		key := "clock.group.entry"
		if forfeit {
			key = "clock.group.forfeit"
		}
		args := []any{"stage", t("groupportal.stage." + stage), "pax", o.Passengers}
		if o.Origin == "" {
			key += "NoRoute"
		} else {
			args = append(args, "route", o.Origin+"-"+o.Destination)
		}
		out[e.ID] = t(key, args...)
	}
	return out, nil
}
