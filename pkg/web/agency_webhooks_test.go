package web

import (
	"context"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/voyage/voyage/pkg/auth"
	"github.com/voyage/voyage/pkg/fault"
	"github.com/voyage/voyage/pkg/store"
	"github.com/voyage/voyage/pkg/store/storetest"
	"github.com/voyage/voyage/pkg/webhook"
)

// fakeWebhooks is agency 5's delivery log: 7 failed, 8 delivered.
type fakeWebhooks struct {
	items       []webhook.Delivery
	secret      string
	redelivered []int64
	rotated     []int64
}

func (f *fakeWebhooks) Deliveries(_ context.Context, agencyID int64, _, _ int) ([]webhook.Delivery, int, error) {
	if agencyID != 5 {
		return nil, 0, nil
	}
	return f.items, len(f.items), nil
}

func (f *fakeWebhooks) Redeliver(_ context.Context, agencyID, id int64) (webhook.Delivery, error) {
	for _, d := range f.items {
		if d.ID == id && d.AgencyID == agencyID {
			if d.Status != webhook.StatusFailed {
				return webhook.Delivery{}, fault.Conflict("webhook.error.notFailed")
			}
			f.redelivered = append(f.redelivered, id)
			return d, nil
		}
	}
	return webhook.Delivery{}, fault.NotFound("")
}

func (f *fakeWebhooks) MaskedSecret(context.Context, int64) (string, error) {
	return webhook.Mask(f.secret), nil
}

func (f *fakeWebhooks) RotateSecret(_ context.Context, agencyID int64) (string, error) {
	f.rotated = append(f.rotated, agencyID)
	f.secret = "whsec_" + strings.Repeat("b", 60) + "9f3e"
	return f.secret, nil
}

func webhookFixture(t *testing.T) (http.Handler, *fakeWebhooks) {
	t.Helper()
	demo := auth.Subject{Roles: []string{auth.RoleSuperUser}, ProxyLevel: 1, Common: auth.CommonConfig{CanCreateSubAgency: true, IsShowBill: true, SettlementCurrency: "CNY"}}
	blueSky := auth.Subject{Roles: []string{auth.RoleSuperUser}, ProxyLevel: 1, Common: auth.CommonConfig{IsShowBill: true, SettlementCurrency: "CNY"}}
	operator := auth.Subject{Roles: []string{auth.RoleOperator}, ProxyLevel: 1, Common: auth.CommonConfig{CanCreateSubAgency: true, EnableFlightService: true}}
	finance := auth.Subject{Roles: []string{auth.RoleFinance}, ProxyLevel: 1, Common: auth.CommonConfig{CanCreateSubAgency: true, IsShowBill: true}}
	id := &fakeIdentity{sessions: map[string]auth.Principal{
		"demo-super":    principal(1, demo),
		"bluesky-super": principal(2, blueSky),
		"demo-operator": principal(3, operator),
		"demo-finance":  principal(4, finance),
	}}
	at := time.Date(2026, 3, 1, 8, 30, 0, 0, time.UTC)
	hooks := &fakeWebhooks{secret: "whsec_" + strings.Repeat("a", 60) + "c0de", items: []webhook.Delivery{
		{ID: 7, AgencyID: 5, Event: "order.status", URL: "https://kowloon.example/hooks/booking", Status: webhook.StatusFailed, Attempts: 8,
			LastStatusCode: 503, LastError: "HTTP 503 Service Unavailable", CreatedAt: at},
		{ID: 8, AgencyID: 5, Event: "change.status", URL: "https://kowloon.example/hooks/change", Status: webhook.StatusDelivered, Attempts: 1,
			LastStatusCode: 200, CreatedAt: at.Add(time.Minute)},
	}}
	db := storetest.Open(t, store.SQLite)
	s := &Server{identity: managerIdentity{id}, agencies: fakeAgencies{1: {ID: 1, Name: "Demo Travel", SettlementCurrency: "CNY", AllowedHostsJSON: `[]`}},
		manager: &fakeManager{detail: managerDetail()}, webhooks: hooks, now: time.Now,
		site: testSite(db, nil)}
	return portal(s), hooks
}

func TestAgencyPageListsWebhooks(t *testing.T) {
	t.Parallel()
	h, hooks := webhookFixture(t)
	// The notifications are on the tab of the API keys.
	res := send(h, "demo-finance", "GET", "/agency-manager/agencies/5?section=webhooks", nil)
	raw, _ := io.ReadAll(res.Body)
	body := string(raw)
	if res.StatusCode != http.StatusOK {
		t.Fatalf("status %d", res.StatusCode)
	}
	for _, want := range []string{`id="webhooks"`, "Notifications", "order.status", "https://kowloon.example/hooks/change", "HTTP 503 Service Unavailable",
		`action="/agency-manager/agencies/5/webhooks/7/redeliver"`, "Send again", "whsec_••••••••c0de", `action="/agency-manager/agencies/5/webhooks/secret"`,
		"Generate a new secret", `href="/agency-manager/agencies/5?section=api#api"`} {
		if !strings.Contains(body, want) {
			t.Errorf("page lacks %q", want)
		}
	}
	if strings.Contains(body, "/webhooks/8/redeliver") {
		t.Error("a delivered notification offers to be sent again")
	}
	if strings.Contains(body, hooks.secret) {
		t.Error("the page shows the whole signing secret")
	}

	// Without the webhook service the section is not there.
	plain, _, _ := managerFixture(t, true)
	raw, _ = io.ReadAll(send(plain, "demo-super", "GET", "/agency-manager/agencies/5?section=webhooks", nil).Body)
	if strings.Contains(string(raw), `id="webhooks"`) {
		t.Error("notifications section without the webhook service")
	}
}

func TestAgencyWebhookRedeliver(t *testing.T) {
	t.Parallel()
	h, hooks := webhookFixture(t)
	res := send(h, "demo-super", "POST", "/agency-manager/agencies/5/webhooks/7/redeliver", nil)
	if res.StatusCode != http.StatusSeeOther || res.Header.Get("Location") != "/agency-manager/agencies/5?section=webhooks#webhooks" || flashOf(res) != "success:webhook.redelivered" {
		t.Fatalf("status %d location %q flash %q", res.StatusCode, res.Header.Get("Location"), flashOf(res))
	}
	res = send(h, "demo-super", "POST", "/agency-manager/agencies/5/webhooks/8/redeliver", nil)
	if res.StatusCode != http.StatusSeeOther || flashOf(res) != "error:webhook.error.notFailed" {
		t.Fatalf("delivered one: status %d flash %q", res.StatusCode, flashOf(res))
	}
	for _, path := range []string{"/agency-manager/agencies/6/webhooks/7/redeliver", "/agency-manager/agencies/5/webhooks/99/redeliver", "/agency-manager/agencies/5/webhooks/x/redeliver"} {
		if res := send(h, "demo-super", "POST", path, nil); res.StatusCode != http.StatusNotFound {
			t.Errorf("POST %s: status %d, want 404", path, res.StatusCode)
		}
	}
	for token, flash := range map[string]string{"bluesky-super": "error:router.notRole", "demo-operator": "error:router.notRole", "": "error:router.login"} {
		checkRefused(t, "POST", send(h, token, "POST", "/agency-manager/agencies/5/webhooks/7/redeliver", nil), flash)
	}
	if len(hooks.redelivered) != 1 || hooks.redelivered[0] != 7 {
		t.Fatalf("redelivered %v, want [7]", hooks.redelivered)
	}
}

func TestAgencyWebhookSecretRotation(t *testing.T) {
	t.Parallel()
	h, hooks := webhookFixture(t)
	for _, token := range []string{"bluesky-super", "demo-operator"} {
		checkRefused(t, "POST", send(h, token, "POST", "/agency-manager/agencies/5/webhooks/secret", nil), "error:router.notRole")
	}
	if res := send(h, "demo-super", "POST", "/agency-manager/agencies/6/webhooks/secret", nil); res.StatusCode != http.StatusNotFound {
		t.Errorf("another agency: status %d", res.StatusCode)
	}
	if len(hooks.rotated) != 0 {
		t.Fatalf("refused callers rotated %v", hooks.rotated)
	}
	res := send(h, "demo-super", "POST", "/agency-manager/agencies/5/webhooks/secret", nil)
	raw, _ := io.ReadAll(res.Body)
	if res.StatusCode != http.StatusOK || len(hooks.rotated) != 1 {
		t.Fatalf("status %d, rotated %v", res.StatusCode, hooks.rotated)
	}
	for _, want := range []string{`value="` + hooks.secret + `"`, "New signing secret", `href="/agency-manager/agencies/5?section=webhooks#webhooks"`} {
		if !strings.Contains(string(raw), want) {
			t.Errorf("page lacks %q", want)
		}
	}
}
