package cli

import (
	"time"

	"github.com/spf13/cobra"

	"github.com/voyage/voyage/pkg/admin"
	"github.com/voyage/voyage/pkg/i18n"
	"github.com/voyage/voyage/pkg/tui"
)

func (r *Root) tuiCmd() *cobra.Command {
	var refresh time.Duration
	var lang string
	cmd := &cobra.Command{
		Use:   "tui [--refresh 5s] [--lang en] [--server URL --api-key KEY]",
		Short: "The admin console: agencies, funds, statements, rates, orders, users, API keys and the review queue",
		Long: "The admin console (works in an 80x24 terminal, uses a wide one side by side):\n" +
			"agencies with search and a detail pane (balance, credit, settings, recent wallet\n" +
			"entries); add funds (also received in another currency at a rate), set credit,\n" +
			"block or unblock; the post-sale review queue and the group queue; order search\n" +
			"(flights, trains, groups) with detail; an agency's statements (make, export to\n" +
			"CSV/XLSX/PDF, totals), users (block/unblock) and API keys (make with roles,\n" +
			"revoke); exchange rates (history, set). Every change is behind a confirmation.\n" +
			"The screen refreshes itself every --refresh (0: never). Press ? for the keys.\n" +
			"In-process on --db, or through a server with --server and --api-key.",
		Args: args(cobra.NoArgs),
		RunE: func(cmd *cobra.Command, _ []string) error {
			if i18n.Normalize(lang) == "" {
				return usageErr(errorf("--lang must be en, zh-cn or zh-tw"))
			}
			if refresh < 0 {
				return usageErr(errorf("--refresh must not be negative"))
			}
			return r.withBackend(cmd, func(b admin.Backend) error {
				return tui.Run(cmd.Context(), b, tui.Options{Refresh: refresh, Lang: lang}, cmd.InOrStdin(), cmd.OutOrStdout())
			})
		},
	}
	cmd.SetFlagErrorFunc(flagError)
	cmd.Flags().DurationVar(&refresh, "refresh", tui.DefaultRefresh, "how often the screen reloads on its own (0: never)")
	cmd.Flags().StringVar(&lang, "lang", "en", "language of the console: en, zh-cn or zh-tw")
	cmd.Flags().String("server", "", "reach a Voyage server through its agency API instead of --db; env VOYAGE_SERVER")
	cmd.Flags().String("api-key", "", "API key for --server; env VOYAGE_API_KEY")
	return cmd
}
