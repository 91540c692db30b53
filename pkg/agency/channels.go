package agency

import (
	"context"
	"net/http"
	"slices"

	"github.com/voyage/voyage/pkg/auth"
	"github.com/voyage/voyage/pkg/fault"
	"github.com/voyage/voyage/pkg/payment"
)

// Channels are the payment channels an agency may pay by, as its provider
// set them: the wallet (balance) always, and every external channel (All)
// or only those in Only. Whether the server has a channel is the lines'
// business (booking.Core.Channels); disablePayment is checked apart.
type Channels struct {
	All  bool
	Only []string
}

// Allows reports whether channel may be used.
func (c Channels) Allows(channel string) bool {
	return channel == payment.ChannelBalance || c.All || slices.Contains(c.Only, channel)
}

// maxDepth bounds a walk up the agency tree.
const maxDepth = 16

// PaymentChannels are the channels agency id may pay by: its own setting
// capped by each of its ancestors' (a sub-agency never gets more than its
// parent may use, whatever the provider stored for it). This is the one
// place the rule is applied; the agencies come from the cache, which a
// config change clears for the changed agency.
func (s *Store) PaymentChannels(ctx context.Context, id int64) (Channels, error) {
	out := Channels{All: true}
	for depth := 0; depth < maxDepth; depth++ {
		a, err := s.Cached(ctx, id)
		if err != nil {
			return Channels{}, err
		}
		if a.PaymentChannelsJSON.Valid {
			own := decodeChannels(a.PaymentChannelsJSON)
			if out.All {
				out = Channels{Only: own}
			} else {
				out.Only = slices.DeleteFunc(out.Only, func(c string) bool { return !slices.Contains(own, c) })
			}
		}
		if a.ParentID == nil {
			return out, nil
		}
		id = *a.ParentID
	}
	return out, nil
}

// errChannelsProviderOnly refuses a change of an agency's payment channels
// by anyone but the provider.
func errChannelsProviderOnly() error {
	return fault.New(fault.CodeNoAccess, http.StatusForbidden, "agency.error.paymentChannelsProvider")
}

// mayChangeChannels refuses actor's change of an agency's payment channels
// from was to want unless actor is the provider's (the agency itself
// never reaches here: Managed refuses an agency its own config).
func mayChangeChannels(actor auth.Principal, was, want []string) error {
	if (was == nil) == (want == nil) && slices.Equal(was, want) {
		return nil
	}
	if !actor.Subject.IsProvider() {
		return errChannelsProviderOnly()
	}
	return nil
}
