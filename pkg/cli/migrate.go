package cli

import (
	"fmt"
	"io"
	"time"

	"github.com/spf13/cobra"

	"github.com/voyage/voyage/pkg/store"
)

func (r *Root) migrateCmd() *cobra.Command {
	cmd := &cobra.Command{Use: "migrate", Short: "Apply, roll back or list database migrations"}
	// open opens the database; only "migrate up" may create it, so a
	// mistyped --db is refused instead of becoming a new empty file.
	open := func(cmd *cobra.Command) (*store.DB, error) {
		cfg, err := r.config(cmd)
		if err != nil {
			return nil, err
		}
		if cmd.Name() != "up" {
			if err := requireDatabase(cfg); err != nil {
				return nil, err
			}
		}
		return store.Open(cmd.Context(), cfg.DB)
	}
	// on runs fn on the database, closed after it.
	on := func(fn func(cmd *cobra.Command, db *store.DB) error) func(*cobra.Command, []string) error {
		return func(cmd *cobra.Command, _ []string) error {
			db, err := open(cmd)
			if err != nil {
				return err
			}
			defer db.Close()
			return fn(cmd, db)
		}
	}
	status := &cobra.Command{
		Use: "status", Short: "List migrations with their state", Args: cobra.NoArgs,
		Example: "  voyage migrate status --db ./var/voyage.db\n  voyage migrate status -o json",
		RunE: on(func(cmd *cobra.Command, db *store.DB) error {
			ms, err := db.Migrations(cmd.Context())
			if err != nil {
				return err
			}
			return printOr(cmd, ms, func(w io.Writer) {
				rows := make([][]string, 0, len(ms))
				for _, m := range ms {
					applied := ""
					if m.AppliedAt != nil {
						applied = m.AppliedAt.Format(time.RFC3339)
					}
					rows = append(rows, []string{fmt.Sprintf("%05d", m.Version), m.State, m.File, applied})
				}
				_ = writeTable(w, rows)
			})
		}),
	}
	outputFlag(status)
	cmd.AddCommand(&cobra.Command{
		Use: "up", Short: "Apply every pending migration (creating a SQLite database that is not there yet)", Args: cobra.NoArgs,
		Example: "  voyage migrate up --db ./var/voyage.db\n  voyage migrate up --db postgres://voyage@db/voyage",
		RunE: on(func(cmd *cobra.Command, db *store.DB) error {
			if err := db.Migrate(cmd.Context()); err != nil {
				return err
			}
			fmt.Fprintln(cmd.OutOrStdout(), "migrations are current")
			return nil
		}),
	}, &cobra.Command{
		Use: "down", Short: "Roll back the newest migration", Args: cobra.NoArgs,
		RunE: on(func(cmd *cobra.Command, db *store.DB) error {
			return db.MigrateDown(cmd.Context())
		}),
	}, status)
	return cmd
}
