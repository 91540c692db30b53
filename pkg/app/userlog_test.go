package app_test

import (
	"encoding/json"
	"fmt"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/voyage/voyage/pkg/app"
)

// TestUserLogReadsAsSentences: what users do through the API reads, on the
// portal's user log and in the API's summary, as sentences in the reader's
// language naming what changed — never as operation ids or paths — and a
// change a service logs itself is not logged a second time by the router.
func TestUserLogReadsAsSentences(t *testing.T) {
	asOperator(t, func(t *testing.T, a *app.App, srv *httptest.Server, op meData) {
		super := loginAs(t, srv, "demo-super", "demo-pass-1")
		sub := loginAs(t, srv, "sub-super", "demo-pass-1")
		fund(t, a, op.Company.ID, "50000")

		// Book and pay one order, book and cancel another.
		quoteID, _ := quoteFor(t, srv, op.Token)
		paid := createOrder(t, srv, op.Token, quoteID, "log-1")
		if code, env := pay(t, srv, op.Token, paid.ID, `{"channel":"balance"}`); code != 200 || env.Code != 0 {
			t.Fatalf("pay: %d %+v", code, env)
		}
		quoteID, _ = quoteFor(t, srv, op.Token)
		cancelled := createOrder(t, srv, op.Token, quoteID, "log-2")
		if resp, env := call(t, srv, "DELETE", fmt.Sprintf("/order/v2/flight/orders/%d", cancelled.ID), "en", "", bearer(op.Token)...); resp.StatusCode != 200 {
			t.Fatalf("cancel: %d %+v", resp.StatusCode, env)
		}
		// A dry run of the top-up changes nothing and leaves no line.
		if resp, env := call(t, srv, "POST", fmt.Sprintf("/base/v2/agencies/%d/balance/preview", sub.Company.ID), "en",
			`{"amountReceived":"1250","exchangeRate":"1","reference":"log-test"}`, append(bearer(super.Token), "Idempotency-Key", "log-topup")...); resp.StatusCode != 200 {
			t.Fatalf("preview: %d %+v", resp.StatusCode, env)
		}
		if n := countRows(t, a, `SELECT COUNT(*) FROM user_logs WHERE action = 'previewAgencyFunds'`); n != 0 {
			t.Errorf("%d lines for a top-up preview, want none", n)
		}
		// Top up the sub-agency, add a user, save a preference.
		resp, env := call(t, srv, "POST", fmt.Sprintf("/base/v2/agencies/%d/balance", sub.Company.ID), "en",
			`{"amountReceived":"1250","exchangeRate":"1","reference":"log-test"}`, append(bearer(super.Token), "Idempotency-Key", "log-topup")...)
		if resp.StatusCode != 200 {
			t.Fatalf("top-up: %d %+v", resp.StatusCode, env)
		}
		var topUp struct{ Credited, Currency string }
		_ = json.Unmarshal(env.Data, &topUp)
		resp, env = call(t, srv, "POST", "/base/v2/users", "en", `{"username":"li.wei","email":"li.wei@demo.example","role":["operator"],"password":"pass-word-1"}`,
			bearer(super.Token)...)
		if resp.StatusCode != 201 {
			t.Fatalf("create user: %d %+v", resp.StatusCode, env)
		}
		if resp, env := call(t, srv, "PUT", "/base/v2/me/config/timeZone", "en", `"Asia/Tokyo"`, bearer(super.Token)...); resp.StatusCode != 200 {
			t.Fatalf("time zone: %d %+v", resp.StatusCode, env)
		}
		// A search leaves nothing (TestUserLogSkipsSearches); a top-up
		// leaves one line, the agency service's, not the router's too.
		if n := countRows(t, a, `SELECT COUNT(*) FROM user_logs WHERE action IN ('addAgencyFunds', 'agency.funds')`); n != 1 {
			t.Errorf("%d lines for one top-up, want 1", n)
		}

		web := portalAs(t, srv, super.Token)
		pages := []struct {
			lang string
			want []string
		}{
			{"en", []string{
				"Booked flight order " + paid.BookingNumber,
				fmt.Sprintf("Paid flight order %s (%s CNY)", paid.BookingNumber, paid.Total.Amount),
				"Cancelled flight order " + cancelled.BookingNumber,
				fmt.Sprintf("Added 1,250.00 %s to Demo Sub Travel", topUp.Currency),
				"Created user li.wei", "Saved the time zone", "Logged in",
				`<option value="payFlightOrder">Paid a flight order</option>`,
			}},
			{"zh-CN", []string{
				"预订了机票订单 " + paid.BookingNumber,
				fmt.Sprintf("支付了机票订单 %s（%s CNY）", paid.BookingNumber, paid.Total.Amount),
				"取消了机票订单 " + cancelled.BookingNumber,
				fmt.Sprintf("为 Demo Sub Travel 充值 1,250.00 %s", topUp.Currency),
				"创建了用户 li.wei", "保存了时区", "登录",
				`<option value="payFlightOrder">支付了机票订单</option>`,
			}},
		}
		for _, p := range pages {
			res, body := get(t, web, srv.URL+"/user-log?pageSize=100", "Accept-Language", p.lang)
			if res.StatusCode != 200 {
				t.Fatalf("%s: user log %d", p.lang, res.StatusCode)
			}
			if topUp.Credited != "1250.00" {
				t.Errorf("credited %q", topUp.Credited)
			}
			for _, w := range p.want {
				if !strings.Contains(body, w) {
					t.Errorf("%s: the user log lacks %q", p.lang, w)
				}
			}
			for _, code := range []string{">createFlightOrder<", ">payFlightOrder<", ">cancelFlightOrder<", "/order/v2", "/base/v2", ">user.create<", ">agency.funds<", "config:timeZone"} {
				if strings.Contains(body, code) {
					t.Errorf("%s: the user log shows %q", p.lang, code)
				}
			}
		}
		// The filter takes the action's code and shows its lines only.
		_, body := get(t, web, srv.URL+"/user-log?action=payFlightOrder", "Accept-Language", "en")
		if !strings.Contains(body, "Paid flight order "+paid.BookingNumber) || strings.Contains(body, "Booked flight order") {
			t.Error("the payment filter does not show the payment alone")
		}

		// The API keeps its action and target for integrators and adds the
		// sentence in the request's language.
		resp, env = call(t, srv, "GET", "/base/v2/user-logs?action=payFlightOrder", "zh-cn", "", bearer(super.Token)...)
		var page struct {
			Items []struct {
				Action, Target, Summary string
				Facts                   map[string]string
			}
		}
		if err := json.Unmarshal(env.Data, &page); err != nil || resp.StatusCode != 200 || len(page.Items) != 1 {
			t.Fatalf("user-logs: %d %v %s", resp.StatusCode, err, env.Data)
		}
		it := page.Items[0]
		if it.Action != "payFlightOrder" || it.Target != fmt.Sprintf("POST /order/v2/flight/orders/%d/payment", paid.ID) ||
			it.Summary != fmt.Sprintf("支付了机票订单 %s（%s CNY）", paid.BookingNumber, paid.Total.Amount) || it.Facts["order"] != paid.BookingNumber {
			t.Errorf("API entry %+v", it)
		}
	})
}
