package api

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/jmoiron/sqlx"

	"github.com/voyage/voyage/pkg/agency"
	"github.com/voyage/voyage/pkg/auth"
	"github.com/voyage/voyage/pkg/store"
	"github.com/voyage/voyage/pkg/store/storetest"
	"github.com/voyage/voyage/pkg/webhook"
)

// webhookWorld is the demo network behind a real HTTP server with the
// webhook routes; tokens maps demo usernames to their sessions.
type webhookWorld struct {
	srv    *httptest.Server
	hooks  *webhook.Service
	tokens map[string]string
	agency map[string]int64 // username → agency id
}

func newWebhookWorld(t *testing.T, db *store.DB) webhookWorld {
	t.Helper()
	ctx := context.Background()
	w := webhookWorld{hooks: webhook.New(db), tokens: map[string]string{}, agency: map[string]int64{}}
	s, rt, mux := demoNetwork(t, db)
	s.Webhooks = w.hooks
	authSvc := s.Auth
	registerWebhooks(rt, s)
	if _, err := json.Marshal(rt.OpenAPI()); err != nil {
		t.Fatalf("OpenAPI: %v", err)
	}
	w.srv = httptest.NewServer(mux)
	t.Cleanup(w.srv.Close)
	for _, u := range []string{"provider-admin", "demo-super", "demo-finance", "demo-operator", "sub-super", "bluesky-super"} {
		pass := "demo-pass-1"
		if u == "provider-admin" {
			pass = "provider-pass-1"
		}
		res, err := authSvc.Login(ctx, u, pass, auth.Meta{IP: "192.0.2.1"})
		if err != nil {
			t.Fatalf("login %s: %v", u, err)
		}
		w.tokens[u], w.agency[u] = res.Token, res.Principal.AgencyID
	}
	return w
}

type webhookAnswer struct {
	Code int             `json:"code"`
	Data json.RawMessage `json:"data"`
}

func (w webhookWorld) call(t *testing.T, user, method, path string) (int, webhookAnswer) {
	t.Helper()
	req, _ := http.NewRequest(method, w.srv.URL+path, nil)
	if user != "" {
		req.Header.Set("Authorization", "Bearer "+w.tokens[user])
	}
	res, err := w.srv.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	raw, _ := io.ReadAll(res.Body)
	var a webhookAnswer
	if err := json.Unmarshal(raw, &a); err != nil {
		t.Fatalf("%s %s: %v\n%s", method, path, err, raw)
	}
	return res.StatusCode, a
}

func TestWebhookRoutes(t *testing.T) {
	t.Parallel()
	storetest.Run(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		w := newWebhookWorld(t, db)
		sub, blue := w.agency["sub-super"], w.agency["bluesky-super"]
		for id, url := range map[int64]string{sub: "https://sub.example/hook", blue: "https://blue.example/hook"} {
			raw, _ := json.Marshal(agency.FlightSettings{BookingNotifyURL: url})
			if _, err := db.ExecContext(ctx, db.Rebind(`UPDATE agencies SET flight_settings = ? WHERE id = ?`), string(raw), id); err != nil {
				t.Fatal(err)
			}
			if err := db.InTx(ctx, func(tx *sqlx.Tx) error {
				return w.hooks.NotifyTx(ctx, tx, id, "order.status", map[string]string{"status": "issued"})
			}); err != nil {
				t.Fatal(err)
			}
		}
		subLog := fmt.Sprintf("/base/v2/agencies/%d/webhooks", sub)
		var page WebhookDeliveryPage
		list := func(user, path string) int {
			t.Helper()
			status, a := w.call(t, user, "GET", path)
			page = WebhookDeliveryPage{}
			if status == http.StatusOK {
				if err := json.Unmarshal(a.Data, &page); err != nil {
					t.Fatal(err)
				}
			}
			return status
		}

		for _, tc := range []struct {
			user, path string
			status     int
			total      int
		}{
			{"demo-super", subLog, 200, 1},
			{"demo-finance", subLog + "?page=1&pageSize=5", 200, 1},
			{"provider-admin", subLog, 200, 1},
			{"demo-operator", subLog, 403, 0},
			{"bluesky-super", subLog, 403, 0},
			{"sub-super", subLog, 403, 0},
			{"", subLog, 401, 0},
			{"demo-super", fmt.Sprintf("/base/v2/agencies/%d/webhooks", blue), 404, 0},
			{"demo-super", fmt.Sprintf("/base/v2/agencies/%d/webhooks", w.agency["demo-super"]), 404, 0},
			{"sub-super", "/base/v2/webhooks", 200, 1},
			{"bluesky-super", "/base/v2/webhooks", 200, 1},
			{"demo-super", "/base/v2/webhooks", 200, 0},
			{"demo-operator", "/base/v2/webhooks", 403, 0},
		} {
			if got := list(tc.user, tc.path); got != tc.status || page.Total != tc.total {
				t.Errorf("%s GET %s: status %d total %d, want %d and %d", tc.user, tc.path, got, page.Total, tc.status, tc.total)
			}
		}
		list("demo-super", subLog)
		if len(page.Items) != 1 || page.Items[0].Event != "order.status" || page.Items[0].URL != "https://sub.example/hook" || page.PageSize != 20 {
			t.Fatalf("page %+v", page)
		}
		d := page.Items[0]

		redeliver := fmt.Sprintf("/base/v2/agencies/%d/webhooks/%d/redeliver", sub, d.ID)
		if status, a := w.call(t, "demo-super", "POST", redeliver); status != 409 || a.Code != 100009 {
			t.Fatalf("redeliver a pending delivery: %d %d", status, a.Code)
		}
		if _, err := db.ExecContext(ctx, db.Rebind(`UPDATE webhook_deliveries SET status = 'failed' WHERE agency_id = ?`), sub); err != nil {
			t.Fatal(err)
		}
		if status, _ := w.call(t, "bluesky-super", "POST", redeliver); status != 403 {
			t.Fatalf("Blue Sky redelivers the sub-agency's delivery: %d", status)
		}
		if status, _ := w.call(t, "demo-super", "POST", fmt.Sprintf("/base/v2/agencies/%d/webhooks/%d/redeliver", sub, d.ID+1)); status != 404 {
			t.Fatalf("redeliver another agency's delivery through this one: %d", status)
		}
		status, a := w.call(t, "demo-super", "POST", redeliver)
		var again webhook.Delivery
		if err := json.Unmarshal(a.Data, &again); status != 200 || err != nil || again.ID != d.ID || again.Status != webhook.StatusPending {
			t.Fatalf("redeliver: %d %s", status, a.Data)
		}

		secretPath := fmt.Sprintf("/base/v2/agencies/%d/webhooks/secret", sub)
		if status, _ := w.call(t, "bluesky-super", "POST", secretPath); status != 403 {
			t.Fatalf("Blue Sky rotates the sub-agency's secret: %d", status)
		}
		status, a = w.call(t, "demo-super", "POST", secretPath)
		var secret WebhookSecret
		if err := json.Unmarshal(a.Data, &secret); status != 200 || err != nil || !strings.HasPrefix(secret.Secret, webhook.SecretPrefix) {
			t.Fatalf("rotate: %d %s", status, a.Data)
		}
		if cur, _ := w.hooks.Secret(ctx, sub); cur != secret.Secret {
			t.Fatal("the answered secret is not the stored one")
		}
	})
}
