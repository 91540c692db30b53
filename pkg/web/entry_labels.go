package web

import (
	"context"
	"log/slog"
	"maps"

	"github.com/voyage/voyage/pkg/i18n"
	"github.com/voyage/voyage/pkg/ledger"
	"github.com/voyage/voyage/pkg/train"
)

// GroupEntries is what the wallet and statements need of pkg/group to write
// group payments in the reader's language; *group.Service implements it.
type GroupEntries interface {
	EntryLabels(ctx context.Context, agencyID int64, entries []ledger.Entry, t func(key string, args ...any) string) (map[int64]string, error)
}

// entryLabels is agencyID's group payments among entries in the request's
// language, by entry id (group.Service.EntryLabels), and its train entries
// with their stations' names in that language (train.EntryDescription);
// without them the entries read as posted.
func (s *Server) entryLabels(ctx context.Context, agencyID int64, entries []ledger.Entry) map[int64]string {
	out := map[int64]string{}
	if s.groupEntries != nil {
		groups, err := s.groupEntries.EntryLabels(ctx, agencyID, entries, func(key string, args ...any) string { return i18n.T(ctx, key, args...) })
		if err != nil {
			// The posted descriptions still say what the entries are.
			slog.ErrorContext(ctx, "wallet: group payments' descriptions", "err", err)
		}
		maps.Copy(out, groups)
	}
	if s.trains != nil {
		lang := i18n.Lang(ctx)
		name := func(code string) string { return s.trains.StationName(code, lang) }
		for _, e := range entries {
			if !train.IsTrainEntry(e.Type) {
				continue
			}
			if d, ok := train.EntryDescription(e.Description, name); ok {
				out[e.ID] = d
			}
		}
	}
	return out
}
