package duffel

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"time"

	"github.com/voyage/voyage/pkg/money"
	"github.com/voyage/voyage/pkg/supplier"
)

// allows says whether the airline allows an action on an order now
// (Duffel's available_actions). An order recorded without the field is not
// held back; an empty list allows nothing.
func allows(o wireOrder, action string) bool {
	return o.AvailableActions == nil || slices.Contains(o.AvailableActions, action)
}

// Cancel releases held (unpaid) orders through an order cancellation and
// its confirmation. A ticketed order is refused: that is Void or Refund.
func (c *Client) Cancel(ctx context.Context, ref string) error {
	for _, id := range splitRef(ref) {
		o, err := c.getOrder(ctx, id)
		if err != nil {
			return err
		}
		if o.CancelledAt != nil {
			continue // already released: cancelling twice is not an error
		}
		if !o.PaymentStatus.AwaitingPayment {
			return fmt.Errorf("duffel: order %s is paid; void or refund it: %w", id, supplier.ErrRejected)
		}
		if !allows(o, "cancel") {
			return fmt.Errorf("duffel: the airline does not allow cancelling order %s now (available actions %v): %w", id, o.AvailableActions, supplier.ErrRejected)
		}
		if err := c.cancelOrder(ctx, id); err != nil {
			return err
		}
	}
	return nil
}

func (c *Client) createCancellation(ctx context.Context, orderID string) (wireOrderCancellation, error) {
	var oc wireOrderCancellation
	// Creating a cancellation only quotes it; nothing happens until it is
	// confirmed, so repeating it is safe.
	err := c.do(ctx, call{method: http.MethodPost, path: "/air/order_cancellations",
		body: map[string]string{"order_id": orderID}, idempotent: true, out: &oc})
	return oc, err
}

func (c *Client) confirmCancellation(ctx context.Context, id string) error {
	return c.do(ctx, call{method: http.MethodPost, path: "/air/order_cancellations/" + url.PathEscape(id) + "/actions/confirm"})
}

func (c *Client) cancelOrder(ctx context.Context, orderID string) error {
	oc, err := c.createCancellation(ctx, orderID)
	if err != nil {
		return err
	}
	return c.confirmCancellation(ctx, oc.ID)
}

// refundTo maps Duffel's refund_to to the seam's destinations. A value we
// do not know is kept as it is, which CashRefund does not count as money.
func refundTo(s string) string {
	switch s {
	case "arc_bsp_cash", "original_form_of_payment":
		return supplier.RefundToOriginal
	case "balance":
		return supplier.RefundToBalance
	case "card":
		return supplier.RefundToCard
	case "voucher":
		return supplier.RefundToVoucher
	case "airline_credits":
		return supplier.RefundToCredits
	case "awaiting_payment":
		return supplier.RefundToNothing
	}
	return s
}

// cancelValue is what one order cancellation gives back: money (refund),
// value kept with the airline (credit), or unknown.
type cancelValue struct {
	refund, credit int64
	currency, to   string
	unknown        bool
}

func (v cancelValue) String() string {
	if v.unknown {
		return "an unknown amount"
	}
	amount := v.refund + v.credit
	return fmt.Sprintf("%s %s to %s", money.Amount{Minor: amount, Currency: v.currency}.String(), v.currency, v.to)
}

// readCancellation reads a cancellation quote. Only a refund to a
// cash-equivalent destination is money; a voucher or airline credits are
// carried as credit, and a null refund_amount is unknown, never zero.
func readCancellation(oc wireOrderCancellation, currency string) (cancelValue, error) {
	v := cancelValue{currency: currency, to: refundTo(oc.RefundTo)}
	if oc.RefundCurrency != nil && *oc.RefundCurrency != "" {
		v.currency = *oc.RefundCurrency
	}
	if oc.RefundAmount == nil {
		v.unknown = true
		return v, nil
	}
	amount, err := parseAmount(*oc.RefundAmount, v.currency)
	if err != nil {
		return v, fmt.Errorf("duffel: cancellation %s refund: %w: %w", oc.ID, supplier.ErrUnavailable, err)
	}
	if supplier.CashRefund(v.to) {
		v.refund = amount
		return v, nil
	}
	v.credit = amount
	if v.to == supplier.RefundToCredits && amount == 0 {
		// Some airlines state the value only on the credits themselves.
		for _, cr := range oc.AirlineCredits {
			if cr.CreditCurrency != v.currency {
				continue
			}
			if n, err := parseAmount(cr.CreditAmount, cr.CreditCurrency); err == nil {
				v.credit += n
			}
		}
	}
	return v, nil
}

// Void cancels paid orders for a full refund. Duffel has no void as such;
// what it has is an order cancellation, whose quote says what comes back
// and where. Only a cancellation that returns the whole amount paid as
// money (to the original payment, the Duffel balance or a card) is a void,
// as airlines do within their void window; a smaller refund, a refund as a
// voucher or airline credits, or an unknown one is not: the quote is left
// unconfirmed to expire and ErrRejected says where the money would go, so
// that the caller offers a refund instead. For a split-ticket booking
// every order is quoted before any is confirmed: all are voided or none.
func (c *Client) Void(ctx context.Context, ref string) error {
	var quotes []wireOrderCancellation
	for _, id := range splitRef(ref) {
		o, err := c.getOrder(ctx, id)
		if err != nil {
			return err
		}
		if o.CancelledAt != nil {
			return fmt.Errorf("duffel: order %s is already cancelled: %w", id, supplier.ErrRejected)
		}
		if o.PaymentStatus.AwaitingPayment {
			return fmt.Errorf("duffel: order %s is not paid; cancel it instead: %w", id, supplier.ErrRejected)
		}
		if !allows(o, "cancel") {
			return fmt.Errorf("duffel: the airline does not allow cancelling order %s now (available actions %v): %w", id, o.AvailableActions, supplier.ErrRejected)
		}
		oc, err := c.createCancellation(ctx, id)
		if err != nil {
			return err
		}
		paid := money.Amount{Currency: o.TotalCurrency}
		if paid.Minor, err = parseAmount(o.TotalAmount, o.TotalCurrency); err != nil {
			return fmt.Errorf("duffel: order %s total: %w: %w", id, supplier.ErrUnavailable, err)
		}
		v, err := readCancellation(oc, o.TotalCurrency)
		if err != nil {
			return err
		}
		if v.unknown || !supplier.CashRefund(v.to) || v.currency != paid.Currency || v.refund < paid.Minor {
			return fmt.Errorf("duffel: order %s cannot be voided: cancelling returns %s of %s %s paid: %w",
				id, v, paid.String(), paid.Currency, supplier.ErrRejected)
		}
		quotes = append(quotes, oc)
	}
	for _, oc := range quotes {
		if err := c.confirmCancellation(ctx, oc.ID); err != nil {
			return err
		}
	}
	return nil
}

// RefundQuote asks Duffel what cancelling each paid order gives back and
// where. The quote's Refund is money only; a voucher or airline credits
// are its Credit, and a refund the airline did not state makes it
// RefundUnknown. Fee is what is paid and comes back neither way.
func (c *Client) RefundQuote(ctx context.Context, ref string) (supplier.Quote, error) {
	var q supplier.Quote
	var ids []string
	for _, id := range splitRef(ref) {
		o, err := c.getOrder(ctx, id)
		if err != nil {
			return supplier.Quote{}, err
		}
		if o.CancelledAt != nil {
			return supplier.Quote{}, fmt.Errorf("duffel: order %s is already cancelled: %w", id, supplier.ErrRejected)
		}
		if !allows(o, "cancel") {
			return supplier.Quote{}, fmt.Errorf("duffel: the airline does not allow cancelling order %s now (available actions %v): %w", id, o.AvailableActions, supplier.ErrRejected)
		}
		oc, err := c.createCancellation(ctx, id)
		if err != nil {
			return supplier.Quote{}, err
		}
		v, err := readCancellation(oc, o.TotalCurrency)
		if err != nil {
			return supplier.Quote{}, err
		}
		if q.Currency == "" {
			q.Currency = v.currency
		}
		if v.currency != q.Currency {
			return supplier.Quote{}, fmt.Errorf("duffel: refunds of %s are in different currencies: %w", ref, supplier.ErrUnavailable)
		}
		// A split-ticket booking whose parts go different ways is
		// described by the part that is least like money.
		if q.RefundTo == "" || supplier.CashRefund(q.RefundTo) && !supplier.CashRefund(v.to) {
			q.RefundTo = v.to
		}
		q.Refund += v.refund
		q.Credit += v.credit
		q.RefundUnknown = q.RefundUnknown || v.unknown
		if !v.unknown && o.TotalCurrency == v.currency && !o.PaymentStatus.AwaitingPayment {
			if paid, err := parseAmount(o.TotalAmount, o.TotalCurrency); err == nil && paid > v.refund+v.credit {
				q.Fee += paid - v.refund - v.credit
			}
		}
		if oc.ExpiresAt != nil && (q.ExpiresAt.IsZero() || oc.ExpiresAt.Before(q.ExpiresAt)) {
			q.ExpiresAt = *oc.ExpiresAt
		}
		ids = append(ids, oc.ID)
	}
	if q.RefundUnknown {
		q.Refund, q.Credit, q.Fee = 0, 0, 0
	}
	q.Ref = strings.Join(ids, refSep)
	return q, nil
}

// Refund confirms a refund quote. Each cancellation is checked to belong to
// the booking and to be still valid; one confirmed already is skipped, so
// a retried Refund does not fail on the parts that went through.
//
// Duffel confirms only the newest cancellation of an order: a refund quote
// asked again, a void attempt or another instance quoting the same order
// makes an older quote unconfirmable. Such a quote is quoted again; the new
// quote is confirmed when it gives back at least as much, the same way,
// and otherwise Refund says what the new quote is and confirms nothing.
func (c *Client) Refund(ctx context.Context, ref, quoteRef string) error {
	orders, quotes := splitRef(ref), splitRef(quoteRef)
	if len(orders) != len(quotes) {
		return fmt.Errorf("duffel: quote %s is not for booking %s: %w", quoteRef, ref, supplier.ErrRejected)
	}
	now := c.now()
	var todo []string
	for i, id := range quotes {
		var oc wireOrderCancellation
		err := c.do(ctx, call{method: http.MethodGet, path: "/air/order_cancellations/" + url.PathEscape(id), idempotent: true, out: &oc})
		if err != nil {
			var de *Error
			if errors.As(err, &de) && de.Status == http.StatusNotFound {
				return fmt.Errorf("duffel: no refund quote %s: %w", id, supplier.ErrRejected)
			}
			return err
		}
		switch {
		case oc.OrderID != orders[i]:
			return fmt.Errorf("duffel: quote %s is for order %s, not %s: %w", id, oc.OrderID, orders[i], supplier.ErrRejected)
		case oc.ConfirmedAt != nil:
			continue
		case oc.ExpiresAt != nil && !oc.ExpiresAt.After(now):
			return fmt.Errorf("duffel: quote %s expired at %s: %w", id, oc.ExpiresAt.Format(time.RFC3339), supplier.ErrRejected)
		}
		others, err := c.otherCancellations(ctx, oc)
		if err != nil {
			return err
		}
		if done := confirmedOf(others); done != nil {
			// Run again after a re-quote was confirmed (or the order was
			// cancelled another way): done if it gave back what was agreed.
			if err := c.sameReturn(ctx, oc, *done); err != nil {
				return err
			}
			continue
		}
		if len(others) > 0 {
			if id, err = c.requote(ctx, oc); err != nil {
				return err
			}
		}
		todo = append(todo, id)
	}
	for _, id := range todo {
		if err := c.confirmCancellation(ctx, id); err != nil {
			return err
		}
	}
	return nil
}

// otherCancellations lists the order's cancellations created after oc,
// any of which Duffel would confirm instead of it, and any confirmed one.
func (c *Client) otherCancellations(ctx context.Context, oc wireOrderCancellation) ([]wireOrderCancellation, error) {
	var list []wireOrderCancellation
	q := url.Values{"order_id": {oc.OrderID}, "limit": {"200"}}
	if err := c.do(ctx, call{method: http.MethodGet, path: "/air/order_cancellations", query: q, idempotent: true, out: &list}); err != nil {
		return nil, err
	}
	var out []wireOrderCancellation
	for _, other := range list {
		if other.ID == oc.ID {
			continue
		}
		newer := other.CreatedAt != nil && (oc.CreatedAt == nil || other.CreatedAt.After(*oc.CreatedAt))
		if newer || other.ConfirmedAt != nil {
			out = append(out, other)
		}
	}
	return out, nil
}

func confirmedOf(list []wireOrderCancellation) *wireOrderCancellation {
	for i := range list {
		if list[i].ConfirmedAt != nil {
			return &list[i]
		}
	}
	return nil
}

// sameReturn checks that a cancellation confirmed instead of the agreed
// one gave back no less, the same way.
func (c *Client) sameReturn(ctx context.Context, agreed, done wireOrderCancellation) error {
	o, err := c.getOrder(ctx, agreed.OrderID)
	if err != nil {
		return err
	}
	was, err := readCancellation(agreed, o.TotalCurrency)
	if err != nil {
		return err
	}
	got, err := readCancellation(done, o.TotalCurrency)
	if err != nil {
		return err
	}
	if !atLeast(got, was) {
		return fmt.Errorf("duffel: order %s was cancelled by %s, which returns %s, not the %s of quote %s: %w",
			agreed.OrderID, done.ID, got, was, agreed.ID, supplier.ErrRejected)
	}
	return nil
}

// atLeast says whether a cancellation returns no less than another, to the
// same place.
func atLeast(now, was cancelValue) bool {
	return !was.unknown && !now.unknown && now.to == was.to && now.currency == was.currency &&
		now.refund >= was.refund && now.credit >= was.credit
}

// requote quotes a superseded cancellation again and returns the new one
// when it gives back no less, the same way as the one agreed.
func (c *Client) requote(ctx context.Context, agreed wireOrderCancellation) (string, error) {
	o, err := c.getOrder(ctx, agreed.OrderID)
	if err != nil {
		return "", err
	}
	was, err := readCancellation(agreed, o.TotalCurrency)
	if err != nil {
		return "", err
	}
	fresh, err := c.createCancellation(ctx, agreed.OrderID)
	if err != nil {
		return "", err
	}
	now, err := readCancellation(fresh, o.TotalCurrency)
	if err != nil {
		return "", err
	}
	if !atLeast(now, was) {
		return "", fmt.Errorf("duffel: quote %s was superseded by a newer cancellation of order %s; quoted again it returns %s, not %s: quote the refund again: %w",
			agreed.ID, agreed.OrderID, now, was, supplier.ErrRejected)
	}
	c.log.LogAttrs(ctx, slog.LevelInfo, "duffel: refund quote superseded by a newer cancellation; quoted again",
		slog.String("order", agreed.OrderID), slog.String("was", agreed.ID), slog.String("now", fresh.ID), slog.String("returns", now.String()))
	return fresh.ID, nil
}
