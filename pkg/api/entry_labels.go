package api

import (
	"context"
	"log/slog"

	"github.com/voyage/voyage/pkg/i18n"
	"github.com/voyage/voyage/pkg/ledger"
)

// inReadersLanguage rewrites the descriptions of agencyID's group payments
// among entries in the request's language (group.Service.EntryLabels), as
// the portal and the statement export write them: a Chinese caller read
// "Group order PEK-SHA: first deposit, 20 passengers" in English. Without
// the labels the entries read as posted, which still say what they are.
func (s Services) inReadersLanguage(ctx context.Context, agencyID int64, entries []ledger.Entry) {
	if s.Groups == nil || len(entries) == 0 {
		return
	}
	labels, err := s.Groups.EntryLabels(ctx, agencyID, entries, func(key string, args ...any) string { return i18n.T(ctx, key, args...) })
	if err != nil {
		slog.ErrorContext(ctx, "api: group payments' descriptions", "agency", agencyID, "err", err)
	}
	for i := range entries {
		if l, ok := labels[entries[i].ID]; ok {
			entries[i].Description = l
		}
	}
}
