package audit_test

import (
	"context"
	"strings"
	"testing"

	"github.com/voyage/voyage/pkg/audit"
	"github.com/voyage/voyage/pkg/i18n"
	"github.com/voyage/voyage/pkg/store"
	"github.com/voyage/voyage/pkg/store/storetest"
)

var catalog = i18n.MustLoad()

func TestSentence(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name     string
		e        audit.Entry
		en, zhCN string
	}{
		{"booked", audit.Entry{Action: "createFlightOrder", Target: "POST /order/v2/flight/orders", Facts: audit.Facts{"order": "F2611250001"}},
			"Booked flight order F2611250001", "预订了机票订单 F2611250001"},
		{"paid with amount", audit.Entry{Action: "payFlightOrder", Facts: audit.Facts{"order": "F2611250001", "amount": "690.00", "currency": "CNY"}},
			"Paid flight order F2611250001 (690.00 CNY)", "支付了机票订单 F2611250001（690.00 CNY）"},
		{"top-up", audit.Entry{Action: "agency.funds", Facts: audit.Facts{"agency": "Demo Travel", "amount": "1250.00", "currency": "CNY"}},
			"Added 1,250.00 CNY to Demo Travel", "为 Demo Travel 充值 1,250.00 CNY"},
		// Written before facts were kept: the figures in the detail still
		// read, the agency's name is not there, so the sentence is plain.
		{"old top-up", audit.Entry{Action: "agency.funds", Target: "agency:7", Detail: "1250.00 CNY ref T-1"},
			"Added funds to an agency", "为分销商充值"},
		{"old router line", audit.Entry{Action: "payFlightOrder", Target: "POST /order/v2/flight/orders/12/payment"},
			"Paid a flight order", "支付了机票订单"},
		{"user from target", audit.Entry{Action: "user.create", Target: "user:li.wei"}, "Created user li.wei", "创建了用户 li.wei"},
		{"group from target", audit.Entry{Action: "group.pay", Target: "G2611250003", Detail: "deposit_paid -> deposit_paid"},
			"Paid group order G2611250003", "支付了团队订单 G2611250003"},
		{"passenger deleted", audit.Entry{Action: "profile.passenger.delete", Target: "passenger:4", Detail: "ZHANG/SAN"},
			"Deleted frequent passenger ZHANG/SAN", "删除了常用乘客 ZHANG/SAN"},
		{"old passenger delete", audit.Entry{Action: "profile.passenger.delete", Target: "passenger:4"},
			"Deleted a frequent passenger", "删除了常用乘客"},
		{"time zone", audit.Entry{Action: "profile.config", Target: "config:timeZone", Detail: "Asia/Tokyo"}, "Saved the time zone", "保存了时区"},
		{"unknown key", audit.Entry{Action: "profile.config", Target: "config:nope"}, "Saved a preference", "保存了偏好设置"},
		{"login", audit.Entry{Action: "login", Detail: "Mozilla/5.0"}, "Logged in", "登录"},
		{"failed login", audit.Entry{Action: "login.failed"}, "Failed login", "登录失败"},
		{"unknown action", audit.Entry{Action: "something.new", Target: "PUT /base/v2/x"}, "Made a change", "进行了修改"},
		{"bad amount", audit.Entry{Action: "payTrainOrder", Facts: audit.Facts{"order": "T1", "amount": "1e5", "currency": "CNY"}},
			"Paid a train order", "支付了火车票订单"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for lang, want := range map[string]string{i18n.EN: tt.en, i18n.ZhCN: tt.zhCN} {
				ctx := i18n.WithLocalizer(context.Background(), catalog, lang)
				if got := audit.Sentence(ctx, tt.e); got != want {
					t.Errorf("%s: %q, want %q", lang, got, want)
				}
			}
		})
	}
}

// Every action with a sentence has it, and its plain form, in every
// language, every {{name}} in its text filled from the facts.
func TestSentencesInEveryLanguage(t *testing.T) {
	t.Parallel()
	facts := audit.Facts{"order": "F1", "amount": "1.00", "currency": "CNY", "agency": "A", "user": "u", "name": "N/M",
		"airline": "CA", "key": "timeZone"}
	for _, action := range audit.Described() {
		for _, lang := range i18n.Supported() {
			ctx := i18n.WithLocalizer(context.Background(), catalog, lang)
			if !catalog.Has(lang, "userlog.plain."+action) {
				t.Errorf("%s: no plain sentence for %s", lang, action)
			}
			got := audit.Sentence(ctx, audit.Entry{Action: action, Facts: facts})
			if strings.Contains(got, "{{") || strings.Contains(got, "userlog.") || got == audit.ActionName(ctx, "?") {
				t.Errorf("%s: %s reads %q", lang, action, got)
			}
		}
	}
}

// Facts are stored and read back on both engines; a line without any has
// none.
func TestFactsStored(t *testing.T) {
	t.Parallel()
	storetest.Run(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		if err := audit.Write(audit.WithIP(ctx, "10.1.2.3"), db, audit.Entry{AgencyID: 9, Username: "u", Action: "payFlightOrder",
			Facts: audit.Facts{"order": "F1", "amount": "690.00", "currency": "CNY"}}); err != nil {
			t.Fatal(err)
		}
		if err := audit.Write(ctx, db, audit.Entry{AgencyID: 9, Username: "u", Action: "login"}); err != nil {
			t.Fatal(err)
		}
		got, _, err := audit.List(ctx, db, audit.Filter{AgencyID: 9, Page: 1, PageSize: 10})
		if err != nil || len(got) != 2 {
			t.Fatalf("%d entries, %v", len(got), err)
		}
		if got[0].Facts != nil {
			t.Errorf("login facts %v", got[0].Facts)
		}
		if f := got[1].Facts; f["order"] != "F1" || f["amount"] != "690.00" || f["currency"] != "CNY" || got[1].IP != "10.1.2.3" {
			t.Errorf("payment entry %+v", got[1])
		}
	})
}
