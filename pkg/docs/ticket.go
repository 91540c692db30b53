package docs

import (
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/voyage/voyage/pkg/booking"
	"github.com/voyage/voyage/pkg/geo"
	"github.com/voyage/voyage/pkg/i18n"
	"github.com/voyage/voyage/pkg/money"
	"github.com/voyage/voyage/pkg/shopping"
	"github.com/voyage/voyage/pkg/supplier"
)

// Kinds of flight-order document.
const (
	Itinerary = "itinerary"
	ETicket   = "eticket"
)

// TicketKinds lists the flight-order documents.
var TicketKinds = []string{Itinerary, ETicket}

// TicketFormats lists the formats a flight-order document is written in.
var TicketFormats = []string{PDF, XLSX}

// Flight is what a flight document prints: a flight order, or the flights
// of an issued group. Each product line fills it from its own booking;
// docs knows no line.
type Flight struct {
	BookingNumber string
	PNR           string
	// Status is the booking's status code, printed as documents.status.<code>.
	Status     string
	Airline    string
	Segments   []shopping.SegmentView
	Passengers []booking.Passenger
	// TicketNumbers are a booking's numbers from before passengers carried
	// their own: one a passenger, in the passengers' order.
	TicketNumbers []string
	Contact       booking.Contact
	Prices        FlightPrices
	Total         Money
}

// Money is an amount as the documents read it: a decimal string and a
// currency (the API's shape).
type Money = money.Money

// FlightPrices is the breakdown a customer reads; an amount that is zero is
// left out. The agency's cost price is not here: it is never printed.
type FlightPrices struct {
	Fare, Taxes, ServiceFee, Discount, TransactionFee Money
	ChangeTicketDiff, ChangeTaxDiff, ChangeFee        Money
	RefundAmount, RefundFee                           Money
	// FareBasis is printed for a flight that carries none of its own.
	FareBasis string
}

// Ticket is what a flight document shows, and for whom.
type Ticket struct {
	Flight Flight
	// Lang is the reader's language: airport and airline names are taken
	// in it, so it must be the language T translates into.
	Lang string
	T    Translate
	// Baggage is the fare's free allowance, when the caller knows it; nil
	// leaves it out.
	Baggage *supplier.Baggage
	// Date is the date of issue printed, the reader's agency's date
	// (booking.Today): required, since no zone is everyone's today.
	Date time.Time
	// ShowDocumentNumbers prints passport and ID numbers in full on the
	// itinerary, which otherwise shows only their last characters: an
	// itinerary is forwarded, printed and left on desks, and the number is
	// not needed to read it. (The e-ticket, which the traveller checks in
	// with, always carries it.)
	ShowDocumentNumbers bool
}

// WriteTicket writes the kind of document (Itinerary or ETicket) of a
// flight order in format (PDF or XLSX).
func WriteTicket(w io.Writer, kind, format string, tk Ticket) error {
	if format != PDF && format != XLSX {
		return fmt.Errorf("docs: unknown ticket format %q", format)
	}
	d, err := buildTicket(kind, tk)
	if err != nil {
		return err
	}
	if format == PDF {
		return writeTicketPDF(w, d, true)
	}
	return writeTicketXLSX(w, d)
}

// ticketDoc is a document as a list of blocks, so the PDF and the Excel
// writer show the same content in the same order.
type ticketDoc struct {
	title     string
	footer    string
	pageLabel func(n int) string
	blocks    []docBlock
}

// docBlock is one part of a document: a title, a heading, label–value
// fields, a table or a note, each optional, drawn in that order.
type docBlock struct {
	newPage bool
	title   string
	heading string
	fields  []docField
	// amounts draws the fields one per line with right-aligned values.
	amounts bool
	cols    []docColumn
	rows    [][]string
	note    string
	alert   bool
}

type docField struct {
	label, value string
	// money is set for amounts so Excel stores a number.
	money *Money
	bold  bool
}

type docColumn struct {
	title string
	// share is the part of the PDF line width the column takes.
	share float64
}

// ticketText turns an order's codes and values into what a reader sees.
type ticketText struct {
	o    Flight
	lang string
	t    Translate
	// mask hides all but the last characters of document numbers.
	mask bool
}

func buildTicket(kind string, tk Ticket) (ticketDoc, error) {
	if tk.T == nil {
		return ticketDoc{}, fmt.Errorf("docs: ticket %s without a translator", tk.Flight.BookingNumber)
	}
	lang := i18n.Normalize(tk.Lang)
	if lang == "" {
		lang = i18n.EN
	}
	x := ticketText{o: tk.Flight, lang: lang, t: tk.T, mask: kind == Itinerary && !tk.ShowDocumentNumbers}
	date := tk.Date
	if date.IsZero() {
		return ticketDoc{}, fmt.Errorf("docs: ticket %s without its issue date", tk.Flight.BookingNumber)
	}
	var d ticketDoc
	switch kind {
	case Itinerary:
		d = x.itinerary(date)
	case ETicket:
		d = x.eticket(date, tk.Baggage)
	default:
		return ticketDoc{}, fmt.Errorf("docs: unknown ticket kind %q", kind)
	}
	d.pageLabel = func(n int) string { return x.t("documents.page", "n", n) }
	return d, nil
}

func (x ticketText) itinerary(date time.Time) ticketDoc {
	title := x.t("documents.itinerary.title")
	d := ticketDoc{title: title, footer: title + "  " + x.o.BookingNumber}
	d.blocks = append(d.blocks, docBlock{title: title, fields: x.header(date)})
	pax := docBlock{heading: x.t("documents.passengers"), cols: []docColumn{
		{x.t("documents.col.name"), 0.28}, {x.t("documents.col.type"), 0.11},
		{x.t("documents.col.document"), 0.36}, {x.t("documents.col.ticketNumber"), 0.25},
	}}
	for i, p := range x.o.Passengers {
		tn := x.ticketNumber(i)
		if tn == "" {
			tn = x.t("documents.notIssued")
		}
		pax.rows = append(pax.rows, []string{x.name(p), x.paxType(p), x.document(p), tn})
	}
	d.blocks = append(d.blocks, pax, x.flights(false))
	price := docBlock{heading: x.t("documents.price"), amounts: true, fields: x.prices()}
	d.blocks = append(d.blocks, price)
	if c := x.contact(); len(c) > 0 {
		d.blocks = append(d.blocks, docBlock{heading: x.t("documents.contact"), fields: c})
	}
	d.blocks = append(d.blocks, docBlock{note: x.t("documents.note.localTimes") + "\n" + x.t("documents.itinerary.note")})
	return d
}

// eticket repeats the order's header in every passenger's section: each
// is the ticket one traveller carries, on pages of its own.
func (x ticketText) eticket(date time.Time, bag *supplier.Baggage) ticketDoc {
	title := x.t("documents.eticket.title")
	d := ticketDoc{title: title, footer: title + "  " + x.o.BookingNumber}
	issued := false
	for i := range x.o.Passengers {
		if x.ticketNumber(i) != "" {
			issued = true
		}
	}
	header := x.header(date)
	if x.o.Airline != "" {
		airline := x.o.Airline
		if name := x.airline(x.o.Airline, ""); name != airline {
			airline += " " + name
		}
		header = append(header, docField{label: x.t("documents.airline"), value: airline})
	}
	notice := docBlock{alert: true, note: x.t("documents.eticket.notIssued")}
	total := docBlock{amounts: true, fields: []docField{x.amount("documents.orderTotal", x.o.Total, true)}}
	closing := docBlock{note: x.t("documents.note.localTimes") + "\n" + x.t("documents.eticket.note")}
	if len(x.o.Passengers) == 0 {
		d.blocks = append(d.blocks, docBlock{title: title, fields: header})
		if !issued {
			d.blocks = append(d.blocks, notice)
		}
		d.blocks = append(d.blocks, x.flights(true), total, closing)
		return d
	}
	for i, p := range x.o.Passengers {
		d.blocks = append(d.blocks, docBlock{newPage: i > 0, title: title, fields: header})
		if !issued {
			d.blocks = append(d.blocks, notice)
		}
		tn := x.ticketNumber(i)
		if tn == "" {
			tn = x.t("documents.notIssued")
		}
		fields := []docField{
			{label: x.t("documents.col.name"), value: x.name(p), bold: true},
			{label: x.t("documents.col.ticketNumber"), value: tn, bold: true},
			{label: x.t("documents.col.type"), value: x.paxType(p)},
			{label: x.t("documents.col.document"), value: x.document(p)},
		}
		if p.FrequentFlyer != "" {
			fields = append(fields, docField{label: x.t("documents.frequentFlyer"), value: strings.TrimSpace(p.FFAirline + " " + p.FrequentFlyer)})
		}
		if bag != nil {
			fields = append(fields, docField{label: x.t("documents.baggage"), value: x.baggage(*bag)})
		}
		heading := x.t("documents.passenger", "n", i+1, "count", len(x.o.Passengers))
		d.blocks = append(d.blocks, docBlock{heading: heading, fields: fields}, x.flights(true), total, closing)
	}
	return d
}

func (x ticketText) header(date time.Time) []docField {
	return []docField{
		{label: x.t("documents.bookingNumber"), value: x.o.BookingNumber, bold: true},
		{label: x.t("documents.pnr"), value: x.o.PNR, bold: true},
		{label: x.t("documents.status"), value: x.t.enum("documents.status.", x.o.Status)},
		{label: x.t("documents.issueDate"), value: date.Format(time.DateOnly)},
	}
}

// flights is the flights table; the e-ticket adds each flight's fare basis.
func (x ticketText) flights(fareBasis bool) docBlock {
	b := docBlock{heading: x.t("documents.flights"), cols: []docColumn{
		{x.t("documents.col.flight"), 0.13}, {x.t("documents.col.from"), 0.22}, {x.t("documents.col.to"), 0.22},
		{x.t("documents.col.departure"), 0.11}, {x.t("documents.col.arrival"), 0.11},
		{x.t("documents.col.cabin"), 0.10}, {x.t("documents.col.duration"), 0.11},
	}}
	if fareBasis {
		b.cols = []docColumn{
			{x.t("documents.col.flight"), 0.12}, {x.t("documents.col.from"), 0.19}, {x.t("documents.col.to"), 0.19},
			{x.t("documents.col.departure"), 0.11}, {x.t("documents.col.arrival"), 0.11},
			{x.t("documents.col.cabin"), 0.1}, {x.t("documents.col.duration"), 0.1}, {x.t("documents.col.fareBasis"), 0.08},
		}
	}
	for _, s := range x.o.Segments {
		flight := s.FlightNumber + "\n" + x.airline(s.Carrier, s.CarrierName)
		if s.OperatingCarrier != "" && s.OperatingCarrier != s.Carrier {
			flight += "\n" + x.t("documents.operatedBy", "carrier", x.airline(s.OperatingCarrier, ""))
		}
		row := []string{
			flight,
			strings.TrimSpace(s.Origin + " " + x.airport(s.Origin, s.OriginName)),
			strings.TrimSpace(s.Destination + " " + x.airport(s.Destination, s.DestinationName)),
			localTime(s.DepartAt, s.Origin), localTime(s.ArriveAt, s.Destination),
			x.cabin(s), x.duration(s),
		}
		if fareBasis {
			fb := s.FareBasis
			if fb == "" {
				fb = x.o.Prices.FareBasis
			}
			row = append(row, fb)
		}
		b.rows = append(b.rows, row)
	}
	return b
}

// prices lists the breakdown a customer reads: the amounts that apply to
// this order (zero ones are left out), then the total. The cost price is
// the agency's own and never printed.
func (x ticketText) prices() []docField {
	p := x.o.Prices
	parts := []struct {
		key string
		m   Money
	}{
		{"documents.price.fare", p.Fare}, {"documents.price.taxes", p.Taxes},
		{"documents.price.serviceFee", p.ServiceFee}, {"documents.price.discount", p.Discount},
		{"documents.price.transactionFee", p.TransactionFee},
		{"documents.price.changeTicketDiff", p.ChangeTicketDiff}, {"documents.price.changeTaxDiff", p.ChangeTaxDiff},
		{"documents.price.changeFee", p.ChangeFee},
		{"documents.price.refundAmount", p.RefundAmount}, {"documents.price.refundFee", p.RefundFee},
	}
	var out []docField
	for _, part := range parts {
		if !zeroAmount(part.m.Amount) {
			out = append(out, x.amount(part.key, part.m, false))
		}
	}
	return append(out, x.amount("documents.price.total", x.o.Total, true))
}

func (x ticketText) amount(key string, m Money, bold bool) docField {
	return docField{label: x.t(key), value: formatMoney(m), money: &m, bold: bold}
}

func (x ticketText) contact() []docField {
	c := x.o.Contact
	var out []docField
	for _, f := range []struct{ key, v string }{
		{"documents.contact.name", c.Name}, {"documents.contact.phone", c.Phone}, {"documents.contact.email", c.Email},
	} {
		if f.v != "" {
			out = append(out, docField{label: x.t(f.key), value: f.v})
		}
	}
	return out
}

// ticketNumber is a passenger's ticket number. Orders issued before
// passengers carried their own numbers list them on the order, one per
// passenger in the same order.
func (x ticketText) ticketNumber(i int) string {
	if n := x.o.Passengers[i].TicketNumber; n != "" {
		return n
	}
	if len(x.o.TicketNumbers) == len(x.o.Passengers) {
		return x.o.TicketNumbers[i]
	}
	return ""
}

// name is written as on the ticket: SURNAME/GIVEN NAME.
func (x ticketText) name(p booking.Passenger) string {
	s, g := strings.ToUpper(strings.TrimSpace(p.Surname)), strings.ToUpper(strings.TrimSpace(p.GivenName))
	if g == "" {
		return s
	}
	return s + "/" + g
}

func (x ticketText) paxType(p booking.Passenger) string {
	return x.t.enum("documents.paxType.", p.Type)
}

func (x ticketText) document(p booking.Passenger) string {
	n := p.DocumentNumber
	if x.mask {
		n = MaskDocumentNumber(n)
	}
	if p.DocumentType == "" {
		return n
	}
	return x.t.enum("documents.docType.", p.DocumentType) + " " + n
}

// MaskDocumentNumber keeps the last characters of a passport or ID number
// (four of a long one, fewer of a short one), enough to tell travellers
// apart, and stars the rest: E12345678 → *****5678.
func MaskDocumentNumber(n string) string {
	r := []rune(strings.TrimSpace(n))
	keep := min(4, len(r)/2)
	return strings.Repeat("*", len(r)-keep) + string(r[len(r)-keep:])
}

func (x ticketText) cabin(s shopping.SegmentView) string {
	if s.Cabin == "" {
		return s.BookingClass
	}
	c := x.t.enum("documents.cabin.", s.Cabin)
	if s.BookingClass == "" {
		return c
	}
	return c + " / " + s.BookingClass
}

func (x ticketText) duration(s shopping.SegmentView) string {
	m := s.DurationMinutes
	if m <= 0 && !s.DepartAt.IsZero() && s.ArriveAt.After(s.DepartAt) {
		m = int(s.ArriveAt.Sub(s.DepartAt).Minutes())
	}
	if m <= 0 {
		return ""
	}
	return x.t("documents.duration", "h", m/60, "m", fmt.Sprintf("%02d", m%60))
}

// baggage is the free allowance: pieces (each up to a weight, when the
// fare says one) or, on a weight-concept fare (China's domestic 20 or 40
// kg), a total weight, which is an allowance and not "no checked bag".
func (x ticketText) baggage(b supplier.Baggage) string {
	var parts []string
	switch {
	case b.CheckedPieces > 0 && b.CheckedKg > 0:
		parts = append(parts, x.t("documents.baggage.checkedKg", "pieces", b.CheckedPieces, "kg", b.CheckedKg))
	case b.CheckedPieces > 0:
		parts = append(parts, x.t("documents.baggage.checked", "pieces", b.CheckedPieces))
	case b.CheckedKg > 0:
		parts = append(parts, x.t("documents.baggage.checkedWeight", "kg", b.CheckedKg))
	default:
		parts = append(parts, x.t("documents.baggage.noChecked"))
	}
	switch {
	case b.CabinPieces > 0 && b.CabinKg > 0:
		parts = append(parts, x.t("documents.baggage.cabinKg", "pieces", b.CabinPieces, "kg", b.CabinKg))
	case b.CabinPieces > 0:
		parts = append(parts, x.t("documents.baggage.cabin", "pieces", b.CabinPieces))
	case b.CabinKg > 0:
		parts = append(parts, x.t("documents.baggage.cabinWeight", "kg", b.CabinKg))
	}
	return strings.Join(parts, " / ")
}

// airport names an airport in the reader's language; the name stored with
// the order is in the language it was booked in, so it is only the fallback.
func (x ticketText) airport(code, stored string) string {
	if a, ok := geo.AirportByCode(code); ok {
		return a.Name.In(x.lang)
	}
	if c, ok := geo.CityByCode(code); ok {
		return c.Name.In(x.lang)
	}
	return stored
}

func (x ticketText) airline(code, stored string) string {
	if a, ok := geo.AirlineByCode(code); ok {
		return a.Name.In(x.lang)
	}
	if stored != "" {
		return stored
	}
	return code
}

// localTime is t at the airport, as travellers read flight times.
func localTime(t time.Time, airport string) string {
	if t.IsZero() {
		return ""
	}
	return t.In(geo.Location(airport)).Format("2006-01-02 15:04")
}

func zeroAmount(a string) bool { return strings.Trim(a, "+-0.") == "" }

// formatMoney groups thousands for reading: "CNY 12,345.60".
func formatMoney(m Money) string {
	a := m.Amount
	if a == "" {
		a = "0"
	}
	return strings.TrimSpace(m.Currency + " " + money.GroupDecimal(a))
}

// moneyCell is an amount as Excel stores it, with a number format that keeps
// the currency's decimals.
func moneyCell(m Money) (float64, string, bool) {
	v, err := strconv.ParseFloat(m.Amount, 64)
	if err != nil {
		return 0, "", false
	}
	format := "#,##0"
	if _, frac, ok := strings.Cut(m.Amount, "."); ok && len(frac) > 0 {
		format += "." + strings.Repeat("0", len(frac))
	}
	return v, format, true
}
