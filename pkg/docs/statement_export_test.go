package docs

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/voyage/voyage/pkg/agency"
	"github.com/voyage/voyage/pkg/fault"
	"github.com/voyage/voyage/pkg/ledger"
	"github.com/voyage/voyage/pkg/siteinfo"
)

// TestStatementExport: the one assembly of a statement's file. A format it
// does not write is the field's error; the ledger's answer (not found)
// passes through; group payments' descriptions that cannot be read fail
// the export; otherwise the file is named for the agency and the period
// and carries the group payment's own description.
func TestStatementExport(t *testing.T) {
	t.Parallel()
	from := time.Date(2026, 10, 1, 0, 0, 0, 0, time.UTC)
	info := ledger.StatementInfo{ID: 7, AgencyID: 3, Currency: "CNY", From: from, To: from.AddDate(0, 1, 0), TimeZone: "UTC"}
	st := ledger.Statement{Entries: []ledger.Entry{{ID: 11, Type: ledger.TypeGroupDeposit, Amount: -180000, Currency: "CNY",
		OrderID: "G1", Description: "group PEK-SHA first (20 pax)", PaidAt: from.Add(time.Hour)}}}
	found := func(context.Context, int64, int64) (ledger.StatementInfo, ledger.Statement, error) {
		return info, st, nil
	}
	site := func(context.Context) (siteinfo.Info, error) { return siteinfo.Info{}, nil }
	labels := func(context.Context, int64, []ledger.Entry, func(string, ...any) string) (map[int64]string, error) {
		return map[int64]string{11: "First deposit of group G1"}, nil
	}
	broken := errors.New("database gone")
	a := agency.Agency{ID: 3, Code: "DEMO"}
	tr := func(key string, args ...any) string { return catalog.T("en", key, args...) }

	for _, c := range []struct {
		name   string
		src    StatementSource
		format string
		check  func(StatementFile, error) bool
	}{
		{"csv", StatementSource{Statement: found, Site: site, Labels: labels}, CSV, func(f StatementFile, err error) bool {
			return err == nil && strings.HasPrefix(f.Name, "statement-DEMO-20261001-20261031") && strings.Contains(string(f.Body), "First deposit of group G1")
		}},
		{"no group line", StatementSource{Statement: found, Site: site}, PDF, func(f StatementFile, err error) bool {
			return err == nil && f.ContentType == ContentType(PDF)
		}},
		{"unknown format", StatementSource{Statement: found, Site: site}, "docx", func(_ StatementFile, err error) bool {
			return fault.From(err).Code == fault.CodeValidation
		}},
		{"not the agency's", StatementSource{Site: site, Statement: func(context.Context, int64, int64) (ledger.StatementInfo, ledger.Statement, error) {
			return info, st, fault.NotFound("")
		}}, CSV, func(_ StatementFile, err error) bool { return fault.From(err).Code == fault.CodeNotFound }},
		{"labels unreadable", StatementSource{Statement: found, Site: site,
			Labels: func(context.Context, int64, []ledger.Entry, func(string, ...any) string) (map[int64]string, error) {
				return nil, broken
			}},
			XLSX, func(_ StatementFile, err error) bool { return errors.Is(err, broken) }},
	} {
		t.Run(c.name, func(t *testing.T) {
			f, err := c.src.Export(context.Background(), a, 7, c.format, "en", tr)
			if !c.check(f, err) {
				t.Fatalf("file %q (%s, %d bytes), err %v", f.Name, f.ContentType, len(f.Body), err)
			}
		})
	}
}
