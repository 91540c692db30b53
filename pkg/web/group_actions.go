package web

import (
	"context"
	"errors"
	"io"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/voyage/voyage/pkg/auth"
	"github.com/voyage/voyage/pkg/display"
	"github.com/voyage/voyage/pkg/fault"
	"github.com/voyage/voyage/pkg/group"
	"github.com/voyage/voyage/pkg/i18n"
	"github.com/voyage/voyage/templates"
)

// GroupActions are the group service's actions the detail page's forms
// take; *group.Service implements them.
type GroupActions interface {
	// Channels are the channels an agency may pay by (booking.Core's).
	Channels(ctx context.Context, agencyID int64) ([]string, error)
	Quote(ctx context.Context, who auth.Principal, id int64, in group.QuoteInput) (group.View, error)
	Accept(ctx context.Context, who auth.Principal, id int64) (group.View, error)
	Decline(ctx context.Context, who auth.Principal, id int64) (group.View, error)
	UploadPassengers(ctx context.Context, who auth.Principal, id int64, r io.Reader, size int64) (int, error)
	Confirm(ctx context.Context, who auth.Principal, id int64) (group.View, error)
	Seats(ctx context.Context, who auth.Principal, id int64, in group.SeatsInput) (group.View, error)
	Pay(ctx context.Context, who auth.Principal, id int64, key string, in group.PayInput) (group.View, error)
	Cancel(ctx context.Context, who auth.Principal, id int64) (group.View, error)
}

// The detail page's forms post to paths of their own, each with its rule in
// the route table: the agency's under Flights, the provider's under
// ProviderFlights.
const (
	groupActAccept     = "accept"
	groupActDecline    = "decline"
	groupActPassengers = "passengers"
	groupActConfirm    = "confirmation"
	groupActPay        = "payment"
	groupActCancel     = "cancel"
	groupActQuote      = "quote"
	groupActSeats      = "seats"
)

func groupActionPath(action string) string { return pathGroupOrder + "/" + action }

// groupDone are the messages of the actions that succeed.
var groupDone = map[string]string{
	groupActAccept: "groupportal.done.accept", groupActDecline: "groupportal.done.decline", groupActPassengers: "groupportal.passengers.saved",
	groupActConfirm: "groupportal.done.confirm", groupActPay: "groupportal.done.pay", groupActCancel: "groupportal.done.cancel",
	groupActQuote: "groupportal.done.quote", groupActSeats: "groupportal.done.seats",
}

// groupAction is the handler of one form: simple actions here, the upload
// and the quote, which come back with their errors, in their own functions.
func (s *Server) groupAction(action string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		v, id, ok := s.withID(w, r, s.groupsViewer)
		if !ok {
			return
		}
		ctx, who := r.Context(), v.Principal
		var err error
		switch action {
		case groupActPassengers:
			s.groupUpload(w, r, v, id)
			return
		case groupActQuote:
			s.groupQuote(w, r, v, id)
			return
		case groupActAccept:
			_, err = s.groups.Accept(ctx, who, id)
		case groupActDecline:
			_, err = s.groups.Decline(ctx, who, id)
		case groupActConfirm:
			_, err = s.groups.Confirm(ctx, who, id)
		case groupActSeats:
			_, err = s.groups.Seats(ctx, who, id, group.SeatsInput{Result: r.PostFormValue("result")})
		case groupActCancel:
			if !formChecked(r, "confirm") {
				s.groupBack(w, r, id, "error", "groupportal.error.confirmRequired")
				return
			}
			_, err = s.groups.Cancel(ctx, who, id)
		case groupActPay:
			key := strings.TrimSpace(r.PostFormValue("idempotencyKey"))
			if key == "" {
				// Without a key the form did not come from the detail page.
				s.groupBack(w, r, id, "error", "groupportal.error.formExpired")
				return
			}
			_, err = s.groups.Pay(ctx, who, id, key, group.PayInput{Channel: r.PostFormValue("channel"), Stage: r.PostFormValue("stage")})
		}
		if err != nil {
			s.groupRefused(w, r, id, "groups: "+action, err)
			return
		}
		s.groupBack(w, r, id, "success", groupDone[action])
	}
}

// groupBack redirects to the order's detail with a message.
func (s *Server) groupBack(w http.ResponseWriter, r *http.Request, id int64, kind, key string) {
	s.redirectWithFlash(w, r, templates.GroupHref(id), templates.Flash{Kind: kind, Key: key})
}

// groupRefused answers an action's error as a message on the detail page;
// an order the caller may not see is the 404 page.
func (s *Server) groupRefused(w http.ResponseWriter, r *http.Request, id int64, what string, err error) {
	if fault.From(err).Code == fault.CodeNotFound {
		s.NotFound(w, r)
		return
	}
	key := orderFaultKey(r.Context(), what, err)
	if key == "orders.error.failed" {
		key = "groupportal.error.failed"
	}
	s.groupBack(w, r, id, "error", key)
}

// groupUpload takes the passenger list's xlsx. A refused list comes back
// on the page with its errors by row and cell; nothing of it is stored.
func (s *Server) groupUpload(w http.ResponseWriter, r *http.Request, v viewer, id int64) {
	r.Body = http.MaxBytesReader(w, r.Body, group.MaxListBytes+1<<20)
	if err := r.ParseMultipartForm(1 << 20); err != nil {
		var tooLarge *http.MaxBytesError
		key := "groupportal.error.noFile"
		if errors.As(err, &tooLarge) {
			key = "groupportal.error.tooLarge"
		}
		s.groupDetailAnswer(w, r, v, id, groupForm{upload: templates.GroupUpload{ErrorKey: key}}, http.StatusUnprocessableEntity)
		return
	}
	defer r.MultipartForm.RemoveAll()
	f, h, err := r.FormFile("file")
	if err != nil || h.Size == 0 {
		s.groupDetailAnswer(w, r, v, id, groupForm{upload: templates.GroupUpload{ErrorKey: "groupportal.error.noFile"}}, http.StatusUnprocessableEntity)
		return
	}
	defer f.Close()
	ctx := r.Context()
	_, err = s.groups.UploadPassengers(ctx, v.Principal, id, f, h.Size)
	if err == nil {
		s.groupBack(w, r, id, "success", groupDone[groupActPassengers])
		return
	}
	var list *group.ListError
	switch fe := fault.From(err); {
	case errors.As(err, &list):
		up := templates.GroupUpload{}
		for _, e := range list.Errors {
			col := e.Column
			if k := "group.list.column." + e.Column; i18n.Has(ctx, k) {
				col = i18n.T(ctx, k)
			}
			up.Errors = append(up.Errors, templates.GroupCellError{Row: e.Row, Column: col, Message: i18n.T(ctx, e.Message)})
		}
		s.groupDetailAnswer(w, r, v, id, groupForm{upload: up}, http.StatusUnprocessableEntity)
	case fe.Code == fault.CodeValidation && fe.Key != "":
		// The file itself is refused: not xlsx, too large, wrong headers,
		// formulas, too many rows.
		msg := i18n.T(ctx, fe.Key, fe.Args...)
		s.groupDetailAnswer(w, r, v, id, groupForm{upload: templates.GroupUpload{ErrorKey: msg}}, http.StatusUnprocessableEntity)
	default:
		s.groupRefused(w, r, id, "groups: upload", err)
	}
}

// quoteTime is the form's datetime-local format; the form's times are on
// the user's clock (display.Zone), as the pages show times.
const quoteTime = "2006-01-02T15:04"

// groupQuote is the provider's quote from the form: fares per passenger
// type, the confirm-before time, the installments it fills in, the
// passenger-list deadline and the free-drop seats. Errors come back beside
// the fields with what was typed.
func (s *Server) groupQuote(w http.ResponseWriter, r *http.Request, v viewer, id int64) {
	form := templates.GroupQuoteForm{Currency: strings.TrimSpace(r.PostFormValue("currency")), Fares: map[string]string{},
		ConfirmBefore: strings.TrimSpace(r.PostFormValue("confirmBefore")), PassengerListDeadline: strings.TrimSpace(r.PostFormValue("passengerListDeadline")),
		FreeDropSeats: strings.TrimSpace(r.PostFormValue("freeDropSeats")), Errors: map[string]string{}}
	in := group.QuoteInput{Currency: form.Currency}
	// The service names fields by position; fieldOf maps them back.
	fieldOf := map[string]string{}
	for _, pt := range templates.GroupPassengerTypes {
		amount := strings.TrimSpace(r.PostFormValue("fare." + pt))
		form.Fares[pt] = amount
		if amount == "" {
			continue
		}
		fare := fault.Item("fares", len(in.Fares))
		fieldOf[fault.Field(fare, "amount")] = "fares." + pt
		fieldOf[fault.Field(fare, "passengerType")] = "fares." + pt
		in.Fares = append(in.Fares, group.FareInput{PassengerType: pt, Amount: amount})
	}
	parseTime := func(field, value string) time.Time {
		if value == "" {
			form.Errors[field] = "groupportal.error.time"
			return time.Time{}
		}
		t, err := time.ParseInLocation(quoteTime, value, display.Zone(r.Context()))
		if err != nil {
			form.Errors[field] = "groupportal.error.time"
		}
		return t
	}
	in.ConfirmBefore = parseTime("confirmBefore", form.ConfirmBefore)
	in.PassengerListDeadline = parseTime("passengerListDeadline", form.PassengerListDeadline)
	for _, st := range templates.GroupStages {
		in2 := templates.GroupStageInput{Stage: st, Amount: strings.TrimSpace(r.PostFormValue("installment." + st + ".amount")),
			Deadline: strings.TrimSpace(r.PostFormValue("installment." + st + ".deadline"))}
		form.Installments = append(form.Installments, in2)
		if in2.Amount == "" && in2.Deadline == "" && st != group.StageFinal {
			continue // a deposit left out
		}
		item := fault.Item("installments", len(in.Installments))
		for _, f := range []string{"amount", "deadline"} {
			fieldOf[fault.Field(item, f)] = "installments." + st + "." + f
		}
		fieldOf[fault.Field(item, "stage")] = "installments." + st + ".amount"
		in.Installments = append(in.Installments, group.InstallmentInput{Stage: st, Amount: in2.Amount,
			Deadline: parseTime("installments."+st+".deadline", in2.Deadline)})
	}
	if n, err := strconv.Atoi(form.FreeDropSeats); err == nil && n >= 0 {
		in.FreeDropSeats = n
	} else if form.FreeDropSeats != "" {
		form.Errors["freeDropSeats"] = "groupportal.error.seats"
	}
	if len(form.Errors) == 0 {
		_, err := s.groups.Quote(r.Context(), v.Principal, id, in)
		if err == nil {
			s.groupBack(w, r, id, "success", groupDone[groupActQuote])
			return
		}
		fe := fault.From(err)
		if fe.Code != fault.CodeValidation || len(fe.Fields) == 0 {
			s.groupRefused(w, r, id, "groups: quote", err)
			return
		}
		for f, key := range fe.Fields {
			if mine, ok := fieldOf[f]; ok {
				f = mine
			}
			if _, dup := form.Errors[f]; !dup {
				form.Errors[f] = key
			}
		}
	}
	form.Currencies = []string{form.Currency}
	s.groupDetailAnswer(w, r, v, id, groupForm{quote: &form}, http.StatusUnprocessableEntity)
}

// defaultQuoteForm starts a quote: the agency's currency, confirm within
// three days and the names a day before that (the agency confirms on an
// uploaded list, so a list due after the confirm-before time would come too
// late to confirm on), a first deposit a week out, the final payment a
// month before departure or two weeks out (the provider changes any of
// it).
func defaultQuoteForm(o group.View, currency string, now time.Time) templates.GroupQuoteForm {
	f := templates.GroupQuoteForm{Currency: currency, Currencies: []string{currency}, Fares: map[string]string{}, FreeDropSeats: "0"}
	day := now.Truncate(time.Hour) // on now's clock, the user's
	confirmBy := day.Add(72 * time.Hour)
	f.ConfirmBefore = confirmBy.Format(quoteTime)
	f.PassengerListDeadline = confirmBy.Add(-24 * time.Hour).Format(quoteTime)
	finalBy := day.Add(14 * 24 * time.Hour)
	if len(o.Journeys) > 0 {
		if dep, err := time.Parse(time.DateOnly, o.Journeys[0].Date); err == nil && dep.Add(-30*24*time.Hour).After(day.Add(96*time.Hour)) {
			finalBy = dep.Add(-30 * 24 * time.Hour)
		}
	}
	for _, st := range templates.GroupStages {
		in := templates.GroupStageInput{Stage: st}
		switch st {
		case group.StageFirst:
			in.Deadline = day.Add(7 * 24 * time.Hour).Format(quoteTime)
		case group.StageFinal:
			in.Deadline = finalBy.Format(quoteTime)
		}
		f.Installments = append(f.Installments, in)
	}
	if len(o.Quotes) > 0 {
		// Quoting again starts from the current quote's (the first).
		for _, fare := range o.Quotes[0].Fares {
			if slices.Contains(templates.GroupPassengerTypes, fare.PassengerType) {
				f.Fares[fare.PassengerType] = fare.Amount.Amount
			}
		}
		f.FreeDropSeats = strconv.Itoa(o.Quotes[0].FreeDropSeats)
	}
	return f
}
