package templates

import (
	"context"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/voyage/voyage/pkg/agency"
	"github.com/voyage/voyage/pkg/auth"
	"github.com/voyage/voyage/pkg/config"
	"github.com/voyage/voyage/pkg/i18n"
	"github.com/voyage/voyage/pkg/payment"
)

// AgencyList is the agency manager's list page: the managed agencies, the
// filter and the add-agency form.
type AgencyList struct {
	Items   []AgencyRow
	Keyword string
	Status  string
	Pager   Pager
	Create  AgencyCreateForm
	// OpenCreate opens the add form (it came back with errors).
	OpenCreate bool
}

// AgencyRow is one managed agency in the list, money already formatted.
type AgencyRow struct {
	ID          int64
	Code        string
	Name        string
	Alias       string
	ContactName string
	Contact     string // email and phone
	Status      string
	Currency    string
	Balance     string
	CreditLimit string
	Available   string
	LookToBook  string // "" until the first booking
	// ParentID and Parent are the agency above it (0 and "" for none, or
	// a parent the caller cannot see).
	ParentID int64
	Parent   string
}

// Href is the agency's detail page.
func (r AgencyRow) Href() string { return AgencyHref(r.ID) }

// AgencyHref is the detail page of agency id.
func AgencyHref(id int64) string { return "/agency-manager/agencies/" + strconv.FormatInt(id, 10) }

// AgencyCreateForm is the add-agency form's state.
type AgencyCreateForm struct {
	Profile   agency.Profile
	Settings  agency.Settings
	SuperUser agency.NewSuperAdmin // the password is never echoed back
	Errors    map[string]string    // field → catalog key
	ErrorKey  string
}

// AgencyDetail is one managed agency's page: every section of the agency
// manager, each form with its own state.
type AgencyDetail struct {
	Detail     agency.Detail
	Currencies []string
	// Money of the summary, formatted for display.
	Balance     string
	CreditLimit string
	Available   string
	// CanResetPassword: only a SuperUser may reset the super admin's
	// password (as in the API).
	CanResetPassword bool
	// FromParent: the viewer is the agency's parent, not the provider; it
	// funds the agency from its own wallet (no exchange, no fee).
	FromParent bool
	// ParentBalance is the parent's own wallet balance, what it can give.
	ParentBalance string
	// Form state of the section that was posted and came back with errors.
	Section  string            // profile, settings, markups, flight, train, credit, funds, apikey, password
	Errors   map[string]string // field → catalog key
	ErrorKey string
	TopUp    TopUpForm
	Credit   CreditForm
	// Tab is the tab shown (AgencyTabs), Saved the messages of the form
	// just saved, shown beside it (in SavedSection) rather than at the
	// top of the page.
	Tab          string
	SavedSection string
	Saved        []Flash
}

// AgencyTab is one tab of the agency detail page: a few of its forms.
type AgencyTab struct {
	Name     string   // also the first section's id
	Key      string   // catalog key of its label
	Sections []string // the forms' sections, in page order
}

// AgencyTabs split the detail page's eleven forms into tabs, so that each
// shows a screen or two and the message of a save sits beside its form.
var AgencyTabs = []AgencyTab{
	{"profile", "manager.profile.title", []string{"profile"}},
	{"settings", "manager.settings.title", []string{"settings"}},
	{"pricing", "daily.manager.tab.pricing", []string{"markups", "flight"}},
	{"train", "manager.train.title", []string{"train"}},
	{"money", "daily.manager.tab.money", []string{"credit", "funds"}},
	{"api", "daily.manager.tab.api", []string{"apikey", "webhooks"}},
	{"access", "daily.manager.tab.access", []string{"password", "status", "delete"}},
}

// AgencyTabOf is the tab holding section (a tab's or a form's name), the
// first tab when section is none of them.
func AgencyTabOf(section string) string {
	for _, t := range AgencyTabs {
		if t.Name == section {
			return t.Name
		}
		for _, s := range t.Sections {
			if s == section {
				return t.Name
			}
		}
	}
	return AgencyTabs[0].Name
}

// AgencySectionHref is the detail page of agency id opened on the tab of
// section, scrolled to it.
func AgencySectionHref(id int64, section string) string {
	return AgencyHref(id) + "?section=" + section + "#" + section
}

// Shows reports whether section's form is on the tab shown.
func (d AgencyDetail) Shows(section string) bool { return AgencyTabOf(section) == d.Tab }

// SavedHere are the messages to show beside section's form.
func (d AgencyDetail) SavedHere(section string) []Flash {
	if d.SavedSection != section {
		return nil
	}
	return d.Saved
}

// Err is the error of field when section is the one that came back.
func (d AgencyDetail) Err(section, field string) string {
	if d.Section != section {
		return ""
	}
	return d.Errors[field]
}

// Failed reports whether section came back with errors.
func (d AgencyDetail) Failed(section string) bool {
	return d.Section == section && (d.ErrorKey != "" || len(d.Errors) > 0)
}

// Blocked reports whether the agency is blocked.
func (d AgencyDetail) Blocked() bool { return d.Detail.Status == agency.StatusBlocked }

// ActiveKeys are the API keys not revoked.
func (d AgencyDetail) ActiveKeys() []auth.APIKey { return d.Detail.APIKeys }

// TopUpForm is the add-funds form. Key is the idempotency key generated when
// the form was rendered: a double submit posts the same key, and the ledger
// credits the wallet once.
type TopUpForm struct {
	Key              string
	CurrencyReceived string
	AmountReceived   string
	ExchangeRate     string
	FeePercent       string
	Reference        string
	Remark           string
	SendEmail        bool
}

// CreditForm is the credit line form.
type CreditForm struct {
	CreditLimit      string
	CreditPeriod     string
	CreditPeriodUnit string
}

// NewAPIKeyResult is the page shown once after a key was generated.
type NewAPIKeyResult struct {
	AgencyID   int64
	AgencyName string
	Name       string
	Prefix     string
	Key        string
}

// Wallet is the caller's wallet page: balance, entries and the chart.
type Wallet struct {
	Currency    string
	Balance     string
	CreditLimit string
	Available   string
	Entries     []WalletRow
	Pager       Pager
	Type        string
	From        string
	To          string
	Errors      map[string]string // from, to → catalog key
	Chart       BalanceChart
}

// WalletRow is one wallet entry, formatted.
type WalletRow struct {
	Type         string
	PaidAt       time.Time
	OrderID      string
	Reference    string
	Amount       string // signed, with separators
	Negative     bool
	BalanceAfter string
	Description  string
	// Label is the entry's description written in the reader's language
	// from its data (a group payment); "" shows Description.
	Label  string
	Remark string
}

// BalanceChart is a server-drawn line chart of the balance: the polyline
// points in the SVG's coordinate space, axis labels, and the same data as
// rows for the table that screen readers use.
type BalanceChart struct {
	Empty  bool
	Width  int
	Height int
	Points string // "x,y x,y …" for the polyline
	Dots   []ChartDot
	// Plot area and labels.
	Left, Right, Top, Bottom int
	ZeroY                    int
	ShowZero                 bool
	MaxLabel, MinLabel       string
	FromLabel, ToLabel       string
	Rows                     []ChartRow
}

// ChartDot marks an entry on the line.
type ChartDot struct{ X, Y int }

// ChartRow is one point of the chart as text.
type ChartRow struct {
	At      time.Time
	Balance string
}

// ViewBox is the chart's SVG viewBox.
func (c BalanceChart) ViewBox() string {
	return "0 0 " + strconv.Itoa(c.Width) + " " + strconv.Itoa(c.Height)
}

func mgrItoa(n int) string { return strconv.Itoa(n) }

func mgrI64(n int64) string { return strconv.FormatInt(n, 10) }

func mgrDay(t time.Time) string { return t.UTC().Format(time.DateOnly) }

// mgrJoinLines writes a list one item a line, for a textarea.
func mgrJoinLines(items []string) string { return strings.Join(items, "\n") }

// mgrJoinComma writes a list comma separated, for a text input.
func mgrJoinComma(items []string) string { return strings.Join(items, ", ") }

// ErrsFor are the field errors of section, nil for the other sections.
func (d AgencyDetail) ErrsFor(section string) map[string]string {
	if d.Section != section {
		return nil
	}
	return d.Errors
}

// MgrOption is one choice of a select, its label translated.
type MgrOption struct {
	Value string
	Label string
}

// mgrOptions are values labelled by the catalog keys prefix+value.
func mgrOptions(ctx context.Context, prefix string, values []string) []MgrOption {
	out := make([]MgrOption, 0, len(values))
	for _, v := range values {
		out = append(out, MgrOption{Value: v, Label: i18n.T(ctx, prefix+v)})
	}
	return out
}

// mgrPlain are values that are their own label (currency codes).
func mgrPlain(values []string) []MgrOption {
	out := make([]MgrOption, 0, len(values))
	for _, v := range values {
		out = append(out, MgrOption{Value: v, Label: v})
	}
	return out
}

// mgrID turns a form field name into an element id.
func mgrID(prefix, name string) string {
	return prefix + "-" + strings.NewReplacer(".", "-", "_", "-").Replace(name)
}

// mgrDescribedBy lists the hint and error ids of a field.
func mgrDescribedBy(id, errKey, hintKey string) string {
	var ids []string
	if hintKey != "" {
		ids = append(ids, id+"-hint")
	}
	if errKey != "" {
		ids = append(ids, id+"-error")
	}
	return strings.Join(ids, " ")
}

// mgrMessages are the distinct messages of a form's field errors, sorted,
// for the summary above the form.
func mgrMessages(ctx context.Context, errs map[string]string) []string {
	seen := map[string]bool{}
	var out []string
	for _, k := range errs {
		m := i18n.T(ctx, k)
		if !seen[m] {
			seen[m] = true
			out = append(out, m)
		}
	}
	sort.Strings(out)
	return out
}

// paymentTypeName translates a wallet entry's payment type.
func paymentTypeName(ctx context.Context, t string) string {
	return translatedOr(ctx, "wallet.type."+t, t)
}

// ledgerDescription translates the fixed descriptions the ledger writes
// ("top-up", "top-up fee"…); a description made of order data (a flight and
// its route) is shown as written.
// walletDescription is an entry's description as its reader reads it.
func walletDescription(ctx context.Context, e WalletRow) string {
	if e.Label != "" {
		return e.Label
	}
	return ledgerDescription(ctx, e.Description)
}

func ledgerDescription(ctx context.Context, d string) string {
	return translatedOr(ctx, "daily.ledger.desc."+d, d)
}

// actorName is who did a step of an order's timeline: a username, or the
// platform itself, translated.
func actorName(ctx context.Context, a string) string {
	if a == "system" {
		return i18n.T(ctx, "daily.actor.system")
	}
	return mgrOr(ctx, a)
}

// agencyStatusName translates an agency status.
func agencyStatusName(ctx context.Context, s string) string {
	return translatedOr(ctx, "manager.status."+s, s)
}

// mgrOr is v, or the catalog's dash for an empty value.
func mgrOr(ctx context.Context, v string) string {
	if v == "" {
		return i18n.T(ctx, "manager.none")
	}
	return v
}

// mgrCurrencies are the settlement currencies an agency may have.
func mgrCurrencies() []string { return config.Currencies }

// MgrExternalChannels are the channels a provider may allow an agency
// besides the wallet, which is always allowed: pkg/payment's, in its order.
func MgrExternalChannels() []string {
	out := []string{}
	for _, c := range payment.Channels {
		if c != payment.ChannelBalance {
			out = append(out, c)
		}
	}
	return out
}

// mgrHas reports whether list holds c.
func mgrHas(list []string, c string) bool { return slices.Contains(list, c) }
