package docs

import (
	"context"
	"fmt"
	"slices"

	"github.com/voyage/voyage/pkg/agency"
	"github.com/voyage/voyage/pkg/fault"
	"github.com/voyage/voyage/pkg/ledger"
	"github.com/voyage/voyage/pkg/siteinfo"
)

// StatementSource is where a statement's file is assembled from: the one
// assembly the API, the portal and the terminal serve.
type StatementSource struct {
	// Statement reads one of an agency's statements.
	Statement func(ctx context.Context, agencyID, id int64) (ledger.StatementInfo, ledger.Statement, error)
	// Site is the provider's site, whose name heads the statement.
	Site func(ctx context.Context) (siteinfo.Info, error)
	// Labels are the group payments' own descriptions; nil when the server
	// has no group line.
	Labels func(ctx context.Context, agencyID int64, entries []ledger.Entry, t func(key string, args ...any) string) (map[int64]string, error)
}

// Export is statement id of agency a as a file in format, in lang (t
// translates into it). An unknown format is a validation error on
// "format"; a statement that is not the agency's is not found. Group
// payments' descriptions that cannot be read fail the export: the file
// would otherwise call them posted.
func (src StatementSource) Export(ctx context.Context, a agency.Agency, id int64, format, lang string, t Translate) (StatementFile, error) {
	if !slices.Contains(Formats, format) {
		return StatementFile{}, fault.Validation(map[string]string{"format": "statement.error.format"})
	}
	info, st, err := src.Statement(ctx, a.ID, id)
	if err != nil {
		return StatementFile{}, err
	}
	site, err := src.Site(ctx)
	if err != nil {
		return StatementFile{}, fmt.Errorf("docs: statement %d: site: %w", id, err)
	}
	doc := NewStatement(a, info, st, site, lang, t)
	if src.Labels != nil {
		if doc.Labels, err = src.Labels(ctx, a.ID, st.Entries, t); err != nil {
			return StatementFile{}, fmt.Errorf("docs: statement %d: group payments' descriptions: %w", id, err)
		}
	}
	return ExportStatement(format, doc)
}
