package booking

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"

	"github.com/voyage/voyage/pkg/fault"
)

// RequestHash is what a booking request is remembered by, beside its
// idempotency key: a replay must send the same request.
func RequestHash(req any) string {
	b, _ := json.Marshal(req)
	h := sha256.Sum256(b)
	return hex.EncodeToString(h[:])
}

// Replay answers a booking request sent again with an idempotency key the
// agency used before, the same on every line: prior loads the booking the
// key made (found false when the key is new), hashOf says which request
// made it; a replay of the same request (hash) gets answer's view of that
// booking, another request under the key a conflict.
func Replay[B, V any](prior func() (B, bool, error), hash string, hashOf func(B) string, answer func(B) (V, error)) (V, bool, error) {
	var none V
	b, found, err := prior()
	switch {
	case err != nil || !found:
		return none, false, err
	case hashOf(b) != hash:
		return none, true, fault.Conflict("ledger.error.idempotencyMismatch")
	}
	out, err := answer(b)
	return out, true, err
}
