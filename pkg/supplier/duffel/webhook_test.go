package duffel

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/voyage/voyage/pkg/supplier"
)

const webhookSecret = "whsec_test_duffel"

// createdEvent is order.created for order_hold.json's order, made under
// the booking key bk-1.
func createdEvent(t *testing.T, typ string) []byte {
	t.Helper()
	order := patched(t, "order_hold.json", func(o map[string]any) { o["metadata"] = map[string]any{"voyage_key": "bk-1"} })
	return []byte(`{"id":"wev_0000A4tQSmKyqOrcySrGbo","api_version":"v2","type":"` + typ + `","data":{"object":` +
		strings.TrimSpace(string(dataOf(t, order))) + `},"live_mode":false,"created_at":"2026-05-10T10:05:00Z"}`)
}

// dataOf is the data of a recorded answer ({"data": …}).
func dataOf(t *testing.T, answer []byte) []byte {
	t.Helper()
	var env struct {
		Data json.RawMessage `json:"data"`
	}
	if err := json.Unmarshal(answer, &env); err != nil || len(env.Data) == 0 {
		t.Fatalf("not an answer with data: %v", err)
	}
	return env.Data
}

// A genuine, fresh event is read; a forged, altered, stale or future one is
// refused before anything reads it.
func TestParseWebhook(t *testing.T) {
	body := createdEvent(t, EventOrderCreated)
	good := SignWebhook(webhookSecret, body, testNow)
	ev, err := ParseWebhook(webhookSecret, good, body, testNow.Add(time.Minute))
	if err != nil {
		t.Fatal(err)
	}
	if ev.Type != EventOrderCreated || ev.OrderID != orderA || ev.Key != "bk-1#" || ev.Booking == nil || ev.Booking.PNR != "K7TQ2P" || ev.Booking.Ref != orderA {
		t.Fatalf("event %+v (booking %+v)", ev, ev.Booking)
	}
	failed, err := ParseWebhook(webhookSecret, SignWebhook(webhookSecret, createdEvent(t, EventOrderCreationFailed), testNow),
		createdEvent(t, EventOrderCreationFailed), testNow)
	if err != nil || failed.Type != EventOrderCreationFailed || failed.Booking != nil || failed.Key != "bk-1#" {
		t.Fatalf("creation_failed %+v, %v", failed, err)
	}
	for _, tc := range []struct {
		name string
		sig  string
		body []byte
		now  time.Time
	}{
		{"no signature", "", body, testNow},
		{"another secret", SignWebhook("whsec_other", body, testNow), body, testNow},
		{"body changed after signing", good, []byte(strings.Replace(string(body), "K7TQ2P", "AAAAAA", 1)), testNow},
		{"replayed later", good, body, testNow.Add(WebhookWindow + time.Second)},
		{"signed in the future", good, body, testNow.Add(-WebhookWindow - time.Second)},
		{"v1 not hex", "t=" + strings.TrimPrefix(strings.Split(good, ",")[0], "t=") + ",v1=zz", body, testNow},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if _, err := ParseWebhook(webhookSecret, tc.sig, tc.body, tc.now); !errors.Is(err, ErrBadWebhook) {
				t.Fatalf("err = %v, want refused", err)
			}
		})
	}
	if _, err := ParseWebhook("", good, body, testNow); !errors.Is(err, ErrBadWebhook) {
		t.Fatalf("no secret configured: %v", err)
	}
}

// Finish is the status check of an accepted order: pending until Duffel
// has the booking reference, then the booking; a cancelled one is refused.
func TestFinishAcceptedOrder(t *testing.T) {
	accepted := patched(t, "order_hold.json", func(o map[string]any) { o["booking_reference"] = nil })
	f := newFake(t).on("GET /air/orders/"+orderA, reply{body: accepted}, reply{file: "order_hold.json"})
	c := newTestClient(t, f, Config{})
	if _, err := c.Finish(context.Background(), orderA, "bk-1", travellers); !errors.Is(err, supplier.ErrPending) {
		t.Fatalf("unfinished: %v, want pending", err)
	}
	b, err := c.Finish(context.Background(), orderA, "bk-1", travellers)
	if err != nil || b.Ref != orderA || b.PNR != "K7TQ2P" {
		t.Fatalf("finished: %+v, %v", b, err)
	}
	f.wantSent(t, "POST /air/orders", 0, "orders created by a status check")

	cancelled := patched(t, "order_hold.json", func(o map[string]any) { o["cancelled_at"] = "2026-05-10T10:06:00Z" })
	f = newFake(t).on("GET /air/orders/"+orderA, reply{body: cancelled})
	c = newTestClient(t, f, Config{})
	if _, err := c.Finish(context.Background(), orderA, "", nil); !errors.Is(err, supplier.ErrRejected) {
		t.Fatalf("cancelled: %v, want rejected", err)
	}

	// No id in the 202: found by its key once Duffel lists it.
	f = newFake(t).on("GET /air/orders", reply{body: listBody(t)}, reply{body: listOf(t, "order_hold.json")})
	c = newTestClient(t, f, Config{})
	if _, err := c.Finish(context.Background(), "", "bk-2026-05-10-0001", travellers); !errors.Is(err, supplier.ErrPending) {
		t.Fatalf("not listed yet: %v", err)
	}
	if b, err := c.Finish(context.Background(), "", "bk-2026-05-10-0001", travellers); err != nil || b.Ref != orderA {
		t.Fatalf("by key: %+v, %v", b, err)
	}
}
