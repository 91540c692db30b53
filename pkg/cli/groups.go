package cli

import (
	"fmt"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/voyage/voyage/pkg/admin"
	"github.com/voyage/voyage/pkg/group"
)

func (r *Root) groupsCmd() *cobra.Command {
	return adminNoun("groups", "Group flight orders: list (or the queue of requests to quote), show, quote and record seat applications as the provider",
		r.groupsListCmd(), r.groupsShowCmd(), r.groupsQuoteCmd(), r.groupsSeatsCmd())
}

func groupRowOf(g group.View) []string {
	var route []string
	var date string
	for i, j := range g.Journeys {
		route = append(route, j.Origin+"-"+j.Destination)
		if i == 0 {
			date = j.Date
		}
	}
	total := ""
	if g.Total != nil {
		total = g.Total.Amount + " " + g.Total.Currency
	}
	return []string{fmtID(g.ID), g.BookingNumber, fmtID(g.AgencyID), string(g.Status), strings.Join(route, " "), date,
		fmt.Sprintf("%d/%d/%d", g.Passengers.Adult, g.Passengers.Child, g.Passengers.Infant), g.CabinClass, total, fmtTime(g.CreatedAt)}
}

func (r *Root) groupsListCmd() *cobra.Command {
	var f group.Filter
	var queue bool
	cmd := r.verb("list [--status S|all] [--queue] [--page N] [--page-size N]",
		"List group orders, newest first; --queue lists the requests waiting for a quote, oldest first", cobra.NoArgs,
		func(cmd *cobra.Command, _ []string, b admin.Backend) error {
			list := listAs(cmd, bookings, "group orders",
				[]string{"id", "booking number", "agency", "status", "route", "date", "adt/chd/inf", "cabin", "total", "created"}, groupRowOf)
			if queue {
				return list(b.GroupQueue(cmd.Context(), f.Page, f.PageSize))
			}
			return list(b.Groups(cmd.Context(), f))
		})
	cmd.Flags().StringVar(&f.Status, "status", "", "one status, or all")
	flagChoices(cmd, "status", append([]group.Status{"all"}, group.Statuses...))
	cmd.Flags().BoolVar(&queue, "queue", false, "the requests waiting for a quote, oldest first")
	pageFlags(cmd, &f.Page, &f.PageSize, 20, "orders")
	return cmd
}

func groupDetailView(g group.View) view {
	rows := [][]string{{"ID", fmtID(g.ID)}, {"Booking number", g.BookingNumber}, {"Agency", fmtID(g.AgencyID)}, {"Status", string(g.Status)}}
	for i, j := range g.Journeys {
		line := fmt.Sprintf("%s-%s %s", j.Origin, j.Destination, j.Date)
		if j.ReturnDate != "" {
			line += " back " + j.ReturnDate
		}
		if j.Remark != "" {
			line += " (" + j.Remark + ")"
		}
		rows = append(rows, []string{fmt.Sprintf("Journey %d", i+1), line})
	}
	rows = append(rows, []string{"Passengers", fmt.Sprintf("%d adults, %d children, %d infants", g.Passengers.Adult, g.Passengers.Child, g.Passengers.Infant)},
		[]string{"Cabin", g.CabinClass}, []string{"Flexible dates", fmt.Sprint(g.IsChangeDate)}, []string{"Accepts other flights", fmt.Sprint(g.AcceptChangeFlight)},
		[]string{"Contact", g.Contact.Name + " " + g.Contact.Email + " " + g.Contact.Phone}, []string{"Remark", g.Remark})
	for i, q := range g.Quotes {
		var flights []string
		for _, s := range q.Segments {
			flights = append(flights, fmt.Sprintf("%s %s-%s %s", s.FlightNumber, s.Origin, s.Destination, s.DepartAt.Format("2006-01-02 15:04")))
		}
		var fares []string
		for _, f := range q.Fares {
			fares = append(fares, f.PassengerType+" "+f.Amount.Amount)
		}
		rows = append(rows, []string{fmt.Sprintf("Quote %d (%s)", len(g.Quotes)-i, q.Status),
			fmt.Sprintf("%s %s; %s; %s; confirm before %s", q.Total.Amount, q.Total.Currency, strings.Join(fares, ", "), strings.Join(flights, ", "), fmtTime(q.ConfirmBefore))})
	}
	for _, in := range g.Installments {
		rows = append(rows, []string{"Installment " + in.Stage, fmt.Sprintf("%s %s due %s (%s) %s paid %s", in.Amount.Amount, in.Amount.Currency,
			fmtTime(in.Deadline), in.TimeZone, in.Status, fmtTimePtr(in.PaidAt))})
	}
	rows = append(rows, []string{"Passenger list", fmt.Sprintf("%d (locked: %v)", g.PassengerCount, g.Locked)},
		[]string{"Tickets", fmt.Sprint(len(g.Tickets))}, []string{"Actions", actionList(g.Actions)}, []string{"Created", fmtTime(g.CreatedAt)})
	return view{Data: g, KeyValue: true, Rows: rows}
}

func (r *Root) groupsShowCmd() *cobra.Command {
	return showCmd(r, "Show one group order: journeys, quotes, installments, passenger list and the actions it allows", "group order id",
		admin.Backend.Group, groupDetailView)
}

// parseWhen reads a time as RFC 3339 or as a duration from now (72h).
func parseWhen(flag, s string, now time.Time) (time.Time, error) {
	s = strings.TrimSpace(s)
	if d, err := time.ParseDuration(s); err == nil {
		return now.Add(d).UTC(), nil
	}
	t, err := time.Parse(time.RFC3339, s)
	if err != nil {
		return time.Time{}, usageErr(fmt.Errorf("--%s %q: give a time (2026-12-01T18:00:00+08:00) or a duration from now (72h)", flag, s))
	}
	return t.UTC(), nil
}

func (r *Root) groupsQuoteCmd() *cobra.Command {
	var fares, installments []string
	var confirmBefore, listDeadline, timeZone string
	var freeDrop int
	var yes bool
	cmd := &cobra.Command{
		Use: "quote ID --fare adult=1000.00[:120.00] [--fare child=800.00] --confirm-before 48h --list-deadline 72h " +
			"--installment first=1800.00@96h [--installment second=...] --installment final=9000.00@720h [--free-drop N] [--time-zone Z]",
		Short: "Quote a group request (again: the earlier quotes stay) with the suppliers' flights for its journeys",
		Args:  args(cobra.ExactArgs(1)),
		RunE: func(cmd *cobra.Command, argv []string) error {
			id, err := parseID("group order id", argv[0])
			if err != nil {
				return err
			}
			now := time.Now()
			q := group.QuoteInput{FreeDropSeats: freeDrop, TimeZone: timeZone}
			for _, f := range fares {
				typ, amount, ok := strings.Cut(f, "=")
				if !ok {
					return usageErr(fmt.Errorf("--fare %q: give type=amount[:taxes]", f))
				}
				amount, taxes, _ := strings.Cut(amount, ":")
				q.Fares = append(q.Fares, group.FareInput{PassengerType: strings.TrimSpace(typ), Amount: amount, Taxes: taxes})
			}
			for _, in := range installments {
				stage, rest, ok1 := strings.Cut(in, "=")
				amount, when, ok2 := strings.Cut(rest, "@")
				if !ok1 || !ok2 {
					return usageErr(fmt.Errorf("--installment %q: give stage=amount@when", in))
				}
				t, err := parseWhen("installment", when, now)
				if err != nil {
					return err
				}
				q.Installments = append(q.Installments, group.InstallmentInput{Stage: strings.TrimSpace(stage), Amount: amount, Deadline: t})
			}
			if q.ConfirmBefore, err = parseWhen("confirm-before", confirmBefore, now); err != nil {
				return err
			}
			if q.PassengerListDeadline, err = parseWhen("list-deadline", listDeadline, now); err != nil {
				return err
			}
			return r.withBackend(cmd, func(b admin.Backend) error {
				g, err := b.Group(cmd.Context(), id)
				if err != nil {
					return err
				}
				if err := confirm(cmd, yes, fmt.Sprintf("quote group %s (%s, %d passengers)?", g.BookingNumber, g.Status, g.Passengers.Total())); err != nil {
					return err
				}
				return renderAs(cmd, groupDetailView)(b.QuoteGroup(cmd.Context(), id, q))
			})
		},
	}
	cmd.Flags().StringArrayVar(&fares, "fare", nil, "per passenger of a type, taxes included: adult=1000.00 or adult=1000.00:120.00 (taxes)")
	cmd.Flags().StringArrayVar(&installments, "installment", nil, "stage=amount@when (first, second, third, final; they add up to the total)")
	cmd.Flags().StringVar(&confirmBefore, "confirm-before", "48h", "when the quote lapses unless confirmed")
	cmd.Flags().StringVar(&listDeadline, "list-deadline", "48h", "when the passenger list is due")
	cmd.Flags().IntVar(&freeDrop, "free-drop", 0, "seats the agency may drop without penalty")
	cmd.Flags().StringVar(&timeZone, "time-zone", "", "IANA zone the deadlines are meant in (default: the first departure airport's)")
	yesFlag(cmd, &yes)
	_ = cmd.MarkFlagRequired("fare")
	_ = cmd.MarkFlagRequired("installment")
	return cmd
}

func (r *Root) groupsSeatsCmd() *cobra.Command {
	var in group.SeatsInput
	var yes bool
	cmd := r.idVerb("seats ID --result applying|granted|refused [--remark R]",
		"Record the seat application: applying, granted (the first installment falls due) or refused (the order fails)", "group order id",
		func(cmd *cobra.Command, b admin.Backend, id int64) error {
			g, err := b.Group(cmd.Context(), id)
			if err != nil {
				return err
			}
			if err := confirm(cmd, yes, fmt.Sprintf("seats %s for group %s (%s)?", in.Result, g.BookingNumber, g.Status)); err != nil {
				return err
			}
			return renderAs(cmd, groupDetailView)(b.GroupSeats(cmd.Context(), id, in))
		})
	cmd.Flags().StringVar(&in.Result, "result", "", "applying, granted or refused (required)")
	cmd.Flags().StringVar(&in.Remark, "remark", "", "a note on the timeline")
	yesFlag(cmd, &yes)
	_ = cmd.MarkFlagRequired("result")
	flagChoices(cmd, "result", []string{"applying", "granted", "refused"})
	return cmd
}
