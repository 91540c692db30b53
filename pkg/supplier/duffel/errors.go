package duffel

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"

	"github.com/voyage/voyage/pkg/supplier"
)

// Error is an error answer from Duffel. It unwraps to one of the
// supplier errors (ErrRejected, ErrNotFound, ErrOfferGone, ErrUnavailable)
// so callers decide on those, and it keeps Duffel's own code, message and
// request id for logs and for Duffel's support.
type Error struct {
	Request   string // "POST /air/orders"
	Status    int
	Type      string // Duffel's error type, e.g. "validation_error"
	Code      string // Duffel's error code, e.g. "offer_no_longer_available"
	Title     string
	Message   string
	RequestID string
	kind      error
}

func (e *Error) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "duffel: %s: %d", e.Request, e.Status)
	if e.Code != "" {
		fmt.Fprintf(&b, " %s", e.Code)
	}
	switch {
	case e.Message != "":
		fmt.Fprintf(&b, ": %s", e.Message)
	case e.Title != "":
		fmt.Fprintf(&b, ": %s", e.Title)
	}
	if e.RequestID != "" {
		fmt.Fprintf(&b, " (request %s)", e.RequestID)
	}
	return b.String()
}

// Unwrap returns the supplier error this answer means.
func (e *Error) Unwrap() error { return e.kind }

// wireError is Duffel's error envelope.
type wireError struct {
	Errors []struct {
		Type    string `json:"type"`
		Title   string `json:"title"`
		Message string `json:"message"`
		Code    string `json:"code"`
	} `json:"errors"`
	Meta struct {
		RequestID string `json:"request_id"`
		Status    int    `json:"status"`
	} `json:"meta"`
}

func newAPIError(cl call, res response) *Error {
	e := &Error{Request: cl.String(), Status: res.status}
	var w wireError
	if json.Unmarshal(res.body, &w) == nil && len(w.Errors) > 0 {
		first := w.Errors[0]
		e.Type, e.Code, e.Title, e.Message = first.Type, first.Code, first.Title, first.Message
		// Several errors (a validation failing on more than one field):
		// keep every message, the user-facing text comes from our catalog.
		for _, more := range w.Errors[1:] {
			if more.Message != "" {
				e.Message += "; " + more.Message
			}
		}
		e.RequestID = w.Meta.RequestID
	} else {
		e.Title = http.StatusText(res.status)
	}
	if e.RequestID == "" && res.header != nil {
		e.RequestID = res.header.Get("X-Request-Id")
	}
	e.kind = classify(res.status, e.Code)
	return e
}

// classify maps a status and Duffel error code to a supplier error.
func classify(status int, code string) error {
	switch code {
	case "offer_no_longer_available":
		return supplier.ErrOfferGone
	case "not_found":
		return supplier.ErrNotFound
	case "rate_limit_exceeded", "order_not_created", "airline_internal", "airline_unknown", "internal_server_error":
		return supplier.ErrUnavailable
	}
	switch {
	case status == http.StatusNotFound:
		return supplier.ErrNotFound
	case status == http.StatusUnauthorized || status == http.StatusForbidden:
		// A missing, wrong or under-privileged token: the connector is
		// unusable until its configuration is fixed, whatever we send.
		return supplier.ErrUnavailable
	case status == http.StatusTooManyRequests || status >= 500:
		return supplier.ErrUnavailable
	default:
		return supplier.ErrRejected
	}
}

// offerGone turns "not found" into "offer gone" for calls about offers: an
// offer that Duffel no longer knows has expired.
func offerGone(err error) error {
	var e *Error
	if errors.As(err, &e) && e.kind == supplier.ErrNotFound {
		e.kind = supplier.ErrOfferGone
	}
	return err
}
