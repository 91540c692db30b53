package cli

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/spf13/cobra"

	"github.com/voyage/voyage/pkg/admin"
	"github.com/voyage/voyage/pkg/fault"
	"github.com/voyage/voyage/pkg/train"
)

// ordersTrainCmd is "voyage orders train": the train orders, and the
// provider's manual ticket confirmation.
func (r *Root) ordersTrainCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "train",
		Short: "Train orders: list, show, and issue tickets by hand (agencies in manual mode) as the provider",
	}
	cmd.AddCommand(r.trainListCmd(), r.trainShowCmd(), r.trainConfirmCmd())
	return cmd
}

func trainRowOf(o train.View) []string {
	return []string{fmtID(o.ID), o.BookingNumber, fmtID(o.AgencyID), string(o.Status), o.TrainNumber, o.Origin + "-" + o.Destination,
		fmtTime(o.DepartAt), o.SeatClass, fmt.Sprint(len(o.Passengers)), o.Total.Amount + " " + o.Total.Currency, fmtTime(o.CreatedAt)}
}

func (r *Root) trainListCmd() *cobra.Command {
	var f train.Filter
	cmd := listCmd(r, "list [--agency ID] [--status S]... [--keyword K] [--page N] [--page-size N]",
		"List train orders, newest first (--status proceeding: paid orders waiting for tickets)", &f, &f.AgencyID, &f.Statuses, train.Statuses, &f.Page, &f.PageSize,
		admin.Backend.TrainOrders, []string{"id", "booking number", "agency", "status", "train", "route", "departs", "class", "passengers", "total", "created"}, trainRowOf)
	cmd.Flags().StringVar(&f.Keyword, "keyword", "", "booking, train or ticket number, surname or document number")
	return cmd
}

func trainDetailView(o train.View) view {
	var pax, tickets []string
	for _, p := range o.Passengers {
		pax = append(pax, fmt.Sprintf("%d %s/%s (%s, %s %s)", p.ID, p.Surname, p.GivenName, p.Type, p.DocumentType, p.DocumentNumber))
	}
	for _, t := range o.Tickets {
		tickets = append(tickets, fmt.Sprintf("%d %s %s coach %s seat %s %s", t.Passenger, t.Number, t.TrainNumber, t.Coach, t.Seat, t.Status))
	}
	rows := [][]string{
		{"ID", fmtID(o.ID)}, {"Booking number", o.BookingNumber}, {"Railway order", o.SupplierRef}, {"Agency", fmtID(o.AgencyID)},
		{"Status", string(o.Status)}, {"Manual", fmt.Sprint(o.Manual)}, {"Train", o.TrainNumber + " " + o.TrainType},
		{"Route", o.Origin + "-" + o.Destination}, {"Departs", fmtTime(o.DepartAt)}, {"Class", o.SeatClass},
		{"Total", o.Total.Amount + " " + o.Total.Currency}, {"Refunded", o.Refunded.Amount + " " + o.Refunded.Currency},
		{"Passengers", strings.Join(pax, "; ")}, {"Tickets", strings.Join(tickets, "; ")},
		{"Actions", actionList(o.Actions)}, {"Created", fmtTime(o.CreatedAt)},
	}
	return view{Data: o, KeyValue: true, Rows: rows}
}

func (r *Root) trainShowCmd() *cobra.Command {
	return showCmd(r, "Show one train order with its passengers, tickets and the actions it allows", "order id",
		admin.Backend.TrainOrder, trainDetailView)
}

func (r *Root) trainConfirmCmd() *cobra.Command {
	var req train.ConfirmTicketsRequest
	var typed []string
	var yes, dryRun bool
	cmd := &cobra.Command{
		Use:   "confirm ID [--ticket PASSENGER=COACH/SEAT/NUMBER]... [--fail --remark R] [--yes] [--dry-run]",
		Short: "Issue a paid train order's tickets with the railway by hand, or --fail it (the money goes back to the agency)",
		Long: `Issue a paid train order's tickets by hand (the agency's manual ticketing, or an order the
background ticketing gave up on), or --fail it: the order fails and the payment goes back to the
agency's wallet.

Without --ticket the railway's own coach, seat and ticket number are issued. With --ticket the
provider types each passenger's ticket as bought: one --ticket per passenger of the order
(PASSENGER is the passenger's id shown by "voyage orders train show"), for example

  voyage orders train confirm 42 --ticket 1=05/12F/E123456789 --ticket "2=05/07 lower/E123456790"

COACH is one or two digits, SEAT as printed (letters, digits, spaces; at most 12), NUMBER 6 to 20
letters and digits, each number used once.`,
		Args: args(cobra.ExactArgs(1)),
		RunE: func(cmd *cobra.Command, argv []string) error {
			id, err := parseID("order id", argv[0])
			if err != nil {
				return err
			}
			if req.Tickets, err = parseTypedTickets(typed); err != nil {
				return err
			}
			if req.Fail && len(req.Tickets) > 0 {
				return usageErr(errors.New("--ticket issues the tickets, --fail refuses them: give one or the other"))
			}
			action := train.ActConfirmTickets
			if req.Fail {
				action = train.ActFailTickets
			}
			return r.withBackend(cmd, func(b admin.Backend) error {
				o, err := b.TrainOrder(cmd.Context(), id)
				if err != nil {
					return err
				}
				if !slices.Contains(o.Actions, action) {
					return fault.Conflict("train.error.state")
				}
				if dryRun {
					note(cmd, "dry run: %s on train order %d (%s, %s %s) is allowed; nothing changed", action, o.ID, o.Status, o.Total.Amount, o.Total.Currency)
					return render(cmd, trainDetailView(o))
				}
				if err := confirm(cmd, yes, fmt.Sprintf("%s train order %s (%s %s, %d passengers)?", action, o.BookingNumber, o.TrainNumber, o.Status, len(o.Passengers))); err != nil {
					return err
				}
				return renderAs(cmd, trainDetailView)(b.ConfirmTrainTickets(cmd.Context(), id, req))
			})
		},
	}
	cmd.Flags().StringArrayVar(&typed, "ticket", nil, "a ticket typed by hand, PASSENGER=COACH/SEAT/NUMBER (repeat: one per passenger)")
	cmd.Flags().BoolVar(&req.Fail, "fail", false, "refuse the order instead: it fails and the payment goes back to the agency's wallet")
	cmd.Flags().StringVar(&req.Remark, "remark", "", "why (on the order's timeline)")
	yesFlag(cmd, &yes)
	cmd.Flags().BoolVar(&dryRun, "dry-run", false, "check the action is allowed and show the order, changing nothing")
	return cmd
}

// parseTypedTickets reads --ticket PASSENGER=COACH/SEAT/NUMBER values; the
// service checks what they hold.
func parseTypedTickets(vals []string) ([]train.TypedTicket, error) {
	var out []train.TypedTicket
	for _, v := range vals {
		pax, rest, ok := strings.Cut(v, "=")
		parts := strings.Split(rest, "/")
		id, err := strconv.Atoi(strings.TrimSpace(pax))
		if !ok || len(parts) != 3 || err != nil || id <= 0 {
			return nil, usageErr(fmt.Errorf("--ticket %q: want PASSENGER=COACH/SEAT/NUMBER, e.g. 1=05/12F/E123456789", v))
		}
		out = append(out, train.TypedTicket{PassengerID: id, Coach: parts[0], Seat: parts[1], TicketNumber: parts[2]})
	}
	return out, nil
}
