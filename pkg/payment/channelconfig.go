package payment

import (
	"net/http"
	"strings"
	"time"
)

// What the channels' configurations share: how a secret shows in a log and
// how a client reaches the provider. Each channel's Config keeps its own
// fields; these are the rules they all follow.

// Redact is a secret's printed form: whether it is set, never its value, so
// that a Config in a log or an error tells what is missing and leaks nothing.
func Redact(secret string) string {
	if secret == "" {
		return "(unset)"
	}
	return "(redacted)"
}

// BaseURL is a configured base URL without its trailing slashes, or def when
// none is configured, so paths can be appended to it as they are.
func BaseURL(configured, def string) string {
	if configured == "" {
		return def
	}
	return strings.TrimRight(configured, "/")
}

// HTTPClient is the client a channel calls its provider with, or a fake
// sends its notifications with: a copy of given (a fresh client when nil),
// bounded by timeout unless given has its own bound, and following no
// redirect. A redirect is never a provider's answer: following one would
// carry a signed request or a credential where the configuration never said.
func HTTPClient(given *http.Client, timeout time.Duration) *http.Client {
	c := &http.Client{}
	if given != nil {
		*c = *given
	}
	if c.Timeout <= 0 {
		c.Timeout = timeout
	}
	c.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
	return c
}
