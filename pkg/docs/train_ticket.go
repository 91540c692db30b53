package docs

import (
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/voyage/voyage/pkg/i18n"
)

// Train is what a train e-ticket prints: a train order, filled by the
// train line from its own booking (docs knows no line).
type Train struct {
	BookingNumber string
	// RailwayRef is the railway's booking reference.
	RailwayRef string
	// Status is the order's status code, printed as train.status.<code>.
	Status string
	// The train booked: each passenger's valid ticket may name another
	// (after a change).
	Number, Origin, Destination, SeatClass string
	DepartAt, ArriveAt                     time.Time
	Total                                  Money
	Passengers                             []TrainPassenger
	// Tickets are the passengers' valid tickets; a passenger without one
	// is printed as not valid for travel.
	Tickets []TrainTicketLine
}

// TrainPassenger is one traveller of a train e-ticket.
type TrainPassenger struct {
	ID                                                     int
	Surname, GivenName, Type, DocumentType, DocumentNumber string
}

// TrainTicketLine is a passenger's valid ticket, as the railway issued it.
type TrainTicketLine struct {
	Passenger                                                    int // TrainPassenger.ID
	Number, TrainNumber, Origin, Destination, Class, Coach, Seat string
	DepartAt                                                     time.Time
	// ArriveAt is the ticket's own train's arrival; nil on tickets issued
	// before it was kept.
	ArriveAt *time.Time
	Fare     Money
}

// TrainTicket is what a train e-ticket shows, and for whom.
type TrainTicket struct {
	Train Train
	// Lang is the reader's language (T translates into it).
	Lang string
	T    Translate
	// Station names a station code in Lang; the code itself when nil.
	Station func(code string) string
	// Date is the date of issue printed, the reader's agency's date
	// (booking.Today): required, since no zone is everyone's today.
	Date time.Time
}

// chinaTime: China Railway prints times in China Standard Time.
var chinaTime = time.FixedZone("CST", 8*3600)

// WriteTrainTicket writes a train order's e-ticket as a PDF: the booking,
// then one page per passenger with the ticket (train, coach, seat, ticket
// number) as the railway issued it. Before issue it is marked as not valid
// for travel.
func WriteTrainTicket(w io.Writer, tk TrainTicket) error {
	d, err := buildTrainTicket(tk)
	if err != nil {
		return err
	}
	return writeTicketPDF(w, d, true)
}

func buildTrainTicket(tk TrainTicket) (ticketDoc, error) {
	if tk.T == nil {
		return ticketDoc{}, fmt.Errorf("docs: train ticket %s without a translator", tk.Train.BookingNumber)
	}
	if i18n.Normalize(tk.Lang) == "" {
		tk.Lang = i18n.EN
	}
	station := tk.Station
	if station == nil {
		station = func(code string) string { return code }
	}
	date := tk.Date
	if date.IsZero() {
		return ticketDoc{}, fmt.Errorf("docs: ticket %s without its issue date", tk.Train.BookingNumber)
	}
	t, o := tk.T, tk.Train
	place := func(code string) string { return strings.TrimSpace(station(code) + " (" + code + ")") }
	at := func(x time.Time) string { return x.In(chinaTime).Format("2006-01-02 15:04") }
	title := t("train.doc.title")
	d := ticketDoc{title: title, footer: title + "  " + o.BookingNumber, pageLabel: func(n int) string { return t("documents.page", "n", n) }}
	header := []docField{
		{label: t("train.doc.bookingNumber"), value: o.BookingNumber, bold: true},
		{label: t("train.doc.railwayRef"), value: o.RailwayRef, bold: true},
		{label: t("train.doc.status"), value: t.enum("train.status.", o.Status)},
		{label: t("train.doc.issueDate"), value: date.Format(time.DateOnly)},
	}
	valid := map[int]TrainTicketLine{}
	for _, tv := range o.Tickets {
		valid[tv.Passenger] = tv
	}
	closing := docBlock{note: t("train.doc.note")}
	total := docBlock{amounts: true, fields: []docField{{label: t("train.doc.total"), value: formatMoney(o.Total), money: &o.Total, bold: true}}}
	for i, p := range o.Passengers {
		d.blocks = append(d.blocks, docBlock{newPage: i > 0, title: title, fields: header})
		tv, ok := valid[p.ID]
		if !ok {
			d.blocks = append(d.blocks, docBlock{alert: true, note: t("train.doc.notValid")})
		}
		name := strings.ToUpper(p.Surname)
		if p.GivenName != "" {
			name += "/" + strings.ToUpper(p.GivenName)
		}
		fields := []docField{
			{label: t("train.doc.passenger"), value: name, bold: true},
			{label: t("train.doc.ticketType"), value: t.enum("train.ticketType.", p.Type)},
			{label: t("train.doc.document"), value: t.enum("train.docType.", p.DocumentType) + " " + p.DocumentNumber},
		}
		trainNo, from, to, depart, class := o.Number, o.Origin, o.Destination, o.DepartAt, o.SeatClass
		coach, seat, number := "", "", t("train.doc.notIssued")
		if ok {
			trainNo, from, to, depart, class = tv.TrainNumber, tv.Origin, tv.Destination, tv.DepartAt, tv.Class
			coach, seat, number = tv.Coach, tv.Seat, tv.Number
			fields = append(fields, docField{label: t("train.doc.fare"), value: formatMoney(tv.Fare)})
		}
		fields = append(fields, docField{label: t("train.doc.ticketNumber"), value: number, bold: true})
		d.blocks = append(d.blocks, docBlock{heading: t("train.doc.passengerN", "n", i+1, "count", len(o.Passengers)), fields: fields})
		arrive := ""
		switch {
		case ok && tv.ArriveAt != nil:
			arrive = at(*tv.ArriveAt)
		case trainNo == o.Number && !o.ArriveAt.IsZero():
			arrive = at(o.ArriveAt)
		}
		d.blocks = append(d.blocks, docBlock{heading: t("train.doc.journey"), cols: []docColumn{
			{t("train.doc.col.train"), 0.11}, {t("train.doc.col.from"), 0.2}, {t("train.doc.col.to"), 0.2},
			{t("train.doc.col.depart"), 0.15}, {t("train.doc.col.arrive"), 0.15}, {t("train.doc.col.class"), 0.11},
			{t("train.doc.col.coachSeat"), 0.08},
		}, rows: [][]string{{trainNo, place(from), place(to), at(depart), arrive, t.enum("train.class.", class),
			strings.Trim(coach+" / "+seat, " /")}}})
		d.blocks = append(d.blocks, total, closing)
	}
	if len(o.Passengers) == 0 {
		d.blocks = append(d.blocks, docBlock{title: title, fields: header}, total, closing)
	}
	return d, nil
}
