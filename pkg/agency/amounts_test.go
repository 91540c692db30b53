package agency

import (
	"testing"

	"github.com/voyage/voyage/pkg/fault"
	"github.com/voyage/voyage/pkg/i18n"
)

// TestAmountMessages: an agency's amounts say what is wrong with them ("1e5"
// is not a plain amount, "1.005" has too many decimals for the currency)
// instead of one message for every refusal.
func TestAmountMessages(t *testing.T) {
	t.Parallel()
	cat := i18n.MustLoad()
	cfg := func(edit func(*Config)) map[string]string {
		c := Config{Settings: Settings{SettlementCurrency: "CNY"}, Flight: DefaultFlightSettings()}
		edit(&c)
		return c.Validate()
	}
	tests := []struct {
		name, field, want string
		errs              map[string]string
	}{
		{"fee with three decimals", "flight.serviceFees.refund", "CNY allows at most 2 decimal places",
			cfg(func(c *Config) { c.Flight.ServiceFees.Refund = "1.005" })},
		{"fee as an exponent", "flight.serviceFees.change", "Enter the amount as a plain number, such as 1234.50",
			cfg(func(c *Config) { c.Flight.ServiceFees.Change = "1e5" })},
		{"negative fee", "flight.serviceFees.void", "The service fee must be an amount of 0 or more",
			cfg(func(c *Config) { c.Flight.ServiceFees.Void = "-1" })},
		{"markup amount as an exponent", "flight.markups.domestic.value", "Enter the amount as a plain number, such as 1234.50",
			cfg(func(c *Config) { c.Flight.Markups["domestic"] = Markup{Unit: "amount", Value: "1e2", Limit: "0"} })},
		{"yen markup limit with decimals", "flight.markups.domestic.limit", "JPY amounts are whole numbers, without decimals",
			cfg(func(c *Config) {
				c.Settings.SettlementCurrency = "JPY"
				c.Flight.Markups["domestic"] = Markup{Unit: "percent", Value: "2", Limit: "10.5"}
			})},
	}
	for _, tt := range tests {
		if got := cat.T(i18n.EN, tt.errs[tt.field]); got != tt.want {
			t.Errorf("%s: %s = %q (%v), want %q", tt.name, tt.field, got, tt.errs, tt.want)
		}
	}
	if errs := cfg(func(c *Config) {
		c.Flight.Markups["domestic"] = Markup{Unit: "amount", Value: "-12.50", Limit: "100"}
	}); len(errs) != 0 {
		t.Errorf("a negative amount markup (a discount) was refused: %v", errs)
	}

	for _, tt := range []struct{ limit, want string }{
		{"1.005", "CNY allows at most 2 decimal places"},
		{"1e5", "Enter the amount as a plain number, such as 1234.50"},
		{"-5", "The amount cannot be negative"},
		{"", "Please enter the credit limit"},
	} {
		_, err := checkCredit(Agency{SettlementCurrency: "CNY"}, &CreditRequest{CreditLimit: tt.limit})
		fe, ok := fault.As(err)
		if !ok || cat.T(i18n.EN, fe.Fields["creditLimit"]) != tt.want {
			t.Errorf("credit limit %q: %v, want %q", tt.limit, err, tt.want)
		}
	}
}
