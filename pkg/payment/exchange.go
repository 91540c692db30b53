package payment

import (
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
