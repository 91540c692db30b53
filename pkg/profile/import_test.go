package profile_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/voyage/voyage/pkg/fault"
	"github.com/voyage/voyage/pkg/profile"
	"github.com/voyage/voyage/pkg/store"
	"github.com/voyage/voyage/pkg/store/storetest"
)

const docsZhang = "SSR DOCS CA HK1 P/CN/E12345678/CN/12MAY85/M/15MAR30/ZHANG/SAN"

func TestReadDocsLimits(t *testing.T) {
	t.Parallel()
	svc := profile.New(nil)
	idcard := "SSR DOCS CA HK1 I/CN/110101198505120011/CN/12MAY85/M/15MAR30/ZHANG/SAN"
	for _, tc := range []struct {
		name string
		text string
		lim  profile.DocsLimits
		key  string
	}{
		{"passport, no limits", docsZhang, profile.DocsLimits{}, ""},
		{"passport, international", docsZhang, profile.DocsLimits{International: true, Documents: []string{"passport"}}, ""},
		{"ID card, fare takes all", idcard, profile.DocsLimits{Documents: []string{"all"}}, ""},
		{"ID card, domestic airports", idcard, profile.DocsLimits{Airports: []string{"PEK", "SHA", "CAN"}}, ""},
		{"ID card, airports in two countries", idcard, profile.DocsLimits{Airports: []string{"PEK", "NRT"}}, "travellers.import.error.international?name=ZHANG%2FSAN"},
		{"ID card, Hong Kong", idcard, profile.DocsLimits{Airports: []string{"PEK", "HKG"}}, "travellers.import.error.international?name=ZHANG%2FSAN"},
		{"ID card, Macao", idcard, profile.DocsLimits{Airports: []string{"SHA", "MFM"}}, "travellers.import.error.international?name=ZHANG%2FSAN"},
		{"ID card, Taipei", idcard, profile.DocsLimits{Airports: []string{"PVG", "TPE"}}, "travellers.import.error.international?name=ZHANG%2FSAN"},
		{"ID card, within Japan", idcard, profile.DocsLimits{Airports: []string{"NRT", "KIX"}}, "travellers.import.error.international?name=ZHANG%2FSAN"},
		{"ID card, international", idcard, profile.DocsLimits{International: true}, "travellers.import.error.international?name=ZHANG%2FSAN"},
		{"passport, fare takes ID cards only", docsZhang, profile.DocsLimits{Documents: []string{"idcard"}}, "travellers.import.error.documentLimit?name=ZHANG%2FSAN"},
		{"format", "SSR DOCS CA HK1 P/CN", profile.DocsLimits{}, "travellers.import.error.formatLine?line=1"},
		{"nothing to read", "hello", profile.DocsLimits{}, "travellers.import.error.format"},
		{"empty", "", profile.DocsLimits{}, "travellers.import.error.empty"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ps, err := svc.ReadDocs(tc.text, tc.lim)
			if tc.key == "" {
				if err != nil || len(ps) != 1 {
					t.Fatalf("ReadDocs = %+v, %v", ps, err)
				}
				return
			}
			wantField(t, err, "text", tc.key)
		})
	}
}

func TestImportDocs(t *testing.T) {
	t.Parallel()
	storetest.Run(t, func(t *testing.T, db *store.DB) {
		f := setup(t, db)
		ctx := context.Background()
		two := docsZhang + "\nSSR DOCS CA HK1 P/CN/E7654321/CN/01JAN90/F/01JAN31/LI/SI/P2"
		res, err := f.svc.ImportDocs(ctx, f.demo, two, meta)
		if err != nil || len(res.Created) != 2 || res.Skipped != 0 {
			t.Fatalf("import = %+v, %v", res, err)
		}
		if p := res.Created[0]; p.Surname != "ZHANG" || p.DocumentNumber != "E12345678" || p.Birthday != "1985-05-12" || p.DocumentExpiry != "2030-03-15" || p.Type != "adult" {
			t.Fatalf("imported %+v", p)
		}
		// The same paste again adds nobody.
		res, err = f.svc.ImportDocs(ctx, f.demo, two, meta)
		if err != nil || len(res.Created) != 0 || res.Skipped != 2 {
			t.Fatalf("second import = %+v, %v", res, err)
		}
		// Search finds by name, full name and document number; others' rows stay unseen.
		for kw, want := range map[string]int{"zhang": 1, "ZHANG/SAN": 1, "e765": 1, "": 2, "%": 0, "nobody": 0} {
			page, err := f.svc.FindPassengers(ctx, f.demo, kw, profile.Paging{})
			if err != nil || page.Total != want {
				t.Errorf("find %q = %d, %v; want %d", kw, page.Total, err, want)
			}
		}
		if page, _ := f.svc.FindPassengers(ctx, f.other, "zhang", profile.Paging{}); page.Total != 0 {
			t.Errorf("another agency finds %d", page.Total)
		}
		// An ID card DOCS without expiry does not make a saved traveller: nothing is saved.
		_, err = f.svc.ImportDocs(ctx, f.demo, "SSR DOCS CA HK1 P/CN/E1/CN/01JAN90/F/01JAN31/WANG/WU\nSSR DOCS CA HK1 I/CN/110101199001010011/CN/01JAN90/M//WANG/LIU", meta)
		wantField(t, err, "text", "travellers.import.error.incomplete?name=WANG%2FLIU")
		if page, _ := f.svc.FindPassengers(ctx, f.demo, "WANG", profile.Paging{}); page.Total != 0 {
			t.Errorf("a refused import saved %d", page.Total)
		}
		// Past the 30: refused whole.
		var b strings.Builder
		for i := 0; i < profile.MaxPassengers-1; i++ {
			fmt.Fprintf(&b, "SSR DOCS CA HK1 P/CN/X%d/CN/01JAN90/F/01JAN31/MASS/P\n", i)
		}
		_, err = f.svc.ImportDocs(ctx, f.demo, b.String(), meta)
		if fe := wantCode(t, err, fault.CodeConflict, 409); fe.Key != "profile.passenger.error.max" {
			t.Errorf("key %s", fe.Key)
		}
		if page, _ := f.svc.Passengers(ctx, f.demo, profile.Paging{}); page.Total != 2 {
			t.Errorf("after the refused import %d passengers, want 2", page.Total)
		}
	})
}
