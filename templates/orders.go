package templates

import (
	"context"
	"net/url"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/voyage/voyage/pkg/booking"
	"github.com/voyage/voyage/pkg/fault"
	"github.com/voyage/voyage/pkg/flight"
	"github.com/voyage/voyage/pkg/i18n"
	"github.com/voyage/voyage/pkg/money"
)

// OrdersPath is the flight order list.
const OrdersPath = "/flight/orders"

// OrdersResultsID is the element the list's filters swap with htmx.
const OrdersResultsID = "orders-results"

// DisruptionsResultsID is the element the disruption filter swaps.
const DisruptionsResultsID = "disruptions-results"

// OrderHref is the detail page of flight order id.
func OrderHref(id int64) string { return OrdersPath + "/" + strconv.FormatInt(id, 10) }

// OrderActionHref is where the form of action on order id posts.
func OrderActionHref(id int64, action string) string {
	return OrderHref(id) + "/actions/" + action
}

// OrderProofHref is a proof file of order id (served by the API, which
// accepts the session cookie).
func OrderProofHref(id, proofID int64) string {
	return "/order/v2/flight/orders/" + strconv.FormatInt(id, 10) + "/proofs/" + strconv.FormatInt(proofID, 10)
}

// OrderDocumentHref is a download of order id: kind itinerary or eticket,
// format pdf or xlsx.
func OrderDocumentHref(id int64, kind, format string) string {
	return "/order/v2/flight/orders/" + strconv.FormatInt(id, 10) + "/documents/" + kind + "?format=" + format
}

// OrderList is /flight/orders: the side menu, the filters and one page of
// orders.
type OrderList struct {
	Filter   OrderFilter
	Groups   []OrderMenuItem // the pending groups with their counts
	Types    []OrderMenuItem // all, origin, change, refund, void
	Statuses []string        // the status select's choices
	Items    []OrderRow
	Pager    Pager
	// ShowAgency: the list holds other agencies' orders (the provider's,
	// a parent agency's), so each row names its agency.
	ShowAgency bool
}

// OrderFilter is the list's filters as the query string holds them.
type OrderFilter struct {
	Group   string
	Type    string
	Keyword string
	Status  string
	From    string // YYYY-MM-DD, inclusive
	To      string // YYYY-MM-DD, inclusive
	Direct  bool
	Errors  map[string]string // from, to → catalog key
}

// Query is the filter as URL parameters (empty ones left out).
func (f OrderFilter) Query() url.Values {
	q := url.Values{}
	for k, v := range map[string]string{"group": f.Group, "type": f.Type, "keyword": f.Keyword, "status": f.Status, "from": f.From, "to": f.To} {
		if v != "" {
			q.Set(k, v)
		}
	}
	if f.Direct {
		q.Set("direct", "1")
	}
	return q
}

// Filtered reports whether anything narrows the list beyond the menu.
func (f OrderFilter) Filtered() bool {
	return f.Keyword != "" || f.Status != "" || f.From != "" || f.To != "" || f.Direct
}

// OrderMenuItem is an entry of the list's side menu.
type OrderMenuItem struct {
	Name      string // group or type name
	Key       string // catalog key of its label
	Href      string
	Count     int
	ShowCount bool
	Active    bool
}

// BookingRow is what a line's order list shows of every booking, money
// formatted.
type BookingRow struct {
	ID            int64
	BookingNumber string
	Agency        string // the booking agency, when not the viewer's
	Route         string
	DepartAt      time.Time
	Passengers    string
	Total         string
	Status        string
	Tone          string
	CreatedAt     time.Time
}

// OrderRow is one flight order of the list.
type OrderRow struct {
	BookingRow
	Type         string
	PNR          string
	FlightNumber string
	Disrupted    bool
}

// Href is the order's detail page.
func (r OrderRow) Href() string { return OrderHref(r.ID) }

// DisruptionList is /flight/orders/voyage: the schedule changes recorded
// against the caller's orders.
type DisruptionList struct {
	Type  string
	Types []string
	Items []flight.Disruption
	Pager Pager
}

// OrderDetail is one order's page: the order, what the caller may do with
// it, and the state of the form that came back (errors, change options).
type OrderDetail struct {
	Order        flight.View
	OriginalHref string // "" for an original booking
	Segments     []OrderSegment
	Prices       []PriceRow
	SaleTotal    string
	// TotalKey labels the breakdown's total: the sale total of a booking,
	// what a refund or void returns, what a change costs.
	TotalKey  string
	FareBasis string
	Total     string
	Currency  string
	Pay       *PayForm
	Confirm   []PriceRow // the amounts a confirm agrees to
	// RefundTo names where a refund goes when the airline says (catalog
	// keys: original payment, balance, card, voucher, airline credits).
	RefundTo []string
	Journeys []ChangeJourney
	Form     OrderForm
	Tickets  bool // e-tickets can be downloaded
	// AmountPending: a refund or void under review, not quoted yet; its
	// amount shows as to be confirmed by the provider, not as 0.00.
	AmountPending bool
	// SupplierQuote is the supplier's figures behind a change request, for
	// the provider's quote form: what it uses for an amount left empty.
	SupplierQuote SupplierFigures
}

// SupplierFigures are the supplier's quote for a change, each amount with
// its currency ("200.00 CNY"); empty where the caller's view has none (an
// agency's, or a change that named no option of a change search).
type SupplierFigures struct {
	Due string
	Fee string
}

// supplierHint is the hint under a change quote's amount: the supplier's
// figure, which the field left empty uses. Without one the provider types
// both amounts, and there is nothing to say.
func supplierHint(ctx context.Context, figure string) string {
	if figure == "" {
		return ""
	}
	return i18n.T(ctx, "orders.review.supplierFigure", "amount", figure)
}

// Paid reports whether the order is one the agency pays (a booking or a
// change): a refund or void order returns money and has no payment status.
func (d OrderDetail) Paid() bool {
	return d.Order.Type != flight.TypeRefund && d.Order.Type != flight.TypeVoid
}

// HasAction reports whether the caller may take action now.
func (d OrderDetail) HasAction(a flight.Action) bool {
	for _, x := range d.Order.Actions {
		if x == a {
			return true
		}
	}
	return false
}

// OrderSegment is a flight of the order, names in the page's language.
type OrderSegment struct {
	FlightNumber    string
	Carrier         string // name, else code
	Origin          string
	OriginName      string
	Destination     string
	DestinationName string
	DepartAt        time.Time
	ArriveAt        time.Time
	Cabin           string
	BookingClass    string
	Duration        string
}

// PriceRow is a line of the price breakdown.
type PriceRow struct {
	Key    string // catalog key of the label
	Amount string
	// Currency is the amount's when it is not the order's (an airline
	// credit in the airline's currency).
	Currency string
}

// PayForm is the payment form: the channels the agency may use, its
// wallet, and the idempotency key this rendering posts.
type PayForm struct {
	Key       string
	Channels  []string
	Balance   string
	Credit    string
	Available string
	Currency  string
}

// ChangeJourney is a journey of the change search form.
type ChangeJourney struct {
	Origin      string
	Destination string
	Date        string
}

// ChangeOptionRow is one way to change the trip, found by a search.
type ChangeOptionRow struct {
	ID         string
	Flights    []OrderSegment
	Due        string
	Fee        string
	ServiceFee string
	Total      string
	ExpiresAt  time.Time
}

// OrderForm is the form that came back: which action, its field errors or
// message, and what was entered (files are never echoed).
type OrderForm struct {
	Action       string
	Errors       map[string]string // field → catalog key
	ErrorKey     string
	Reason       string
	SubReason    string
	Remark       string
	RefundAmount string
	Fee          string
	Due          string
	// Change search: whether one ran, its options and the chosen one.
	Searched bool
	Options  []ChangeOptionRow
	OptionID string
	// Journeys are the dates last searched, kept in the search form.
	Journeys []ChangeJourney
}

// For is the form's state when it belongs to action, else an empty one.
func (f OrderForm) For(action string) OrderForm {
	if f.Action != action {
		return OrderForm{}
	}
	return f
}

// Failed reports whether the form came back with errors.
func (f OrderForm) Failed() bool { return f.ErrorKey != "" || len(f.Errors) > 0 }

// Err is the catalog key of field's error, "" when none. The proof errors
// (proofs[0], proofs[1]…) all belong to the one file input.
func (f OrderForm) Err(field string) string {
	if k := f.Errors[field]; k != "" {
		return k
	}
	if field == "proofs" {
		for name, k := range f.Errors {
			if strings.HasPrefix(name, "proofs[") {
				return k
			}
		}
	}
	return ""
}

// Reasons are the request reasons of an action (spec §9): 0–7 for refund
// and void, 0, 1 and 7 for change.
func Reasons(action string) []int {
	if action == string(flight.ActChange) {
		return flight.ChangeReasons
	}
	return flight.RefundReasons
}

// SubReasonGroups are the reasons with sub-options, in order.
func SubReasonGroups() []int { return []int{2, 3, 6} }

// orderMsg translates a service message key; a key the catalog lacks
// becomes a generic message rather than the raw key.
func orderMsg(ctx context.Context, key string) string {
	if key == "" {
		return ""
	}
	return translatedOr(ctx, key, i18n.T(ctx, "orders.field.invalid"))
}

// catalogLabel translates prefix+value, falling back to value itself: the
// label of a status, type or kind on the order, train and group pages.
func catalogLabel(ctx context.Context, prefix, value string) string {
	if value == "" {
		return i18n.T(ctx, "manager.none")
	}
	return i18n.Label(ctx, prefix+value, value)
}

// translatedOr is the catalog's message for key, or fallback where the
// catalog has none.
func translatedOr(ctx context.Context, key, fallback string) string {
	if i18n.Has(ctx, key) {
		return i18n.T(ctx, key)
	}
	return fallback
}

func orderStatusName(ctx context.Context, s string) string {
	return catalogLabel(ctx, "orders.status.", s)
}

func orderTypeName(ctx context.Context, t string) string { return catalogLabel(ctx, "orders.type.", t) }

func orderReasonName(ctx context.Context, n int) string {
	return catalogLabel(ctx, "orders.reason.", strconv.Itoa(n))
}

// toneClass is the badge class of a display tone.
func toneClass(tone string) string {
	if tone == "" {
		tone = booking.ToneInfo
	}
	return "badge orders-tone-" + tone
}

// orderFieldID is the element id of a field of action's form, for labels
// and the error summary's links.
func orderFieldID(action, field string) string {
	if strings.HasPrefix(field, "proofs") {
		field = "proofs"
	}
	if rest, ok := strings.CutPrefix(field, "journeys["); ok {
		// journeys[0].date → date-0
		if i, _, ok := strings.Cut(rest, "]"); ok {
			return action + "-date-" + i
		}
		field = "date-0"
	}
	return action + "-" + strings.NewReplacer(".", "-", "_", "-").Replace(field)
}

// orderErrorLinks are the form's errors for its summary: one link per
// distinct field, in a stable order.
func orderErrorLinks(ctx context.Context, action string, errs map[string]string) []OrderErrorLink {
	names := make([]string, 0, len(errs))
	for name := range errs {
		names = append(names, name)
	}
	sort.Strings(names)
	fields := []string{"channel", "journeys", "optionId", "reason", "subReason", "remark", "proofs", "refundAmount", "fee", "due", "confirmHours"}
	rank := func(name string) int {
		for i, f := range fields {
			if name == f || strings.HasPrefix(name, f+".") {
				return i
			}
		}
		return len(fields)
	}
	sort.SliceStable(names, func(i, j int) bool { return rank(names[i]) < rank(names[j]) })
	seen := map[string]bool{}
	var out []OrderErrorLink
	for _, name := range names {
		id := orderFieldID(action, name)
		if seen[id] {
			continue
		}
		seen[id] = true
		out = append(out, OrderErrorLink{Href: "#" + id, Message: orderMsg(ctx, errs[name])})
	}
	return out
}

// OrderErrorLink is an entry of an error summary.
type OrderErrorLink struct {
	Href    string
	Message string
}

func i64(n int64) string { return strconv.FormatInt(n, 10) }

func itoa(n int) string { return strconv.Itoa(n) }

// fileSize writes a proof's size for people.
func fileSize(n int) string {
	if n < 1024 {
		return strconv.Itoa(n) + " B"
	}
	if n < 1<<20 {
		return strconv.Itoa((n+1023)/1024) + " KB"
	}
	return strconv.FormatFloat(float64(n)/(1<<20), 'f', 1, 64) + " MB"
}

// optStamp writes t, or the catalog's dash when it is zero.
func optStamp(ctx context.Context, t time.Time) string {
	if t.IsZero() {
		return i18n.T(ctx, "manager.none")
	}
	return stamp(ctx, t)
}

// listURLOf is path with the query q.
func listURLOf(path string, q url.Values) string {
	if len(q) == 0 {
		return path
	}
	return path + "?" + q.Encode()
}

func joinList(items []string) string { return strings.Join(items, ", ") }

// originalLabel names the order a request was made against: its booking
// number when the related orders hold it.
func originalLabel(ctx context.Context, d OrderDetail) string {
	for _, b := range d.Order.Related {
		if b.ID == d.Order.OriginalID {
			return b.BookingNumber
		}
	}
	return i18n.T(ctx, "orders.detail.originalLink")
}

// requestReason is a request's reason with its sub-option.
func requestReason(ctx context.Context, typ string, r *flight.PostSale) string {
	s := orderReasonName(ctx, r.Reason)
	if r.SubReason != "" {
		s += " · " + catalogLabel(ctx, "orders.subReason."+strconv.Itoa(r.Reason)+".", r.SubReason)
	}
	return s
}

// JourneyField is the change form's input for property name of flight i,
// named as the service names its field errors (journeys[0].date), so that
// an error lands on its input.
func JourneyField(i int, name string) string { return fault.Field(fault.Item("journeys", i), name) }

func journeyDateField(i int) string { return JourneyField(i, "date") }

// passengerName is SURNAME/GIVEN NAME, as on a ticket.
func passengerName(p flight.Passenger) string {
	if p.GivenName == "" {
		return p.Surname
	}
	return p.Surname + "/" + p.GivenName
}

// moneyText writes an API amount with thousands separators, its
// currency's digits and its currency, as the rest of the page does.
func moneyText(m flight.Money) string {
	a, err := money.Parse(m.Amount, m.Currency)
	if err != nil || m.Currency == "" {
		return strings.TrimSpace(m.Amount + " " + m.Currency)
	}
	out := money.FormatDisplay(a.Decimal())
	if money.Exponent(m.Currency) == 0 {
		out, _, _ = strings.Cut(out, ".")
	}
	return out + " " + m.Currency
}

// rowCurrency is a price row's currency: its own, else the order's.
func rowCurrency(r PriceRow, order string) string {
	if r.Currency != "" {
		return r.Currency
	}
	return order
}
