package duffel

// Orders Duffel has not finished creating.
//
// POST /air/orders usually answers 201 with the order. It may instead
// answer 202 Accepted: the airline has not confirmed yet, and Duffel
// either finishes the order (the order.created webhook) or gives up
// (order.creation_failed). A 202 may carry the order's id, or nothing we
// can use. Such an order is not a booking yet and must not be booked again
// while it may still appear.
//
// createOrder polls for it while the caller's patience lasts. If it does
// not appear, Book fails with ErrPending (wrapped with ErrUnavailable, so
// a caller retries later with the same key). Every Book with a key first
// looks for an order made under that key (findOrder: Duffel's order list
// filtered by the first traveller's name, matched on the voyage_key
// metadata), so the retry returns the order once Duffel has it. While
// this process still waits for one (pendingWindow), a retry that finds
// nothing fails as pending again instead of creating a second order.

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/voyage/voyage/pkg/supplier"
)

// Metadata keys the connector writes on orders.
const (
	metaKey   = "voyage_key"
	metaPart  = "voyage_part"
	metaTotal = "voyage_total"
)

const (
	// pendingWindow is how long an accepted order may take to appear
	// before this process stops treating its key as under way. Duffel
	// settles accepted orders within minutes; after this the offer has
	// expired anyway, so booking again fails as offer gone, not twice.
	pendingWindow = 30 * time.Minute
	// pollEvery is the wait between looks at an accepted order, and
	// maxPolls how many looks Book takes (about two minutes) when the
	// caller set no deadline.
	pollEvery = 2 * time.Second
	maxPolls  = 60
	// DefaultPendingWait is Config.PendingWait's default.
	DefaultPendingWait = 20 * time.Second
)

// pendingKeys remembers, per process, the keys whose order Duffel accepted
// and has not shown yet.
type pendingKeys struct {
	mu   sync.Mutex
	keys map[string]time.Time
}

func (p *pendingKeys) add(key string, at time.Time) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.keys == nil {
		p.keys = map[string]time.Time{}
	}
	p.keys[key] = at
}

func (p *pendingKeys) done(key string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	delete(p.keys, key)
}

func (p *pendingKeys) waiting(key string, now time.Time) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	at, ok := p.keys[key]
	if ok && now.Sub(at) > pendingWindow {
		delete(p.keys, key)
		return false
	}
	return ok
}

// orderKey is the key and part an order body carries ("" without a key).
func orderKey(body wireOrderBody) string {
	k := body.Metadata[metaKey]
	if k == "" {
		return ""
	}
	return k + "#" + body.Metadata[metaPart]
}

// createOrder creates one order, or finds the one already made under the
// body's key, and waits for an accepted one to finish.
func (c *Client) createOrder(ctx context.Context, offer wireOffer, body wireOrderBody, ts []supplier.Traveller) (wireOrder, error) {
	key := orderKey(body)
	if key != "" {
		o, found, err := c.findOrder(ctx, body, ts)
		if err != nil {
			return wireOrder{}, err
		}
		if found {
			c.pending.done(key)
			return o, nil
		}
		if c.pending.waiting(key, c.now()) {
			return wireOrder{}, c.pendingErr(offer.ID, "")
		}
	}
	var o wireOrder
	var status int
	if err := c.do(ctx, call{method: http.MethodPost, path: "/air/orders", body: body, out: &o, status: &status}); err != nil {
		return wireOrder{}, err
	}
	if status != http.StatusAccepted && o.ID != "" && o.BookingReference != "" {
		if body.Type == "hold" && o.Type != "" && !isHold(o) {
			// Asked to hold, the airline sold it outright: it is paid.
			c.log.LogAttrs(ctx, slog.LevelWarn, "duffel: a hold order came back as another type",
				slog.String("order", o.ID), slog.String("type", o.Type))
		}
		return o, nil
	}
	// Accepted, or an answer without the order: not a booking yet.
	c.log.LogAttrs(ctx, slog.LevelWarn, "duffel: order accepted but not finished; waiting for it",
		slog.String("offer", offer.ID), slog.Int("status", status), slog.String("order", o.ID))
	if key != "" {
		c.pending.add(key, c.now())
	}
	waitUntil := c.now().Add(c.cfg.PendingWait)
	for n := 1; ; n++ {
		var found bool
		var err error
		if o.ID != "" {
			var got wireOrder
			if got, err = c.getOrder(ctx, o.ID); err == nil && got.BookingReference != "" {
				o, found = got, true
			}
		} else if key != "" {
			o, found, err = c.findOrder(ctx, body, ts)
		}
		if found {
			if key != "" {
				c.pending.done(key)
			}
			return o, nil
		}
		if err != nil && ctx.Err() == nil {
			c.log.LogAttrs(ctx, slog.LevelWarn, "duffel: looking for an accepted order failed", slog.String("error", err.Error()))
		}
		// Stopping, the order's id (when the 202 gave one) goes with the
		// error: it is how the caller finds the order later.
		if dl, ok := ctx.Deadline(); (ok && time.Until(dl) < pollEvery) || ctx.Err() != nil || n >= maxPolls || !c.now().Before(waitUntil) {
			return wireOrder{ID: o.ID}, c.pendingErr(offer.ID, o.ID)
		}
		if err := c.sleep(ctx, pollEvery); err != nil {
			return wireOrder{ID: o.ID}, c.pendingErr(offer.ID, o.ID)
		}
	}
}

func (c *Client) pendingErr(offerID, orderID string) error {
	what := "offer " + offerID
	if orderID != "" {
		what = "order " + orderID
	}
	return fmt.Errorf("duffel: %s accepted by Duffel and not finished yet; try again later with the same key: %w: %w",
		what, supplier.ErrPending, supplier.ErrUnavailable)
}

// findOrder looks for the order made under the body's key among the
// orders of the first traveller's family name.
func (c *Client) findOrder(ctx context.Context, body wireOrderBody, ts []supplier.Traveller) (wireOrder, bool, error) {
	if len(ts) == 0 {
		return wireOrder{}, false, nil
	}
	q := url.Values{"passenger_name[]": {ts[0].Surname}, "limit": {"200"}}
	var list []wireOrder
	if err := c.do(ctx, call{method: http.MethodGet, path: "/air/orders", query: q, idempotent: true, out: &list}); err != nil {
		if errors.Is(err, supplier.ErrNotFound) {
			return wireOrder{}, false, nil // no orders at all
		}
		return wireOrder{}, false, err
	}
	for _, o := range list {
		if o.Metadata[metaKey] == body.Metadata[metaKey] && o.Metadata[metaPart] == body.Metadata[metaPart] &&
			o.CancelledAt == nil && strings.TrimSpace(o.BookingReference) != "" {
			return o, true, nil
		}
	}
	return wireOrder{}, false, nil
}

// Finish asks what became of an order Duffel accepted (202) and this
// process stopped waiting for: a status check for whoever keeps the
// booking pending (a queued job, in case order.created never arrives).
// orderID is the id the 202 carried, if any; otherwise the order is looked
// for under key (the BookRequest's Key) among the first traveller's orders.
// It answers the booking once Duffel has finished the order, ErrPending
// (with ErrUnavailable, to be asked again later) while it has not, and
// ErrRejected when the order was cancelled instead. Asking is read-only,
// so any number of instances may ask at once.
func (c *Client) Finish(ctx context.Context, orderID, key string, ts []supplier.Traveller) (supplier.Booking, error) {
	var o wireOrder
	found := false
	if orderID != "" {
		got, err := c.getOrder(ctx, orderID)
		switch {
		case errors.Is(err, supplier.ErrNotFound):
			// Not visible yet; Duffel lists an accepted order once it exists.
		case err != nil:
			return supplier.Booking{}, err
		default:
			o, found = got, true
		}
	} else if key != "" {
		var err error
		if o, found, err = c.findOrder(ctx, wireOrderBody{Metadata: map[string]string{metaKey: key}}, ts); err != nil {
			return supplier.Booking{}, err
		}
	}
	if found && o.CancelledAt != nil {
		return supplier.Booking{}, fmt.Errorf("duffel: accepted order %s was cancelled: %w", o.ID, supplier.ErrRejected)
	}
	if !found || strings.TrimSpace(o.BookingReference) == "" {
		return supplier.Booking{}, c.pendingErr("", firstOf(orderID, key))
	}
	if key != "" {
		c.pending.done(key + "#")
	}
	return bookingOf([]wireOrder{o})
}
