package api

import (
	_ "embed"
	"encoding/json"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/voyage/voyage/pkg/flight"
	"github.com/voyage/voyage/pkg/train"
)

// Webhook documents one event Voyage posts to an agency's URL.
type Webhook struct {
	Event   string
	Summary string
	// Data is a value of the payload's data type.
	Data any
}

// GroupStatusEvent is the data of a group.status webhook: a group order
// moved from one status to another.
type GroupStatusEvent struct {
	// ID is the group order's id (GET /order/v2/flight/group/orders/{id}).
	ID int64 `json:"id"`
	// BookingNumber is the order's booking number.
	BookingNumber string `json:"bookingNumber"`
	// Action is the step that moved the order (the quote, a payment, a list, a cancellation…).
	Action string `json:"action"`
	// FromStatus is the order's status before the step.
	FromStatus string `json:"fromStatus"`
	// Status is the order's status after the step.
	Status string `json:"status"`
	// At is when the step happened (RFC 3339, UTC).
	At time.Time `json:"at"`
}

// GroupReminderEvent is the data of a group.reminder webhook: one of a
// group order's deadlines is near.
type GroupReminderEvent struct {
	// ID is the group order's id.
	ID int64 `json:"id"`
	// BookingNumber is the order's booking number.
	BookingNumber string `json:"bookingNumber"`
	// Status is the order's status when the reminder was sent.
	Status   string `json:"status"`
	Deadline string `json:"deadline" jsonschema_description:"which deadline: an installment stage or the passenger list"`
	// DueAt is when the deadline falls (RFC 3339, UTC).
	DueAt string `json:"dueAt" jsonschema:"format=date-time"`
	// TimeZone is the IANA zone the deadline was set in, to show it as the agency does.
	TimeZone string `json:"timeZone"`
	Amount   any    `json:"amount" jsonschema_description:"money due: {amount, currency}"`
}

// Webhooks lists the events of the document's webhooks section.
var Webhooks = []Webhook{
	{"order.status", "A flight order changed status (data: the order as GET /order/v2/flight/orders/{id} answers it)", flight.View{}},
	{"change.status", "A change order changed status (data: the change order)", flight.View{}},
	{"disruption.created", "The provider recorded a schedule change on an order", flight.Disruption{}},
	{"train.order.status", "A train order changed status (sent to the train notification URL)", train.View{}},
	{"group.status", "A group order changed status", GroupStatusEvent{}},
	{"group.reminder", "A group order's deadline is near", GroupReminderEvent{}},
}

// examplesJSON holds, by "METHOD /path", an exchange the test suite had
// with a real server for each operation it called (pkg/app captures them
// with VOYAGE_CAPTURE_EXAMPLES=1; every test run checks them against the
// schemas when it loads the document).
//
//go:embed examples.json
var examplesJSON []byte

// Captured is one operation's recorded exchange, as examples.json holds it.
type Captured struct {
	Path     map[string]string `json:"path,omitempty"`
	Query    string            `json:"query,omitempty"`
	Request  json.RawMessage   `json:"request,omitempty"`
	Status   int               `json:"status"`
	Response json.RawMessage   `json:"response"`
}

var capturedExamples = sync.OnceValue(func() map[string]Captured {
	m := map[string]Captured{}
	if err := json.Unmarshal(examplesJSON, &m); err != nil {
		panic("api: examples.json: " + err.Error())
	}
	return m
})

// addExamples gives every operation's JSON request and success response an
// example: the captured exchange where there is one, else a value built
// from the schema; then the code samples written from them.
func addExamples(doc map[string]any) {
	schemas, _ := doc["components"].(map[string]any)["schemas"].(map[string]any)
	ex := &exampler{schemas: schemas}
	all := capturedExamples()
	paths, _ := doc["paths"].(map[string]any)
	for path, item := range paths {
		for method, o := range item.(map[string]any) {
			op := o.(map[string]any)
			c, real := all[strings.ToUpper(method)+" "+path]
			if rb, ok := op["requestBody"].(map[string]any); ok {
				for ct, mt := range rb["content"].(map[string]any) {
					if ct == "application/json" {
						m := mt.(map[string]any)
						if real && len(c.Request) > 0 {
							m["example"] = decoded(c.Request)
						} else {
							m["example"] = ex.of(m["schema"], 0)
						}
					}
				}
			}
			for st, r := range op["responses"].(map[string]any) {
				if !strings.HasPrefix(st, "2") {
					continue
				}
				cm, _ := r.(map[string]any)["content"].(map[string]any)
				if m, ok := cm["application/json"].(map[string]any); ok {
					if real && strconv.Itoa(c.Status) == st {
						m["example"] = decoded(c.Response)
					} else {
						m["example"] = ex.of(m["schema"], 0)
					}
				}
			}
		}
	}
	hooks, _ := doc["webhooks"].(map[string]any)
	for _, item := range hooks {
		op := item.(map[string]any)["post"].(map[string]any)
		m := op["requestBody"].(map[string]any)["content"].(map[string]any)["application/json"].(map[string]any)
		m["example"] = ex.of(m["schema"], 0)
	}
	addCodeSamples(doc, all)
}

func decoded(raw json.RawMessage) any {
	var v any
	if err := json.Unmarshal(raw, &v); err != nil {
		panic("api: a captured example is not JSON: " + err.Error())
	}
	return v
}

type exampler struct {
	schemas map[string]any
	path    []string
}

// of is a value valid against schema s (its enum's or const's first value,
// a plausible string for a format, every required property).
func (e *exampler) of(s any, depth int) any {
	m, ok := s.(map[string]any)
	if !ok {
		return nil
	}
	if ref, ok := m["$ref"].(string); ok {
		name := strings.TrimPrefix(ref, "#/components/schemas/")
		if slices.Contains(e.path, name) {
			return nil // a recursive type: stop at its first repeat
		}
		e.path = append(e.path, name)
		v := e.of(e.schemas[name], depth+1)
		e.path = e.path[:len(e.path)-1]
		return v
	}
	if c, ok := m["const"]; ok {
		return c
	}
	if en, ok := m["enum"].([]any); ok && len(en) > 0 {
		return en[0]
	}
	if alts, ok := m["anyOf"].([]any); ok && len(alts) > 0 {
		return e.of(alts[0], depth+1)
	}
	if alts, ok := m["oneOf"].([]any); ok && len(alts) > 0 {
		return e.of(alts[0], depth+1)
	}
	typ := m["type"]
	if ts, ok := typ.([]any); ok && len(ts) > 0 {
		typ = ts[0]
	}
	switch typ {
	case "object":
		out := map[string]any{}
		props, _ := m["properties"].(map[string]any)
		for name, p := range props {
			out[name] = e.of(p, depth+1)
		}
		return out
	case "array":
		if it, ok := m["items"].(map[string]any); ok {
			if ref, ok := it["$ref"].(string); ok && slices.Contains(e.path, strings.TrimPrefix(ref, "#/components/schemas/")) {
				return []any{}
			}
		}
		return []any{e.of(m["items"], depth+1)}
	case "string":
		switch m["format"] {
		case "date-time":
			return "2026-12-20T08:30:00Z"
		case "date":
			return "2026-12-20"
		case "email":
			return "ops@example.com"
		case "uri":
			return "https://example.com/hook"
		case "binary":
			return nil
		}
		if ml, ok := m["minLength"].(float64); ok && ml > 6 {
			return strings.Repeat("x", int(ml))
		}
		return "string"
	case "integer":
		if min, ok := m["minimum"].(float64); ok {
			return int(min)
		}
		return 1
	case "number":
		return 1.5
	case "boolean":
		return true
	case "null":
		return nil
	}
	return nil
}
