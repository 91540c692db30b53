package cli

import (
	"time"

	"github.com/spf13/cobra"

	"github.com/voyage/voyage/pkg/admin"
	"github.com/voyage/voyage/pkg/tui"
)

func (r *Root) tuiCmd() *cobra.Command {
	var refresh time.Duration
	cmd := &cobra.Command{
		Use:   "tui [--refresh 5s] [--server URL --api-key KEY]",
		Short: "The admin console: agencies, funds, credit, API keys and the post-sale review queue",
		Long: "The admin console (works in an 80x24 terminal): agencies with search and a detail\n" +
			"pane (balance, credit, settings, recent wallet entries); add funds, set credit and\n" +
			"make API keys, each behind a confirmation; the queue of post-sale requests to\n" +
			"review. The screen refreshes itself every --refresh (0: never). Press ? for the\n" +
			"keys. In-process on --db, or through a server with --server and --api-key.",
		Args: args(cobra.NoArgs),
		RunE: func(cmd *cobra.Command, _ []string) error {
			if refresh < 0 {
				return usageErr(errorf("--refresh must not be negative"))
			}
			return r.withBackend(cmd, func(b admin.Backend) error {
				return tui.Run(cmd.Context(), b, tui.Options{Refresh: refresh}, cmd.InOrStdin(), cmd.OutOrStdout())
			})
		},
	}
	cmd.SetFlagErrorFunc(flagError)
	cmd.Flags().DurationVar(&refresh, "refresh", tui.DefaultRefresh, "how often the screen reloads on its own (0: never)")
	cmd.Flags().String("server", "", "reach a Voyage server through its agency API instead of --db; env VOYAGE_SERVER")
	cmd.Flags().String("api-key", "", "API key for --server; env VOYAGE_API_KEY")
	return cmd
}
