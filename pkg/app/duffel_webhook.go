package app

import (
	"errors"
	"io"
	"log/slog"
	"net/http"
	"strconv"
	"time"

	"github.com/voyage/voyage/pkg/ratelimit"
	"github.com/voyage/voyage/pkg/supplier/duffel"
)

// DuffelWebhookHandler answers Duffel's webhooks: POST
// /supplier/v2/duffel/webhook, public by necessity. Each event is verified
// (X-Duffel-Signature with shopping.duffel.webhook_secret, within
// duffel.WebhookWindow) before anything changes; a forged, altered or stale
// one is answered 401 and changes nothing. order.created and
// order.creation_failed complete the flight order pending at the airline
// (flight.Service.FinishNotified), once however often Duffel delivers.
func (a *App) DuffelWebhookHandler() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		// Bounded like the payment channels' notifications, for the same
		// reason: a flood of forged events must not cost a check each.
		if c := a.Cfg.HTTP.RateLimit; a.limiter != nil && c.NotifyRate > 0 {
			res, err := a.limiter.Take(r.Context(), "notify:duffel", ratelimit.Limit{Rate: c.NotifyRate, Burst: c.NotifyBurst})
			if err == nil && !res.Allowed {
				w.Header().Set("Retry-After", strconv.Itoa(max(1, int(res.RetryAfter.Seconds()))))
				http.Error(w, "too many notifications", http.StatusTooManyRequests)
				return
			}
		}
		body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, 1<<20))
		if err != nil {
			http.Error(w, "body too large", http.StatusRequestEntityTooLarge)
			return
		}
		ev, err := duffel.ParseWebhook(a.Cfg.Shopping.Duffel.WebhookSecret, r.Header.Get("X-Duffel-Signature"), body, time.Now())
		if err != nil {
			slog.WarnContext(r.Context(), "duffel webhook refused", "err", err)
			status := http.StatusUnauthorized
			if !errors.Is(err, duffel.ErrBadWebhook) {
				status = http.StatusBadRequest
			}
			http.Error(w, "webhook refused", status)
			return
		}
		if ev.Type == duffel.EventOrderCreated || ev.Type == duffel.EventOrderCreationFailed {
			if err := a.Orders.FinishNotified(r.Context(), "duffel", ev.OrderID, ev.Type == duffel.EventOrderCreationFailed); err != nil {
				// Duffel delivers again later; the status check goes on too.
				slog.ErrorContext(r.Context(), "duffel webhook: finishing the pending order failed", "event", ev.ID, "order", ev.OrderID, "err", err)
				http.Error(w, "try again", http.StatusServiceUnavailable)
				return
			}
		}
		w.WriteHeader(http.StatusNoContent)
	})
}
