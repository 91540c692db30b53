package app_test

import (
	"encoding/json"
	"fmt"
	"net/http/httptest"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/voyage/voyage/pkg/app"
	"github.com/voyage/voyage/pkg/flight"
	"github.com/voyage/voyage/pkg/money"
	"github.com/voyage/voyage/pkg/shopping"
)

// TestSupplierQuotesStayWithTheProvider: the suppliers' quotes behind a
// change or a refund hold the provider's net figures in the supplier's
// currency and the supplier's own references. Through the API the provider
// reviewing a request reads them; the booking agency reads the amounts it is
// charged or paid back in its own currency, where the refund goes and what
// comes back as credit, and never a supplier's quote: not in a change
// search's answer, not in a change or refund request.
func TestSupplierQuotesStayWithTheProvider(t *testing.T) {
	t.Parallel()
	flightMoneyTest(t, nil, "20000", func(t *testing.T, a *app.App, srv *httptest.Server, op meData) {
		provider := loginAs(t, srv, "provider-admin", "provider-pass-1")

		// A change search: its options, and nothing of the supplier's.
		qid, _ := quoteWhere(t, srv, op.Token, func(s shopping.Solution) bool { return s.Conditions.Changeable && s.Tickets == 1 })
		o := createOrder(t, srv, op.Token, qid, "quotes-change")
		if code, env := pay(t, srv, op.Token, o.ID, `{"channel":"balance"}`); code != 200 {
			t.Fatalf("pay: %d %+v", code, env)
		}
		if err := a.Orders.Ticket(t.Context(), o.ID, false); err != nil {
			t.Fatal(err)
		}
		_, env := call(t, srv, "POST", fmt.Sprintf("/order/v2/flight/orders/%d/change/search", o.ID), "en",
			fmt.Sprintf(`{"journeys":[{"date":%q}]}`, time.Now().AddDate(0, 0, 27).Format(time.DateOnly)), bearer(op.Token)...)
		var cs flight.ChangeSearch
		if err := json.Unmarshal(env.Data, &cs); err != nil || len(cs.Options) == 0 {
			t.Fatalf("change search: %v %+v", err, env)
		}
		for _, secret := range []string{`"quotes"`, `"supplier"`, `"ref"`} {
			if strings.Contains(string(env.Data), secret) {
				t.Errorf("the agency's change search holds %s: %s", secret, env.Data)
			}
		}

		// The change request it is carried out against, as each side reads it.
		ch := askAfterSale(t, srv, op.Token, o.ID, "change", map[string]string{"reason": "0", "optionId": cs.Options[0].ID}, nil)
		// The provider's page shows the supplier's figures under the quote
		// form's amounts, which use them when left empty; the agency's page
		// for the same request does not.
		asked := getOrder(t, srv, provider.Token, ch.ID)
		if asked.Request == nil || len(asked.Request.SupplierQuotes) != 1 {
			t.Fatalf("the provider reads the change request %+v, want the supplier's quote", asked.Request)
		}
		sq := asked.Request.SupplierQuotes[0]
		due := money.FormatDisplay(money.Amount{Minor: sq.Due, Currency: sq.Currency}.Decimal()) + " " + sq.Currency
		_, page := get(t, portalAs(t, srv, provider.Token), fmt.Sprintf("%s/flight/orders/%d", srv.URL, ch.ID), "Accept-Language", "en")
		shown := regexp.MustCompile(`id="quote-due-hint">[^<]*<`).FindString(page)
		if !strings.Contains(shown, "The supplier quotes "+due+";") || !strings.Contains(page, `aria-describedby="quote-due-hint"`) {
			t.Errorf("the provider's page does not show the supplier's difference %s under its field: %q", due, shown)
		}
		_, page = get(t, portalAs(t, srv, op.Token), fmt.Sprintf("%s/flight/orders/%d", srv.URL, ch.ID), "Accept-Language", "en")
		if strings.Contains(page, "The supplier quotes") || !strings.Contains(page, ch.BookingNumber) {
			t.Error("the agency's page for the change request shows the supplier's quote (or is not the request's page)")
		}
		reviewAfterSale(t, srv, provider.Token, ch.ID, "quote")
		// The refund request the provider approved at the supplier's quote.
		rf := quotedRefund(t, a, srv, provider.Token)

		for _, id := range []int64{ch.ID, rf} {
			theirs := getOrder(t, srv, provider.Token, id)
			if theirs.Request == nil || len(theirs.Request.SupplierQuotes) != 1 || theirs.Request.SupplierQuotes[0].Ref == "" {
				t.Fatalf("order %d: the provider reads request %+v, want the supplier's quote", id, theirs.Request)
			}
			ref := theirs.Request.SupplierQuotes[0].Ref
			_, env := call(t, srv, "GET", fmt.Sprintf("/order/v2/flight/orders/%d", id), "en", "", bearer(op.Token)...)
			var mine flight.View
			if err := json.Unmarshal(env.Data, &mine); err != nil || mine.Request == nil || len(mine.Request.Quotes) != 1 {
				t.Fatalf("order %d: the agency reads %v %s, want the request with one quote's terms", id, err, env.Data)
			}
			for _, secret := range []string{ref, `"supplierQuotes"`} {
				if strings.Contains(string(env.Data), secret) {
					t.Errorf("order %d: the agency's answer holds %s: %s", id, secret, env.Data)
				}
			}
		}
	})
}
