package cli

import (
	"fmt"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"github.com/voyage/voyage/pkg/admin"
	"github.com/voyage/voyage/pkg/fault"
	"github.com/voyage/voyage/pkg/flight"
)

func (r *Root) ordersCmd() *cobra.Command {
	return adminNoun("orders", "Flight orders: list, show, and review post-sale requests as the provider; train orders under 'orders train'",
		r.ordersListCmd(), r.ordersShowCmd(), r.ordersReviewCmd(), r.ordersTrainCmd())
}

func orderRowOf(o flight.View) []string {
	route := o.Origin + "-" + o.Destination
	return []string{fmtID(o.ID), o.BookingNumber, fmtID(o.AgencyID), o.Type, string(o.Status), o.PNR, o.FlightNumber, route,
		o.Total.Amount + " " + o.Total.Currency, fmtTime(o.CreatedAt)}
}

func (r *Root) ordersListCmd() *cobra.Command {
	var f flight.Filter
	cmd := listCmd(r, "list [--agency ID] [--status S]... [--group G] [--type T] [--keyword K] [--page N] [--page-size N]",
		"List flight orders, newest first (--group reviewing is the post-sale review queue)", &f, &f.AgencyID, &f.Statuses, flight.Statuses, &f.Page, &f.PageSize,
		admin.Backend.Orders, []string{"id", "booking number", "agency", "type", "status", "pnr", "flights", "route", "total", "created"}, orderRowOf)
	cmd.Flags().StringVar(&f.Group, "group", "", "pending group: to_be_paid, reviewing, proceeding, pending-confirm, refunding")
	cmd.Flags().StringVar(&f.Type, "type", "", "origin, change, refund or void")
	cmd.Flags().StringVar(&f.Keyword, "keyword", "", "booking number, PNR, ticket or flight number, surname")
	flagChoices(cmd, "group", []string{"to_be_paid", "reviewing", "proceeding", "pending-confirm", "refunding"})
	flagChoices(cmd, "type", []string{"origin", "change", "refund", "void"})
	return cmd
}

func orderDetailView(o flight.View) view {
	rows := [][]string{
		{"ID", fmtID(o.ID)}, {"Booking number", o.BookingNumber}, {"Agency", fmtID(o.AgencyID)}, {"Type", o.Type},
		{"Status", string(o.Status)}, {"PNR", o.PNR}, {"Tickets", strings.Join(o.TicketNumbers, ", ")},
		{"Flights", o.FlightNumber}, {"Route", o.Origin + "-" + o.Destination}, {"Departs", fmtTime(o.DepartAt)},
		{"Total", o.Total.Amount + " " + o.Total.Currency}, {"Payment", o.PaymentStatus + " " + o.PaymentChannel},
	}
	if o.OriginalID != 0 {
		rows = append(rows, []string{"Original order", fmtID(o.OriginalID)})
	}
	if o.Request != nil {
		rows = append(rows, []string{"Reason", fmt.Sprintf("%d %s", o.Request.Reason, o.Request.SubReason)}, []string{"Remark", o.Request.Remark})
	}
	b := o.PriceBreakdown
	for _, m := range []struct {
		label string
		v     flight.Money
	}{{"Refund amount", b.RefundAmount}, {"Airline fee", b.RefundFee}, {"Change difference", b.ChangeTicketDiff},
		{"Change fee", b.ChangeFee}, {"Service fee", b.ServiceFee}} {
		if m.v.Amount != "" && strings.Trim(m.v.Amount, "0.") != "" {
			rows = append(rows, []string{m.label, m.v.Amount + " " + m.v.Currency})
		}
	}
	if o.ConfirmBy != nil {
		rows = append(rows, []string{"Confirm by", fmtTimePtr(o.ConfirmBy)})
	}
	var names []string
	for _, p := range o.Passengers {
		names = append(names, p.Surname+"/"+p.GivenName)
	}
	rows = append(rows, []string{"Passengers", strings.Join(names, ", ")}, []string{"Review remark", o.ReviewRemark},
		[]string{"Actions", actionList(o.Actions)}, []string{"Created", fmtTime(o.CreatedAt)})
	return view{Data: o, KeyValue: true, Rows: rows}
}

func (r *Root) ordersShowCmd() *cobra.Command {
	return showCmd(r, "Show one order with its price breakdown, timeline and the review actions it allows", "order id",
		admin.Backend.Order, orderDetailView)
}

// reviewActions are what the provider may do from the command line.
var reviewActions = []flight.Action{flight.ActApprove, flight.ActReject, flight.ActQuote, flight.ActIssue, flight.ActResolveOK, flight.ActResolveFailed}

func (r *Root) ordersReviewCmd() *cobra.Command {
	var req flight.ReviewRequest
	var action string
	var yes, dryRun bool
	cmd := &cobra.Command{
		Use:   "review ID --action approve|reject|quote|issue|resolve_ok|resolve_failed [--remark R] [--refund-amount A] [--fee F] [--due D] [--confirm-hours H]",
		Short: "Approve, reject or quote a refund, change or void request (or issue/resolve an order) as the provider",
		Args:  args(cobra.ExactArgs(1)),
		RunE: func(cmd *cobra.Command, argv []string) error {
			id, err := parseID("order id", argv[0])
			if err != nil {
				return err
			}
			req.Action = flight.Action(strings.TrimSpace(action))
			if !slices.Contains(reviewActions, req.Action) {
				return usageErr(fmt.Errorf("unknown --action %q: use approve, reject, quote, issue, resolve_ok or resolve_failed", action))
			}
			return r.withBackend(cmd, func(b admin.Backend) error {
				o, err := b.Order(cmd.Context(), id)
				if err != nil {
					return err
				}
				if !slices.Contains(o.Actions, req.Action) {
					return fault.Conflict("order.error.state")
				}
				if dryRun {
					note(cmd, "dry run: %s on order %d (%s %s, %s %s) is allowed; nothing changed", req.Action, o.ID, o.Type, o.Status, o.Total.Amount, o.Total.Currency)
					return render(cmd, orderDetailView(o))
				}
				if err := confirm(cmd, yes, fmt.Sprintf("%s %s order %s (%s)?", req.Action, o.Type, o.BookingNumber, o.Status)); err != nil {
					return err
				}
				return renderAs(cmd, orderDetailView)(b.Review(cmd.Context(), id, req))
			})
		},
	}
	cmd.Flags().StringVar(&action, "action", "", "approve, reject, quote, issue, resolve_ok or resolve_failed (required)")
	cmd.Flags().StringVar(&req.Remark, "remark", "", "review remark the agency sees")
	cmd.Flags().StringVar(&req.RefundAmount, "refund-amount", "", "refund quote: what the airline returns (default: the supplier's quote)")
	cmd.Flags().StringVar(&req.Fee, "fee", "", "the airline's refund or change fee (default: the supplier's quote)")
	cmd.Flags().StringVar(&req.Due, "due", "", "change quote: fare and tax difference due")
	cmd.Flags().IntVar(&req.ConfirmHours, "confirm-hours", 0, "hours the agency has to confirm a quote (default 24)")
	yesFlag(cmd, &yes)
	cmd.Flags().BoolVar(&dryRun, "dry-run", false, "check the action is allowed and show the order, changing nothing")
	_ = cmd.MarkFlagRequired("action")
	flagChoices(cmd, "action", []string{"approve", "reject", "quote", "issue", "resolve_ok", "resolve_failed"})
	return cmd
}
