package money

// Money is a sum of money: a decimal amount and its currency. The API,
// the documents and the terminal write amounts this way (API.md
// conventions); every line and every answer uses this one type.
type Money struct {
	// Amount is the sum as a plain decimal string with exactly as many
	// decimals as the currency has ("1234.50"; whole units for JPY and
	// KRW, "1500"), never an exponent or a thousands separator; a minus
	// sign where the sum goes the other way (money out of a wallet, a
	// refund sent back).
	Amount string `json:"amount"`
	// Currency is the amount's ISO 4217 currency code, e.g. CNY.
	Currency string `json:"currency"`
}

// Of writes minor units of currency as Money.
func Of(minor int64, currency string) Money {
	return Money{Amount: Amount{Minor: minor, Currency: currency}.String(), Currency: currency}
}
