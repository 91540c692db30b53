package flight

import (
	"testing"

	"github.com/voyage/voyage/pkg/i18n"
)

// TestDocumentStatusesTranslated: every status an order's documents may
// print has its words in every catalog, so a new status does not print as
// a raw code.
func TestDocumentStatusesTranslated(t *testing.T) {
	t.Parallel()
	cat := i18n.MustLoad()
	for _, lang := range []string{i18n.EN, i18n.ZhCN, i18n.ZhTW} {
		for _, s := range Statuses {
			if k := "documents.status." + string(s); !cat.Has(lang, k) {
				t.Errorf("%s: %q missing", lang, k)
			}
		}
	}
}

// TestDocument: the prices a customer reads come from the order's
// breakdown; the agency's cost price is not among them.
func TestDocument(t *testing.T) {
	t.Parallel()
	m := func(a string) Money { return Money{Amount: a, Currency: "CNY"} }
	v := View{BookingNumber: "F1", Status: Issued, PNR: "ABC123", Total: m("1200.00"),
		PriceBreakdown: Breakdown{TicketPrice: m("1000.00"), Taxes: m("150.00"), ServiceFee: m("50.00"), CostPrice: m("900.00"), FareBasis: "YOW"}}
	d := v.Document()
	if d.BookingNumber != "F1" || d.Status != "issued" || d.PNR != "ABC123" || d.Total != v.Total ||
		d.Prices.Fare != m("1000.00") || d.Prices.Taxes != m("150.00") || d.Prices.ServiceFee != m("50.00") || d.Prices.FareBasis != "YOW" {
		t.Fatalf("document %+v", d)
	}
}
