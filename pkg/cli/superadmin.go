package cli

import (
	"crypto/rand"
	"fmt"
	"os/user"

	"github.com/spf13/cobra"

	"github.com/voyage/voyage/pkg/app"
	"github.com/voyage/voyage/pkg/auth"
)

func (r *Root) superadminCmd() *cobra.Command {
	cmd := &cobra.Command{Use: "superadmin", Short: "An agency's super admin account"}
	var agencyID int64
	var password string
	reset := &cobra.Command{
		Use:   "reset-password --agency ID [--password P]",
		Short: "Reset the super admin password of an agency, as the provider (prints a generated password when none is given)",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			cfg, err := r.config(cmd)
			if err != nil {
				return err
			}
			a, err := app.New(cmd.Context(), cfg)
			if err != nil {
				return err
			}
			defer a.Close()
			provider, err := a.Agencies.Provider(cmd.Context())
			if err != nil {
				return fmt.Errorf("no provider agency in this database: %w", err)
			}
			generated := password == ""
			if generated {
				password = newPassword()
			}
			actor := auth.Principal{AgencyID: provider.ID, Username: "cli:" + osUser(), Subject: auth.Subject{Roles: []string{auth.RoleSuperUser}}}
			if err := a.Auth.ResetSuperAdminPassword(cmd.Context(), actor, agencyID, password, auth.Meta{IP: "cli"}); err != nil {
				return describe(err)
			}
			if generated {
				fmt.Fprintf(cmd.OutOrStdout(), "super admin password of agency %d reset to: %s\n", agencyID, password)
			} else {
				fmt.Fprintf(cmd.OutOrStdout(), "super admin password of agency %d reset\n", agencyID)
			}
			return nil
		},
	}
	reset.Flags().Int64Var(&agencyID, "agency", 0, "agency id (required)")
	reset.Flags().StringVar(&password, "password", "", "the new password, 6–15 characters (default: generate one)")
	_ = reset.MarkFlagRequired("agency")
	cmd.AddCommand(reset)
	return cmd
}

// newPassword is 12 characters people can read aloud.
func newPassword() string {
	const alphabet = "abcdefghjkmnpqrstuvwxyz23456789"
	b := make([]byte, 12)
	_, _ = rand.Read(b)
	for i := range b {
		b[i] = alphabet[int(b[i])%len(alphabet)]
	}
	return string(b)
}

func osUser() string {
	if u, err := user.Current(); err == nil {
		return u.Username
	}
	return "unknown"
}
