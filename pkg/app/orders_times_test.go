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
)

// timesOf picks the time fields of an order's JSON as written: the order's
// departure and its segments' times are the airports' local times (their
// offsets), the rest are instants.
func timesOf(t *testing.T, raw json.RawMessage) map[string]string {
	t.Helper()
	var o struct {
		DepartAt  string `json:"departAt"`
		CreatedAt string `json:"createdAt"`
		PayBy     string `json:"payBy"`
		Segments  []struct {
			DepartAt string `json:"departAt"`
			ArriveAt string `json:"arriveAt"`
		} `json:"segments"`
	}
	if err := json.Unmarshal(raw, &o); err != nil {
		t.Fatal(err)
	}
	out := map[string]string{"departAt": o.DepartAt, "createdAt": o.CreatedAt, "payBy": o.PayBy}
	for i, s := range o.Segments {
		out[fmt.Sprintf("segments.%d.departAt", i)] = s.DepartAt
		out[fmt.Sprintf("segments.%d.arriveAt", i)] = s.ArriveAt
	}
	return out
}

// An order read back writes every time as its create answer did: the
// departure at the airport's offset (+08:00 in Beijing), never the same
// instant in UTC, in the detail and in the list.
func TestOrderTimesReadBackAsCreated(t *testing.T) {
	asOperator(t, func(t *testing.T, a *app.App, srv *httptest.Server, op meData) {
		quoteID, _ := quoteFor(t, srv, op.Token)
		resp, env := call(t, srv, "POST", "/order/v2/flight/orders", "en", fmt.Sprintf(adultBody, quoteID), append(bearer(op.Token), "Idempotency-Key", "times-1")...)
		if resp.StatusCode != 201 || env.Code != 0 {
			t.Fatalf("create order: %d %+v", resp.StatusCode, env)
		}
		created := timesOf(t, env.Data)
		if !strings.HasSuffix(created["departAt"], "+08:00") {
			t.Fatalf("created departAt %q, want Beijing's local time (+08:00)", created["departAt"])
		}
		var id struct {
			ID int64 `json:"id"`
		}
		_ = json.Unmarshal(env.Data, &id)
		_, got := call(t, srv, "GET", fmt.Sprintf("/order/v2/flight/orders/%d", id.ID), "en", "", bearer(op.Token)...)
		read := timesOf(t, got.Data)
		for k, v := range created {
			if read[k] != v {
				t.Errorf("%s: created %q, read back %q", k, v, read[k])
			}
		}
		_, list := call(t, srv, "GET", "/order/v2/flight/orders?pageSize=5", "en", "", bearer(op.Token)...)
		var page struct {
			Items []json.RawMessage `json:"items"`
		}
		if err := json.Unmarshal(list.Data, &page); err != nil || len(page.Items) == 0 {
			t.Fatalf("list: %v %s", err, list.Data)
		}
		if listed := timesOf(t, page.Items[0]); listed["departAt"] != created["departAt"] {
			t.Errorf("listed departAt %q, created %q", listed["departAt"], created["departAt"])
		}
	})
}

// A change order is the trip as it will fly: the API and the orders list
// give its new departure, not the one of the order it changes.
func TestChangeOrderListsTheNewDeparture(t *testing.T) {
	t.Parallel()
	seeded(t, func(t *testing.T, a *app.App, srv *httptest.Server) {
		op := loginAs(t, srv, "demo-operator", "demo-pass-1")
		provider := loginAs(t, srv, "provider-admin", "provider-pass-1")
		fund(t, a, op.Company.ID, "50000")
		id := quotedChange(t, a, srv, op.Token, provider.Token, "change-date-1")
		ch := getOrder(t, srv, op.Token, id)
		orig := getOrder(t, srv, op.Token, ch.OriginalID)
		if len(ch.Segments) == 0 || !ch.DepartAt.Equal(ch.Segments[0].DepartAt) {
			t.Fatalf("change order departs %s, its first new segment %+v", ch.DepartAt, ch.Segments)
		}
		if ch.DepartAt.Format(time.DateOnly) == orig.DepartAt.Format(time.DateOnly) {
			t.Fatalf("change order departs on %s, the original's date too", ch.DepartAt)
		}
		_, body := get(t, portalAs(t, srv, op.Token), srv.URL+"/flight/orders?type=change", "Accept-Language", "en")
		row := regexp.MustCompile(`(?s)` + regexp.QuoteMeta(ch.BookingNumber) + `.*?</tr>`).FindString(body)
		if row == "" {
			t.Fatalf("the change list lacks %s", ch.BookingNumber)
		}
		if want := ch.DepartAt.UTC().Format(time.RFC3339); !strings.Contains(row, `datetime="`+want+`"`) {
			t.Errorf("the change order's row lacks its new departure %s: %s", want, row)
		}
	})
}
