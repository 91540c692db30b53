package payment

import (
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"time"
)

// CheckStep is one step of a channel's live check, as it went.
type CheckStep struct {
	Step   string        // create, status, close, status after close
	Took   time.Duration // how long the channel took to answer
	Result string        // what it answered
	Err    error
}

// LiveCheck is a round trip with a channel's own credentials and endpoint
// (the operator's sandbox, or production): it creates a payment of amount
// in currency that nobody pays, asks for it, closes it and asks again, so
// that signing, verification and the endpoint are known to work before a
// customer's money depends on them. It moves no money. Every step is
// reported; the first failing one ends the check with its error.
// notifyURL is where the channel would notify (the server's public route;
// nobody pays, so nothing comes).
func LiveCheck(ctx context.Context, ch Channel, amount int64, currency, notifyURL string) ([]CheckStep, error) {
	key := "check_" + rand.Text()[:20]
	var steps []CheckStep
	step := func(name string, fn func() (string, error)) error {
		start := time.Now()
		res, err := fn()
		steps = append(steps, CheckStep{Step: name, Took: time.Since(start).Round(time.Millisecond), Result: res, Err: err})
		if err != nil {
			return fmt.Errorf("%s %s: %w", ch.Name(), name, err)
		}
		return nil
	}
	status := func() (string, error) {
		st, err := ch.Status(ctx, key)
		if errors.Is(err, ErrUnknownPayment) {
			// Alipay knows a QR payment only once it is scanned.
			return "unknown to the channel until the payer acts", nil
		}
		return st.State, err
	}
	err := step("create", func() (string, error) {
		p, err := ch.Create(ctx, Create{Key: key, Amount: amount, Currency: currency, Subject: "Voyage channel check",
			NotifyURL: notifyURL, ExpiresAt: time.Now().Add(10 * time.Minute)})
		switch {
		case err != nil:
			return "", err
		case p.QRCode != "":
			return "QR code " + p.QRCode, nil
		case p.RedirectURL != "":
			return "payment page " + p.RedirectURL, nil
		case p.ClientSecret != "":
			return "card form secret received (" + p.Reference + ")", nil
		}
		return "", errors.New("the channel answered no way to pay")
	})
	if err == nil {
		err = step("status", status)
	}
	if err == nil {
		err = step("close", func() (string, error) { return "closed", ch.Close(ctx, key) })
	}
	if err == nil {
		err = step("status after close", status)
	}
	return steps, err
}
