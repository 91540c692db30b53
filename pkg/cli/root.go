// Package cli builds the voyage command tree (cobra): serve, migrate, demo,
// version, and the admin nouns added by later domains.
package cli

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"os"
	"strings"

	"github.com/spf13/cobra"

	"github.com/voyage/voyage/pkg/app"
	"github.com/voyage/voyage/pkg/config"
	"github.com/voyage/voyage/pkg/server"
	"github.com/voyage/voyage/pkg/tracing"
)

// Root holds what every command shares.
type Root struct {
	Cmd        *cobra.Command
	configFile string
	Out        io.Writer
	Err        io.Writer
}

// New builds the command tree.
func New() *Root {
	r := &Root{Out: os.Stdout, Err: os.Stderr}
	cmd := &cobra.Command{
		Use:           "voyage",
		Short:         "Voyage: B2B travel platform (agency API, portal, admin tools)",
		SilenceUsage:  true,
		SilenceErrors: true,
	}
	// A misspelt command gets cobra's "did you mean" list (noun commands
	// through suggestArgs).
	cmd.SuggestionsMinimumDistance = 2
	cmd.PersistentFlags().StringVar(&r.configFile, "config", "", "config file (default ./voyage.yaml when present)")
	cmd.PersistentFlags().String("db", "", "database: a SQLite file path or sqlite: URL, or a postgres:// URL (default ./var/voyage.db)")
	cmd.PersistentFlags().String("log-level", "", "log level: debug, info, warn, error")
	r.Cmd = cmd
	cmd.AddCommand(r.serveCmd(), r.migrateCmd(), r.demoCmd(), r.versionCmd(), r.superadminCmd(),
		r.agencyCmd(), r.creditCmd(), r.fundsCmd(), r.apikeyCmd(), r.userCmd(), r.ratesCmd(), r.statementsCmd(), r.ordersCmd(), r.groupsCmd(), r.jobsCmd(), r.paymentsCmd(), r.tuiCmd(), r.docsCmd())
	addExamples(cmd)
	r.addCompletions(cmd)
	return r
}

// Execute runs the command line and returns the process exit code.
func (r *Root) Execute(ctx context.Context) int {
	if err := r.Cmd.ExecuteContext(ctx); err != nil {
		fmt.Fprintln(r.Err, "voyage:", err)
		return exitCode(err)
	}
	return 0
}

// config loads settings for cmd, applying its flags, and sets up logging.
func (r *Root) config(cmd *cobra.Command) (config.Config, error) {
	cfg, err := config.Load(r.configFile, cmd.Flags())
	if err != nil {
		return config.Config{}, err
	}
	if cmd.Name() != "serve" {
		quietLogs(cmd, &cfg)
	}
	setupLogging(r.Err, cfg)
	return cfg, nil
}

func setupLogging(w io.Writer, cfg config.Config) {
	var level slog.Level
	if err := level.UnmarshalText([]byte(cfg.LogLevel)); err != nil {
		level = slog.LevelInfo
	}
	opts := &slog.HandlerOptions{Level: level}
	var h slog.Handler = slog.NewTextHandler(w, opts)
	if strings.EqualFold(cfg.LogFormat, "json") {
		h = slog.NewJSONHandler(w, opts)
	}
	// Every line logged with a context names its request and its trace.
	slog.SetDefault(slog.New(tracing.LogHandler{Handler: server.LogHandler{Handler: h}}))
}

func (r *Root) versionCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:     "version",
		Short:   "Print the version",
		Example: "  voyage version\n  voyage version -o json",
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return printOr(cmd, struct {
				Version string `json:"version"`
			}{app.Version}, func(w io.Writer) { fmt.Fprintln(w, "voyage", app.Version) })
		},
	}
	outputFlag(cmd)
	return cmd
}
