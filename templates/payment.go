package templates

import (
	"context"

	"github.com/voyage/voyage/pkg/i18n"
	"github.com/voyage/voyage/pkg/payment"
)

// CardPaymentProps are the CardPayment island's props: the card step of a
// channel payment (Stripe's Payment Element, Airwallex's hosted payment
// page). The client secret is the payer's to use, and this page is shown
// to the booking agency only (booking.Core.Payment); the keys are the
// channels' public ones.
type CardPaymentProps struct {
	// Provider is the channel: stripe or airwallex.
	Provider    string `json:"provider"`
	ChannelName string `json:"channelName"`
	// Amount is the amount to pay, as the page shows it.
	Amount         string `json:"amount"`
	PublishableKey string `json:"publishableKey,omitempty"`
	Env            string `json:"env,omitempty"`
	IntentID       string `json:"intentId"`
	ClientSecret   string `json:"clientSecret"`
	Currency       string `json:"currency"`
	// ReturnPath is the booking's detail page, where the provider sends
	// the payer back.
	ReturnPath string `json:"returnPath"`
	Lang       string `json:"lang"`
}

// cardPaymentProps are the island's props of p (with its card step) on the
// detail page self.
func cardPaymentProps(ctx context.Context, p *payment.PendingView, self string) CardPaymentProps {
	return CardPaymentProps{Provider: p.Channel, ChannelName: catalogLabel(ctx, "orders.channel.", p.Channel),
		Amount: p.Amount.Amount + " " + p.Amount.Currency, PublishableKey: p.Card.PublishableKey, Env: p.Card.Env,
		IntentID: p.Card.IntentID, ClientSecret: p.ClientSecret, Currency: p.Card.Currency, ReturnPath: self, Lang: i18n.Lang(ctx)}
}
