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

// actionList is a booking's actions open now, as a detail view lists them.
func actionList[A ~string](actions []A) string {
	out := make([]string, len(actions))
	for i, a := range actions {
		out[i] = string(a)
	}
	return strings.Join(out, ", ")
}
