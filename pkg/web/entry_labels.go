package web

import (
	"context"
	"log/slog"
	"slices"

	"github.com/voyage/voyage/pkg/group"
	"github.com/voyage/voyage/pkg/i18n"
	"github.com/voyage/voyage/pkg/ledger"
)

// GroupEntries is what the wallet and statements need of pkg/group to write
// group payments in the reader's language; *group.Service implements it.
type GroupEntries interface {
	EntryOrders(ctx context.Context, agencyID int64, bookingNumbers []string) (map[string]group.EntryOrder, error)
}

// entryLabels writes agencyID's group payments among entries in the
// request's language, by entry id, from the payment's stage and its order's
// route and passengers. An entry it cannot write so (its order not found,
// a key of another form) keeps its description as posted.
func (s *Server) entryLabels(ctx context.Context, agencyID int64, entries []ledger.Entry) map[int64]string {
	out := map[int64]string{}
	if s.groupEntries == nil {
		return out
	}
	var numbers []string
	for _, e := range entries {
		if group.IsGroupEntry(e.Type) && e.OrderID != "" && !slices.Contains(numbers, e.OrderID) {
			numbers = append(numbers, e.OrderID)
		}
	}
	if len(numbers) == 0 {
		return out
	}
	orders, err := s.groupEntries.EntryOrders(ctx, agencyID, numbers)
	if err != nil {
		// The posted descriptions still say what the entries are.
		slog.ErrorContext(ctx, "wallet: group orders of entries", "err", err)
		return out
	}
	for _, e := range entries {
		o, found := orders[e.OrderID]
		id, stage, forfeit, ok := group.EntryStage(e.Key)
		if !found || !ok || !group.IsGroupEntry(e.Type) || id != o.ID {
			continue
		}
		key := "clock.group.entry"
		if forfeit {
			key = "clock.group.forfeit"
		}
		args := []any{"stage", i18n.T(ctx, "groupportal.stage."+stage), "pax", o.Passengers}
		if o.Origin == "" {
			key += "NoRoute"
		} else {
			args = append(args, "route", o.Origin+"-"+o.Destination)
		}
		out[e.ID] = i18n.T(ctx, key, args...)
	}
	return out
}
