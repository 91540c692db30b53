package flight

// ChannelInfo is one payment channel the agency may pay with (GET
// /order/v2/flight/config/payment).
type ChannelInfo struct {
	// Channel is the channel's code, to pass as channel when paying:
	// balance, alipay, wechat-pay, yeepay-alipay, yeepay-credit-card,
	// yeepay-debit-card, yeepay-wechat, airwallex or stripe.
	Channel string `json:"channel"`
	// Name is the channel's name in the caller's language.
	Name string `json:"name"`
	// Kind is wallet (the agency's balance and credit) or gateway.
	Kind string `json:"kind" jsonschema:"enum=wallet,enum=gateway"`
}

// PaymentConfig is how the caller's agency may pay its orders (GET
// /order/v2/flight/config/payment): its channels and its wallet.
type PaymentConfig struct {
	// Channels are the payment channels the agency may use now (balance
	// being its wallet).
	Channels []ChannelInfo `json:"channels"`
	// PaymentDisabled: the agency may book but not pay (its provider or
	// parent settles its orders).
	PaymentDisabled bool `json:"paymentDisabled"`
	// Balance is the agency's wallet balance in its settlement currency;
	// negative while it uses credit.
	Balance Money `json:"balance"`
	// CreditLimit is the credit the agency may use beyond its balance.
	CreditLimit Money `json:"creditLimit"`
	// Available is what the wallet can pay now: balance plus creditLimit.
	Available Money `json:"available"`
}
