package app_test

import (
	"bytes"
	"context"
	"encoding/csv"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/xuri/excelize/v2"

	"github.com/voyage/voyage/pkg/app"
	"github.com/voyage/voyage/pkg/ledger"
	"github.com/voyage/voyage/pkg/payment"
)

// reconcilePayment records a channel payment of the agency paid at paidAt,
// as a channel's notification leaves it.
func reconcilePayment(t *testing.T, a *app.App, agencyID int64, key, channel string, amount, fee int64, paidAt time.Time) {
	t.Helper()
	_, err := a.DB.ExecContext(t.Context(), a.DB.Rebind(`INSERT INTO channel_payments (trade_no, payment_key, channel, line,
		booking_id, stage, agency_id, amount, currency, state, reference, fee, expires_at, paid_at, created_at, updated_at)
		VALUES (?, ?, ?, 'flight', 41, '', ?, ?, 'CNY', 'paid', ?, ?, ?, ?, ?, ?)`),
		payment.TradeNo(key), key, channel, agencyID, amount, "ref-"+key, fee, paidAt.Add(10*time.Minute), paidAt,
		paidAt.Add(-time.Minute), paidAt)
	if err != nil {
		t.Fatal(err)
	}
}

// TestReconciliationPortal: the provider's finance (and SuperUser) open a
// day's channel reconciliation and download it as CSV and XLSX, through
// the whole server on both engines; an agency's finance or SuperUser is
// refused and not shown the entry; a date that is no day is a translated
// 400; the daily job's report logs the day's differences at ERROR and a
// clean day not at all.
func TestReconciliationPortal(t *testing.T) {
	t.Parallel()
	seeded(t, func(t *testing.T, a *app.App, srv *httptest.Server) {
		ctx := t.Context()
		admin := loginAs(t, srv, "provider-admin", "provider-pass-1")
		resp, env := call(t, srv, "POST", "/base/v2/users", "en",
			`{"username":"prov-finance","email":"finance@voyage.example","nickname":"Provider Finance","mobile":"13700137001","areaCode":"86","role":["finance"],"status":"active","password":"pass-word-1"}`,
			bearer(admin.Token)...)
		if resp.StatusCode != http.StatusCreated {
			t.Fatalf("create the provider's finance user: %d %+v", resp.StatusCode, env)
		}
		fin := portalAs(t, srv, loginAs(t, srv, "prov-finance", "pass-word-1").Token)
		super := portalAs(t, srv, admin.Token)
		demoSuper := loginAs(t, srv, "demo-super", "demo-pass-1")
		agencyFinance := portalAs(t, srv, loginAs(t, srv, "demo-finance", "demo-pass-1").Token)
		agencySuper := portalAs(t, srv, demoSuper.Token)
		agencyID := demoSuper.Company.ID

		// 20 November on the provider's clock (Asia/Shanghai): one payment
		// paid and in the ledger, one paid with nothing in the ledger.
		reconcilePayment(t, a, agencyID, "recon-ok", "alipay", 1200_00, 7_20, time.Date(2026, 11, 20, 2, 0, 0, 0, time.UTC))
		reconcilePayment(t, a, agencyID, "recon-lost", "wechat-pay", 800_00, 4_80, time.Date(2026, 11, 20, 3, 0, 0, 0, time.UTC))
		if _, err := a.Ledger.Post(ctx, ledger.Transfer{AgencyID: agencyID, IdempotencyKey: "receipt-recon-ok", From: ledger.Provider(ledger.KindFunding),
			To: ledger.Wallet(agencyID), Amount: 1200_00, Currency: "CNY", PaymentType: ledger.TypeTopUp, OrderID: "41", CreatedBy: "system",
			Detail: map[string]string{"method": "alipay", "for": ledger.TypeOriginFlight}}); err != nil {
			t.Fatal(err)
		}
		page := "/bills/reconciliation?date=2026-11-20"

		for _, c := range []struct {
			who             string
			c               *http.Client
			lang            string
			lost, ok, title string
		}{
			{"the provider's finance", fin, "en", "No ledger entry", "Matched", "Channel reconciliation"},
			{"the provider's SuperUser", super, "zh-cn", "无账本记录", "一致", "支付渠道对账"},
			{"the provider's finance in zh-tw", fin, "zh-tw", "無帳本紀錄", "相符", "支付通路對帳"},
		} {
			t.Run(c.who, func(t *testing.T) {
				res, body := get(t, c.c, srv.URL+page, "Accept-Language", c.lang)
				if res.StatusCode != http.StatusOK {
					t.Fatalf("%d\n%s", res.StatusCode, body)
				}
				lost, ok := strings.Index(body, payment.TradeNo("recon-lost")), strings.Index(body, payment.TradeNo("recon-ok"))
				if lost < 0 || ok < 0 || lost > ok {
					t.Errorf("the difference is not listed before the matched payment (%d, %d)", lost, ok)
				}
				for _, want := range []string{c.title, c.lost, c.ok, `<caption class="visually-hidden">`, `<th scope="col">`, `<th scope="row"`,
					`href="/bills/reconciliation/export?date=2026-11-20&amp;format=csv"`, `href="/bills/reconciliation/export?date=2026-11-20&amp;format=xlsx"`,
					`data-flag="no-ledger"`, `href="/bills/reconciliation"`, `<a href="/flight/orders/41">`, "1,200.00", "7.20", "1,192.80"} {
					if !strings.Contains(body, want) {
						t.Errorf("the page lacks %q", want)
					}
				}
			})
		}

		t.Run("the CSV", func(t *testing.T) {
			res, body := get(t, fin, srv.URL+"/bills/reconciliation/export?date=2026-11-20&format=csv", "Accept-Language", "en")
			if res.StatusCode != http.StatusOK || res.Header.Get("Content-Type") != "text/csv; charset=utf-8" ||
				res.Header.Get("Content-Disposition") != `attachment; filename="reconciliation-20261120.csv"` {
				t.Fatalf("%d %q %q", res.StatusCode, res.Header.Get("Content-Type"), res.Header.Get("Content-Disposition"))
			}
			rows, err := csv.NewReader(strings.NewReader(strings.TrimPrefix(body, "\ufeff"))).ReadAll()
			if err != nil {
				t.Fatal(err)
			}
			if len(rows) != 3 || rows[0][0] != "Check" || rows[1][0] != "No ledger entry" || rows[1][3] != payment.TradeNo("recon-lost") ||
				rows[2][0] != "Matched" || rows[2][8] != "1200.00" || rows[2][9] != "7.20" || rows[2][10] != "1192.80" || rows[2][12] != "1200.00" ||
				!strings.HasPrefix(rows[2][6], "Demo Travel") {
				t.Errorf("rows %q", rows)
			}
		})
		t.Run("the XLSX", func(t *testing.T) {
			res, body := get(t, super, srv.URL+"/bills/reconciliation/export?date=2026-11-20&format=xlsx", "Accept-Language", "zh-cn")
			if res.StatusCode != http.StatusOK || res.Header.Get("Content-Disposition") != `attachment; filename="reconciliation-20261120.xlsx"` {
				t.Fatalf("%d %q", res.StatusCode, res.Header.Get("Content-Disposition"))
			}
			x, err := excelize.OpenReader(bytes.NewReader([]byte(body)))
			if err != nil {
				t.Fatal(err)
			}
			defer x.Close()
			rows, err := x.GetRows("支付渠道对账")
			if err != nil {
				t.Fatal(err)
			}
			if len(rows) != 3 || rows[0][0] != "核对结果" || rows[1][0] != "无账本记录" || rows[2][0] != "一致" {
				t.Errorf("rows %q", rows)
			}
			if v, _ := x.GetCellValue("支付渠道对账", "K3", excelize.Options{RawCellValue: true}); v != "1192.8" {
				t.Errorf("net %q", v)
			}
		})

		t.Run("a date that is no day", func(t *testing.T) {
			before := portalState(t, a)
			for _, c := range []struct{ path, lang, want string }{
				{"/bills/reconciliation?date=2026-02-30", "en", "Choose a day as YYYY-MM-DD."},
				{"/bills/reconciliation?date=yesterday", "zh-tw", "請以 YYYY-MM-DD 格式選擇日期。"},
				{"/bills/reconciliation/export?date=20261120&format=csv", "zh-cn", "请按 YYYY-MM-DD 格式选择日期。"},
			} {
				res, body := get(t, fin, srv.URL+c.path, "Accept-Language", c.lang)
				if res.StatusCode != http.StatusBadRequest || !strings.Contains(body, c.want) || !strings.Contains(body, `aria-invalid="true"`) {
					t.Errorf("%s: %d, want 400 with %q", c.path, res.StatusCode, c.want)
				}
			}
			if res, _ := get(t, fin, srv.URL+"/bills/reconciliation/export?date=2026-11-20&format=pdf"); res.StatusCode != http.StatusNotFound {
				t.Errorf("a format the page never links: %d, want 404", res.StatusCode)
			}
			if after := portalState(t, a); after != before {
				t.Error("asking for a bad day changed the database")
			}
		})

		t.Run("an agency is refused", func(t *testing.T) {
			for who, c := range map[string]*http.Client{"finance": agencyFinance, "SuperUser": agencySuper} {
				for _, path := range []string{page, "/bills/reconciliation/export?date=2026-11-20&format=csv"} {
					res, body := get(t, c, srv.URL+path, "Accept-Language", "en", "HX-Request", "true")
					if res.StatusCode != http.StatusForbidden || strings.Contains(body, payment.TradeNo("recon-lost")) {
						t.Errorf("the agency's %s, %s: %d, want 403 without the report", who, path, res.StatusCode)
					}
					// Opened as a page, the guard sends the user to their
					// landing page with the refusal.
					res, body = get(t, c, srv.URL+path, "Accept-Language", "en")
					if loc := res.Header.Get("Location"); res.StatusCode != http.StatusSeeOther || loc == "" || strings.Contains(loc, "reconciliation") ||
						strings.Contains(body, payment.TradeNo("recon-lost")) {
						t.Errorf("the agency's %s opening %s: %d %q, want sent away with the refusal", who, path, res.StatusCode, loc)
					}
				}
				_, body := get(t, c, srv.URL+"/bills/transactions", "Accept-Language", "en")
				if strings.Contains(body, `href="/bills/reconciliation"`) {
					t.Errorf("the agency's %s is shown the reconciliation in the finance menu", who)
				}
			}
		})

		t.Run("the daily job's report", func(t *testing.T) {
			var logged bytes.Buffer
			log := slog.New(slog.NewTextHandler(&logged, &slog.HandlerOptions{Level: slog.LevelDebug}))
			n, err := a.ReportDifferences(context.Background(), log, "2026-11-20")
			if err != nil || n != 1 {
				t.Fatalf("differences %d, %v; want 1", n, err)
			}
			line := logged.String()
			for _, want := range []string{"level=ERROR", "date=2026-11-20", "differences=1", "transactions=2", "no-ledger=1", "amount-differs=0"} {
				if !strings.Contains(line, want) {
					t.Errorf("the log lacks %q: %s", want, line)
				}
			}
			logged.Reset()
			if n, err := a.ReportDifferences(context.Background(), log, "2026-11-19"); err != nil || n != 0 || logged.Len() != 0 {
				t.Errorf("a clean day: %d, %v, logged %q", n, err, logged.String())
			}
		})
	})
}
