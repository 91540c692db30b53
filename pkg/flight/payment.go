package flight

// ChannelInfo is one payment channel of GET /order/v2/flight/config/payment.
type ChannelInfo struct {
	Channel string `json:"channel"`
	// Name is the channel's name in the caller's language.
	Name string `json:"name"`
	// Kind is wallet (the agency's balance and credit) or gateway.
	Kind string `json:"kind" jsonschema:"enum=wallet,enum=gateway"`
}

// PaymentConfig is GET /order/v2/flight/config/payment.
type PaymentConfig struct {
	Channels []ChannelInfo `json:"channels"`
	// PaymentDisabled: the agency may book but not pay (its provider or
	// parent settles its orders).
	PaymentDisabled bool  `json:"paymentDisabled"`
	Balance         Money `json:"balance"`
	CreditLimit     Money `json:"creditLimit"`
	Available       Money `json:"available"`
}
