// Package templates holds the portal's templ components: the layouts, the
// pages and their partials. Handlers in pkg/web fill a Page and render.
package templates

import (
	"math"
	"strconv"
	"strings"

	"github.com/voyage/voyage/pkg/partnership"
	"github.com/voyage/voyage/pkg/siteinfo"
)

// Layout kinds of spec §2.
const (
	LayoutHome          = "home"
	LayoutNormal        = "normal"
	LayoutBooking       = "booking"
	LayoutOrder         = "order"
	LayoutBill          = "bill"
	LayoutAgencyManager = "agency-manager"
)

// Page is what every layout needs.
type Page struct {
	Title    string
	Layout   string
	Lang     string
	Path     string
	Currency string
	Site     siteinfo.Info
	Nav      []NavItem
	SideNav  []NavItem
	Flashes  []Flash
	Scripts  []string
	// ClassicScripts are deferred classic (not module) scripts, for
	// bundles that define globals (the API reference's Scalar bundle).
	ClassicScripts []string
	Styles         []string
	Year           int
	StatusCode     int
	// TimeZone is the IANA zone the page's times are written in, for the
	// islands that format times (meta voyage-time-zone).
	TimeZone string
	// Rates are the site's rates (currency → worth in the default
	// currency), for the islands that show an approximate amount in the
	// display currency (Currency).
	Rates map[string]string

	// Account is the logged-in user for the top bar's user menu; nil when
	// logged out.
	Account  *Account
	UserMenu []NavItem
	// Branding of the user's agency.
	Theme               string // body class theme-<Theme> when set
	Favicon             string // the agency's favicon, else the site's
	HideCustomerService bool
}

// WithStyles is p with the page's own stylesheets after the layout's.
func (p Page) WithStyles(styles ...string) Page {
	p.Styles = append(p.Styles, styles...)
	return p
}

// Account is who is logged in, as the user menu shows it.
type Account struct {
	Name     string // nickname, else username
	Username string
	Company  string
}

// FaviconHref is the agency's favicon when it has one, else the site's.
func (p Page) FaviconHref() string {
	if p.Favicon != "" {
		return p.Favicon
	}
	return p.Site.Favicon
}

// NavItem is a menu entry; Key is its catalog key.
type NavItem struct {
	Key    string
	Href   string
	Active bool
}

// Flash is a one-time message shown at the top of the next page.
type Flash struct {
	Kind string // success, error, info
	Key  string
}

// ApplicationForm is the partnership form's state.
type ApplicationForm struct {
	Values    partnership.Application
	Errors    map[string]string // field → catalog key
	Submitted bool
	ErrorKey  string // a message for the whole form
}

// CountryProps are the props of the CountrySelect island.
type CountryProps struct {
	Name        string `json:"name"`
	Value       string `json:"value,omitempty"`
	ID          string `json:"id"`
	Required    bool   `json:"required"`
	Invalid     bool   `json:"invalid"`
	DescribedBy string `json:"describedBy,omitempty"`
	Placeholder string `json:"placeholder,omitempty"`
}

// Has reports whether the form has an error for field.
func (f ApplicationForm) Has(field string) bool { return hasError(f.Errors, field) }

// hasError reports whether errs, a form's field → message errors, has one
// for field.
func hasError(errs map[string]string, field string) bool {
	_, ok := errs[field]
	return ok
}

// Pager is one page of a list: which page, how many pages and rows, and the
// list's address with its filters (without the page), so the previous and
// next links keep the filters.
type Pager struct {
	Page  int
	Pages int
	Total int
	Base  string
}

// NewPager is the pager of page of a list of total rows, size per page, at
// base.
func NewPager(base string, page, size, total int) Pager {
	return Pager{Page: page, Total: total, Base: base, Pages: max(1, int(math.Ceil(float64(total)/float64(size))))}
}

// Link is the address of page n.
func (p Pager) Link(n int) string {
	sep := "?"
	if strings.Contains(p.Base, "?") {
		sep = "&"
	}
	return p.Base + sep + "page=" + strconv.Itoa(n)
}
