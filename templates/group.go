package templates

import (
	"context"
	"fmt"
	"net/url"
	"slices"
	"strconv"
	"time"

	"github.com/voyage/voyage/pkg/i18n"
	"github.com/voyage/voyage/pkg/payment"
)

// Group flight pages (issue 16): the request form, its confirmation, the
// group order list and the detail.
const (
	GroupBookingPath = "/flight/group/booking"
	GroupConfirmPath = GroupBookingPath + "/confirm"
	GroupOrdersPath  = "/flight/group/order"
	// GroupResultsID is the element the list's menu and pager swap.
	GroupResultsID = "group-results"
	// groupAPI is the agency API's group orders, which take the session
	// cookie: the passenger-list template and the documents are its.
	groupAPI = "/order/v2/flight/group/orders"
)

// GroupHref is the detail page of group order id.
func GroupHref(id int64) string { return GroupOrdersPath + "/" + strconv.FormatInt(id, 10) }

// GroupActionHref is where the form of action on group order id posts.
func GroupActionHref(id int64, action string) string { return GroupHref(id) + "/" + action }

// GroupTemplateHref is the passenger-list template in lang.
func GroupTemplateHref(lang string) string {
	return groupAPI + "/passengers/template?lang=" + url.QueryEscape(lang)
}

// GroupDocumentHref is a document of group order id: kind itinerary or
// eticket, format pdf or xlsx.
func GroupDocumentHref(id int64, kind, format string) string {
	return GroupHref(id) + "/documents/" + kind + "?format=" + url.QueryEscape(format)
}

// GroupRequestProps are the props of the GroupRequest island
// (islands/GroupRequest.tsx).
type GroupRequestProps struct {
	Today       string       `json:"today"`
	MinSeats    int          `json:"minSeats"`
	Contact     GroupContact `json:"contact"`
	ConfirmPath string       `json:"confirmPath"`
}

// GroupContact is who the provider writes to about a request.
type GroupContact struct {
	Name  string `json:"name,omitempty"`
	Email string `json:"email,omitempty"`
	Phone string `json:"phone,omitempty"`
}

// GroupConfirm is the page after a request: its number, if it is known.
type GroupConfirm struct {
	ID            int64
	BookingNumber string
}

// GroupList is /flight/group/order: 'all' and one entry per status with
// its count, and one page of orders.
type GroupList struct {
	Status   string // "" for all
	Provider bool   // the caller quotes: the menu leads with the queue
	// ShowAgency: a row is another agency's (the viewer is the provider or
	// a parent agency), so the list says whose each is.
	ShowAgency bool
	Menu       []OrderMenuItem
	Items      []GroupRow
	Pager      Pager
}

// GroupRow is one group order of the list.
type GroupRow struct {
	ID            int64
	BookingNumber string
	Agency        string // the provider sees whose request it is
	Route         string
	Date          string
	Passengers    string
	Total         string // the current quote's, "" before a quote
	Status        string
	Tone          string
	CreatedAt     time.Time
}

// Href is the order's detail page.
func (r GroupRow) Href() string { return GroupHref(r.ID) }

// GroupDetail is /flight/group/order/{id}.
type GroupDetail struct {
	// Payment is the channel payment an installment waits for.
	Payment            *payment.PendingView
	ID                 int64
	BookingNumber      string
	Status             string
	Tone               string
	Agency             string
	CreatedAt          time.Time
	Journeys           []GroupJourney
	IsChangeDate       bool
	AcceptChangeFlight bool
	Adult, Child       int
	Infant             int
	Cabin              string
	Contact            GroupContact
	Remark             string
	Now                time.Time

	Quote   *GroupQuote  // the current quote
	History []GroupQuote // earlier quotes, newest first

	Installments          []GroupInstallment
	Currency              string
	PassengerListDeadline time.Time
	PassengerCount        int
	Passengers            []GroupPassenger
	Tickets               []GroupTicket
	Timeline              []GroupEvent
	LeftToPay             string // of every stage together ("" without a plan)

	Actions     []string // allowed now: accept, decline, upload, confirm, pay, cancel, quote, seats
	SeatResults []string // the provider's seat answers allowed now: applying, granted, refused
	Provider    bool     // the caller is the provider
	Countdown   bool     // the current quote waits for the agency's answer
	Open        bool     // the order may still change: its deadlines count down
	Locked      bool     // the passenger list is locked (confirmed): its deadline is met

	PayKey    string   // one rendering of the pay form: posting twice pays once
	Channels  []string // payment channels, balance first
	Available string   // the wallet's balance + credit, formatted with currency

	Upload     GroupUpload
	QuoteForm  GroupQuoteForm
	CancelNote string // catalog key: what cancelling costs now
}

// Can reports whether action is allowed now.
func (d GroupDetail) Can(action string) bool { return slices.Contains(d.Actions, action) }

// GroupJourney is one journey of the request.
type GroupJourney struct {
	Origin, OriginName           string
	Destination, DestinationName string
	Date, ReturnDate, Remark     string
}

// GroupQuote is a quote of the provider.
type GroupQuote struct {
	ID            int64
	Segments      []OrderSegment
	Fares         []GroupFare
	Total         string
	ConfirmBefore time.Time
	FreeDropSeats int
	CreatedAt     time.Time
}

// GroupFare is the fare of one passenger type.
type GroupFare struct {
	PassengerType string
	Amount        string
	Count         int
}

// GroupInstallment is a row of the installment table.
type GroupInstallment struct {
	Stage    string // first, second, third, final
	Amount   string
	Deadline time.Time
	PaidAt   time.Time
	Status   string // due, paid, forfeited, not_due
	Left     string // what is left to pay of this stage
	Payable  bool   // the pay button is this row's
}

// GroupPassenger is a name of the list.
type GroupPassenger struct {
	Row            int
	Type           string
	Surname        string
	GivenName      string
	Gender         string
	Birthday       string
	Nationality    string
	DocumentType   string
	DocumentNumber string
	DocumentExpiry string
}

// GroupTicket is one passenger's ticket.
type GroupTicket struct {
	Passenger    string
	TicketNumber string
}

// GroupEvent is a transition of the timeline.
type GroupEvent struct {
	At       time.Time
	Action   string
	Who      string
	From, To string
	Remark   string
}

// GroupUpload is the passenger list form's outcome: the file's errors by
// row and cell, or the form's own error.
type GroupUpload struct {
	ErrorKey string
	Errors   []GroupCellError
}

// GroupCellError is one problem of the uploaded list.
type GroupCellError struct {
	Row     int
	Column  string
	Message string // already in the page's language
}

// GroupQuoteForm is the provider's quote form: its values and its errors.
type GroupQuoteForm struct {
	Currency              string
	FareTypes             []string          // the passenger types the request has
	Fares                 map[string]string // passenger type → amount
	ConfirmBefore         string            // datetime-local
	Installments          []GroupStageInput // first, second, third, final
	PassengerListDeadline string
	FreeDropSeats         string
	Errors                map[string]string // field → catalog key or message
	Currencies            []string
}

// GroupStageInput is an installment row of the quote form.
type GroupStageInput struct {
	Stage    string
	Amount   string
	Deadline string
}

// Err is the error of field, translated.
func (f GroupQuoteForm) Err(ctx context.Context, field string) string {
	if f.Errors == nil || f.Errors[field] == "" {
		return ""
	}
	return groupMsg(ctx, f.Errors[field])
}

// GroupStages are the installment stages in order (spec §9: three deposits
// and the final payment).
var GroupStages = []string{"first", "second", "third", "final"}

// GroupPassengerTypes are the fare rows of a quote.
var GroupPassengerTypes = []string{"adult", "child", "infant"}

// groupMsg translates a catalog key; a message that is not a key (the
// API's own, already translated) is shown as it is.
func groupMsg(ctx context.Context, key string) string {
	return translatedOr(ctx, key, key)
}

// groupStatusName is a group status in the page's language.
func groupStatusName(ctx context.Context, status string) string {
	return catalogLabel(ctx, "groupportal.status.", status)
}

// timeLeft is how long until t, for people ("2 d 5 h", "35 min"), or "" when
// t has passed.
func timeLeft(ctx context.Context, now, t time.Time) string {
	d := t.Sub(now)
	if d <= 0 {
		return ""
	}
	days, hours, mins := int(d/(24*time.Hour)), int(d%(24*time.Hour)/time.Hour), int(d%time.Hour/time.Minute)
	switch {
	case days > 0:
		return i18n.T(ctx, "groupportal.left.days", "days", days, "hours", hours)
	case hours > 0:
		return i18n.T(ctx, "groupportal.left.hours", "hours", hours, "minutes", mins)
	default:
		return i18n.T(ctx, "groupportal.left.minutes", "minutes", max(mins, 1))
	}
}

// countdownProps are the GroupCountdown island's props: the quote's
// countdown says "quote expired" once its time passed.
func countdownProps(t time.Time) string {
	return fmt.Sprintf(`{"until":%q}`, t.UTC().Format(time.RFC3339))
}

// deadlineProps are the GroupCountdown island's props for a deposit's or
// the passenger list's deadline, which says "deadline passed" once it did.
func deadlineProps(t time.Time) string {
	return fmt.Sprintf(`{"until":%q,"passedKey":"groupportal.deadline.passed"}`, t.UTC().Format(time.RFC3339))
}

// installmentOpen reports whether an installment still waits for its
// payment (its deadline counts down).
func installmentOpen(status string) bool {
	return status == "due" || status == "not_due" || status == "holding"
}
