package payment

import (
	"log/slog"
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

// DefaultTimeout bounds one call to a provider when a channel's
// configuration sets no bound of its own.
const DefaultTimeout = 15 * time.Second

// Timeout is a configured bound on one call, or def when none is configured
// (zero or less): a call without a bound would hold a booking's payment step
// forever.
func Timeout(configured, def time.Duration) time.Duration {
	if configured <= 0 {
		return def
	}
	return configured
}

// Clock is a configured clock, or time.Now when none is configured.
func Clock(now func() time.Time) func() time.Time {
	if now == nil {
		return time.Now
	}
	return now
}

// Logger is a configured logger, or slog.Default() when none is configured.
func Logger(log *slog.Logger) *slog.Logger {
	if log == nil {
		return slog.Default()
	}
	return log
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
