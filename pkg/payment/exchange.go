package payment

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
)

// Exchange sends req with client and reads at most limit bytes of the
// answer, closing its body; the caller reads the status and headers from
// the response. Failing to send or to read is ErrPaymentTimeout: the
// provider may have acted on the request all the same, so what became of
// the payment is unknown and must be asked again, not taken as refused.
func Exchange(client *http.Client, req *http.Request, limit int64) (*http.Response, []byte, error) {
	resp, err := client.Do(req)
	if err != nil {
		return nil, nil, fmt.Errorf("%w: %w", ErrPaymentTimeout, err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, limit))
	if err != nil {
		return nil, nil, fmt.Errorf("%w: reading the answer: %w", ErrPaymentTimeout, err)
	}
	return resp, body, nil
}

// Decimal is an amount a provider's JSON writes now as a string, now as a
// number ("88.88" or 88.88: Alipay's and Yeepay's answers, pages and SDKs
// differ), kept as its text either way so that no float rounds it; null is
// empty.
type Decimal string

// UnmarshalJSON implements json.Unmarshaler.
func (d *Decimal) UnmarshalJSON(b []byte) error {
	if string(b) == "null" {
		*d = ""
		return nil
	}
	if len(b) > 0 && b[0] == '"' {
		var s string
		if err := json.Unmarshal(b, &s); err != nil {
			return fmt.Errorf("payment: decimal: %w", err)
		}
		*d = Decimal(s)
		return nil
	}
	var n json.Number
	if err := json.Unmarshal(b, &n); err != nil {
		return fmt.Errorf("payment: decimal: %w", err)
	}
	*d = Decimal(n)
	return nil
}
