package cli

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/voyage/voyage/pkg/store"
)

func (r *Root) migrateCmd() *cobra.Command {
	cmd := &cobra.Command{Use: "migrate", Short: "Apply, roll back or list database migrations"}
	open := func(cmd *cobra.Command) (*store.DB, error) {
		cfg, err := r.config(cmd)
		if err != nil {
			return nil, err
		}
		return store.Open(cmd.Context(), cfg.DB)
	}
	cmd.AddCommand(&cobra.Command{
		Use: "up", Short: "Apply every pending migration", Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			db, err := open(cmd)
			if err != nil {
				return err
			}
			defer db.Close()
			if err := db.Migrate(cmd.Context()); err != nil {
				return err
			}
			fmt.Fprintln(cmd.OutOrStdout(), "migrations are current")
			return nil
		},
	}, &cobra.Command{
		Use: "down", Short: "Roll back the newest migration", Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			db, err := open(cmd)
			if err != nil {
				return err
			}
			defer db.Close()
			return db.MigrateDown(cmd.Context())
		},
	}, &cobra.Command{
		Use: "status", Short: "List migrations with their state", Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			db, err := open(cmd)
			if err != nil {
				return err
			}
			defer db.Close()
			return db.MigrationStatus(cmd.Context(), cmd.OutOrStdout())
		},
	})
	return cmd
}
