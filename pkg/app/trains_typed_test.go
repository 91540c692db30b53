package app_test

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/voyage/voyage/pkg/app"
	"github.com/voyage/voyage/pkg/app/apptest"
	"github.com/voyage/voyage/pkg/fault"
	"github.com/voyage/voyage/pkg/train"
)

// TestTrainTypedTickets: in manual mode the provider types each passenger's
// coach, seat and ticket number; bad ones are refused with a translated
// message on the field and the order stays waiting; good ones are the
// order's tickets; left off, the railway's own are issued.
func TestTrainTypedTickets(t *testing.T) {
	t.Parallel()
	seeded(t, func(t *testing.T, a *app.App, srv *httptest.Server) {
		first, second, third := apptest.ManualTrainOrder(t, a), apptest.ManualTrainOrder(t, a), apptest.ManualTrainOrder(t, a)
		provider := loginAs(t, srv, "provider-admin", "provider-pass-1").Token
		path := func(id int64) string { return fmt.Sprintf("/order/v2/train/orders/%d/tickets", id) }
		order := func(id int64) train.View {
			_, env := call(t, srv, "GET", fmt.Sprintf("/order/v2/train/orders/%d", id), "en", "", bearer(provider)...)
			var v train.View
			_ = json.Unmarshal(env.Data, &v)
			return v
		}
		pax := order(first).Passengers[0].ID
		fields := func(env envelope) map[string]string {
			var d struct {
				Fields map[string]string `json:"fields"`
			}
			_ = json.Unmarshal(env.Data, &d)
			return d.Fields
		}
		typed := func(id int, coach, seat, number string) string {
			return fmt.Sprintf(`{"passengerId":%d,"coach":%q,"seat":%q,"ticketNumber":%q}`, id, coach, seat, number)
		}
		for _, c := range []struct {
			name, body, field, zh string
		}{
			{"no ticket for the passenger", `{"tickets":[` + typed(pax+7, "05", "12F", "E123456789") + `]}`, "tickets[0].passengerId", "车票：请选择本订单的乘客"},
			{"passenger twice", `{"tickets":[` + typed(pax, "05", "12F", "E123456789") + `,` + typed(pax, "05", "12D", "E123456780") + `]}`, "tickets[1].passengerId", "该乘客已填写车票：每位乘客一张车票"},
			{"coach", `{"tickets":[` + typed(pax, "5A", "12F", "E123456789") + `]}`, "tickets[0].coach", "车厢：一至两位数字，例如 05"},
			{"seat", `{"tickets":[` + typed(pax, "05", "", "E123456789") + `]}`, "tickets[0].seat", "座位：按车票填写，字母和数字，最多 12 个字符（例如 12F、015、07 下铺）"},
			{"ticket number", `{"tickets":[` + typed(pax, "05", "12F", "E-1") + `]}`, "tickets[0].ticketNumber", "票号：6 至 20 位字母和数字"},
		} {
			resp, env := call(t, srv, "POST", path(first), "zh-cn", c.body, bearer(provider)...)
			if resp.StatusCode != 400 || env.Code != fault.CodeValidation || fields(env)[c.field] != c.zh {
				t.Errorf("%s: %d %+v", c.name, resp.StatusCode, env)
			}
			if v := order(first); v.Status != train.Proceeding || len(v.Tickets) != 0 {
				t.Fatalf("%s changed the order: %s %+v", c.name, v.Status, v.Tickets)
			}
		}

		resp, env := call(t, srv, "POST", path(first), "en", `{"remark":"bought at the counter","tickets":[`+typed(pax, "5", "12f", "e987654321")+`]}`, bearer(provider)...)
		var v train.View
		_ = json.Unmarshal(env.Data, &v)
		if resp.StatusCode != 200 || v.Status != train.Issued || len(v.Tickets) != 1 {
			t.Fatalf("typed tickets: %d %+v", resp.StatusCode, env)
		}
		if tk := v.Tickets[0]; tk.Passenger != pax || tk.Coach != "05" || tk.Seat != "12f" || tk.Number != "E987654321" || tk.Status != train.TicketIssued || tk.TrainNumber == "" {
			t.Fatalf("typed ticket: %+v", tk)
		}

		// The number is the first order's now.
		pax2 := order(second).Passengers[0].ID
		resp, env = call(t, srv, "POST", path(second), "zh-tw", `{"tickets":[`+typed(pax2, "06", "01A", "E987654321")+`]}`, bearer(provider)...)
		if resp.StatusCode != 400 || fields(env)["tickets[0].ticketNumber"] != "該票號已用於其他訂單" {
			t.Fatalf("a number another order has: %d %+v", resp.StatusCode, env)
		}
		// Left off: the railway's own tickets.
		resp, env = call(t, srv, "POST", path(third), "en", `{}`, bearer(provider)...)
		_ = json.Unmarshal(env.Data, &v)
		if resp.StatusCode != 200 || v.Status != train.Issued || v.Tickets[0].Number == "" || v.Tickets[0].Number == "E987654321" {
			t.Fatalf("railway's tickets: %d %+v", resp.StatusCode, env)
		}

		r, err := srv.Client().Get(srv.URL + "/openapi.json")
		if err != nil {
			t.Fatal(err)
		}
		raw, _ := io.ReadAll(r.Body)
		r.Body.Close()
		if !strings.Contains(string(raw), `"TrainTypedTicket"`) || !strings.Contains(string(raw), `"passengerId"`) {
			t.Errorf("the OpenAPI document does not describe the typed tickets")
		}
	})
}
