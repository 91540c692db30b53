package agency

import (
	"database/sql"
	"encoding/json"
	"net/url"
	"regexp"
	"slices"
	"strings"

	"github.com/shopspring/decimal"

	"github.com/voyage/voyage/pkg/config"
	"github.com/voyage/voyage/pkg/display"
	"github.com/voyage/voyage/pkg/mail"
	"github.com/voyage/voyage/pkg/money"
	"github.com/voyage/voyage/pkg/payment"
)

// Route classes of the markup settings (spec §3 flight settings; §9 calls
// them china, domestic, international, intercontinental).
var RouteClasses = []string{"china", "domestic", "international", "intercontinental"}

// Markup is a price adjustment for one route class: a percentage of the fare
// or a fixed amount in the settlement currency, capped by Limit (an amount;
// "0" means unlimited).
type Markup struct {
	// Unit says how value reads: percent, a percentage of each traveller's
	// price (fare plus taxes); amount, a fixed amount per traveller in the
	// settlement currency.
	Unit string `json:"unit" jsonschema:"enum=percent,enum=amount"`
	// Value is the adjustment as a decimal string: a percentage from -50 to
	// 100, or an amount in the settlement currency. Negative lowers the
	// price (never below zero); "0" adjusts nothing.
	Value string `json:"value"`
	// Limit is the largest adjustment per traveller either way, a decimal
	// amount in the settlement currency; "0" (or empty) means unlimited.
	Limit string `json:"limit"`
}

// ServiceFees are charged on post-sale requests, in the settlement currency
// (CNY when unset).
type ServiceFees struct {
	// Change is the fee added to each change of a ticketed order, a decimal
	// amount in the settlement currency; "0" charges none.
	Change string `json:"change"`
	// Refund is the fee kept from each refund (never more than the refund),
	// a decimal amount in the settlement currency; "0" charges none.
	Refund string `json:"refund"`
	// Void is the fee kept from what a void gives back, a decimal amount in
	// the settlement currency; "0" charges none.
	Void string `json:"void"`
}

// AirlineFilter limits content to (whitelist) or away from (blacklist) the
// listed airlines.
type AirlineFilter struct {
	// Mode is how airlines filters searches: none shows every airline (the
	// default); whitelist shows only offers whose every flight is by a
	// listed airline; blacklist hides offers with any flight by one.
	Mode string `json:"mode" jsonschema:"enum=none,enum=whitelist,enum=blacklist"`
	// Airlines are the two-character IATA codes of the airlines the mode
	// applies to; stored upper-case.
	Airlines []string `json:"airlines"`
}

// FlightSettings are an agency's flight settings: markups, service fees,
// content filters and webhook URLs. Spec §3.
type FlightSettings struct {
	// Markups are the agency's price adjustments by route class: china
	// (both ends in mainland China), domestic (within one other country),
	// international (within one continent) and intercontinental. A
	// solution's salePrice is its price with the markup of its route class;
	// a class left out has none.
	Markups map[string]Markup `json:"markups"`
	// ServiceFees are the agency's fees on post-sale requests (change,
	// refund, void) of flight orders.
	ServiceFees ServiceFees `json:"serviceFees"`
	// ShowSuppliers is whether the agency's search results name the
	// suppliers that offered each solution (its sources).
	ShowSuppliers bool `json:"showSuppliers"`
	// FreeBaggageOnly is whether searches show only offers that include
	// checked baggage.
	FreeBaggageOnly bool `json:"freeBaggageOnly"`
	// FareBasisOnly is whether searches show only offers whose every flight
	// has a fare basis code.
	FareBasisOnly   bool `json:"fareBasisOnly"`
	MaxResponseTime int  `json:"maxResponseTime" jsonschema_description:"seconds the search waits for suppliers (1–60)"`
	// BookingNotifyURL is the http(s) URL that receives the agency's
	// webhook events of flight and group orders (order.status,
	// group.status, group.reminder); empty sends none.
	BookingNotifyURL string `json:"bookingNotifyUrl"`
	// ChangeNotifyURL is the http(s) URL that receives the agency's webhook
	// events of flight changes and disruptions (change.status,
	// disruption.created); empty sends none.
	ChangeNotifyURL string `json:"changeNotifyUrl"`
	// AirlineFilter limits the agency's searches to, or away from, some
	// airlines.
	AirlineFilter AirlineFilter `json:"airlineFilter"`
	Suppliers     []string      `json:"suppliers" jsonschema_description:"enabled suppliers; empty means all"`
	// SearchMode is which routes the agency may search: all (the default),
	// or popular, where a search finds nothing unless every origin and
	// destination is among the 100 busiest airports.
	SearchMode string `json:"searchMode" jsonschema:"enum=all,enum=popular"`
}

// TrainSettings are an agency's train settings.
type TrainSettings struct {
	// NotifyURL is the http(s) URL that receives the agency's webhook
	// events of train orders (train.order.status); empty sends none.
	NotifyURL string `json:"notifyUrl"`
	// Manual is whether the provider issues the agency's train tickets by
	// hand: a paid order then stays proceeding until the provider enters
	// its tickets, instead of being ticketed with the railway at once.
	Manual bool `json:"manual"`
}

// DefaultFlightSettings are what an agency gets until it sets its own.
func DefaultFlightSettings() FlightSettings {
	m := map[string]Markup{}
	for _, c := range RouteClasses {
		m[c] = Markup{Unit: "amount", Value: "0", Limit: "0"}
	}
	return FlightSettings{Markups: m, ServiceFees: ServiceFees{Change: "0", Refund: "0", Void: "0"}, MaxResponseTime: 20,
		AirlineFilter: AirlineFilter{Mode: "none", Airlines: []string{}}, Suppliers: []string{}, SearchMode: "all"}
}

// Settings are the agency's switches: services, currency, bills, payment
// and what its users see. Spec §3 Agency settings.
type Settings struct {
	// CanCreateSubAgency is whether the agency may create and manage
	// sub-agencies of its own. Only an agency that has it (or the provider)
	// may grant it.
	CanCreateSubAgency bool `json:"canCreateSubAgency" jsonschema:"required"`
	// EmailLanguage is the language of the emails sent to the agency
	// (top-up notices, group order reminders, statements): en English, zh
	// Simplified Chinese, zh-tw Traditional Chinese; default en.
	EmailLanguage string `json:"emailLanguage" jsonschema:"enum=en,enum=zh,enum=zh-tw"`
	// SettlementCurrency is the ISO 4217 code of the currency the agency is
	// priced, charged and credited in (its wallet, prices and fees); one of
	// the site's supported currencies, default CNY. The wallet is kept per
	// currency, so a change shows the wallet in the new currency.
	SettlementCurrency string `json:"settlementCurrency"`
	// IsShowBill is whether the agency's finance users and SuperUsers may
	// see its bills (wallet, transactions, statements); the provider always
	// may.
	IsShowBill bool `json:"isShowBill" jsonschema:"required"`
	// SendEmailToSub is the "send email to sub-agency" switch: stored and
	// returned as set; no email is sent on account of it yet.
	SendEmailToSub bool `json:"sendEmailToSubAgency"`
	// HidePNRBooking is whether the agency may not book from a pasted PNR:
	// POST /shopping/v2/flight/analysis-pnr is refused (200003).
	HidePNRBooking bool `json:"hidePnrBooking"`
	// HideMainland is whether content of mainland China is hidden from the
	// agency: searches drop every offer with a flight to or from a mainland
	// airport, and the airport search lists none.
	HideMainland bool `json:"hideMainlandContent"`
	// DisablePayment is whether the agency's users may not pay: paying an
	// order is refused (200003), and a new flight order is created reserved
	// instead of to_be_paid.
	DisablePayment bool `json:"disablePayment"`
	// OnlyOwnOrders is whether the agency's users other than SuperUsers see
	// only the orders they booked themselves.
	OnlyOwnOrders bool `json:"showOnlyOwnOrders"`
	// InvoiceTypeOnExcel is whether the agency's statement exports (CSV,
	// XLSX, PDF) have an invoice-type column.
	InvoiceTypeOnExcel bool `json:"showInvoiceTypeOnExcel"`
	// EnableFlight is whether the agency has the flight service: its
	// operators and SuperUsers may search and book flights and group
	// flights only when it is on.
	EnableFlight bool `json:"enableFlightService" jsonschema:"required"`
	// EnableTrain is whether the agency has the train service: its users
	// may search, book and see train orders only when it is on.
	EnableTrain bool `json:"enableTrainService" jsonschema:"required"`
	// TimeZone is the agency's IANA time zone (default Asia/Shanghai): its
	// statements and emails, and its users' pages unless they chose their own.
	TimeZone string `json:"timeZone" jsonschema:"description=IANA time zone name; default Asia/Shanghai"`
	// PaymentChannels are the external payment channels the provider lets
	// the agency pay by; nil is every channel the server has. Only the
	// provider changes it (Service.SetConfig); what a sub-agency may use is
	// also capped by its parent's (Store.PaymentChannels).
	PaymentChannels []string `json:"paymentChannels" jsonschema_description:"the external payment channels the agency may pay by (alipay, wechat-pay, yeepay-alipay, yeepay-credit-card, yeepay-debit-card, yeepay-wechat, airwallex, stripe); null: every channel the server has; the wallet (balance) is always allowed unless disablePayment. Only the provider changes it (PUT replaces the whole config: send back what GET answered to keep it); a sub-agency never gets more than its parent; paying by a channel the agency may not use is refused with 200003"`
}

// Config is everything PUT /base/v2/agencies/{id}/config sets.
type Config struct {
	Settings Settings       `json:"settings" jsonschema:"required" jsonschema_description:"the agency's settings, all of them: a PUT replaces them"`
	Flight   FlightSettings `json:"flight" jsonschema:"required" jsonschema_description:"the flight settings, all of them: a PUT replaces them"`
	Train    TrainSettings  `json:"train" jsonschema:"required" jsonschema_description:"the train settings, all of them: a PUT replaces them"`
}

var airlineCode = regexp.MustCompile(`^[A-Z0-9]{2}$`)

func validURL(s string) bool {
	if s == "" {
		return true
	}
	u, err := url.Parse(s)
	return err == nil && (u.Scheme == "https" || u.Scheme == "http") && u.Host != "" && len(s) <= 500
}

// amountError is "" for an amount of zero or more in currency, else the
// catalog key of what is wrong: the money parser's own for a malformed
// amount, too many decimals or an out-of-range one, fallback for a negative.
func amountError(s, currency, fallback string) string {
	if _, err := money.ParseNonNegative(s, currency); err != nil {
		if k := money.ErrorKey(err, fallback); k != "money.error.negative" {
			return k
		}
		return fallback
	}
	return ""
}

// Validate checks a config and returns field → catalog key; it fills
// defaults for what was left empty.
func (c *Config) Validate() map[string]string {
	errs := map[string]string{}
	s := &c.Settings
	if s.SettlementCurrency == "" {
		s.SettlementCurrency = "CNY"
	}
	if !slices.Contains(config.Currencies, s.SettlementCurrency) {
		errs["settings.settlementCurrency"] = "agency.error.currency"
	}
	if s.EmailLanguage == "" {
		s.EmailLanguage = "en"
	}
	if !slices.Contains(mail.Languages, s.EmailLanguage) {
		errs["settings.emailLanguage"] = "agency.error.emailLanguage"
	}
	s.TimeZone = strings.TrimSpace(s.TimeZone)
	if s.TimeZone == "" {
		s.TimeZone = display.DefaultZone
	}
	if !display.ValidZone(s.TimeZone) {
		errs["settings.timeZone"] = display.ErrZoneKey
	}
	f := &c.Flight
	if f.Markups == nil {
		f.Markups = DefaultFlightSettings().Markups
	}
	for k, m := range f.Markups {
		if !slices.Contains(RouteClasses, k) {
			errs["flight.markups."+k] = "agency.error.routeClass"
			continue
		}
		if m.Unit != "percent" && m.Unit != "amount" {
			errs["flight.markups."+k+".unit"] = "agency.error.markupUnit"
		}
		v, err := decimal.NewFromString(m.Value)
		if m.Unit == "amount" {
			if _, err := money.Parse(m.Value, s.SettlementCurrency); err != nil {
				errs["flight.markups."+k+".value"] = money.ErrorKey(err, "agency.error.markupValue")
			}
		} else if err != nil || (m.Unit == "percent" && (v.LessThan(decimal.NewFromInt(-50)) || v.GreaterThan(decimal.NewFromInt(100)))) {
			errs["flight.markups."+k+".value"] = "agency.error.markupValue"
		}
		if m.Limit == "" {
			m.Limit = "0"
			f.Markups[k] = m
		}
		if key := amountError(m.Limit, s.SettlementCurrency, "agency.error.markupLimit"); key != "" {
			errs["flight.markups."+k+".limit"] = key
		}
	}
	for name, v := range map[string]*string{"change": &f.ServiceFees.Change, "refund": &f.ServiceFees.Refund, "void": &f.ServiceFees.Void} {
		if *v == "" {
			*v = "0"
		}
		if key := amountError(*v, s.SettlementCurrency, "agency.error.serviceFee"); key != "" {
			errs["flight.serviceFees."+name] = key
		}
	}
	if f.MaxResponseTime == 0 {
		f.MaxResponseTime = 20
	}
	if f.MaxResponseTime < 1 || f.MaxResponseTime > 60 {
		errs["flight.maxResponseTime"] = "agency.error.maxResponseTime"
	}
	if !validURL(f.BookingNotifyURL) {
		errs["flight.bookingNotifyUrl"] = "agency.error.url"
	}
	if !validURL(f.ChangeNotifyURL) {
		errs["flight.changeNotifyUrl"] = "agency.error.url"
	}
	if f.AirlineFilter.Mode == "" {
		f.AirlineFilter.Mode = "none"
	}
	if !slices.Contains([]string{"none", "whitelist", "blacklist"}, f.AirlineFilter.Mode) {
		errs["flight.airlineFilter.mode"] = "agency.error.airlineFilter"
	}
	for i, a := range f.AirlineFilter.Airlines {
		f.AirlineFilter.Airlines[i] = strings.ToUpper(strings.TrimSpace(a))
		if !airlineCode.MatchString(f.AirlineFilter.Airlines[i]) {
			errs["flight.airlineFilter.airlines"] = "agency.error.airline"
		}
	}
	if f.AirlineFilter.Airlines == nil {
		f.AirlineFilter.Airlines = []string{}
	}
	if f.Suppliers == nil {
		f.Suppliers = []string{}
	}
	if f.SearchMode == "" {
		f.SearchMode = "all"
	}
	if f.SearchMode != "all" && f.SearchMode != "popular" {
		errs["flight.searchMode"] = "agency.error.searchMode"
	}
	if !validURL(c.Train.NotifyURL) {
		errs["train.notifyUrl"] = "agency.error.url"
	}
	if chs, ok := normalChannels(s.PaymentChannels); ok {
		s.PaymentChannels = chs
	} else {
		errs["settings.paymentChannels"] = "agency.error.paymentChannel"
	}
	return errs
}

// normalChannels is list as it is stored: the external channels it names,
// each once, in pkg/payment's order; the wallet (balance), always allowed,
// is left out. nil (every channel) stays nil. ok is false when list names
// a channel pkg/payment does not know.
func normalChannels(list []string) (out []string, ok bool) {
	if list == nil {
		return nil, true
	}
	for _, c := range list {
		if !slices.Contains(payment.Channels, c) {
			return nil, false
		}
	}
	out = []string{}
	for _, c := range payment.Channels {
		if c != payment.ChannelBalance && slices.Contains(list, c) {
			out = append(out, c)
		}
	}
	return out, true
}

// decodeChannels is the stored payment_channels: nil for NULL (every
// channel); a name this server does not know allows nothing, and a value
// that does not decode allows none, never all.
func decodeChannels(ns sql.NullString) []string {
	if !ns.Valid {
		return nil
	}
	var list []string
	_ = json.Unmarshal([]byte(ns.String), &list)
	out, _ := normalChannels(slices.DeleteFunc(list, func(c string) bool { return !slices.Contains(payment.Channels, c) }))
	if out == nil {
		return []string{}
	}
	return out
}

// encodeChannels is list as the payment_channels column holds it.
func encodeChannels(list []string) sql.NullString {
	if list == nil {
		return sql.NullString{}
	}
	b, _ := json.Marshal(list)
	return sql.NullString{String: string(b), Valid: true}
}

func decodeFlight(s string) FlightSettings {
	f := DefaultFlightSettings()
	_ = json.Unmarshal([]byte(s), &f)
	return f
}

func decodeTrain(s string) TrainSettings {
	var t TrainSettings
	_ = json.Unmarshal([]byte(s), &t)
	return t
}
