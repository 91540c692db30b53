package templates

import (
	"context"
	"strconv"
	"time"

	"github.com/mileusna/useragent"

	"github.com/voyage/voyage/pkg/display"
	"github.com/voyage/voyage/pkg/i18n"
)

// LoginForm is the login page's state. The password is never echoed back.
type LoginForm struct {
	Username string
	Errors   map[string]string // field → catalog key
	ErrorKey string            // a message for the whole form (i18n.WithArgs folds in its placeholders)
}

// Has reports whether the form has an error for field.
func (f LoginForm) Has(field string) bool { return hasError(f.Errors, field) }

// Profile is the account page of a logged-in user.
type Profile struct {
	Username string
	Email    string
	Nickname string
	Roles    []string
	Company  string
	Password PasswordForm
	Sessions []SessionRow
	// Settings are the details and frequent-info forms (issue 18).
	Settings ProfileSettings
}

// PasswordForm is the change-password form's state.
type PasswordForm struct {
	Errors   map[string]string // oldPassword, password, confirmPassword → catalog key
	ErrorKey string
}

// Has reports whether the form has an error for field.
func (f PasswordForm) Has(field string) bool { return hasError(f.Errors, field) }

// SessionRow is one open session of the user.
type SessionRow struct {
	ID         int64
	CreatedAt  time.Time
	LastSeenAt time.Time
	IP         string
	UserAgent  string
	Current    bool
}

// Section is a page whose feature arrives later: its title and, where the
// spec gives one, its empty state.
type Section struct {
	Heading  string // catalog key of an h2 above the empty state, or ""
	EmptyKey string // catalog key of the empty-state paragraph, or ""
}

// stamp writes a moment in the user's time zone, the zone named: every
// time of the portal that is not a flight's or a train's (display.Time).
func stamp(ctx context.Context, t time.Time) string { return display.Time(ctx, t) }

func isoStamp(t time.Time) string { return t.UTC().Format(time.RFC3339) }

// localStamp writes a flight time in the zone it carries (its airport's,
// set by the handler), labelled as local: "2026-12-20 08:05 local time".
func localStamp(ctx context.Context, t time.Time) string { return display.Local(ctx, t) }

func roleName(ctx context.Context, role string) string {
	return translatedOr(ctx, "portal.role."+role, role)
}

// deviceName reads a session's user agent as a person names their device:
// "Chrome 131 on Android 14"; the full string stays in the cell's title.
func deviceName(ctx context.Context, userAgent string) string {
	ua := useragent.Parse(userAgent)
	if ua.Name == "" {
		return i18n.T(ctx, "devices.unknown")
	}
	browser := ua.Name
	if ua.Version != "" {
		browser += " " + strconv.Itoa(ua.VersionNo.Major)
	}
	if ua.OS == "" {
		return browser
	}
	os := ua.OS
	if ua.OSVersion != "" && ua.OS != "Linux" {
		os += " " + ua.OSVersion
	}
	return i18n.T(ctx, "devices.browserOn", "browser", browser, "os", os)
}
