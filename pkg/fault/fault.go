// Package fault holds Voyage's typed errors. A service returns a *fault.Error
// with the stable API code of API.md and a catalog key; the API and the portal
// turn it into a translated message and an HTTP status. Anything that is not a
// *fault.Error is an internal error and is never shown to the user as is.
package fault

import (
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"time"
)

// Stable API codes (API.md "Error codes").
const (
	CodeOK               = 0
	CodeValidation       = 100001
	CodeBodyTooLarge     = 100002
	CodeNotFound         = 100004
	CodeConflict         = 100009
	CodeBadCredentials   = 200001
	CodeNoAccess         = 200003
	CodeSessionExpired   = 200005
	CodeSessionInvalid   = 200006
	CodeRateLimited      = 200029
	CodeLoggedOutByOther = 201001
	CodeInsufficientFund = 300001
	CodePaymentFailed    = 300002
	CodeNoFlight         = 400001
	CodeQuoteExpired     = 400002
	CodeSearchTimeout    = 400003
	CodeSearchBusy       = 400004 // 503 with Retry-After: too many searches running
	CodeInternal         = 500001
)

// Error is a failure the user is told about.
type Error struct {
	Code   int
	Status int
	// Key is the catalog key of the message; Args fill its placeholders as
	// name, value pairs.
	Key  string
	Args []any
	// Fields maps a request field to the catalog key of what is wrong with it.
	Fields map[string]string
	// RetryAfter, when positive, is how long the caller must wait before
	// trying again: the edge sends it as the Retry-After header.
	RetryAfter time.Duration
	// Err is the underlying cause, for logs only.
	Err error
}

func (e *Error) Error() string {
	s := fmt.Sprintf("fault %d (%s)", e.Code, e.Key)
	if len(e.Fields) > 0 {
		s += fmt.Sprintf(" fields=%v", e.Fields)
	}
	if e.Err != nil {
		s += ": " + e.Err.Error()
	}
	return s
}

func (e *Error) Unwrap() error { return e.Err }

// As returns the *Error in err's chain, if any.
func As(err error) (*Error, bool) {
	var fe *Error
	ok := errors.As(err, &fe)
	return fe, ok
}

// New builds an error with an explicit code, status and message key.
func New(code, status int, key string, args ...any) *Error {
	return &Error{Code: code, Status: status, Key: key, Args: args}
}

// Validation reports invalid input: HTTP 400, code 100001, one catalog key
// per offending field.
func Validation(fields map[string]string) *Error {
	return &Error{Code: CodeValidation, Status: http.StatusBadRequest, Key: "error.validation", Fields: fields}
}

// A field error names its field by a path, one form everywhere (the JSON
// decoder's checks, every service's own, the portal's forms): properties
// joined by dots, a list's item by its index in brackets, e.g.
// passengers[1].surname. Integrators match on it; two forms in one request
// (passengers.0.surname beside passengers[0].surname) made them handle both.

// Item is the path of item i of the list at path list: "passengers[1]".
func Item(list string, i int) string {
	return list + "[" + strconv.Itoa(i) + "]"
}

// Field is the path of property name of the object at path (the request
// itself when path is empty): "contact.email".
func Field(path, name string) string {
	if path == "" {
		return name
	}
	return path + "." + name
}

// Malformed reports a body that could not be parsed.
func Malformed(err error) *Error {
	return &Error{Code: CodeValidation, Status: http.StatusBadRequest, Key: "error.malformedJSON", Err: err}
}

// TooLarge reports a body over the size limit.
func TooLarge(limit int64) *Error {
	return &Error{Code: CodeBodyTooLarge, Status: http.StatusRequestEntityTooLarge, Key: "error.bodyTooLarge", Args: []any{"limit", limit}}
}

// RateLimited reports a caller that must wait retryAfter before trying
// again: HTTP 429, code 200029.
func RateLimited(key string, retryAfter time.Duration, args ...any) *Error {
	return &Error{Code: CodeRateLimited, Status: http.StatusTooManyRequests, Key: key, Args: args, RetryAfter: retryAfter}
}

// RetryAfterSeconds is RetryAfter as the whole seconds of a Retry-After
// header, rounded up so a caller that waits that long is let through; 0
// when there is nothing to wait for.
func (e *Error) RetryAfterSeconds() int64 {
	if e.RetryAfter <= 0 {
		return 0
	}
	return int64((e.RetryAfter + time.Second - 1) / time.Second)
}

// NotFound reports a missing resource (or one the caller may not see: the two
// are deliberately indistinguishable).
func NotFound(key string) *Error {
	if key == "" {
		key = "error.notFound"
	}
	return &Error{Code: CodeNotFound, Status: http.StatusNotFound, Key: key}
}

// Conflict reports an action the current state does not allow.
func Conflict(key string) *Error {
	return &Error{Code: CodeConflict, Status: http.StatusConflict, Key: key}
}

// Forbidden reports a missing role, permission or disabled service.
func Forbidden() *Error {
	return &Error{Code: CodeNoAccess, Status: http.StatusForbidden, Key: "error.noAccess"}
}

// Internal wraps an unexpected failure: the user sees a generic message.
func Internal(err error) *Error {
	return &Error{Code: CodeInternal, Status: http.StatusInternalServerError, Key: "error.internal", Err: err}
}

// From returns err as a *Error, wrapping anything unexpected as Internal.
func From(err error) *Error {
	if fe, ok := As(err); ok {
		return fe
	}
	return Internal(err)
}
