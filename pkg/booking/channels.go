package booking

import (
	"context"
	"net/http"

	"github.com/voyage/voyage/pkg/auth"
	"github.com/voyage/voyage/pkg/fault"
	"github.com/voyage/voyage/pkg/idempotency"
	"github.com/voyage/voyage/pkg/payment"
)

// Channels are the channels agencyID may pay by on this server: the
// wallet (balance), then each external channel that has a gateway here and
// that the agency's provider lets it use (agency.Store.PaymentChannels), in
// pkg/payment's order. Whether the agency may pay at all (disablePayment)
// is the line's to check.
func (c *Core[B]) Channels(ctx context.Context, agencyID int64) ([]string, error) {
	allowed, err := c.Agencies.PaymentChannels(ctx, agencyID)
	if err != nil {
		return nil, err
	}
	out := []string{payment.ChannelBalance}
	for _, ch := range payment.Channels {
		if _, ok := c.Gateways[ch]; ok && ch != payment.ChannelBalance && allowed.Allows(ch) {
			out = append(out, ch)
		}
	}
	return out, nil
}

// Payer checks who pays a booking of agencyID, before anything is read of
// the payment itself, the same on every line: only the booking agency's own
// users pay (a parent agency that sees the booking is forbidden), and only
// while its payments are on; key, when given, must be one a payment may be
// made with. It answers the gateway the channel goes through (Gateway).
func (c *Core[B]) Payer(ctx context.Context, v Viewer, agencyID int64, channel, key, notOffered string) (payment.Gateway, error) {
	if v.Side(agencyID) != ByAgency {
		return nil, fault.Forbidden()
	}
	if v.Agency.DisablePayment {
		return nil, fault.New(fault.CodeNoAccess, http.StatusForbidden, "order.error.paymentDisabled")
	}
	if err := idempotency.Check(key, false); err != nil {
		return nil, err
	}
	return c.Gateway(ctx, agencyID, channel, notOffered)
}

// Paying is booking id as who may pay it through channel under key: the
// booking read as who sees it (Books.Get), then the payer checked (Payer),
// before the line looks at what the payment is for.
func (c *Core[B]) Paying(ctx context.Context, who auth.Principal, id int64, channel, key, notOffered string) (B, Viewer, payment.Gateway, error) {
	o, v, err := c.Books.Get(ctx, who, id)
	if err != nil {
		return o, v, nil, err
	}
	agencyID, _ := o.Owner()
	gw, err := c.Payer(ctx, v, agencyID, channel, key, notOffered)
	return o, v, gw, err
}

// Gateway is the gateway agencyID's payment by channel goes through, nil
// for the wallet: the one place every line (flights, trains, group
// installments) resolves a payment's channel, before anything changes. A
// channel this server has no gateway for is a validation error on the
// field channel with the line's catalog key notOffered; one the agency may
// not use is refused (200003, "order.error.channelNotAllowed").
// Settling a payment already made (its notification, its status check)
// does not come here: a payment taken is settled, whatever the agency's
// channels became since.
func (c *Core[B]) Gateway(ctx context.Context, agencyID int64, channel, notOffered string) (payment.Gateway, error) {
	if channel == payment.ChannelBalance {
		return nil, nil
	}
	gw, ok := c.Gateways[channel]
	if !ok {
		return nil, fault.Validation(map[string]string{"channel": notOffered})
	}
	allowed, err := c.Agencies.PaymentChannels(ctx, agencyID)
	if err != nil {
		return nil, err
	}
	if !allowed.Allows(channel) {
		return nil, ErrChannelNotAllowed()
	}
	return gw, nil
}

// ErrChannelNotAllowed refuses a payment by a channel the provider has not
// allowed the paying agency.
func ErrChannelNotAllowed() error {
	return fault.New(fault.CodeNoAccess, http.StatusForbidden, "order.error.channelNotAllowed")
}
