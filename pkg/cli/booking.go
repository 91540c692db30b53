package cli

import (
	"context"
	"strings"

	"github.com/spf13/cobra"

	"github.com/voyage/voyage/pkg/admin"
)

// showCmd is a product line's "show ID": the booking what names, read
// through get, rendered by detail. The three lines' show commands are this
// one adapter.
func showCmd[V any](r *Root, short, what string, get func(admin.Backend, context.Context, int64) (V, error), detail func(V) view) *cobra.Command {
	return r.idVerb("show ID", short, what, func(cmd *cobra.Command, b admin.Backend, id int64) error {
		return renderAs(cmd, detail)(get(b, cmd.Context(), id))
	})
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
