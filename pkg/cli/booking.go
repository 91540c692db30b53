package cli

import (
	"context"
	"strings"

	"github.com/spf13/cobra"

	"github.com/voyage/voyage/pkg/admin"
	"github.com/voyage/voyage/pkg/booking"
)

// showCmd is a product line's "show ID": the booking what names, read
// through get, rendered by detail. The three lines' show commands are this
// one adapter.
func showCmd[V any](r *Root, short, what string, get func(admin.Backend, context.Context, int64) (V, error), detail func(V) view) *cobra.Command {
	return r.idVerb("show ID", short, what, func(cmd *cobra.Command, b admin.Backend, id int64) error {
		return renderAs(cmd, detail)(get(b, cmd.Context(), id))
	})
}

// listCmd is a product line's "list": the page of bookings get answers
// for the filter f, a row of headers each, with the filter's --agency,
// --status and paging flags. The lines' list commands are this one adapter.
func listCmd[F, V any, S ~string](r *Root, use, short string, f *F, agencyID *int64, statuses *[]string, choices []S, page, pageSize *int,
	get func(admin.Backend, context.Context, F) (booking.Page[V], error), headers []string, row func(V) []string,
) *cobra.Command {
	cmd := r.verb(use, short, cobra.NoArgs, func(cmd *cobra.Command, _ []string, b admin.Backend) error {
		return listAs(cmd, bookings, "orders", headers, row)(get(b, cmd.Context(), *f))
	})
	orderFlags(cmd, agencyID, statuses, page, pageSize)
	flagChoices(cmd, "status", choices)
	return cmd
}

// orderFlags are the order lists' --agency, --status and paging flags.
func orderFlags(cmd *cobra.Command, agencyID *int64, statuses *[]string, page, pageSize *int) {
	cmd.Flags().Int64Var(agencyID, "agency", 0, "only this agency's orders")
	cmd.Flags().StringSliceVar(statuses, "status", nil, "statuses (repeat or comma-separate)")
	pageFlags(cmd, page, pageSize, 20, "orders")
}

// actionList is a booking's actions open now, as a detail view lists them.
func actionList[A ~string](actions []A) string {
	out := make([]string, len(actions))
	for i, a := range actions {
		out[i] = string(a)
	}
	return strings.Join(out, ", ")
}
