package booking

import "slices"

// BySystem takes the steps nobody asks for: a deadline, a gateway's or a
// supplier's answer, a job.
const BySystem = "system"

// Edge is one move of a line's status machine: in status From, Action
// leads to To, and By (ByAgency, ByProvider, BySystem) takes it.
type Edge[S, A comparable] struct {
	From   S
	Action A
	To     S
	By     string
}

// Machine is a line's whole status machine, in table order. Where one
// action has several edges from a status, they are in preference order.
// Nothing but a line's Machine changes a booking's status.
type Machine[S, A comparable] []Edge[S, A]

// Next is where action leads from status from: the first edge whose
// target keep accepts (nil: any). ok is false when the machine forbids it.
func (m Machine[S, A]) Next(from S, action A, keep func(S) bool) (to S, ok bool) {
	for _, e := range m {
		if e.From == from && e.Action == action && (keep == nil || keep(e.To)) {
			return e.To, true
		}
	}
	return to, false
}

// Party is the side that takes action in status s ("" when nobody may).
func (m Machine[S, A]) Party(s S, action A) string {
	for _, e := range m {
		if e.From == s && e.Action == action {
			return e.By
		}
	}
	return ""
}

// Allowed lists the actions side may take in status s, in table order,
// each once.
func (m Machine[S, A]) Allowed(s S, side string) []A {
	out := []A{}
	for _, e := range m {
		if e.From == s && e.By == side && !slices.Contains(out, e.Action) {
			out = append(out, e.Action)
		}
	}
	return out
}

// The display tones of a status (spec §4), the same on every line.
const (
	ToneSuccess = "success"
	ToneWarning = "warning"
	TonePrimary = "primary"
	ToneError   = "error"
	ToneInfo    = "info"
)

// Move is the edge of a machine: in from, action leads to to, taken by by.
func Move[S, A comparable](from S, action A, to S, by string) Edge[S, A] {
	return Edge[S, A]{From: from, Action: action, To: to, By: by}
}
