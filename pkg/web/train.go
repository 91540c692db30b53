package web

import (
	"context"
	"log/slog"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/a-h/templ"

	"github.com/voyage/voyage/pkg/auth"
	"github.com/voyage/voyage/pkg/docs"
	"github.com/voyage/voyage/pkg/i18n"
	"github.com/voyage/voyage/pkg/train"
	"github.com/voyage/voyage/templates"
)

// TrainOrders is what the train pages need of pkg/train; *train.Service
// implements it. The actions themselves go through the API from the
// islands.
type TrainOrders interface {
	List(ctx context.Context, who auth.Principal, f train.Filter) (train.Page, error)
	Counts(ctx context.Context, who auth.Principal, statuses []string) ([]train.StatusCount, error)
	Get(ctx context.Context, who auth.Principal, id int64) (train.View, error)
	StationName(code, lang string) string
	SalesWindow() (first, last string)
}

// trainsViewer is the caller of a train page; without the train service
// the page answers 500.
func (s *Server) trainsViewer(w http.ResponseWriter, r *http.Request) (viewer, bool) {
	return s.lineViewer(w, r, s.trains != nil)
}

// trainPage is the order layout with the order pages' styles and the
// train's own.
func (s *Server) trainPage(w http.ResponseWriter, r *http.Request, route string) templates.Page {
	return s.ordersPage(w, r, route).WithStyles("/static/train.css")
}

// trainBooking is /train/booking: the search and booking island, given the
// on-sale dates.
func (s *Server) trainBooking(w http.ResponseWriter, r *http.Request) {
	if _, ok := s.trainsViewer(w, r); !ok {
		return
	}
	first, last := s.trains.SalesWindow()
	props := templates.TrainBookingProps{Lang: i18n.Lang(r.Context()), Today: first, SaleDays: saleDays(first, last)}
	p := s.page(w, r, "train-booking")
	render(w, r, http.StatusOK, templates.TrainBookingPage(p, props))
}

// saleDays is how many dates the window from first to last holds.
func saleDays(first, last string) int {
	a, err1 := time.Parse(time.DateOnly, first)
	b, err2 := time.Parse(time.DateOnly, last)
	if err1 != nil || err2 != nil || b.Before(a) {
		return 1
	}
	return int(b.Sub(a).Hours()/24) + 1
}

// trainOrderList is /train/orders: the status menu with counts and one page
// of the orders the caller may see; the pager swaps the results only.
func (s *Server) trainOrderList(w http.ResponseWriter, r *http.Request) {
	v, ok := s.trainsViewer(w, r)
	if !ok {
		return
	}
	ctx := r.Context()
	var view templates.TrainOrderList
	f := train.Filter{Page: pageNumber(r), PageSize: ordersPageSize}
	q := url.Values{}
	if st := r.URL.Query().Get("status"); train.ValidStatus(st) {
		view.Status, f.Statuses = st, []string{st}
		q.Set("status", st)
	}
	if kw := strings.TrimSpace(r.URL.Query().Get("keyword")); kw != "" {
		if len([]rune(kw)) > keywordMax {
			kw = string([]rune(kw)[:keywordMax])
		}
		view.Keyword, f.Keyword = kw, kw
		q.Set("keyword", kw)
	}
	res, err := s.trains.List(ctx, v.Principal, f)
	if err != nil {
		slog.ErrorContext(ctx, "train orders: list", "err", err)
		s.ServerError(w, r)
		return
	}
	view.Pager = templates.NewPager(listURL(pathTrainOrders, q), f.Page, ordersPageSize, res.Total)
	lang := i18n.Lang(ctx)
	view.Items, view.ShowAgency = rowsOf(ctx, s, v.Principal.AgencyID, res.Items, func(o train.View) int64 { return o.AgencyID },
		func(o train.View, agency string) templates.TrainOrderRow { return s.trainRow(o, lang, agency) })
	s.answerList(w, r, "train orders", templates.TrainOrdersResultsID, templates.TrainOrderResults(view), func() (templ.Component, error) {
		counts, err := s.trains.Counts(ctx, v.Principal, nil)
		view.Menu = trainMenu(view.Status, counts)
		return templates.TrainOrderListPage(s.trainPage(w, r, "train-orders"), view), err
	})
}

// trainMenu is the status menu: all orders, then every status with its
// count, the current one marked.
func trainMenu(current string, counts []train.StatusCount) []templates.OrderMenuItem {
	out := []templates.OrderMenuItem{{Name: "all", Key: "trainportal.list.all", Href: pathTrainOrders, Active: current == ""}}
	for _, c := range counts {
		st := string(c.Status)
		out = append(out, templates.OrderMenuItem{Name: st, Key: "trainportal.status." + st, Href: pathTrainOrders + "?status=" + url.QueryEscape(st),
			Count: c.Cnt, ShowCount: true, Active: current == st})
	}
	return out
}

// trainRow is an order as its list's row, its stations named in lang;
// agency is whose it is, when the list shows that.
func (s *Server) trainRow(o train.View, lang, agency string) templates.TrainOrderRow {
	names := make([]string, 0, len(o.Passengers))
	for _, p := range o.Passengers {
		names = append(names, strings.TrimSpace(p.Surname+" "+p.GivenName))
	}
	return templates.TrainOrderRow{BookingRow: templates.BookingRow{ID: o.ID, BookingNumber: o.BookingNumber, Agency: agency,
		Route:    s.trains.StationName(o.Train.Origin, lang) + "–" + s.trains.StationName(o.Train.Destination, lang),
		DepartAt: o.Train.DepartAt, Passengers: strings.Join(names, ", "), Total: withCurrency(o.Total.Amount, o.Total.Currency),
		Status: string(o.Status), Tone: o.Tone, CreatedAt: o.CreatedAt}, TrainNumber: o.Train.TrainNumber}
}

// trainOrderDetail is /train/orders/{id}: an order the caller may see (the
// service answers not found for another agency's), with the actions it
// allows now handed to the TrainOrder island.
func (s *Server) trainOrderDetail(w http.ResponseWriter, r *http.Request) {
	v, id, ok := s.withID(w, r, s.trainsViewer)
	if !ok {
		return
	}
	ctx := r.Context()
	o, err := s.trains.Get(ctx, v.Principal, id)
	if err != nil {
		s.lookupFailed(w, r, "train orders: detail", err)
		return
	}
	lang := i18n.Lang(ctx)
	first, last := s.trains.SalesWindow()
	d := templates.TrainOrderDetail{Order: o, OriginName: s.trains.StationName(o.Train.Origin, lang),
		DestinationName: s.trains.StationName(o.Train.Destination, lang), Total: withCurrency(o.Total.Amount, o.Total.Currency)}
	if decimalOf(o.Refunded.Amount).IsPositive() {
		// A refund, whole or partial, or a cheaper change's difference:
		// what came back to the agency, beside what the order cost.
		d.Refunded = withCurrency(o.Refunded.Amount, o.Refunded.Currency)
	}
	for _, st := range o.Train.Stops {
		d.Stops = append(d.Stops, templates.TrainStop{Name: s.trains.StationName(st.Station, lang), Arrive: st.Arrive, Depart: st.Depart})
	}
	d.Actions = templates.TrainOrderProps{Lang: lang, ID: o.ID, Actions: o.Actions, Origin: o.Train.Origin, Destination: o.Train.Destination,
		Today: first, SaleDays: saleDays(first, last), HoldExpiresAt: o.HoldExpiresAt, Quote: o.Quote}
	for _, p := range o.Passengers {
		tp := templates.TrainPassenger{ID: p.ID, Name: strings.TrimSpace(p.Surname + " " + p.GivenName)}
		for _, t := range o.Tickets {
			if t.Passenger == p.ID && t.Status == train.TicketIssued {
				tp.Refundable, tp.Changeable = true, t.Exchanges < 1
				d.Issued = true
			}
		}
		d.Actions.Passengers = append(d.Actions.Passengers, tp)
	}
	p := s.trainPage(w, r, "train-order-id")
	p.Title = o.BookingNumber + " · " + p.Title
	cardStep(w, r, o.Payment)
	render(w, r, http.StatusOK, templates.TrainOrderDetailPage(p, d))
}

// trainCatalog reads the catalogs for an e-ticket in a language other than
// the page's, when the server was built without them.
var trainCatalog = sync.OnceValue(i18n.MustLoad)

// trainETicket is /train/orders/{id}/e-ticket?lang=: the e-ticket PDF in
// one of the three languages, whatever the page's (the API's download
// follows the request's language only). Not found for an order the caller
// may not see.
func (s *Server) trainETicket(w http.ResponseWriter, r *http.Request) {
	_, id, ok := s.withID(w, r, s.trainsViewer)
	if !ok {
		return
	}
	lang := r.URL.Query().Get("lang")
	if !slices.Contains(i18n.Supported(), lang) {
		lang = i18n.Lang(r.Context())
	}
	cat := s.catalog
	if cat == nil {
		cat = trainCatalog()
	}
	ctx := i18n.WithLocalizer(r.Context(), cat, lang)
	o, err := s.trains.Get(ctx, viewerFrom(ctx).Principal, id)
	if err != nil {
		s.lookupFailed(w, r, "train orders: e-ticket", err)
		return
	}
	download(w, docs.ContentType(docs.PDF), o.BookingNumber+"-eticket-"+lang+".pdf")
	err = docs.WriteTrainTicket(w, docs.TrainTicket{Train: o.Document(), Lang: lang, T: func(k string, args ...any) string { return i18n.T(ctx, k, args...) },
		Station: func(code string) string { return s.trains.StationName(code, lang) }, Date: s.today(viewerFrom(ctx))})
	if err != nil {
		slog.ErrorContext(ctx, "train orders: write e-ticket", "err", err)
	}
}
