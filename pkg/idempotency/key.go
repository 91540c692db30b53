package idempotency

import "github.com/voyage/voyage/pkg/fault"

// MaxKey is the longest Idempotency-Key any route accepts, the one length
// the API document states. Services derive their ledger and gateway keys
// from it with a short prefix, which must still fit their own columns
// (the ledger's 100 characters), so it is not the columns' length.
const MaxKey = 90

// Check refuses a key longer than MaxKey, or a missing one where required,
// naming the header in the caller's language; the edge runs it on every
// route that takes a key, before the route reads anything.
func Check(key string, required bool) error {
	switch {
	case len(key) > MaxKey:
		return fault.Validation(map[string]string{"Idempotency-Key": "error.idempotencyKey.length"})
	case required && key == "":
		return fault.Validation(map[string]string{"Idempotency-Key": "error.idempotencyKey.required"})
	}
	return nil
}
