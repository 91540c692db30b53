package money

// Money is an amount as the API, the documents and the terminal write it
// (API.md conventions): a decimal string in the currency's minor-unit
// exponent, and the currency. Every line and every answer uses this one
// type.
type Money struct {
	Amount   string `json:"amount"`
	Currency string `json:"currency"`
}

// Of writes minor units of currency as Money.
func Of(minor int64, currency string) Money {
	return Money{Amount: Amount{Minor: minor, Currency: currency}.String(), Currency: currency}
}
