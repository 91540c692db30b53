package audit

import (
	"context"
	"database/sql/driver"
	"encoding/json"
	"fmt"
)

// Facts are the names and figures a user-log entry's summary mentions, by
// name (order, amount, currency, agency, user...), as they were when the
// entry was written. They are kept so that the entry reads the same
// later, whatever becomes of the order or agency ("order": "F2611250001",
// "amount": "690.00", "currency": "CNY", "agency": "Demo Travel"); stored
// as a JSON object.
type Facts map[string]string

// Value stores the facts as JSON, or an empty string when there are none.
func (f Facts) Value() (driver.Value, error) {
	if len(f) == 0 {
		return "", nil
	}
	b, err := json.Marshal(map[string]string(f))
	if err != nil {
		return nil, fmt.Errorf("audit: facts: %w", err)
	}
	return string(b), nil
}

// Scan reads stored facts. A line written before facts were kept, or with
// facts that no longer parse, has none and reads generically.
func (f *Facts) Scan(src any) error {
	var b []byte
	switch v := src.(type) {
	case nil:
	case string:
		b = []byte(v)
	case []byte:
		b = v
	default:
		return fmt.Errorf("audit: facts from %T", src)
	}
	*f = nil
	if len(b) == 0 {
		return nil
	}
	var m map[string]string
	if json.Unmarshal(b, &m) == nil && len(m) > 0 {
		*f = m
	}
	return nil
}

type factsKey struct{}

// Collect returns a context in which Note gathers facts into the returned
// map: the API router opens one around a handler and writes what was noted
// into the entry of the call.
func Collect(ctx context.Context) (context.Context, Facts) {
	f := Facts{}
	return context.WithValue(ctx, factsKey{}, f), f
}

// Note records facts for the user-log entry of the call under way, as
// key, value pairs; empty values are left out. Outside Collect it does
// nothing, so code shared with reads may call it freely.
func Note(ctx context.Context, kv ...string) {
	f, _ := ctx.Value(factsKey{}).(Facts)
	if f == nil {
		return
	}
	for i := 0; i+1 < len(kv); i += 2 {
		if kv[i+1] != "" {
			f[kv[i]] = kv[i+1]
		}
	}
}

// With returns facts from key, value pairs, leaving out empty values.
func With(kv ...string) Facts {
	f := Facts{}
	for i := 0; i+1 < len(kv); i += 2 {
		if kv[i+1] != "" {
			f[kv[i]] = kv[i+1]
		}
	}
	if len(f) == 0 {
		return nil
	}
	return f
}
